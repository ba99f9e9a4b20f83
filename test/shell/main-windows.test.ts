import { beforeAll, expect, it, vi } from 'vitest';
import { commandNames } from '../../electron/bridge.js';
import { appId } from '../../electron/core/desktop/app-identity.js';
import { current, fakeCore, fakeElectron as electron, stateWithCheckInOpen } from './fake-electron.js';

// What differs on Windows: the app's identity, which Windows needs to show its notifications.
vi.hoisted(() => Object.defineProperty(process, 'platform', { value: 'win32' }));
vi.mock('electron', async () => (await import('./fake-electron.js')).fakeElectron);
vi.mock('../../electron/core/perch-core.js', async () => (await import('./fake-electron.js')).fakeCoreModules.perchCore());
vi.mock('../../electron/core/storage/keychain.js', async () => (await import('./fake-electron.js')).fakeCoreModules.keychain());
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
  expect(electron.app.setAppUserModelId.mock.invocationCallOrder[0]).toBeLessThan(vi.mocked(createDesktopNotifier).mock.invocationCallOrder[0]!);
});
