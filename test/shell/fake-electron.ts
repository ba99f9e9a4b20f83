/**
 * A stand-in for the parts of `electron` the shell (main.ts and electron/shell/) touches,
 * recording what it does with them; test files install it with `vi.mock('electron', …)` (the
 * binary cannot run here).
 */
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { vi, type Mock as VitestMock } from 'vitest';
import type { CommandName, StateSnapshot } from '../../electron/bridge/contract.js';
import { reservationView, signedOutState } from '../support/snapshots.js';

export type Listener = (...args: unknown[]) => unknown;
// A test double accepts and answers anything the shell passes it.
export type Mock = VitestMock<(...args: any[]) => any>;

/** Records `on(event, listener)` registrations so a test can fire them. */
export function emitter() {
  const listeners = new Map<string, Listener[]>();
  return {
    on: vi.fn((event: string, listener: Listener) => {
      listeners.set(event, [...(listeners.get(event) ?? []), listener]);
    }),
    emit(event: string, ...args: unknown[]): unknown[] {
      return (listeners.get(event) ?? []).map((listener) => listener(...args));
    },
    count: (event: string) => listeners.get(event)?.length ?? 0,
  };
}
export type Emitter = ReturnType<typeof emitter>;

export interface FakeWindow extends Emitter {
  options: Record<string, unknown>;
  visible: boolean;
  show: Mock;
  hide: Mock;
  focus: Mock;
  setPosition: Mock;
  setVisibleOnAllWorkspaces: Mock;
  setBackgroundColor: Mock;
  loadURL: Mock;
  webContents: { send: Mock };
}

export interface FakeTray extends Emitter {
  image: unknown;
  setImage: Mock;
  setToolTip: Mock;
  setTitle: Mock;
  setContextMenu: Mock;
  popUpContextMenu: Mock;
}

/** A utility process as main forks it: what it was started with, the messages posted to it. */
export interface FakeUtilityProcess extends Emitter {
  modulePath: string;
  options: Record<string, unknown>;
  pid: number;
  postMessage: Mock;
  kill: Mock;
}

/** A notification as the shell built it; `emit` plays the OS (show, click, action, close, failed). */
export interface FakeNotification extends Emitter {
  options: { title?: string; body?: string; icon?: unknown; silent?: boolean; actions?: { type: string; text?: string }[] };
  show: Mock;
  close: Mock;
}

export const windows: FakeWindow[] = [];
export const notifications: FakeNotification[] = [];
export const trays: FakeTray[] = [];
export const utilityProcesses: FakeUtilityProcess[] = [];

/** The folders `app.getPath` answers: fresh ones, since the shell writes its log and autostart entry there. */
// Not os.tmpdir(): the Windows shell test pretends to run on win32, where it reads %TEMP%.
export const fakeUserHome = mkdtempSync(join(process.env.TMPDIR ?? '/tmp', 'perch-shell-'));
const fakeAppData = join(fakeUserHome, 'config');
/** What `app.getPath` answers before the shell sets any path: Electron's defaults for an app named Perch. */
export const fakeAppPath = (name: string) =>
  name === 'appData' ? fakeAppData : name === 'userData' ? join(fakeAppData, 'Perch') : join(fakeAppData, 'Perch', name);
/** The paths the shell set with `app.setPath`, which `app.getPath` answers from then on. */
const setPaths = new Map<string, string>();

/** The OS's global shortcuts: who holds which keys. Another app's are `takenElsewhere`. */
export const heldShortcuts = new Map<string, () => void>();
export const takenElsewhere = new Set<string>();

export const fakeElectron = {
  app: {
    ...emitter(),
    /** The switches Perch was started with (`--no-sandbox`: the AppImage's AppRun adds it where user namespaces are refused). */
    switches: new Set<string>(),
    commandLine: { appendSwitch: vi.fn(), hasSwitch: vi.fn((name: string) => fakeElectron.app.switches.has(name)) },
    requestSingleInstanceLock: vi.fn(() => true),
    whenReady: vi.fn(() => Promise.resolve()),
    getPath: vi.fn((name: string) => setPaths.get(name) ?? fakeAppPath(name)),
    setPath: vi.fn((name: string, path: string) => void setPaths.set(name, path)),
    setAppLogsPath: vi.fn((path: string) => void setPaths.set('logs', path)),
    getName: vi.fn(() => 'Perch'),
    /** The OS's regional format (Electron: after ready). */
    getSystemLocale: vi.fn(() => 'en-GB'),
    getAppPath: vi.fn(() => '/opt/perch'),
    isPackaged: true,
    /**
     * macOS's and Windows' login item for Perch, as the OS keeps it (the user may change it in the
     * OS's settings). Windows: `openAtLogin` is the Run entry; `startupApproved` the switch in Task
     * Manager and Settings › Apps › Startup, which only `executableWillLaunchAtLogin` heeds.
     */
    loginItem: { openAtLogin: false, startupApproved: true },
    getLoginItemSettings: vi.fn(() => {
      const { openAtLogin, startupApproved } = fakeElectron.app.loginItem;
      return { openAtLogin, executableWillLaunchAtLogin: openAtLogin && startupApproved };
    }),
    setLoginItemSettings: vi.fn(({ openAtLogin }: { openAtLogin: boolean }) => {
      // Electron writes the Run entry and clears the Startup switch (its `enabled` defaults to true).
      fakeElectron.app.loginItem = { openAtLogin, startupApproved: true };
    }),
    setAppUserModelId: vi.fn(),
    setToastActivatorCLSID: vi.fn(),
    quit: vi.fn(),
    exit: vi.fn(),
    dock: { hide: vi.fn() },
  },
  BrowserWindow: vi.fn(function FakeBrowserWindow(options: Record<string, unknown>) {
    const events = emitter();
    const win: FakeWindow = {
      options,
      ...events,
      visible: false,
      show: vi.fn(() => {
        win.visible = true;
        events.emit('show');
      }),
      hide: vi.fn(() => {
        win.visible = false;
      }),
      focus: vi.fn(),
      setPosition: vi.fn(),
      setVisibleOnAllWorkspaces: vi.fn(),
      setBackgroundColor: vi.fn(),
      loadURL: vi.fn(async () => {}),
      webContents: { send: vi.fn() },
    };
    Object.assign(win, { isVisible: () => win.visible, isDestroyed: () => false });
    windows.push(win);
    return win;
  }),
  Tray: vi.fn(function FakeTrayIcon(image: unknown) {
    const tray: FakeTray = {
      image,
      ...emitter(),
      setImage: vi.fn(),
      setToolTip: vi.fn(),
      setTitle: vi.fn(),
      setContextMenu: vi.fn(),
      popUpContextMenu: vi.fn(),
    };
    // StatusNotifierItem trays (Linux) do not tell apps where the icon is.
    const bounds = process.platform === 'linux' ? { x: 0, y: 0, width: 0, height: 0 } : { x: 1800, y: 0, width: 24, height: 24 };
    Object.assign(tray, { getBounds: () => bounds });
    trays.push(tray);
    return tray;
  }),
  dialog: { showErrorBox: vi.fn() },
  Notification: Object.assign(
    vi.fn(function FakeElectronNotification(options: FakeNotification['options']) {
      const notification: FakeNotification = { options, ...emitter(), show: vi.fn(), close: vi.fn() };
      notifications.push(notification);
      return notification;
    }),
    { isSupported: vi.fn(() => true) },
  ),
  ipcMain: { handle: vi.fn() },
  globalShortcut: {
    register: vi.fn((accelerator: string, pressed: () => void) => {
      if (takenElsewhere.has(accelerator) || heldShortcuts.has(accelerator)) return false;
      heldShortcuts.set(accelerator, pressed);
      return true;
    }),
    unregister: vi.fn((accelerator: string) => void heldShortcuts.delete(accelerator)),
  },
  Menu: { buildFromTemplate: vi.fn(buildMenu) },
  nativeImage: {
    createFromPath: vi.fn((file: string) => ({ file, setTemplateImage: vi.fn() })),
    createFromBitmap: vi.fn((buffer: Buffer, size: { width: number; height: number }) => ({
      bitmap: buffer,
      size,
      isEmpty: () => buffer.length === 0,
    })),
  },
  nativeTheme: { ...emitter(), shouldUseDarkColors: false, shouldUseDarkColorsForSystemIntegratedUI: false, themeSource: 'system' },
  net: { fetch: vi.fn() },
  powerMonitor: emitter(),
  protocol: { registerSchemesAsPrivileged: vi.fn(), handle: vi.fn() },
  screen: {
    getCursorScreenPoint: vi.fn(() => ({ x: 1810, y: 10 })),
    getDisplayNearestPoint: vi.fn(() => fakeDisplay),
    getPrimaryDisplay: vi.fn(() => fakeDisplay),
  },
  session: {
    defaultSession: {
      setPermissionRequestHandler: vi.fn(),
      setPermissionCheckHandler: vi.fn(),
      webRequest: { onHeadersReceived: vi.fn() },
    },
  },
  shell: { openExternal: vi.fn(async () => {}) },
  clipboard: { writeText: vi.fn() },
  utilityProcess: {
    fork: vi.fn((modulePath: string, _args: string[], options: Record<string, unknown>) => {
      const child: FakeUtilityProcess = {
        modulePath,
        options,
        pid: 4242 + utilityProcesses.length,
        ...emitter(),
        postMessage: vi.fn(),
        kill: vi.fn(),
      };
      utilityProcesses.push(child);
      return child;
    }),
  },
};

/** A menu template as main hands it to `Menu.buildFromTemplate`. */
export type MenuTemplate = { label?: string; type?: string; enabled?: boolean; click?: () => unknown; submenu?: MenuTemplate[] };

/**
 * A built menu: the template it came from, and its items, whose label and enabled the shell may
 * change later; `emit('menu-will-show')` plays the OS opening it.
 */
export interface FakeMenu extends Emitter {
  template: MenuTemplate[];
  items: { label: string; enabled: boolean; submenu: FakeMenu | null }[];
}

function buildMenu(template: MenuTemplate[]): FakeMenu {
  return {
    ...emitter(),
    template,
    items: template.map((item) => ({
      label: item.label ?? '',
      enabled: item.enabled ?? true,
      submenu: item.submenu ? buildMenu(item.submenu) : null,
    })),
  };
}

/** A 1920×1080 screen with a 27-pixel top bar. */
export const fakeDisplay = { bounds: { x: 0, y: 0, width: 1920, height: 1080 }, workArea: { x: 0, y: 27, width: 1920, height: 1053 } };

export function latestMenu(): MenuTemplate[] {
  const calls = fakeElectron.Menu.buildFromTemplate.mock.calls;
  return calls[calls.length - 1]?.[0] as MenuTemplate[];
}

/** A reservation that started a minute ago with check-in open, whenever the test runs. */
export function stateWithCheckInOpen(): StateSnapshot {
  return signedOutState(new Date().toISOString(), {
    phase: 'ready',
    reservations: [
      reservationView({
        referenceNumber: 'ref-7',
        title: 'Standup',
        start: new Date(Date.now() - 60_000).toISOString(),
        end: new Date(Date.now() + 3_600_000).toISOString(),
        requiresCheckIn: true,
        awaitsCheckIn: true,
        checkInOpen: true,
        ownerName: 'Ada',
      }),
    ],
  });
}

/** The core's surface as main uses it, every method a spy; events fired through `events`. */
export function fakeCore(commandNames: readonly CommandName[], state: StateSnapshot) {
  const events = emitter();
  return {
    events,
    handlers: Object.fromEntries(
      commandNames.map((name) => [
        name,
        vi.fn(async () => (name === 'getSettings' ? { theme: 'dark', launchAtLogin: true } : { ok: true, value: name })),
      ]),
    ) as Record<CommandName, Mock>,
    on: vi.fn((event: string, listener: Listener) => {
      events.on(event, listener);
      return () => {};
    }),
    snapshot: vi.fn(() => state),
    start: vi.fn(async () => {}),
    stop: vi.fn(async () => {}),
    popoverOpened: vi.fn(),
    trayMenuOpened: vi.fn(),
    systemSuspended: vi.fn(),
    systemResumed: vi.fn(),
    screenLocked: vi.fn(),
    screenUnlocked: vi.fn(),
  };
}
export type FakeCore = ReturnType<typeof fakeCore>;

/** The core `createPerchCore` hands main; a test sets it before importing main. */
export const current: { core: FakeCore | null } = { core: null };

/** The core modules main imports, as each shell test file mocks them (`vi.mock(path, () => import(…).then(…))`). */
export const fakeCoreModules = {
  perchCore: () => ({ createPerchCore: vi.fn(() => current.core) }),
  keychain: () => ({ openKeychain: vi.fn(() => ({ status: () => ({ available: true, reason: null }) })) }),
  notifier: () => ({ createDesktopNotifier: vi.fn(() => ({ show: vi.fn(), onResponse: vi.fn(), dispose: vi.fn(async () => {}) })) }),
  /** A desktop whose tray shows Perch's icon; a test of one that shows none answers otherwise. */
  trayHost: () => ({
    probeTrayHost: vi.fn(async () => ({ kind: 'registered' })),
    sessionBusAddress: vi.fn(() => 'unix:path=/fake/session_bus'),
  }),
  /** The GlobalShortcuts portal, asked about under Wayland (test/platform/shortcut-portal.test.ts asks a real bus): a GNOME 46 without it. */
  shortcutPortal: () => ({
    probeShortcutPortal: vi.fn(async () => ({ kind: 'missing', reason: 'the desktop portal has no GlobalShortcuts' })),
    shortcutsInterface: 'org.freedesktop.portal.GlobalShortcuts',
  }),
  /** The session's lock over D-Bus, on Linux (test/platform/session-lock.test.ts watches a real bus). */
  sessionLock: () => ({
    systemBusAddress: vi.fn(() => 'unix:path=/fake/system_bus_socket'),
    watchSessionLock: vi.fn(() => ({ ready: Promise.resolve(), stop: vi.fn() })),
  }),
};
