import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { commandNames } from '../../electron/bridge/contract.js';
import { current, fakeAppPath, fakeCore, fakeDisplay, fakeElectron as electron, stateWithCheckInOpen, windows } from './fake-electron.js';

// Signed in, on a Linux desktop that shows no tray icons (stock GNOME: no StatusNotifierHost).
vi.hoisted(() => Object.defineProperty(process, 'platform', { value: 'linux' }));
vi.mock('electron', async () => (await import('./fake-electron.js')).fakeElectron);
vi.mock('../../electron/platform/session-lock.js', async () => (await import('./fake-electron.js')).fakeCoreModules.sessionLock());
vi.mock('../../electron/core/perch-core.js', async () => (await import('./fake-electron.js')).fakeCoreModules.perchCore());
vi.mock('../../electron/platform/keychain/keychain.js', async () => (await import('./fake-electron.js')).fakeCoreModules.keychain());
vi.mock('../../electron/shell/notifications.js', async () => (await import('./fake-electron.js')).fakeCoreModules.notifier());
vi.mock('../../electron/platform/tray-host.js', () => ({
  probeTrayHost: vi.fn(async () => ({ kind: 'missing', reason: 'no org.kde.StatusNotifierWatcher on the session bus' })),
  sessionBusAddress: vi.fn(() => 'unix:path=/fake/session_bus'),
}));

const core = fakeCore(commandNames, stateWithCheckInOpen());
current.core = core;

beforeAll(async () => {
  // A GNOME top bar that reserves no work area (as under Wayland): the platform's convention puts the tray at the top.
  electron.screen.getPrimaryDisplay.mockReturnValue({ ...fakeDisplay, workArea: fakeDisplay.bounds });
  await import('../../electron/main.js');
  await vi.waitFor(() => expect(windows[0]?.visible).toBe(true));
});

describe('a desktop without a tray', () => {
  it('opens the popover at start though someone is signed in, where the tray would be', () => {
    const popover = windows[0]!;
    expect(core.snapshot().phase).toBe('ready');
    expect(popover.show).toHaveBeenCalledTimes(1);
    expect(popover.setPosition).toHaveBeenLastCalledWith(1532, 8, false);
  });

  it('says why in the log', async () => {
    await vi.waitFor(() => {
      const log = readFileSync(join(fakeAppPath('logs'), 'perch.log'), 'utf8');
      expect(log).toContain('the desktop shows no tray icon: no org.kde.StatusNotifierWatcher on the session bus');
    });
  });
});
