import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { channelOf, commandNames, eventNames, type CommandName } from '../../electron/bridge/contract.js';
import { appEntryUrl, contentSecurityPolicy } from '../../electron/core/desktop/security.js';
import { appId } from '../../electron/core/desktop/app-identity.js';
import {
  current,
  fakeAppPath,
  fakeCore,
  fakeElectron as electron,
  fakeUserHome,
  heldShortcuts,
  latestMenu,
  stateWithCheckInOpen,
  takenElsewhere,
  trays,
  utilityProcesses,
  windows,
  type FakeMenu,
} from './fake-electron.js';
import { freeResourceView } from '../support/snapshots.js';

// The Linux shell; main-macos.test.ts covers what differs on macOS and Windows.
vi.hoisted(() => Object.defineProperty(process, 'platform', { value: 'linux' }));
// The packaged app on Linux writes its XDG autostart entry under the user's configuration folder.
vi.stubEnv('XDG_CONFIG_HOME', join(fakeUserHome, 'config'));
// An X11 session: the shortcut is the X server's to give (main-wayland.test.ts covers Wayland).
vi.stubEnv('XDG_SESSION_TYPE', 'x11');
vi.stubEnv('WAYLAND_DISPLAY', '');
vi.mock('electron', async () => (await import('./fake-electron.js')).fakeElectron);
vi.mock('../../electron/core/perch-core.js', async () => (await import('./fake-electron.js')).fakeCoreModules.perchCore());
vi.mock('../../electron/platform/keychain/keychain.js', async () => (await import('./fake-electron.js')).fakeCoreModules.keychain());
vi.mock('../../electron/shell/notifications.js', async () => (await import('./fake-electron.js')).fakeCoreModules.notifier());
vi.mock('../../electron/platform/tray-host.js', async () => (await import('./fake-electron.js')).fakeCoreModules.trayHost());
vi.mock('../../electron/platform/session-lock.js', async () => (await import('./fake-electron.js')).fakeCoreModules.sessionLock());
vi.mock('../../electron/platform/shortcut-portal.js', async () => (await import('./fake-electron.js')).fakeCoreModules.shortcutPortal());

const { createPerchCore } = await import('../../electron/core/perch-core.js');
const { createDesktopNotifier } = await import('../../electron/shell/notifications.js');
const state = stateWithCheckInOpen();
const core = fakeCore(commandNames, state);
current.core = core;
const app = electron.app;

function ipcHandler(name: CommandName): (event: unknown, request?: unknown) => Promise<unknown> {
  const call = electron.ipcMain.handle.mock.calls.find(([channel]) => channel === channelOf(name));
  if (!call) throw new Error(`no handler for ${name}`);
  return call[1] as (event: unknown, request?: unknown) => Promise<unknown>;
}
const fromApp = { senderFrame: { url: appEntryUrl } };

beforeAll(async () => {
  await import('../../electron/main.js');
  // Start-up is over once the settings were applied.
  await vi.waitFor(() => expect(electron.nativeTheme.themeSource).toBe('dark'));
});

describe('start-up', () => {
  it('holds the single-instance lock and keeps running with no window open', () => {
    expect(app.requestSingleInstanceLock).toHaveBeenCalledTimes(1);
    expect(app.count('second-instance')).toBe(1);
    app.emit('window-all-closed');
    expect(app.quit).not.toHaveBeenCalled();
  });

  it('sets the installed data folder before taking the single-instance lock, and files keychain entries under Perch', async () => {
    const { openKeychain } = await import('../../electron/platform/keychain/keychain.js');
    expect(app.setPath).toHaveBeenCalledExactlyOnceWith('userData', join(fakeAppPath('appData'), 'Perch'));
    expect(app.setPath.mock.invocationCallOrder[0]).toBeLessThan(app.requestSingleInstanceLock.mock.invocationCallOrder[0]!);
    expect(app.setAppLogsPath).not.toHaveBeenCalled();
    expect(openKeychain).toHaveBeenCalledExactlyOnceWith('Perch');
  });

  it('creates the core on the app data folder, the keychain and the notifier, and starts it', async () => {
    expect(createPerchCore).toHaveBeenCalledTimes(1);
    const options = vi.mocked(createPerchCore).mock.calls[0]?.[0];
    expect(options).toMatchObject({ dataDir: fakeAppPath('userData') });
    expect(options?.clock).toBe((await import('../../electron/core/clock.js')).systemClock);
    expect(core.start).toHaveBeenCalledTimes(1);
    // The icon another program (the notification server) reads: outside app.asar when packaged.
    expect(createDesktopNotifier).toHaveBeenCalledExactlyOnceWith({ appId, icon: '/opt/perch/build/icons/256x256.png' });
    // Windows only: elsewhere the id means nothing to the OS.
    expect(app.setAppUserModelId).not.toHaveBeenCalled();
    expect(app.setToastActivatorCLSID).not.toHaveBeenCalled();
  });

  it("tells the core how the OS's region writes times, so the popover, tray and notifications agree", () => {
    expect(app.getSystemLocale).toHaveBeenCalled();
    expect(vi.mocked(createPerchCore).mock.calls[0]?.[0].timeFormat).toEqual({ locale: 'en-GB', hourCycle: 'h23' });
  });

  it('gives the core a local service that runs the bundled host in a utility process, on a folder of the app data', async () => {
    const localService = vi.mocked(createPerchCore).mock.calls[0]?.[0].localService;
    if (!localService) throw new Error('no local service given to the core');
    expect(utilityProcesses).toHaveLength(0);

    const account = { userName: 'ada', password: 'generated-password', firstName: 'Ada', lastName: '', timezone: 'Europe/London' };
    const started = localService.ensureRunning(account);
    await vi.waitFor(() => expect(utilityProcesses).toHaveLength(1));
    const child = utilityProcesses[0]!;
    expect(electron.utilityProcess.fork).toHaveBeenCalledExactlyOnceWith('/opt/perch/dist/electron/service-host.js', [], {
      serviceName: 'Perch local service',
    });
    expect(child.postMessage).toHaveBeenCalledExactlyOnceWith({
      type: 'start',
      dataFolder: join(fakeAppPath('userData'), 'local-service'),
      demo: true,
      account,
    });
    child.emit('message', { type: 'ready', apiRoot: 'http://127.0.0.1:40123/Web/Services/index.php', userName: 'ada' });
    await expect(started).resolves.toEqual({
      ok: true,
      value: { apiRoot: 'http://127.0.0.1:40123/Web/Services/index.php', userName: 'ada' },
    });
    expect(localService.pid).toBe(child.pid);

    const stopped = localService.stop();
    expect(child.postMessage).toHaveBeenLastCalledWith({ type: 'stop' });
    child.emit('exit', 0);
    await stopped;
    expect(child.kill).not.toHaveBeenCalled();
    expect(localService.pid).toBeNull();
  });

  it('signed in, on a desktop that shows the tray icon: starts in the tray, the popover hidden', async () => {
    const { probeTrayHost } = await import('../../electron/platform/tray-host.js');
    expect(probeTrayHost).toHaveBeenCalledTimes(1);
    expect(windows[0]?.show).not.toHaveBeenCalled();
  });

  it('applies the theme; leaves launch at login to the XDG autostart entry on Linux', () => {
    expect(electron.nativeTheme.themeSource).toBe('dark');
    expect(app.setLoginItemSettings).not.toHaveBeenCalled();
    expect(app.getLoginItemSettings).not.toHaveBeenCalled();
    expect(app.dock.hide).not.toHaveBeenCalled();
  });
});

describe('IPC', () => {
  it('registers every bridge command on its channel exactly once', () => {
    const channels = electron.ipcMain.handle.mock.calls.map(([channel]) => channel as string);
    expect(channels.sort()).toEqual(commandNames.map(channelOf).sort());
  });

  it('runs a valid request from the app window through the core', async () => {
    const request = { referenceNumber: 'ref-7' };
    await expect(ipcHandler('checkIn')(fromApp, request)).resolves.toEqual({ ok: true, value: 'checkIn' });
    expect(core.handlers.checkIn).toHaveBeenLastCalledWith(request);
  });

  it('refuses a bad request with invalidInput before it reaches the core', async () => {
    core.handlers.book.mockClear();
    const result = await ipcHandler('book')(fromApp, { resourceId: 'three', start: 'now', title: '' });
    expect(result).toMatchObject({ ok: false, error: { kind: 'invalidInput', message: 'The request for book is not valid.' } });
    expect(core.handlers.book).not.toHaveBeenCalled();
  });

  it.each([
    ['another origin', { senderFrame: { url: 'https://evil.example/index.html' } }],
    ['a file page', { senderFrame: { url: 'file:///opt/perch/dist/renderer/index.html' } }],
    ['another page of the app', { senderFrame: { url: 'perch://app/other.html' } }],
    ['a frame that is gone', { senderFrame: null }],
  ])('refuses a sender from %s', async (_name, event) => {
    core.handlers.getState.mockClear();
    const result = await ipcHandler('getState')(event);
    expect(result).toEqual({ ok: false, error: { kind: 'forbidden', message: 'Only the Perch window may use this command.' } });
    expect(core.handlers.getState).not.toHaveBeenCalled();
  });

  it('gives the core the XDG autostart entry for launch at login: read from the file, written only when the core asks', async () => {
    const entry = join(fakeUserHome, 'config', 'autostart', `${appId}.desktop`);
    // The fake core's stored settings ask for launch at login; start-up writes nothing.
    expect(existsSync(entry)).toBe(false);
    const autostart = vi.mocked(createPerchCore).mock.calls[0]?.[0].autostart;
    if (!autostart) throw new Error('no autostart given to the core');
    await expect(autostart.read()).resolves.toBe(false);
    await autostart.write(true);
    expect(readFileSync(entry, 'utf8')).toContain(`Exec=${process.execPath}`);
    await expect(autostart.read()).resolves.toBe(true);
    // Switched off in the desktop's own settings, which rewrite the entry rather than delete it.
    writeFileSync(entry, readFileSync(entry, 'utf8').replace('X-GNOME-Autostart-enabled=true', 'X-GNOME-Autostart-enabled=false'));
    await expect(autostart.read()).resolves.toBe(false);
    await autostart.write(false);
    expect(existsSync(entry)).toBe(false);
    expect(app.setLoginItemSettings).not.toHaveBeenCalled();
  });

  it('applies the settings again after setSettings', async () => {
    electron.nativeTheme.themeSource = 'system';
    await ipcHandler('setSettings')(fromApp, { theme: 'dark' });
    expect(core.handlers.setSettings).toHaveBeenLastCalledWith({ theme: 'dark' });
    expect(electron.nativeTheme.themeSource).toBe('dark');
  });

  it('forwards every core event to the popover on its channel', () => {
    // The state reaches the popover only while it is shown.
    windows[0]?.show();
    for (const event of eventNames) {
      // A state change comes with the snapshot it is about; the tray shows it too.
      const payload = event === 'stateChanged' ? core.snapshot() : { event };
      core.events.emit(event, payload);
      expect(windows[0]?.webContents.send).toHaveBeenLastCalledWith(channelOf(event), payload);
    }
    windows[0]?.hide();
  });
});

describe('the shortcut that opens Perch', () => {
  it('leaves Chromium’s features as Electron and the user set them (Electron turns the Wayland shortcut portal on itself)', () => {
    expect(app.commandLine.appendSwitch).not.toHaveBeenCalled();
  });

  it('gives the core a shortcut that holds one accelerator at a time, and a press opens the popover', () => {
    const shortcut = vi.mocked(createPerchCore).mock.calls[0]?.[0].globalShortcut;
    expect(shortcut).toBeDefined();
    expect(shortcut!.set('CommandOrControl+Alt+P')).toBe(true);
    expect([...heldShortcuts.keys()]).toEqual(['CommandOrControl+Alt+P']);
    expect(shortcut!.set('Control+Shift+F12')).toBe(true);
    expect([...heldShortcuts.keys()]).toEqual(['Control+Shift+F12']);

    const popover = windows[0]!;
    popover.hide();
    heldShortcuts.get('Control+Shift+F12')!();
    expect(popover.visible).toBe(true);
    popover.hide();

    takenElsewhere.add('Alt+Space');
    expect(shortcut!.set('Alt+Space')).toBe(false);
    expect([...heldShortcuts.keys()]).toEqual([]);
    expect(shortcut!.set('')).toBe(true);
  });

  it('under X11 registers the keys with the X server, asking no portal', async () => {
    const { probeShortcutPortal } = await import('../../electron/platform/shortcut-portal.js');
    const shortcut = vi.mocked(createPerchCore).mock.calls[0]?.[0].globalShortcut;
    expect(await shortcut?.delivery()).toEqual({ kind: 'direct' });
    expect(probeShortcutPortal).not.toHaveBeenCalled();
  });

  it('offers the installed program as the command for a shortcut of the desktop’s own (the packaged app runs as itself here)', () => {
    const shortcut = vi.mocked(createPerchCore).mock.calls[0]?.[0].globalShortcut;
    expect(shortcut?.launchCommand).toBe(process.execPath);
  });
});

describe('the popover window', () => {
  it('is created hidden, frameless, and locked down', () => {
    expect(electron.BrowserWindow).toHaveBeenCalledTimes(1);
    expect(electron.BrowserWindow.mock.calls[0]?.[0]).toMatchObject({
      show: false,
      frame: false,
      resizable: false,
      skipTaskbar: true,
      alwaysOnTop: true,
      // Electron ignores skipTaskbar on Linux: under X11 a toolbar stays out of the taskbar and Alt-Tab.
      type: 'toolbar',
      webPreferences: {
        contextIsolation: true,
        sandbox: true,
        nodeIntegration: false,
        webSecurity: true,
        preload: '/opt/perch/dist/electron/preload.cjs',
      },
    });
  });

  it('loads the app page from the private scheme, registered as a secure standard scheme', () => {
    expect(windows[0]?.loadURL).toHaveBeenCalledExactlyOnceWith('perch://app/index.html');
    expect(electron.protocol.registerSchemesAsPrivileged).toHaveBeenCalledWith([
      { scheme: 'perch', privileges: expect.objectContaining({ standard: true, secure: true }) },
    ]);
    expect(electron.protocol.handle.mock.calls[0]?.[0]).toBe('perch');
  });

  it('opens at the pointer that clicked the tray icon (Linux trays report no bounds), tells the core, and hides on blur', () => {
    const popover = windows[0]!;
    core.popoverOpened.mockClear();
    trays[0]!.emit('click');
    expect(popover.setPosition).toHaveBeenLastCalledWith(1540, 27, false);
    expect(popover.visible).toBe(true);
    expect(core.popoverOpened).toHaveBeenCalledTimes(1);
    popover.hide();
  });

  it('opened by anything but the icon, it takes the top-right corner of the work area', () => {
    const popover = windows[0]!;
    app.emit('second-instance');
    expect(popover.setPosition).toHaveBeenLastCalledWith(1532, 35, false);
    popover.emit('blur');
    expect(popover.visible).toBe(false);
  });

  it('follows the theme in force with its background, so a dark theme on a light desktop does not flash white', () => {
    const popover = windows[0]!;
    // The settings' dark theme was applied after the window was created (themeSource 'dark' above).
    electron.nativeTheme.shouldUseDarkColors = true;
    electron.nativeTheme.emit('updated');
    expect(popover.setBackgroundColor).toHaveBeenLastCalledWith('#1f1f1f');
    electron.nativeTheme.shouldUseDarkColors = false;
    electron.nativeTheme.emit('updated');
    expect(popover.setBackgroundColor).toHaveBeenLastCalledWith('#ffffff');
  });

  it('hides when the page asks (Escape), through the core, and is not sent that request as an event', () => {
    const popover = windows[0]!;
    app.emit('second-instance');
    expect(popover.visible).toBe(true);
    popover.webContents.send.mockClear();
    core.events.emit('hidePopover', null);
    expect(popover.visible).toBe(false);
    expect(popover.webContents.send).not.toHaveBeenCalled();
  });

  it("opens the server's page the core names in the browser, and nothing but a web address", () => {
    electron.shell.openExternal.mockClear();
    core.events.emit('openExternal', 'https://booking.example.org/Web/reservation.php?rn=abc');
    core.events.emit('openExternal', 'file:///etc/passwd');
    expect(electron.shell.openExternal.mock.calls).toEqual([['https://booking.example.org/Web/reservation.php?rn=abc']]);
    electron.shell.openExternal.mockClear();
  });

  it('puts the text the core hands it on the clipboard', () => {
    core.events.emit('copyText', 'Design review');
    expect(electron.clipboard.writeText).toHaveBeenLastCalledWith('Design review');
  });
});

describe('hardening', () => {
  function hardenedContents() {
    const contents = { ...fakeEmitterContents() };
    app.emit('web-contents-created', {}, contents);
    return contents;
  }
  function fakeEmitterContents() {
    const listeners = new Map<string, (event: unknown) => void>();
    return {
      on: vi.fn((event: string, listener: (event: unknown) => void) => listeners.set(event, listener)),
      fire: (event: string, payload: unknown) => listeners.get(event)?.(payload),
      setWindowOpenHandler: vi.fn(),
    };
  }

  it('blocks navigation and redirects away from the app page, and webviews', () => {
    const contents = hardenedContents();
    for (const [url, blocked] of [
      ['https://evil.example/', true],
      ['file:///etc/passwd', true],
      ['perch://app/other.html', true],
      [appEntryUrl, false],
    ] as const) {
      const event = { url, preventDefault: vi.fn() };
      contents.fire('will-navigate', event);
      contents.fire('will-redirect', event);
      expect(event.preventDefault).toHaveBeenCalledTimes(blocked ? 2 : 0);
    }
    const webview = { preventDefault: vi.fn() };
    contents.fire('will-attach-webview', webview);
    expect(webview.preventDefault).toHaveBeenCalled();
  });

  it('denies new windows and sends web links to the browser only', () => {
    const handler = hardenedContents().setWindowOpenHandler.mock.calls[0]?.[0] as (details: { url: string }) => unknown;
    expect(handler({ url: 'https://example.org/help' })).toEqual({ action: 'deny' });
    expect(electron.shell.openExternal).toHaveBeenCalledExactlyOnceWith('https://example.org/help');
    expect(handler({ url: 'file:///etc/passwd' })).toEqual({ action: 'deny' });
    expect(electron.shell.openExternal).toHaveBeenCalledTimes(1);
  });

  it('denies permission requests and checks, and sets the CSP on responses', () => {
    const ses = electron.session.defaultSession;
    const request = ses.setPermissionRequestHandler.mock.calls[0]?.[0] as (...args: unknown[]) => void;
    const callback = vi.fn();
    request({}, 'geolocation', callback, {});
    expect(callback).toHaveBeenCalledExactlyOnceWith(false);
    const check = ses.setPermissionCheckHandler.mock.calls[0]?.[0] as (...args: unknown[]) => boolean;
    expect(check({}, 'notifications', 'perch://app', {})).toBe(false);
    const headers = ses.webRequest.onHeadersReceived.mock.calls[0]?.[0] as (details: unknown, done: (answer: unknown) => void) => void;
    const done = vi.fn();
    headers({ responseHeaders: { 'Content-Type': ['text/html'] } }, done);
    expect(done).toHaveBeenCalledWith({
      responseHeaders: { 'Content-Type': ['text/html'], 'Content-Security-Policy': [contentSecurityPolicy] },
    });
  });
});

describe('the tray', () => {
  const attachedMenu = () => trays[0]!.setContextMenu.mock.lastCall?.[0] as FakeMenu;

  it('shows the next reservation in the tooltip; the menu is always attached, since most Linux trays report no clicks', () => {
    const tray = trays[0]!;
    expect(tray.setToolTip).toHaveBeenLastCalledWith(expect.stringMatching(/^Perch — Standup until .+, Room A$/));
    expect(tray.count('right-click')).toBe(0);
    expect(attachedMenu().template.map((item) => item.label ?? item.type)).toEqual([
      expect.stringMatching(/^Now: Standup · Room A/),
      'Check in',
      'separator',
      'Book now — nothing free',
      'separator',
      'Open Perch',
      'separator',
      'Quit Perch',
    ]);
    expect(tray.setTitle).not.toHaveBeenCalled();
  });

  it('sends nothing to the tray host when the state shows the same (replacing the menu would close an open one)', () => {
    const tray = trays[0]!;
    const sent = () => [electron.Menu.buildFromTemplate, tray.setContextMenu, tray.setToolTip].map((mock) => mock.mock.calls.length);
    const before = sent();
    core.events.emit('stateChanged', state);
    expect(sent()).toEqual(before);
  });

  it('changes labels in place when only they change, and the changed item does the new thing', async () => {
    const tray = trays[0]!;
    const menu = attachedMenu();
    const built = electron.Menu.buildFromTemplate.mock.calls.length;
    const reservation = state.reservations[0]!;
    const checkedIn = {
      ...state,
      reservations: [{ ...reservation, checkInOpen: false, checkedInAt: reservation.start, canCheckOut: true }],
    };
    core.snapshot.mockReturnValue(checkedIn);
    core.events.emit('stateChanged', checkedIn);
    expect(electron.Menu.buildFromTemplate).toHaveBeenCalledTimes(built);
    expect(attachedMenu()).toBe(menu);
    expect(menu.items[0]?.label).toMatch(/^Now: Standup · Room A, until .* · checked in$/);
    expect(menu.items[1]?.label).toBe('Check out');
    // The tooltip changed with it, and setting it republishes the menu as it stands.
    expect(tray.setToolTip).toHaveBeenLastCalledWith(expect.stringMatching(/· checked in$/));

    core.handlers.checkOut.mockClear();
    core.handlers.checkIn.mockClear();
    // The item was built as "Check in": its click runs what the model says now.
    menu.template[1]?.click?.();
    await vi.waitFor(() => expect(core.handlers.checkOut).toHaveBeenCalledExactlyOnceWith({ referenceNumber: 'ref-7' }));
    expect(core.handlers.checkIn).not.toHaveBeenCalled();
    core.snapshot.mockReturnValue(state);
    core.events.emit('stateChanged', state);
    expect(menu.items[1]?.label).toBe('Check in');
  });

  it('builds a new menu when the structure changes', () => {
    const tray = trays[0]!;
    const before = attachedMenu();
    const signedOut = { ...state, phase: 'signedOut' as const, reservations: [] };
    core.snapshot.mockReturnValueOnce(signedOut);
    core.events.emit('stateChanged', signedOut);
    expect(attachedMenu()).not.toBe(before);
    expect(attachedMenu().template.map((item) => item.label ?? item.type)).toEqual([
      'Not signed in',
      'separator',
      'Open Perch',
      'separator',
      'Quit Perch',
    ]);
    core.events.emit('stateChanged', state);
    expect(tray.setContextMenu).toHaveBeenLastCalledWith(
      expect.objectContaining({ template: expect.arrayContaining([expect.objectContaining({ label: 'Check in' })]) }),
    );
  });

  it('counts the menu, or a submenu the tray host says it opens, as the user looking', () => {
    const withFreeRoom = { ...state, freeNow: [freeResourceView({ resourceId: 5, name: 'Severn', scheduleName: 'Head office' })] };
    core.snapshot.mockReturnValue(withFreeRoom);
    core.events.emit('stateChanged', withFreeRoom);
    const menu = attachedMenu();
    const bookNow = menu.items.find((item) => item.label === 'Book now')?.submenu;
    const room = bookNow?.items[0]?.submenu;
    if (!bookNow || !room) throw new Error('no Book now › Severn submenu');
    core.trayMenuOpened.mockClear();
    // Chromium's DbusMenu reports a submenu's AboutToShow (the top level it does not).
    bookNow.emit('menu-will-show');
    room.emit('menu-will-show');
    expect(core.trayMenuOpened).toHaveBeenCalledTimes(2);
    menu.emit('menu-will-show');
    expect(core.trayMenuOpened).toHaveBeenCalledTimes(3);
    core.snapshot.mockReturnValue(state);
    core.events.emit('stateChanged', state);
  });

  it('shows the full-colour icon on Linux, whatever the theme: no Linux desktop tells apps its panel colour', () => {
    expect(electron.nativeImage.createFromPath).toHaveBeenCalledExactlyOnceWith('/opt/perch/build/tray/tray-color.png');
    for (const [themeSource, dark] of [
      ['light', false],
      ['dark', true],
      ['light', true],
    ] as const) {
      electron.nativeTheme.themeSource = themeSource;
      electron.nativeTheme.shouldUseDarkColors = dark;
      electron.nativeTheme.emit('updated');
    }
    expect(electron.nativeImage.createFromPath).toHaveBeenCalledTimes(1);
    expect(trays[0]?.setImage).not.toHaveBeenCalled();
  });

  it('escapes & in labels so GTK does not read it as a mnemonic', () => {
    const renamed = { ...state, reservations: [{ ...state.reservations[0]!, title: '', resourceName: 'R&D lab' }] };
    core.snapshot.mockReturnValueOnce(renamed);
    core.events.emit('stateChanged', renamed);
    expect(attachedMenu().items[0]?.label).toMatch(/^Now: R&&D lab,/);
    core.events.emit('stateChanged', state);
    expect(attachedMenu().items[0]?.label).toMatch(/^Now: Standup · Room A,/);
  });

  it('Open Perch shows the popover', () => {
    latestMenu()
      .find((item) => item.label === 'Open Perch')
      ?.click?.();
    expect(windows[0]?.visible).toBe(true);
    windows[0]?.hide();
  });

  it('a menu command runs through the same core handlers', async () => {
    core.handlers.checkIn.mockClear();
    latestMenu()
      .find((item) => item.label === 'Check in')
      ?.click?.();
    await vi.waitFor(() => expect(core.handlers.checkIn).toHaveBeenCalledExactlyOnceWith({ referenceNumber: 'ref-7' }));
  });

  it('a failed menu command opens the popover, where the error shows', async () => {
    core.handlers.checkIn.mockResolvedValueOnce({ ok: false, error: { kind: 'server', message: 'No' } });
    latestMenu()
      .find((item) => item.label === 'Check in')
      ?.click?.();
    await vi.waitFor(() => expect(windows[0]?.visible).toBe(true));
    windows[0]?.hide();
  });
});

describe('power events', () => {
  it.each([
    ['suspend', 'systemSuspended'],
    ['resume', 'systemResumed'],
  ] as const)('%s → core.%s()', (event, method) => {
    electron.powerMonitor.emit(event);
    expect(core[method]).toHaveBeenCalledTimes(1);
  });

  it("reads the session's lock over D-Bus, since powerMonitor reports none on Linux", async () => {
    const { watchSessionLock } = await import('../../electron/platform/session-lock.js');
    expect(electron.powerMonitor.count('lock-screen')).toBe(0);
    const options = vi.mocked(watchSessionLock).mock.calls[0]?.[0];
    expect(options).toMatchObject({
      sessionBusAddress: 'unix:path=/fake/session_bus',
      systemBusAddress: 'unix:path=/fake/system_bus_socket',
    });
    options?.onLocked();
    expect(core.screenLocked).toHaveBeenCalledTimes(1);
    options?.onUnlocked();
    expect(core.screenUnlocked).toHaveBeenCalledTimes(1);
  });
});

describe('quitting', () => {
  it('Quit stops the core, then quits', async () => {
    latestMenu()
      .find((item) => item.label === 'Quit Perch')
      ?.click?.();
    await vi.waitFor(() => expect(app.quit).toHaveBeenCalledTimes(1));
    expect(core.stop).toHaveBeenCalledTimes(1);
    expect(core.stop.mock.invocationCallOrder[0]).toBeLessThan(app.quit.mock.invocationCallOrder[0]!);
  });

  it('ends the notifications still waiting for a click, after the core stopped and before quitting', () => {
    const notifier = vi.mocked(createDesktopNotifier).mock.results[0]?.value as { dispose: ReturnType<typeof vi.fn> };
    expect(notifier.dispose).toHaveBeenCalledTimes(1);
    expect(core.stop.mock.invocationCallOrder[0]).toBeLessThan(notifier.dispose.mock.invocationCallOrder[0]!);
    expect(notifier.dispose.mock.invocationCallOrder[0]).toBeLessThan(app.quit.mock.invocationCallOrder[0]!);
  });

  it('once the core has stopped, the quit that follows is let through', () => {
    const event = { preventDefault: vi.fn() };
    app.emit('before-quit', event);
    expect(event.preventDefault).not.toHaveBeenCalled();
    expect(core.stop).toHaveBeenCalledTimes(1);
  });
});
