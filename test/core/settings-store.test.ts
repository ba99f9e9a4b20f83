import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DateTime } from 'luxon';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Settings, SettingsPatch } from '../../electron/bridge/contract.js';
import {
  applySettingsPatch,
  defaultSettings,
  loadSettings,
  saveSettings,
  settingsFileName,
} from '../../electron/core/storage/settings-store.js';

let dataDir: string;
beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'perch-settings-'));
});
afterEach(() => rm(dataDir, { recursive: true, force: true }));

const settingsPath = () => join(dataDir, settingsFileName);
const now = () => DateTime.fromISO('2025-03-30T01:30:05', { zone: 'Europe/Berlin' });
const writeRaw = (text: string) => writeFile(settingsPath(), text);

const customised: Settings = {
  pollIntervalSeconds: 120,
  startReminderMinutes: 15,
  endReminderMinutes: 0,
  checkInLeadMinutes: 10,
  notifications: {
    startReminder: false,
    endReminder: true,
    checkInOpen: true,
    autoReleaseWarning: false,
    released: true,
    approvalOutcome: true,
  },
  autoCheckIn: true,
  launchAtLogin: true,
  theme: 'dark',
  favouriteResourceIds: [3, 7],
  globalShortcut: 'Control+Shift+F12',
};

describe('defaultSettings', () => {
  it('are the documented defaults, and cannot be changed by accident', () => {
    expect(defaultSettings).toEqual({
      pollIntervalSeconds: 60,
      startReminderMinutes: 10,
      endReminderMinutes: 5,
      checkInLeadMinutes: 5,
      notifications: {
        startReminder: true,
        endReminder: true,
        checkInOpen: true,
        autoReleaseWarning: true,
        released: true,
        approvalOutcome: true,
      },
      autoCheckIn: false,
      launchAtLogin: false,
      theme: 'system',
      favouriteResourceIds: [],
      globalShortcut: 'CommandOrControl+Alt+P',
    });
    expect(() => {
      defaultSettings.notifications.released = false;
    }).toThrow(TypeError);
    expect(() => defaultSettings.favouriteResourceIds.push(1)).toThrow(TypeError);
  });
});

describe('loadSettings', () => {
  it('gives the defaults, without a problem and without writing anything, when there is no file', async () => {
    const loaded = await loadSettings(join(dataDir, 'not-created-yet'));
    expect(loaded).toEqual({ settings: defaultSettings, problem: null });
    loaded.settings.favouriteResourceIds.push(4);
    expect(defaultSettings.favouriteResourceIds).toEqual([]);
    expect(await readdir(dataDir)).toEqual([]);
  });

  it('reads back what was saved', async () => {
    await saveSettings(dataDir, customised);
    expect(await loadSettings(dataDir)).toEqual({ settings: customised, problem: null });
    expect(JSON.parse(await readFile(settingsPath(), 'utf8'))).toEqual(customised);
    if (process.platform !== 'win32') expect((await stat(settingsPath())).mode & 0o777).toBe(0o600);
  });

  it('creates the data folder when saving', async () => {
    const nested = join(dataDir, 'Perch', 'data');
    await saveSettings(nested, customised);
    expect((await loadSettings(nested)).settings).toEqual(customised);
  });

  it('replaces a file that is not JSON by the defaults, reports it and keeps the file aside', async () => {
    await writeRaw('{"pollIntervalSeconds": 120,');
    const loaded = await loadSettings(dataDir, { now });
    expect(loaded).toEqual({
      settings: defaultSettings,
      problem:
        'Your settings file could not be used (it is not valid JSON), so Perch is using the default settings. The old file was kept as settings.json.corrupt-20250330T003005Z.',
    });
    expect(await readdir(dataDir)).toEqual(['settings.json.corrupt-20250330T003005Z']);
    expect(await readFile(join(dataDir, 'settings.json.corrupt-20250330T003005Z'), 'utf8')).toBe('{"pollIntervalSeconds": 120,');
    // Once set aside, the next start is a clean one.
    expect(await loadSettings(dataDir, { now })).toEqual({ settings: defaultSettings, problem: null });
  });

  it('never overwrites an earlier damaged copy', async () => {
    await writeRaw('first');
    await loadSettings(dataDir, { now });
    await writeRaw('second');
    const loaded = await loadSettings(dataDir, { now });
    expect(loaded.problem).toContain('The old file was kept as settings.json.corrupt-20250330T003005Z-1.');
    expect((await readdir(dataDir)).sort()).toEqual(['settings.json.corrupt-20250330T003005Z', 'settings.json.corrupt-20250330T003005Z-1']);
    expect(await readFile(join(dataDir, 'settings.json.corrupt-20250330T003005Z'), 'utf8')).toBe('first');
  });

  it.each([
    ['an array', '[1, 2]'],
    ['a string', '"dark"'],
    ['null', 'null'],
    ['an empty file', ''],
  ])('replaces a file holding %s by the defaults', async (_what, text) => {
    await writeRaw(text);
    const loaded = await loadSettings(dataDir, { now });
    expect(loaded.settings).toEqual(defaultSettings);
    expect(loaded.problem).toMatch(/^Your settings file could not be used \((it does not hold a settings object|it is not valid JSON)\)/);
  });

  it('names every value of the wrong type or out of range', async () => {
    await writeRaw(
      JSON.stringify({
        ...customised,
        pollIntervalSeconds: 'fast',
        checkInLeadMinutes: 61,
        theme: 'purple',
        notifications: { ...customised.notifications, released: 'yes' },
        favouriteResourceIds: [2, 0],
      }),
    );
    const loaded = await loadSettings(dataDir, { now });
    expect(loaded.settings).toEqual(defaultSettings);
    expect(loaded.problem).toBe(
      'Your settings file could not be used (some values are not valid: pollIntervalSeconds: must be a whole number from 15 to 3600; ' +
        'checkInLeadMinutes: must be a whole number from 0 to 60; notifications.released: must be true or false; theme: must be one of system, light, dark; ' +
        'favouriteResourceIds[1]: must be a whole number of at least 1), so Perch is using the default settings. The old file was kept as settings.json.corrupt-20250330T003005Z.',
    );
  });

  it('fills what an older version did not write from the defaults and ignores what it does not know', async () => {
    const older = { pollIntervalSeconds: 300, theme: 'light', notifications: { startReminder: false }, retiredOption: true };
    await writeRaw(JSON.stringify(older));
    const loaded = await loadSettings(dataDir, { now });
    expect(loaded).toEqual({
      settings: {
        ...defaultSettings,
        pollIntervalSeconds: 300,
        theme: 'light',
        notifications: { ...defaultSettings.notifications, startReminder: false },
      },
      problem: null,
    });
    expect(loaded.settings).not.toHaveProperty('retiredOption');
    // A valid file stays where it is, untouched.
    expect(JSON.parse(await readFile(settingsPath(), 'utf8'))).toEqual(older);
  });
});

describe('saveSettings', () => {
  it('replaces the file atomically, leaving no temporary files, even when many saves overlap', async () => {
    await saveSettings(dataDir, defaultSettings);
    const variants = Array.from({ length: 20 }, (_, index) => ({ ...customised, pollIntervalSeconds: 100 + index }));
    await Promise.all(variants.map((variant) => saveSettings(dataDir, variant)));
    expect(await readdir(dataDir)).toEqual([settingsFileName]);
    const { settings, problem } = await loadSettings(dataDir);
    expect(problem).toBeNull();
    expect(variants).toContainEqual(settings);
  });

  it('leaves the old file and no temporary file behind when the write cannot complete', async () => {
    const blocked = join(dataDir, 'blocked');
    // A folder where the settings file should be: the final rename fails.
    await mkdir(join(blocked, settingsFileName), { recursive: true });
    await expect(saveSettings(blocked, customised)).rejects.toThrow();
    expect(await readdir(blocked)).toEqual([settingsFileName]);
  });
});

describe('applySettingsPatch', () => {
  it('applies a valid change to a copy', () => {
    const before = structuredClone(customised);
    const result = applySettingsPatch(customised, { pollIntervalSeconds: 30, favouriteResourceIds: [9], theme: 'system' });
    expect(result).toEqual({ ok: true, value: { ...customised, pollIntervalSeconds: 30, favouriteResourceIds: [9], theme: 'system' } });
    expect(customised).toEqual(before);
  });

  it('changes single notification kinds without touching the others', () => {
    const patch = { notifications: { released: false } } as unknown as SettingsPatch;
    const result = applySettingsPatch(defaultSettings, patch);
    expect(result).toEqual({
      ok: true,
      value: { ...defaultSettings, notifications: { ...defaultSettings.notifications, released: false } },
    });
  });

  it('returns the same settings for an empty change', () => {
    expect(applySettingsPatch(customised, {})).toEqual({ ok: true, value: customised });
  });

  it('refuses an invalid change, naming every problem, and changes nothing', () => {
    const patch = {
      pollIntervalSeconds: 5,
      theme: 'neon',
      favouriteResourceIds: [1.5],
      launchAtLogin: 'yes',
      colour: 'red',
    } as unknown as SettingsPatch;
    expect(applySettingsPatch(customised, patch)).toEqual({
      ok: false,
      error: {
        kind: 'invalidInput',
        message: 'The settings change is not valid.',
        fields: [
          { field: 'colour', problem: 'is not a setting' },
          { field: 'pollIntervalSeconds', problem: 'must be a whole number from 15 to 3600' },
          { field: 'launchAtLogin', problem: 'must be true or false' },
          { field: 'theme', problem: 'must be one of system, light, dark' },
          { field: 'favouriteResourceIds[0]', problem: 'must be a whole number of at least 1' },
        ],
      },
    });
  });

  it('refuses a change that is not an object', () => {
    const result = applySettingsPatch(customised, null as unknown as SettingsPatch);
    expect(result).toEqual({
      ok: false,
      error: {
        kind: 'invalidInput',
        message: 'The settings change is not valid.',
        fields: [{ field: 'settings', problem: 'must be an object' }],
      },
    });
  });

  it('refuses more favourites than the limit', () => {
    const result = applySettingsPatch(customised, { favouriteResourceIds: Array.from({ length: 501 }, (_, index) => index + 1) });
    expect(result).toEqual({
      ok: false,
      error: {
        kind: 'invalidInput',
        message: 'The settings change is not valid.',
        fields: [{ field: 'favouriteResourceIds', problem: 'must be a list of at most 500 entries' }],
      },
    });
  });
});
