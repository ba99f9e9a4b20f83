/** The core's GlobalShortcut on Electron's globalShortcut: one accelerator held at a time. */
import { app, globalShortcut } from 'electron';
import type { GlobalShortcut } from '../core/desktop/global-shortcut.js';

/**
 * Wayland gives global shortcuts only through the desktop portal (org.freedesktop.portal.GlobalShortcuts),
 * which Chromium uses when this feature is on; it must be switched on before the app is ready.
 */
export function enableWaylandShortcuts(): void {
  if (process.platform === 'linux') app.commandLine.appendSwitch('enable-features', 'GlobalShortcutsPortal');
}

export function createGlobalShortcut(onPressed: () => void): GlobalShortcut {
  let held = '';
  return {
    set(accelerator) {
      if (accelerator === held) return true;
      if (held !== '') globalShortcut.unregister(held);
      held = '';
      if (accelerator === '') return true;
      // False when another app holds the keys (on some desktops that fails silently instead).
      if (!globalShortcut.register(accelerator, onPressed)) return false;
      held = accelerator;
      return true;
    },
  };
}
