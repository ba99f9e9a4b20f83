import { beforeAll, describe, expect, it, vi } from 'vitest';
import { commandNames } from '../../electron/bridge/contract.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { current, fakeAppPath, fakeCore, fakeElectron as electron, stateWithCheckInOpen, windows } from './fake-electron.js';

// The AppImage on a Wayland desktop whose portal has no GlobalShortcuts (GNOME 46, Ubuntu 24.04):
// Perch's own shortcut cannot fire, and a shortcut of the desktop's own that starts Perch again opens it.
vi.hoisted(() => Object.defineProperty(process, 'platform', { value: 'linux' }));
vi.stubEnv('XDG_SESSION_TYPE', 'wayland');
vi.stubEnv('APPIMAGE', '/home/ada/Applications/Perch-1.2.0.AppImage');
vi.mock('electron', async () => (await import('./fake-electron.js')).fakeElectron);
vi.mock('../../electron/core/perch-core.js', async () => (await import('./fake-electron.js')).fakeCoreModules.perchCore());
vi.mock('../../electron/platform/keychain/keychain.js', async () => (await import('./fake-electron.js')).fakeCoreModules.keychain());
vi.mock('../../electron/shell/notifications.js', async () => (await import('./fake-electron.js')).fakeCoreModules.notifier());
vi.mock('../../electron/platform/tray-host.js', async () => (await import('./fake-electron.js')).fakeCoreModules.trayHost());
vi.mock('../../electron/platform/session-lock.js', async () => (await import('./fake-electron.js')).fakeCoreModules.sessionLock());
vi.mock('../../electron/platform/shortcut-portal.js', async () => (await import('./fake-electron.js')).fakeCoreModules.shortcutPortal());

const { createPerchCore } = await import('../../electron/core/perch-core.js');
const { probeShortcutPortal } = await import('../../electron/platform/shortcut-portal.js');
current.core = fakeCore(commandNames, stateWithCheckInOpen());

beforeAll(async () => {
  // Ubuntu 24.04 without a profile for the AppImage: its AppRun added --no-sandbox.
  electron.app.switches.add('no-sandbox');
  await import('../../electron/main.js');
  await vi.waitFor(() => expect(electron.nativeTheme.themeSource).toBe('dark'));
});

function shortcutGivenToCore() {
  const shortcut = vi.mocked(createPerchCore).mock.calls[0]?.[0].globalShortcut;
  if (!shortcut) throw new Error('no shortcut given to the core');
  return shortcut;
}

describe('the shortcut on a Wayland desktop', () => {
  it('asks the session bus, once, whether the portal offers GlobalShortcuts, and tells the core it does not', async () => {
    const shortcut = shortcutGivenToCore();
    expect(await shortcut.delivery()).toEqual({
      kind: 'portal',
      portal: { kind: 'missing', reason: 'the desktop portal has no GlobalShortcuts' },
    });
    expect(await shortcut.delivery()).toEqual({
      kind: 'portal',
      portal: { kind: 'missing', reason: 'the desktop portal has no GlobalShortcuts' },
    });
    expect(probeShortcutPortal).toHaveBeenCalledExactlyOnceWith('unix:path=/fake/session_bus');
  });

  it('offers the AppImage file as the command for a shortcut of the desktop’s own', () => {
    expect(shortcutGivenToCore().launchCommand).toBe('/home/ada/Applications/Perch-1.2.0.AppImage');
  });

  it('that command opens the popover: the new instance hands over to the running one', () => {
    const popover = windows[0]!;
    popover.hide();
    electron.app.emit('second-instance');
    expect(popover.visible).toBe(true);
    expect(popover.focus).toHaveBeenCalled();
    // Pressed again while it is open, it stays open (a second instance only ever shows it).
    electron.app.emit('second-instance');
    expect(popover.visible).toBe(true);
  });

  it('still asks for the toolbar window type, which XWayland passes on and a Wayland compositor ignores', () => {
    expect(windows[0]?.options).toMatchObject({ type: 'toolbar', skipTaskbar: true });
  });
});

describe('an AppImage started without the sandbox', () => {
  it('says in the log that the sandbox is off, why, and where the remedy is', async () => {
    await vi.waitFor(() => {
      const log = readFileSync(join(fakeAppPath('logs'), 'perch.log'), 'utf8');
      expect(log).toContain("Chromium's sandbox is off: the AppImage's launcher started Perch with --no-sandbox");
      expect(log).toContain('Install the deb, or give the AppImage a profile');
    });
  });
});
