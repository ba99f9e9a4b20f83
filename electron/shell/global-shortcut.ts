/**
 * The core's GlobalShortcut on Electron's globalShortcut: one accelerator held at a time.
 *
 * Under Wayland the keys go through the desktop portal (org.freedesktop.portal.GlobalShortcuts).
 * Electron 45 switches that path on by itself (docs/api/global-shortcut.md, "Usage on Linux";
 * shell/browser/feature_list.cc), so no `enable-features` switch is appended: appending one would
 * replace an `--enable-features` the user launched Perch with (Chromium keeps one value per switch).
 */
import { globalShortcut } from 'electron';
import type { GlobalShortcut } from '../core/desktop/global-shortcut.js';

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
