import { beforeAll, describe, expect, it, vi } from 'vitest';
import { commandNames } from '../../electron/bridge/contract.js';
import { signedOutState } from '../support/snapshots.js';
import { current, fakeCore, fakeElectron as electron, trays, windows } from './fake-electron.js';

// A first run on Linux: nobody signed in yet, so the popover opens by itself, though the tray shows.
vi.hoisted(() => Object.defineProperty(process, 'platform', { value: 'linux' }));
vi.mock('electron', async () => (await import('./fake-electron.js')).fakeElectron);
vi.mock('../../electron/platform/session-lock.js', async () => (await import('./fake-electron.js')).fakeCoreModules.sessionLock());
vi.mock('../../electron/core/perch-core.js', async () => (await import('./fake-electron.js')).fakeCoreModules.perchCore());
vi.mock('../../electron/platform/keychain/keychain.js', async () => (await import('./fake-electron.js')).fakeCoreModules.keychain());
vi.mock('../../electron/shell/notifications.js', async () => (await import('./fake-electron.js')).fakeCoreModules.notifier());
vi.mock('../../electron/platform/tray-host.js', async () => (await import('./fake-electron.js')).fakeCoreModules.trayHost());

const core = fakeCore(commandNames, signedOutState(new Date().toISOString()));
current.core = core;

beforeAll(async () => {
  await import('../../electron/main.js');
  await vi.waitFor(() => expect(windows[0]?.visible).toBe(true));
});

describe('the first launch', () => {
  it('opens the popover once the core has started, in the top-right corner of the work area (Linux has no tray bounds)', () => {
    const popover = windows[0]!;
    expect(popover.show).toHaveBeenCalledTimes(1);
    expect(core.start.mock.invocationCallOrder[0]).toBeLessThan(popover.show.mock.invocationCallOrder[0]!);
    // The 1920×1080 screen's work area starts below a 27-pixel top bar; 8 pixels from its corner.
    expect(popover.setPosition).toHaveBeenLastCalledWith(1920 - 380 - 8, 27 + 8, false);
    expect(electron.screen.getCursorScreenPoint).not.toHaveBeenCalled();
    expect(popover.focus).toHaveBeenCalledTimes(1);
    expect(core.popoverOpened).toHaveBeenCalledTimes(1);
  });

  it('the tray icon is there all the same, and its menu says nobody is signed in', () => {
    const menu = trays[0]!.setContextMenu.mock.lastCall?.[0] as { template: { label?: string }[] };
    expect(menu.template[0]?.label).toBe('Not signed in');
  });

  it('launching Perch again while it runs (the app-menu entry) shows the popover again', () => {
    const popover = windows[0]!;
    popover.emit('blur');
    expect(popover.visible).toBe(false);
    electron.app.emit('second-instance');
    expect(popover.visible).toBe(true);
    expect(popover.setPosition).toHaveBeenLastCalledWith(1532, 35, false);
  });
});
