/**
 * The Electron shell: tray, popover window, IPC and OS events wired to the core. Every decision
 * lives in electron/core (tested in plain Node); this file only connects it to Electron.
 */
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';
import {
  app,
  BrowserWindow,
  dialog,
  ipcMain,
  Menu,
  nativeImage,
  nativeTheme,
  net,
  powerMonitor,
  protocol,
  screen,
  session,
  shell,
  Tray,
  utilityProcess,
  type MenuItemConstructorOptions,
  type NativeImage,
  type WebContents,
} from 'electron';
import type { DateTime } from 'luxon';
import { channelOf, commandNames, eventNames, type StateSnapshot } from './bridge.js';
import { appId } from './core/desktop/app-identity.js';
import { appLayout, unpackedPath } from './core/desktop/app-layout.js';
import { linuxAutostartExecutable, linuxConfigHome, setLinuxAutostart } from './core/desktop/autostart.js';
import { systemClock } from './core/clock.js';
import { messageOf } from './core/errors.js';
import { dispatchCommand, foreignSenderRefusal } from './core/desktop/ipc-validation.js';
import { openKeychain } from './core/storage/keychain.js';
import { createLocalService, type ServiceHostProcess } from './core/local-service/local-service.js';
import { openLogFile, type LogFile } from './core/storage/log-file.js';
import type { NotifierHandle } from './core/notifications/notifier.js';
import { createPerchCore, type PerchCore } from './core/perch-core.js';
import {
  appEntryUrl,
  appResponseHeaders,
  appScheme,
  contentSecurityPolicy,
  isAllowedNavigation,
  isAppSender,
  permissionDecision,
  resolveAppAsset,
  windowOpenDecision,
} from './core/desktop/security.js';
import { createDesktopNotifier } from './shell/notifications.js';
import { buildTrayMenu, popoverPosition, trayTitle, trayTooltip, type TrayCommand, type TrayMenuItem } from './core/desktop/tray-menu.js';

/** Beside the app's own files in its data folder: the local service's database. */
const localServiceFolder = 'local-service';

const popoverSize = { width: 380, height: 560 };
const stopTimeoutMs = 5_000;

let popover: BrowserWindow | null = null;
let tray: Tray | null = null;
let core: PerchCore | null = null;
let popoverHiddenAt = 0;
let quitting = false;
let appLog: LogFile | null = null;
let notifier: NotifierHandle | null = null;

// Must happen before `ready`. A standard, secure scheme gives the popover a real origin for
// 'self' in the CSP; Vite's `<script type="module" crossorigin>` is fetched in CORS mode.
protocol.registerSchemesAsPrivileged([
  { scheme: appScheme, privileges: { standard: true, secure: true, supportFetchAPI: true, corsEnabled: true } },
]);

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', () => showPopover());
  // A tray app lives on with no window open; quitting is the menu's Quit.
  app.on('window-all-closed', () => {});
  app.on('before-quit', (event) => {
    if (quitting) return;
    event.preventDefault();
    void quit();
  });
  app.on('web-contents-created', (_event, contents) => hardenContents(contents));
  app
    .whenReady()
    .then(start)
    .catch((error: unknown) => {
      appLog?.write('Perch could not start', error);
      console.error('Perch could not start:', error);
      dialog.showErrorBox('Perch could not start', messageOf(error));
      app.exit(1);
    });
}

async function start(): Promise<void> {
  // No Dock icon: Perch lives in the menu bar.
  if (process.platform === 'darwin') app.dock?.hide();
  // Windows shows and groups notifications by this id; it must be the one the installer registered.
  if (process.platform === 'win32') app.setAppUserModelId(appId);
  hardenSession();
  protocol.handle(appScheme, serveAppAsset);

  const logFile = openLogFile({ logsDir: app.getPath('logs') });
  appLog = logFile;
  const log = (message: string, error?: unknown) => {
    logFile.write(message, error);
    console.warn(`[perch] ${message}`, error ?? '');
  };
  const perch = createPerchCore({
    dataDir: app.getPath('userData'),
    clock: systemClock,
    secrets: await openKeychain(),
    notifier: (notifier = createDesktopNotifier({ appId, icon: unpackedPath(app.getAppPath(), appLayout.notificationIcon) })),
    localService: createLocalService({ dataFolder: path.join(app.getPath('userData'), localServiceFolder), launch: launchServiceHost, log }),
    log,
  });
  core = perch;
  registerCommands(perch);
  popover = createPopover(perch);
  tray = createTray();
  updateTray();

  for (const event of eventNames) {
    perch.on(event, (payload) => {
      if (popover && !popover.isDestroyed()) popover.webContents.send(channelOf(event), payload);
    });
  }
  perch.on('stateChanged', () => updateTray());
  perch.on('navigate', () => showPopover());

  powerMonitor.on('suspend', () => perch.systemSuspended());
  powerMonitor.on('resume', () => perch.systemResumed());
  powerMonitor.on('lock-screen', () => perch.screenLocked());
  powerMonitor.on('unlock-screen', () => perch.screenUnlocked());
  nativeTheme.on('updated', () => tray?.setImage(trayIcon()));

  await perch.start();
  await applySettings(perch);
  updateTray();
}

/** The local service in an Electron utility process: a Node process of its own, ended with the app. */
function launchServiceHost(): ServiceHostProcess {
  const child = utilityProcess.fork(path.join(app.getAppPath(), appLayout.serviceHost), [], { serviceName: 'Perch local service' });
  return {
    get pid() {
      return child.pid;
    },
    postMessage: (message) => child.postMessage(message),
    onMessage: (listener) => child.on('message', listener),
    onExit: (listener) => child.on('exit', listener),
    kill: () => child.kill(),
  };
}

function registerCommands(perch: PerchCore): void {
  for (const name of commandNames) {
    ipcMain.handle(channelOf(name), async (event, request: unknown) => {
      if (!isAppSender(event.senderFrame?.url, appEntryUrl)) return foreignSenderRefusal;
      const result = await dispatchCommand(perch.handlers, name, request);
      if (name === 'setSettings') await applySettings(perch);
      return result;
    });
  }
}

/** The settings the OS, not the core, acts on. */
async function applySettings(perch: PerchCore): Promise<void> {
  const settings = await perch.handlers.getSettings();
  nativeTheme.themeSource = settings.theme;
  // An unpackaged run would register the bare Electron binary to start at login.
  if (!app.isPackaged) return;
  if (process.platform !== 'linux') {
    app.setLoginItemSettings({ openAtLogin: settings.launchAtLogin });
    return;
  }
  // Electron has no login items on Linux: the desktop's XDG autostart entry does the job.
  await setLinuxAutostart(settings.launchAtLogin, {
    executable: linuxAutostartExecutable(),
    configHome: linuxConfigHome(),
    name: app.getName(),
  }).catch((error: unknown) => appLog?.write('could not change the autostart entry', error));
}

function hardenSession(): void {
  const ses = session.defaultSession;
  ses.setPermissionRequestHandler((_contents, permission, callback) => callback(permissionDecision(permission)));
  ses.setPermissionCheckHandler((_contents, permission) => permissionDecision(permission));
  // The app's scheme sends the CSP itself; this covers any other response a page might get.
  ses.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [contentSecurityPolicy] } });
  });
}

function hardenContents(contents: WebContents): void {
  contents.on('will-navigate', (event) => {
    if (!isAllowedNavigation(event.url, appEntryUrl)) event.preventDefault();
  });
  contents.on('will-redirect', (event) => {
    if (!isAllowedNavigation(event.url, appEntryUrl)) event.preventDefault();
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    const decision = windowOpenDecision(url);
    if (decision.openExternally !== null) void shell.openExternal(decision.openExternally);
    return { action: decision.action };
  });
}

async function serveAppAsset(request: Request): Promise<Response> {
  const file = resolveAppAsset(request.url, path.join(app.getAppPath(), appLayout.renderer));
  if (file === null) return new Response('Not found', { status: 404, headers: appResponseHeaders });
  const response = await net.fetch(pathToFileURL(file).toString());
  const headers = new Headers(response.headers);
  for (const [name, value] of Object.entries(appResponseHeaders)) headers.set(name, value);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

function createPopover(perch: PerchCore): BrowserWindow {
  const win = new BrowserWindow({
    ...popoverSize,
    show: false,
    frame: false,
    resizable: false,
    movable: false,
    minimizable: false,
    maximizable: false,
    fullscreenable: false,
    skipTaskbar: true,
    alwaysOnTop: true,
    backgroundColor: nativeTheme.shouldUseDarkColors ? '#1f1f1f' : '#ffffff',
    webPreferences: {
      preload: path.join(app.getAppPath(), appLayout.preload),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      spellcheck: false,
      devTools: !app.isPackaged,
    },
  });
  win.on('blur', () => {
    win.hide();
    popoverHiddenAt = Date.now();
  });
  win.on('show', () => perch.popoverOpened());
  void win.loadURL(appEntryUrl);
  return win;
}

function showPopover(): void {
  if (!popover || popover.isDestroyed()) return;
  const trayBounds = tray?.getBounds() ?? { x: 0, y: 0, width: 0, height: 0 };
  const cursor = screen.getCursorScreenPoint();
  const anchor = trayBounds.width > 0 ? { x: trayBounds.x, y: trayBounds.y } : cursor;
  const { workArea } = screen.getDisplayNearestPoint(anchor);
  const { x, y } = popoverPosition({ tray: trayBounds, cursor, window: popoverSize, workArea });
  popover.setPosition(x, y, false);
  popover.show();
  popover.focus();
}

function togglePopover(): void {
  if (!popover || popover.isDestroyed()) return;
  if (popover.isVisible()) {
    popover.hide();
    return;
  }
  // Clicking the icon of an open popover blurs (and hides) it first; that click meant "close".
  if (Date.now() - popoverHiddenAt < 300) return;
  showPopover();
}

function trayIcon(): NativeImage {
  const folder = path.join(app.getAppPath(), appLayout.trayIcons);
  if (process.platform === 'darwin') {
    // macOS tints template images for the menu bar's appearance itself (and picks up @2x).
    const image = nativeImage.createFromPath(path.join(folder, 'trayTemplate.png'));
    image.setTemplateImage(true);
    return image;
  }
  // Windows' taskbar may be dark while apps are light; only it says so separately.
  const darkTaskbar =
    process.platform === 'win32' ? nativeTheme.shouldUseDarkColorsForSystemIntegratedUI : nativeTheme.shouldUseDarkColors;
  // `tray-dark.png` is the light glyph drawn for dark taskbars, `tray-light.png` the reverse.
  return nativeImage.createFromPath(path.join(folder, darkTaskbar ? 'tray-dark.png' : 'tray-light.png'));
}

function createTray(): Tray {
  const icon = new Tray(trayIcon());
  icon.setToolTip('Perch');
  icon.on('click', () => togglePopover());
  // Most Linux trays report no clicks and open the attached menu instead (see updateTray);
  // elsewhere the menu is built when asked for, so its times are current.
  if (process.platform !== 'linux') icon.on('right-click', () => icon.popUpContextMenu(currentMenu()));
  return icon;
}

function currentMenu(): Menu {
  if (!core) return Menu.buildFromTemplate([]);
  return trayMenu(core.snapshot(), systemClock.now());
}

function trayMenu(state: StateSnapshot, now: DateTime): Menu {
  return Menu.buildFromTemplate(toElectronMenu(buildTrayMenu(state, now)));
}

function updateTray(): void {
  if (!tray || !core) return;
  const state = core.snapshot();
  const now = systemClock.now();
  tray.setToolTip(trayTooltip(state, now));
  if (process.platform === 'darwin') tray.setTitle(trayTitle(state, now));
  if (process.platform === 'linux') tray.setContextMenu(trayMenu(state, now));
}

function toElectronMenu(items: TrayMenuItem[]): MenuItemConstructorOptions[] {
  return items.map((item): MenuItemConstructorOptions => {
    if (item.type === 'separator') return { type: 'separator' };
    const options: MenuItemConstructorOptions = { label: menuLabel(item.label), enabled: item.enabled ?? true };
    if (item.submenu) options.submenu = toElectronMenu(item.submenu);
    const { command, action } = item;
    if (command) options.click = () => void runTrayCommand(command);
    else if (action === 'openPerch') options.click = () => showPopover();
    else if (action === 'quit') options.click = () => void quit();
    return options;
  });
}

/** Windows and Linux read `&` as a mnemonic marker; a resource named "R&D" must show as written. */
function menuLabel(label: string): string {
  return process.platform === 'darwin' ? label : label.replaceAll('&', '&&');
}

async function runTrayCommand(command: TrayCommand): Promise<void> {
  if (!core) return;
  const result = await dispatchCommand(core.handlers, command.name, command.request);
  // A failed check-in or booking must not pass unseen: the popover shows the core's error state.
  if (typeof result === 'object' && result !== null && 'ok' in result && result.ok === false) showPopover();
}

async function quit(): Promise<void> {
  if (quitting) return;
  quitting = true;
  try {
    // Quit must quit: a core stuck on a slow server gets a few seconds, not a veto.
    await Promise.race([core?.stop(), delay(stopTimeoutMs, undefined, { ref: false })]);
  } catch (error) {
    appLog?.write('Perch could not stop cleanly', error);
    console.error('Perch could not stop cleanly:', error);
  }
  // Notifications waiting for the user (on Linux, a notify-send process each) must not outlive the app.
  await notifier?.dispose();
  await appLog?.flush();
  app.quit();
}
