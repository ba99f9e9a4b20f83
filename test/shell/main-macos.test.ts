import { beforeAll, describe, expect, it, vi } from 'vitest';
import { commandNames } from '../../electron/bridge/contract.js';
import {
  current,
  fakeCore,
  fakeElectron as electron,
  latestMenu,
  stateWithCheckInOpen,
  trays,
  windows,
  type FakeMenu,
} from './fake-electron.js';

// What differs on macOS: menu-bar app without a Dock icon, template icon, click and right-click.
vi.hoisted(() => Object.defineProperty(process, 'platform', { value: 'darwin' }));
vi.mock('electron', async () => (await import('./fake-electron.js')).fakeElectron);
vi.mock('../../electron/core/perch-core.js', async () => (await import('./fake-electron.js')).fakeCoreModules.perchCore());
vi.mock('../../electron/platform/keychain/keychain.js', async () => (await import('./fake-electron.js')).fakeCoreModules.keychain());
vi.mock('../../electron/shell/notifications.js', async () => (await import('./fake-electron.js')).fakeCoreModules.notifier());

const { createPerchCore } = await import('../../electron/core/perch-core.js');
const state = stateWithCheckInOpen();
const core = fakeCore(commandNames, state);
current.core = core;
const app = electron.app;

beforeAll(async () => {
  await import('../../electron/main.js');
  await vi.waitFor(() => expect(electron.nativeTheme.themeSource).toBe('dark'));
});

describe('the macOS shell', () => {
  it('hides the Dock icon, and leaves the login item as it is at start-up', () => {
    expect(app.dock.hide).toHaveBeenCalledTimes(1);
    // The fake core's stored settings ask for launch at login: only a change by the user writes it.
    expect(app.setLoginItemSettings).not.toHaveBeenCalled();
  });

  it('gives the core the login item, read from the OS each time and written only when the core asks', async () => {
    const autostart = vi.mocked(createPerchCore).mock.calls[0]?.[0].autostart;
    if (!autostart) throw new Error('no autostart given to the core');
    await expect(autostart.read()).resolves.toBe(false);
    await autostart.write(true);
    expect(app.setLoginItemSettings).toHaveBeenCalledExactlyOnceWith({ openAtLogin: true });
    await expect(autostart.read()).resolves.toBe(true);
    // Removed by the user in System Settings › General › Login Items.
    app.loginItem.openAtLogin = false;
    await expect(autostart.read()).resolves.toBe(false);
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
    expect(tray.popUpContextMenu).toHaveBeenCalledExactlyOnceWith(expect.objectContaining({ template: latestMenu() }));
    expect(latestMenu()[1]?.label).toBe('Check in');
  });

  it('opening the right-click menu counts as the user looking (macOS reports it as menu-will-show)', () => {
    trays[0]!.emit('right-click');
    const menu = trays[0]!.popUpContextMenu.mock.lastCall?.[0] as FakeMenu;
    core.trayMenuOpened.mockClear();
    menu.emit('menu-will-show');
    expect(core.trayMenuOpened).toHaveBeenCalledTimes(1);
  });

  it('the popover is a panel on every Space, over full-screen apps, without turning Perch into a Dock app', () => {
    expect(windows[0]?.options).toMatchObject({ type: 'panel', alwaysOnTop: true });
    expect(windows[0]?.setVisibleOnAllWorkspaces).toHaveBeenCalledExactlyOnceWith(true, {
      visibleOnFullScreen: true,
      skipTransformProcessType: true,
    });
  });

  it('opening Perch again from Finder or Spotlight (activate) shows the popover under the menu-bar icon', () => {
    windows[0]?.hide();
    app.emit('activate');
    expect(windows[0]?.visible).toBe(true);
    expect(windows[0]?.setPosition).toHaveBeenLastCalledWith(1540, 28, false);
    windows[0]?.hide();
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

  it('shows the reservation in progress and its end beside the icon', () => {
    expect(trays[0]?.setTitle).toHaveBeenLastCalledWith(expect.stringMatching(/^Standup until \S/));
  });

  it('Cmd+Q stops the core before the app quits', async () => {
    const event = { preventDefault: vi.fn() };
    app.emit('before-quit', event);
    expect(event.preventDefault).toHaveBeenCalledTimes(1);
    await vi.waitFor(() => expect(app.quit).toHaveBeenCalledTimes(1));
    expect(core.stop).toHaveBeenCalledTimes(1);
  });
});
