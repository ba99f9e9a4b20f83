/**
 * The core's GlobalShortcut on Electron's globalShortcut: one accelerator held at a time.
 *
 * Under Wayland the keys go through the desktop portal (org.freedesktop.portal.GlobalShortcuts).
 * Electron 45 switches that path on by itself (docs/api/global-shortcut.md, "Usage on Linux";
 * shell/browser/feature_list.cc), so no `enable-features` switch is appended: appending one would
 * replace an `--enable-features` the user launched Perch with (Chromium keeps one value per switch).
 * Where the desktop's portal has no GlobalShortcuts (GNOME before 48, wlroots desktops),
 * `register` still answers true and nothing ever arrives: `delivery` asks the session bus
 * (electron/platform/shortcut-portal.ts), and the core says so in Settings.
 */
import { globalShortcut } from 'electron';
import { waylandSession, type GlobalShortcut, type ShortcutDelivery } from '../core/desktop/global-shortcut.js';
import { sessionBusAddress } from '../platform/tray-host.js';
import { probeShortcutPortal } from '../platform/shortcut-portal.js';

export function createGlobalShortcut(options: {
  onPressed: () => void;
  launchCommand: string | null;
  env: NodeJS.ProcessEnv;
}): GlobalShortcut {
  const { onPressed, env } = options;
  let held = '';
  let delivery: Promise<ShortcutDelivery> | null = null;
  return {
    launchCommand: options.launchCommand,
    delivery() {
      delivery ??=
        process.platform === 'linux' && waylandSession(env)
          ? probeShortcutPortal(sessionBusAddress(env)).then((portal) => ({ kind: 'portal', portal }))
          : Promise.resolve({ kind: 'direct' });
      return delivery;
    },
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
