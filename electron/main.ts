/**
 * The Electron shell's composition: the core, wired to the OS adapters in electron/shell/ (tray,
 * popover window, app scheme, hardening) and to IPC and OS events. Every decision lives in
 * electron/core (tested in plain Node); this file only connects the parts.
 */
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { app, clipboard, dialog, ipcMain, nativeTheme, powerMonitor, shell, utilityProcess } from 'electron';
import { channelOf, commandNames, eventNames, type StateSnapshot } from './bridge/contract.js';
import { defaultTimeFormatRules } from './bridge/format.js';
import { runIdentity } from './core/desktop/app-identity.js';
import { appLayout, unpackedPath } from './core/desktop/app-layout.js';
import { appPaths } from './core/desktop/app-paths.js';
import { systemClock } from './core/clock.js';
import { messageOf } from './core/errors.js';
import { dispatchCommand, foreignSenderRefusal } from './core/desktop/ipc-validation.js';
import { openKeychain } from './platform/keychain/keychain.js';
import { createLocalService, type ServiceHostProcess } from './core/local-service/local-service.js';
import { openLogFile, type LogFile } from './platform/log-file.js';
import type { NotifierHandle } from './core/notifications/notifier.js';
import { createPerchCore, type PerchCore } from './core/perch-core.js';
import { launchCommand } from './core/desktop/global-shortcut.js';
import { popoverAtStart, type TrayHost } from './core/desktop/popover-at-start.js';
import { sandboxOffNotice } from './core/desktop/sandbox-notice.js';
import { appEntryUrl, isAppSender, windowOpenDecision } from './core/desktop/security.js';
import { probeTrayHost, sessionBusAddress } from './platform/tray-host.js';
import { buildTrayMenu, trayTitle, trayTooltip, type TrayAction, type TrayCommand } from './core/desktop/tray-menu.js';
import { createTrayRefresh } from './core/desktop/tray-refresh.js';
import { registerAppScheme, serveAppScheme } from './shell/app-protocol.js';
import { hardenEveryWebContents, hardenSession } from './shell/hardening.js';
import { createPopoverWindow, type PopoverWindow } from './shell/popover-window.js';
import { createPerchTray, type PerchTray, type TrayView } from './shell/tray.js';
import { loginItem } from './shell/login-item.js';
import { createDesktopNotifier } from './shell/notifications.js';
import { createGlobalShortcut } from './shell/global-shortcut.js';
import { systemBusAddress, watchSessionLock, type SessionLockWatcher } from './platform/session-lock.js';

/** Beside the app's own files in its data folder: the local service's database. */
const localServiceFolder = 'local-service';

const stopTimeoutMs = 5_000;

let popover: PopoverWindow | null = null;
let tray: PerchTray | null = null;
let core: PerchCore | null = null;
let quitting = false;
let appLog: LogFile | null = null;
let notifier: NotifierHandle | null = null;
let sessionLock: SessionLockWatcher | null = null;

registerAppScheme();

// Before anything reads a path or takes the single-instance lock, which lives in the data folder.
const paths = appPaths({ packaged: app.isPackaged, appData: app.getPath('appData'), productName: app.getName() });
app.setPath('userData', paths.userData);
if (paths.logs !== null) app.setAppLogsPath(paths.logs);
// A run from source is another app to the OS too: its notifications never start the installed one's.
const identity = runIdentity(app.isPackaged);

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  // Launching Perch again (its app-menu entry, Start-menu shortcut) while it runs shows it.
  app.on('second-instance', () => popover?.show('elsewhere'));
  // macOS does not start a second instance: opening the running app from Finder, Spotlight or
  // Launchpad reopens it (applicationShouldHandleReopen, Electron's `activate`).
  app.on('activate', () => popover?.show('elsewhere'));
  // A tray app lives on with no window open; quitting is the menu's Quit.
  app.on('window-all-closed', () => {});
  app.on('before-quit', (event) => {
    if (quitting) return;
    event.preventDefault();
    void quit();
  });
  hardenEveryWebContents();
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
  // No Dock icon, even while the popover is open: Perch lives in the menu bar, and the popover is a
  // panel that closes when it loses focus. A Dock icon would come and go with it. The installed app
  // declares the same (LSUIElement); this covers unpackaged runs.
  if (process.platform === 'darwin') app.dock?.hide();
  // Windows shows and groups notifications by this id; it must be the one the installer registered.
  // A clicked toast starts the activator registered for the id when Perch is not running.
  if (process.platform === 'win32') {
    app.setAppUserModelId(identity.appId);
    app.setToastActivatorCLSID(identity.toastActivatorClsid);
  }
  hardenSession();
  serveAppScheme();
  // Asked while the core starts: the answer decides whether the popover opens by itself.
  const trayHost = process.platform === 'linux' ? probeTrayHost() : Promise.resolve<TrayHost>({ kind: 'registered' });

  const logFile = openLogFile({ logsDir: app.getPath('logs') });
  appLog = logFile;
  const log = (message: string, error?: unknown) => {
    logFile.write(message, error);
    console.warn(`[perch] ${message}`, error ?? '');
  };
  const sandboxOff = sandboxOffNotice({ noSandbox: app.commandLine.hasSwitch('no-sandbox'), appImage: process.env['APPIMAGE'] });
  if (sandboxOff !== null) log(sandboxOff);
  const perch = createPerchCore({
    dataDir: app.getPath('userData'),
    clock: systemClock,
    secrets: openKeychain(paths.keychainService),
    notifier: (notifier = createDesktopNotifier({
      appId: identity.appId,
      icon: unpackedPath(app.getAppPath(), appLayout.notificationIcon),
    })),
    // The OS's regional format, not the UI language: it decides how times read (12- or 24-hour, order).
    timeFormat: defaultTimeFormatRules(app.getSystemLocale()),
    // An unpackaged run would register the bare Electron binary to start at login.
    ...(app.isPackaged && { autostart: loginItem() }),
    globalShortcut: createGlobalShortcut({
      onPressed: () => popover?.show('elsewhere'),
      // Where Perch's own shortcut cannot work, the desktop's can run this: the second instance opens the popover.
      launchCommand: launchCommand({
        platform: process.platform,
        packaged: app.isPackaged,
        execPath: process.execPath,
        appImage: process.env['APPIMAGE'],
        appPath: app.getAppPath(),
      }),
      env: process.env,
    }),
    // "Try it on this computer" offers the demo organisation to book in.
    localService: createLocalService({
      dataFolder: path.join(app.getPath('userData'), localServiceFolder),
      demo: true,
      launch: launchServiceHost,
      log,
    }),
    log,
  });
  core = perch;
  registerCommands(perch);
  tray = createPerchTray({
    view: () => trayView(perch.snapshot()),
    onIconClick: () => popover?.toggle(),
    onCommand: (command) => void runTrayCommand(command),
    onAction: (action) => runTrayAction(action),
    // Opening the menu is a look too (the core asks at most once a minute for it).
    onMenuOpened: () => perch.trayMenuOpened(),
  });
  // Between state changes (a poll may be minutes away) the tray's countdown still turns on time.
  const trayWords = createTrayRefresh({
    clock: systemClock,
    snapshot: () => perch.snapshot(),
    show: (state) => tray?.refresh(trayView(state)),
  });
  popover = createPopoverWindow({
    trayBounds: () => tray?.bounds() ?? null,
    onShown: () => perch.popoverOpened(),
    snapshot: () => perch.snapshot(),
  });
  trayWords.refresh();

  for (const event of eventNames) {
    // The state reaches the page through the popover's feed, only while someone can see it.
    if (event === 'stateChanged') continue;
    const channel = channelOf(event);
    perch.on(event, (payload) => popover?.send(channel, payload));
  }
  perch.on('stateChanged', popover.stateChanged);
  // The state changed comes with its snapshot: the tray shows it rather than working out another.
  perch.on('stateChanged', (snapshot) => trayWords.refresh(snapshot));
  perch.on('navigate', () => popover?.show('elsewhere'));
  perch.on('hidePopover', () => popover?.hide());
  // The core names only pages of the signed-in server; the shell still opens nothing but a web address.
  perch.on('openExternal', (url) => {
    const web = windowOpenDecision(url).openExternally;
    if (web !== null) void shell.openExternal(web);
  });
  perch.on('copyText', (text) => clipboard.writeText(text));

  powerMonitor.on('suspend', () => perch.systemSuspended());
  powerMonitor.on('resume', () => perch.systemResumed());
  if (process.platform === 'linux') {
    // powerMonitor's lock events are macOS's and Windows' only (docs/api/power-monitor.md): on Linux
    // the session's lock is read from the screen saver and logind over D-Bus.
    sessionLock = watchSessionLock({
      onLocked: () => perch.screenLocked(),
      onUnlocked: () => perch.screenUnlocked(),
      sessionBusAddress: sessionBusAddress(process.env),
      systemBusAddress: systemBusAddress(process.env),
      log,
    });
  } else {
    powerMonitor.on('lock-screen', () => perch.screenLocked());
    powerMonitor.on('unlock-screen', () => perch.screenUnlocked());
  }

  await perch.start();
  await applySettings(perch);
  trayWords.refresh();
  const host = await trayHost;
  if (host.kind !== 'registered') log(`the desktop shows no tray icon: ${host.reason}`);
  const reason = popoverAtStart({ phase: perch.snapshot().phase, trayHost: host });
  if (reason !== null) popover.show('elsewhere');
}

/** What the tray shows of a state, at this moment. */
function trayView(state: StateSnapshot): TrayView {
  const now = systemClock.now();
  return { menu: buildTrayMenu(state, now), tooltip: trayTooltip(state, now), title: trayTitle(state, now) };
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

/** The settings the shell, not the core, acts on (launch at login is the core's, through `loginItem`). */
async function applySettings(perch: PerchCore): Promise<void> {
  const settings = await perch.handlers.getSettings();
  nativeTheme.themeSource = settings.theme;
}

async function runTrayCommand(command: TrayCommand): Promise<void> {
  if (!core) return;
  const result = await dispatchCommand(core.handlers, command.name, command.request);
  // A failed check-in or booking must not pass unseen: the popover shows the core's error state.
  if (typeof result === 'object' && result !== null && 'ok' in result && result.ok === false) popover?.show('elsewhere');
}

function runTrayAction(action: TrayAction): void {
  if (action === 'openPerch') popover?.show('elsewhere');
  else void quit();
}

async function quit(): Promise<void> {
  if (quitting) return;
  quitting = true;
  sessionLock?.stop();
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
