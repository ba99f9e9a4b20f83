import { beforeAll, expect, it, vi } from 'vitest';
import { commandNames } from '../../electron/bridge/contract.js';
import { appId, toastActivatorClsid } from '../../electron/core/desktop/app-identity.js';
import { current, fakeCore, fakeElectron as electron, stateWithCheckInOpen } from './fake-electron.js';

// `npm start` on Windows: Windows ties an AppUserModelID and its toast activator to the program
// that registered them last. Under the installed app's id, a toast clicked after this run quit
// would start bare electron.exe instead of the installed Perch.
vi.hoisted(() => Object.defineProperty(process, 'platform', { value: 'win32' }));
vi.mock('electron', async () => (await import('./fake-electron.js')).fakeElectron);
vi.mock('../../electron/core/perch-core.js', async () => (await import('./fake-electron.js')).fakeCoreModules.perchCore());
vi.mock('../../electron/platform/keychain/keychain.js', async () => (await import('./fake-electron.js')).fakeCoreModules.keychain());
vi.mock('../../electron/shell/notifications.js', async () => (await import('./fake-electron.js')).fakeCoreModules.notifier());

const { createDesktopNotifier } = await import('../../electron/shell/notifications.js');
current.core = fakeCore(commandNames, stateWithCheckInOpen());
electron.app.isPackaged = false;

beforeAll(async () => {
  await import('../../electron/main.js');
  await vi.waitFor(() => expect(electron.nativeTheme.themeSource).toBe('dark'));
});

it('unpackaged runs use their own app id and toast activator, and notifications carry that id', () => {
  expect(electron.app.setAppUserModelId).toHaveBeenCalledExactlyOnceWith('org.perchapp.perch.dev');
  expect(createDesktopNotifier).toHaveBeenCalledExactlyOnceWith({
    appId: 'org.perchapp.perch.dev',
    icon: '/opt/perch/build/icons/256x256.png',
  });
  const [activator] = electron.app.setToastActivatorCLSID.mock.calls[0] ?? [];
  expect(activator).toMatch(/^\{[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}\}$/);
  expect(activator).not.toBe(toastActivatorClsid);
  expect(appId).not.toBe('org.perchapp.perch.dev');
  expect(electron.app.setAppUserModelId.mock.invocationCallOrder[0]).toBeLessThan(
    vi.mocked(createDesktopNotifier).mock.invocationCallOrder[0]!,
  );
});
