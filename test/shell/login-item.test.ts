/**
 * Launch at login on Windows, against the mocked Electron's login item: what Perch reads when the
 * user changes it in the OS's own settings (macOS's: test/shell/main-macos.test.ts).
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeElectron as electron } from './fake-electron.js';

vi.mock('electron', async () => (await import('./fake-electron.js')).fakeElectron);
const { loginItem } = await import('../../electron/shell/login-item.js');
const app = electron.app;

beforeEach(() => {
  app.loginItem = { openAtLogin: false, startupApproved: true };
});

describe('Windows', () => {
  it('reads executableWillLaunchAtLogin: switched off in Task Manager or Settings › Apps › Startup, Perch shows it off', async () => {
    const item = loginItem('win32');
    await item.write(true);
    expect(app.setLoginItemSettings).toHaveBeenLastCalledWith({ openAtLogin: true });
    await expect(item.read()).resolves.toBe(true);
    // The Run entry stays as Perch wrote it (openAtLogin still true); only the Startup switch is off.
    app.loginItem.startupApproved = false;
    expect(app.getLoginItemSettings()).toMatchObject({ openAtLogin: true });
    await expect(item.read()).resolves.toBe(false);
    // Switched on in Perch again, it starts at login again.
    await item.write(true);
    await expect(item.read()).resolves.toBe(true);
    await item.write(false);
    await expect(item.read()).resolves.toBe(false);
  });
});
