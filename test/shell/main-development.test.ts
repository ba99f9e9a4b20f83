import { join } from 'node:path';
import { beforeAll, expect, it, vi } from 'vitest';
import { commandNames } from '../../electron/bridge/contract.js';
import { appId } from '../../electron/core/desktop/app-identity.js';
import { appPaths } from '../../electron/core/desktop/app-paths.js';
import { current, fakeAppPath, fakeCore, fakeElectron as electron, stateWithCheckInOpen } from './fake-electron.js';

// `npm start`: the unpackaged app beside the installed one, on data, logs, keychain entries and a
// single-instance lock of its own.
vi.hoisted(() => Object.defineProperty(process, 'platform', { value: 'linux' }));
vi.mock('electron', async () => (await import('./fake-electron.js')).fakeElectron);
vi.mock('../../electron/platform/session-lock.js', async () => (await import('./fake-electron.js')).fakeCoreModules.sessionLock());
vi.mock('../../electron/core/perch-core.js', async () => (await import('./fake-electron.js')).fakeCoreModules.perchCore());
vi.mock('../../electron/platform/keychain/keychain.js', async () => (await import('./fake-electron.js')).fakeCoreModules.keychain());
vi.mock('../../electron/shell/notifications.js', async () => (await import('./fake-electron.js')).fakeCoreModules.notifier());

const { createPerchCore } = await import('../../electron/core/perch-core.js');
const { openKeychain } = await import('../../electron/platform/keychain/keychain.js');
const { createDesktopNotifier } = await import('../../electron/shell/notifications.js');
current.core = fakeCore(commandNames, stateWithCheckInOpen());
const app = electron.app;
app.isPackaged = false;
const installed = appPaths({ packaged: true, appData: fakeAppPath('appData'), productName: 'Perch' });
const development = join(fakeAppPath('appData'), 'Perch (development)');

beforeAll(async () => {
  await import('../../electron/main.js');
  await vi.waitFor(() => expect(electron.nativeTheme.themeSource).toBe('dark'));
});

it('takes its own data folder before the single-instance lock, so the lock is its own too', () => {
  expect(app.setPath).toHaveBeenCalledExactlyOnceWith('userData', development);
  expect(development).not.toBe(installed.userData);
  expect(app.setPath.mock.invocationCallOrder[0]).toBeLessThan(app.requestSingleInstanceLock.mock.invocationCallOrder[0]!);
  expect(app.quit).not.toHaveBeenCalled();
});

it('gives the core that folder for its data and the local service, logs there, and files keychain entries apart', () => {
  const options = vi.mocked(createPerchCore).mock.calls[0]?.[0];
  expect(options?.dataDir).toBe(development);
  expect(app.setAppLogsPath).toHaveBeenCalledExactlyOnceWith(join(development, 'logs'));
  expect(openKeychain).toHaveBeenCalledExactlyOnceWith('Perch (development)');
  expect(installed.keychainService).toBe('Perch');
});

it('never registers the bare Electron binary to start at login: the core gets no login item', () => {
  expect(vi.mocked(createPerchCore).mock.calls[0]?.[0]).not.toHaveProperty('autostart');
  expect(app.setLoginItemSettings).not.toHaveBeenCalled();
});

it('sends notifications under an app id of its own, so the desktop never files them under the installed app nor starts that app from them', () => {
  expect(createDesktopNotifier).toHaveBeenCalledExactlyOnceWith({
    appId: 'org.perchapp.perch.dev',
    icon: '/opt/perch/build/icons/256x256.png',
  });
  expect('org.perchapp.perch.dev').not.toBe(appId);
});
