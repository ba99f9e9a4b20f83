import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DateTime } from 'luxon';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { linuxAutostart, linuxAutostartFile } from '../../electron/platform/linux-autostart.js';
import type { Autostart } from '../../electron/core/desktop/autostart.js';
import { createPerchCore } from '../../electron/core/perch-core.js';
import { memorySecretStore } from '../../electron/core/storage/secret-store.js';
import { defaultSettings, saveSettings } from '../../electron/core/storage/settings-store.js';
import { recordingNotifier } from '../support/core-harness.js';
import { ManualCoreClock } from '../support/manual-clock.js';

// Launch at login belongs to the OS: the core shows what the OS has (here Linux's XDG autostart
// entry, a real file in a throwaway configuration folder) and writes it only when the user changes it.

let folder: string;
let dataDir: string;
let configHome: string;
let writes: boolean[];
let autostart: Autostart;
beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), 'perch-launch-at-login-'));
  dataDir = join(folder, 'data');
  configHome = join(folder, 'config');
  writes = [];
  const entry = linuxAutostart({ executable: '/opt/Perch/perch', configHome, name: 'Perch' });
  // The real entry, with each write noted.
  autostart = {
    read: entry.read,
    write: async (enabled) => {
      writes.push(enabled);
      await entry.write(enabled);
    },
  };
});
afterEach(() => rm(folder, { recursive: true, force: true }));

const entryFile = () => linuxAutostartFile(configHome);

function newCore() {
  return createPerchCore({
    dataDir,
    clock: new ManualCoreClock(DateTime.fromISO('2030-03-12T08:50:00Z', { zone: 'utc' })),
    secrets: memorySecretStore('test: memory only'),
    notifier: recordingNotifier(),
    autostart,
    log: () => {},
  });
}

it('starts without writing the entry, although the saved settings ask for it, and shows what the OS has', async () => {
  await saveSettings(dataDir, { ...defaultSettings, launchAtLogin: true });
  const core = newCore();
  await core.start();
  expect(writes).toEqual([]);
  expect(existsSync(entryFile())).toBe(false);
  expect(await core.handlers.getSettings()).toMatchObject({ launchAtLogin: false });
  await core.stop();
});

it('writes the entry only when the user changes the setting', async () => {
  const core = newCore();
  await core.start();
  await core.handlers.setSettings({ theme: 'dark' });
  expect(writes).toEqual([]);

  const on = await core.handlers.setSettings({ launchAtLogin: true });
  expect(on).toMatchObject({ ok: true, value: { launchAtLogin: true, theme: 'dark' } });
  expect(writes).toEqual([true]);
  expect(await readFile(entryFile(), 'utf8')).toContain('Exec=/opt/Perch/perch');
  const written = (await stat(entryFile())).mtimeMs;

  // Saving other settings, or the same value again, leaves it alone.
  await core.handlers.setSettings({ launchAtLogin: true, pollIntervalSeconds: 120 });
  await core.handlers.setSettings({ theme: 'light' });
  expect(writes).toEqual([true]);
  expect((await stat(entryFile())).mtimeMs).toBe(written);

  await core.handlers.setSettings({ launchAtLogin: false });
  expect(writes).toEqual([true, false]);
  expect(existsSync(entryFile())).toBe(false);
  await core.stop();
});

it('shows a change made in the desktop settings, and a restart does not undo it', async () => {
  const core = newCore();
  await core.start();
  await core.handlers.setSettings({ launchAtLogin: true });
  // The desktop switches the entry off by rewriting it.
  await writeFile(
    entryFile(),
    (await readFile(entryFile(), 'utf8')).replace('X-GNOME-Autostart-enabled=true', 'X-GNOME-Autostart-enabled=false'),
  );
  expect(await core.handlers.getSettings()).toMatchObject({ launchAtLogin: false });
  await core.stop();

  const again = newCore();
  await again.start();
  expect(await again.handlers.getSettings()).toMatchObject({ launchAtLogin: false });
  expect(await readFile(entryFile(), 'utf8')).toContain('X-GNOME-Autostart-enabled=false');
  expect(writes).toEqual([true]);
  // Switching it on again from Perch writes an entry that is on.
  await again.handlers.setSettings({ launchAtLogin: true });
  expect(await readFile(entryFile(), 'utf8')).toContain('X-GNOME-Autostart-enabled=true');
  await again.stop();
});

it('says so when the OS refuses the change, and keeps the settings as they were', async () => {
  const core = newCore();
  await core.start();
  // A file where the autostart folder should be: the desktop's folder cannot be created.
  await writeFile(configHome, 'not a folder');
  const refused = await core.handlers.setSettings({ launchAtLogin: true, theme: 'dark' });
  expect(refused).toMatchObject({
    ok: false,
    error: { message: expect.stringMatching(/Perch could not change whether it starts at login: ENOTDIR/) },
  });
  expect(await core.handlers.getSettings()).toMatchObject({ launchAtLogin: false, theme: 'system' });
  await core.stop();
});
