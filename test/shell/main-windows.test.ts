import { beforeAll, expect, it, vi } from 'vitest';
import { commandNames } from '../../electron/bridge/contract.js';
import { appId, toastActivatorClsid } from '../../electron/core/desktop/app-identity.js';
import { current, fakeCore, fakeElectron as electron, stateWithCheckInOpen, trays, windows } from './fake-electron.js';

// What differs on Windows: the app's identity, which Windows needs to show its notifications.
vi.hoisted(() => Object.defineProperty(process, 'platform', { value: 'win32' }));
vi.mock('electron', async () => (await import('./fake-electron.js')).fakeElectron);
vi.mock('../../electron/core/perch-core.js', async () => (await import('./fake-electron.js')).fakeCoreModules.perchCore());
vi.mock('../../electron/platform/keychain/keychain.js', async () => (await import('./fake-electron.js')).fakeCoreModules.keychain());
vi.mock('../../electron/shell/notifications.js', async () => (await import('./fake-electron.js')).fakeCoreModules.notifier());

const { createDesktopNotifier } = await import('../../electron/shell/notifications.js');
current.core = fakeCore(commandNames, stateWithCheckInOpen());

beforeAll(async () => {
  await import('../../electron/main.js');
  await vi.waitFor(() => expect(electron.nativeTheme.themeSource).toBe('dark'));
});

it('registers the AppUserModelID the installer uses, and notifications carry the same id', () => {
  expect(electron.app.setAppUserModelId).toHaveBeenCalledExactlyOnceWith(appId);
  expect(createDesktopNotifier).toHaveBeenCalledExactlyOnceWith({ appId, icon: '/opt/perch/build/icons/256x256.png' });
  // Electron's toasts are shown for the process's id: it must be set before the first one.
  expect(electron.app.setAppUserModelId.mock.invocationCallOrder[0]).toBeLessThan(
    vi.mocked(createDesktopNotifier).mock.invocationCallOrder[0]!,
  );
});

it('registers the toast activator the uninstaller removes, before the first toast', () => {
  expect(electron.app.setToastActivatorCLSID).toHaveBeenCalledExactlyOnceWith(toastActivatorClsid);
  expect(electron.app.setToastActivatorCLSID.mock.invocationCallOrder[0]).toBeLessThan(
    vi.mocked(createDesktopNotifier).mock.invocationCallOrder[0]!,
  );
});

it("picks the tray glyph by the taskbar colour, which Windows reports apart from the apps' theme", () => {
  expect(electron.nativeImage.createFromPath).toHaveBeenLastCalledWith('/opt/perch/build/tray/tray-light.png');
  electron.nativeTheme.shouldUseDarkColorsForSystemIntegratedUI = true;
  electron.nativeTheme.emit('updated');
  expect(electron.nativeImage.createFromPath).toHaveBeenLastCalledWith('/opt/perch/build/tray/tray-dark.png');
  expect(trays[0]?.setImage).toHaveBeenCalledTimes(1);
});

it.each([
  {
    edge: 'bottom',
    tray: { x: 1700, y: 1046, width: 24, height: 32 },
    workArea: { x: 0, y: 0, width: 1920, height: 1040 },
    expected: [1522, 480],
  },
  {
    edge: 'left',
    tray: { x: 8, y: 1000, width: 32, height: 24 },
    workArea: { x: 48, y: 0, width: 1872, height: 1080 },
    expected: [48, 520],
  },
  {
    edge: 'right',
    tray: { x: 1880, y: 1000, width: 32, height: 24 },
    workArea: { x: 0, y: 0, width: 1872, height: 1080 },
    expected: [1492, 520],
  },
  {
    edge: 'top',
    tray: { x: 1700, y: 4, width: 24, height: 32 },
    workArea: { x: 0, y: 40, width: 1920, height: 1040 },
    expected: [1522, 40],
  },
])('a click on the icon in a taskbar at the $edge opens the popover beside the taskbar', ({ tray, workArea, expected }) => {
  const icon = trays[0]!;
  Object.assign(icon, { getBounds: () => tray });
  electron.screen.getDisplayNearestPoint.mockReturnValue({ bounds: { x: 0, y: 0, width: 1920, height: 1080 }, workArea });
  icon.emit('click');
  expect(windows[0]?.setPosition).toHaveBeenLastCalledWith(...expected, false);
  windows[0]?.hide();
});

it.each([
  ['lock-screen', 'screenLocked'],
  ['unlock-screen', 'screenUnlocked'],
] as const)('powerMonitor %s → core.%s()', (event, method) => {
  electron.powerMonitor.emit(event);
  expect(current.core?.[method]).toHaveBeenCalledTimes(1);
});

it('keeps the popover out of the taskbar with skipTaskbar, which works on Windows, and asks for no window type', () => {
  expect(windows[0]?.options).toMatchObject({ skipTaskbar: true });
  expect(windows[0]?.options).not.toHaveProperty('type');
});

it('registers the shortcut with Windows itself, offering no command for a shortcut of the desktop’s own', async () => {
  const { createPerchCore } = await import('../../electron/core/perch-core.js');
  const shortcut = vi.mocked(createPerchCore).mock.calls[0]?.[0].globalShortcut;
  expect(shortcut?.launchCommand).toBeNull();
  expect(await shortcut?.delivery()).toEqual({ kind: 'direct' });
});
