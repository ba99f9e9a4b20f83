import { beforeAll, describe, expect, it, vi } from 'vitest';
import { commandNames } from '../../electron/bridge.js';
import { current, fakeCore, fakeElectron as electron, latestMenu, stateWithCheckInOpen, trays, windows } from './fake-electron.js';

// What differs on macOS: menu-bar app without a Dock icon, template icon, click and right-click.
vi.hoisted(() => Object.defineProperty(process, 'platform', { value: 'darwin' }));
vi.mock('electron', async () => (await import('./fake-electron.js')).fakeElectron);
vi.mock('../../electron/core/perch-core.js', async () => (await import('./fake-electron.js')).fakeCoreModules.perchCore());
vi.mock('../../electron/core/storage/keychain.js', async () => (await import('./fake-electron.js')).fakeCoreModules.keychain());
vi.mock('../../electron/shell/notifications.js', async () => (await import('./fake-electron.js')).fakeCoreModules.notifier());

const state = stateWithCheckInOpen();
const core = fakeCore(commandNames, state);
current.core = core;
const app = electron.app;

beforeAll(async () => {
  await import('../../electron/main.js');
  await vi.waitFor(() => expect(electron.nativeTheme.themeSource).toBe('dark'));
});

describe('the macOS shell', () => {
  it('hides the Dock icon and registers launch at login from the settings', () => {
    expect(app.dock.hide).toHaveBeenCalledTimes(1);
    expect(app.setLoginItemSettings).toHaveBeenCalledExactlyOnceWith({ openAtLogin: true });
  });

  it('uses the template icon, which macOS tints itself', () => {
    expect(electron.nativeImage.createFromPath).toHaveBeenCalledExactlyOnceWith('/opt/perch/build/tray/trayTemplate.png');
    const image = electron.nativeImage.createFromPath.mock.results[0]?.value as { setTemplateImage: ReturnType<typeof vi.fn> };
    expect(image.setTemplateImage).toHaveBeenCalledWith(true);
  });

  it('click toggles the popover; right-click pops up a menu built at that moment', () => {
    const tray = trays[0]!;
    expect(tray.setContextMenu).not.toHaveBeenCalled();
    tray.emit('click');
    expect(windows[0]?.visible).toBe(true);
    tray.emit('click');
    expect(windows[0]?.visible).toBe(false);
    tray.emit('right-click');
    expect(tray.popUpContextMenu).toHaveBeenCalledExactlyOnceWith({ template: latestMenu() });
    expect(latestMenu()[1]?.label).toBe('Check in');
  });

  it('the click that blurs an open popover closes it rather than reopening it', () => {
    const tray = trays[0]!;
    tray.emit('click');
    windows[0]?.emit('blur');
    tray.emit('click');
    expect(windows[0]?.visible).toBe(false);
  });

  it('keeps & as written in menu labels', () => {
    core.snapshot.mockReturnValueOnce({ ...state, reservations: [{ ...state.reservations[0]!, title: '', resourceName: 'R&D lab' }] });
    trays[0]?.emit('right-click');
    expect(latestMenu()[0]?.label).toMatch(/^Now: R&D lab,/);
  });

  it('shows nothing beside the icon while the reservation is in progress', () => {
    expect(trays[0]?.setTitle).toHaveBeenLastCalledWith('');
  });

  it('Cmd+Q stops the core before the app quits', async () => {
    const event = { preventDefault: vi.fn() };
    app.emit('before-quit', event);
    expect(event.preventDefault).toHaveBeenCalledTimes(1);
    await vi.waitFor(() => expect(app.quit).toHaveBeenCalledTimes(1));
    expect(core.stop).toHaveBeenCalledTimes(1);
  });
});
