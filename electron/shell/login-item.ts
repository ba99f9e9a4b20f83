/**
 * Launch at login through the OS: Electron's login items on macOS and Windows, and on Linux, where
 * Electron has none, the desktop's XDG autostart entry.
 */
import { app } from 'electron';
import { linuxAutostart, linuxAutostartExecutable, linuxConfigHome } from '../platform/linux-autostart.js';
import type { Autostart } from '../core/desktop/autostart.js';

export function loginItem(platform: NodeJS.Platform = process.platform): Autostart {
  if (platform === 'linux') {
    return linuxAutostart({ executable: linuxAutostartExecutable(), configHome: linuxConfigHome(), name: app.getName() });
  }
  // Both calls default to this executable with no arguments (Windows keys its entry on them), so
  // what is read is what was written; macOS answers from its Login Items list, which the user can edit.
  return {
    read: async () => {
      const settings = app.getLoginItemSettings();
      // Windows: `openAtLogin` compares the Run entry only; the switch in Task Manager and in
      // Settings › Apps › Startup is kept apart (StartupApproved\Run), and only
      // `executableWillLaunchAtLogin` heeds it. Perch writing it on clears that switch's "off".
      return platform === 'win32' ? settings.executableWillLaunchAtLogin : settings.openAtLogin;
    },
    write: async (enabled) => app.setLoginItemSettings({ openAtLogin: enabled }),
  };
}
