/**
 * Launch at login through the OS: Electron's login items on macOS and Windows, and on Linux, where
 * Electron has none, the desktop's XDG autostart entry.
 */
import { app } from 'electron';
import { linuxAutostart, linuxAutostartExecutable, linuxConfigHome, type Autostart } from '../core/desktop/autostart.js';

export function loginItem(): Autostart {
  if (process.platform === 'linux') {
    return linuxAutostart({ executable: linuxAutostartExecutable(), configHome: linuxConfigHome(), name: app.getName() });
  }
  // Both calls default to this executable with no arguments (Windows keys its entry on them), so
  // what is read is what was written; macOS answers from its Login Items list, which the user can edit.
  return {
    read: async () => app.getLoginItemSettings().openAtLogin,
    write: async (enabled) => app.setLoginItemSettings({ openAtLogin: enabled }),
  };
}
