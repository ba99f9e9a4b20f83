import { describe, expect, it } from 'vitest';
import { popoverAtStart } from '../../electron/core/desktop/popover-at-start.js';
import { trayIconFor } from '../../electron/core/desktop/tray-icon.js';
import type { TrayHost } from '../../electron/core/desktop/popover-at-start.js';

const registered: TrayHost = { kind: 'registered' };
const missing: TrayHost = { kind: 'missing', reason: 'no org.kde.StatusNotifierWatcher on the session bus' };
const unknown: TrayHost = { kind: 'unknown', reason: 'dbus-send is not installed' };

describe('popoverAtStart', () => {
  it.each([
    ['a first run or signed out, with a tray', 'signedOut', registered, 'signedOut'],
    ['signed in, with a tray: the tray is enough', 'ready', registered, null],
    ['signing in (a restored session), with a tray', 'signingIn', registered, null],
    ['signed in, no tray host', 'ready', missing, 'noTray'],
    ['signed out, no tray host', 'signedOut', missing, 'noTray'],
    ['signed in, and the probe could not tell', 'ready', unknown, 'noTray'],
  ] as const)('%s: %s', (_name, phase, trayHost, expected) => {
    expect(popoverAtStart({ phase, trayHost })).toBe(expected);
  });
});

describe('trayIconFor', () => {
  it('Linux: the full-colour icon, whatever the taskbar or theme says', () => {
    expect(trayIconFor('linux', { dark: true })).toEqual({ file: 'tray-color.png', template: false });
    expect(trayIconFor('linux', { dark: false })).toEqual({ file: 'tray-color.png', template: false });
  });

  it('macOS: the template image, which the menu bar tints', () => {
    expect(trayIconFor('darwin', { dark: true })).toEqual({ file: 'trayTemplate.png', template: true });
  });

  it('Windows: the glyph that contrasts with the taskbar', () => {
    expect(trayIconFor('win32', { dark: true }).file).toBe('tray-dark.png');
    expect(trayIconFor('win32', { dark: false }).file).toBe('tray-light.png');
  });
});
