import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DateTime } from 'luxon';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acceleratorLabel, checkAccelerator, type GlobalShortcut } from '../../electron/core/desktop/global-shortcut.js';
import { createPerchCore } from '../../electron/core/perch-core.js';
import { memorySecretStore } from '../../electron/core/storage/keychain.js';
import { defaultSettings, saveSettings } from '../../electron/core/storage/settings-store.js';
import { recordingNotifier } from '../support/core-harness.js';
import { ManualCoreClock } from '../support/manual-clock.js';

describe('checkAccelerator', () => {
  it.each([
    ['CommandOrControl+Alt+P', 'CommandOrControl+Alt+P'],
    ['ctrl+shift+f12', 'Control+Shift+F12'],
    ['CmdOrCtrl + option + space', 'CommandOrControl+Alt+Space'],
    ['Super+Meta+k', 'Super+K'],
    ['Control++', 'Control+Plus'],
    ['Alt+/', 'Alt+/'],
    ['  ', ''],
  ])('takes %j as %j', (text, accelerator) => {
    expect(checkAccelerator(text)).toEqual({ ok: true, accelerator });
  });

  it.each([
    ['P', 'needs Ctrl, Alt, Super or Cmd with the key, or other apps would lose it'],
    ['Shift+P', 'needs Ctrl, Alt, Super or Cmd with the key, or other apps would lose it'],
    ['Ctrl+Alt', '"Alt" is not a key a shortcut can use'],
    ['Hyper+P', '"Hyper" is not a modifier key'],
    ['Ctrl+Alt+Pause', '"Pause" is not a key a shortcut can use'],
  ])('refuses %j: %s', (text, problem) => {
    expect(checkAccelerator(text)).toEqual({ ok: false, problem });
  });
});

describe('acceleratorLabel', () => {
  it('writes shortcuts as each platform does', () => {
    expect(acceleratorLabel('CommandOrControl+Alt+P', 'linux')).toBe('Ctrl+Alt+P');
    expect(acceleratorLabel('CommandOrControl+Alt+P', 'win32')).toBe('Ctrl+Alt+P');
    expect(acceleratorLabel('CommandOrControl+Alt+P', 'darwin')).toBe('⌘⌥P');
    expect(acceleratorLabel('Control+Shift+F12', 'darwin')).toBe('⌃⇧F12');
    expect(acceleratorLabel('', 'linux')).toBe('');
  });
});

describe('the core and the OS shortcut', () => {
  let dataDir: string;
  /** The OS's side: what Perch holds now, and keys another app holds. */
  let held: string;
  let takenElsewhere: Set<string>;
  const shortcut: GlobalShortcut = {
    set(accelerator) {
      held = '';
      if (takenElsewhere.has(accelerator)) return false;
      held = accelerator;
      return true;
    },
  };

  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'perch-shortcut-'));
    held = '';
    takenElsewhere = new Set();
  });
  afterEach(() => rm(dataDir, { recursive: true, force: true }));

  async function startedCore() {
    const core = createPerchCore({
      dataDir,
      clock: new ManualCoreClock(DateTime.fromISO('2030-03-12T08:50:00Z', { zone: 'utc' })),
      secrets: memorySecretStore('test: memory only'),
      notifier: recordingNotifier(),
      globalShortcut: shortcut,
      log: () => {},
    });
    await core.start();
    return core;
  }

  it('claims the saved shortcut at start, and shows it as the platform writes it', async () => {
    const core = await startedCore();
    expect(held).toBe('CommandOrControl+Alt+P');
    expect(core.snapshot().globalShortcut).toEqual({ label: acceleratorLabel('CommandOrControl+Alt+P', process.platform), problem: null });
    await core.stop();
  });

  it('says so in the state when another app holds the saved shortcut at start', async () => {
    takenElsewhere.add('CommandOrControl+Alt+P');
    const core = await startedCore();
    expect(held).toBe('');
    expect(core.snapshot().globalShortcut.problem).toMatch(/is taken by another app or the desktop: choose another shortcut$/);
    // Choosing another clears it.
    expect(await core.handlers.setSettings({ globalShortcut: 'Control+Shift+F12' })).toMatchObject({ ok: true, value: { globalShortcut: 'Control+Shift+F12' } });
    expect(held).toBe('Control+Shift+F12');
    expect(core.snapshot().globalShortcut.problem).toBeNull();
    await core.stop();
  });

  it('refuses a shortcut another app holds, naming the setting, and keeps the one it had', async () => {
    await saveSettings(dataDir, { ...defaultSettings, globalShortcut: 'Control+Shift+F12' });
    takenElsewhere.add('Alt+Space');
    const core = await startedCore();
    const refused = await core.handlers.setSettings({ globalShortcut: 'alt+space', theme: 'dark' });
    expect(refused).toMatchObject({ ok: false, error: { kind: 'invalidInput', fields: [{ field: 'globalShortcut', problem: expect.stringMatching(/Space is taken by another app/) }] } });
    expect(held).toBe('Control+Shift+F12');
    expect(await core.handlers.getSettings()).toMatchObject({ globalShortcut: 'Control+Shift+F12', theme: 'system' });
    await core.stop();
  });

  it('refuses what is not a shortcut before the OS is asked, and takes none when cleared', async () => {
    const core = await startedCore();
    expect(await core.handlers.setSettings({ globalShortcut: 'Shift+P' })).toMatchObject({
      ok: false,
      error: { kind: 'invalidInput', fields: [{ field: 'globalShortcut', problem: 'needs Ctrl, Alt, Super or Cmd with the key, or other apps would lose it' }] },
    });
    expect(held).toBe('CommandOrControl+Alt+P');
    expect(await core.handlers.setSettings({ globalShortcut: '' })).toMatchObject({ ok: true, value: { globalShortcut: '' } });
    expect(held).toBe('');
    expect(core.snapshot().globalShortcut.label).toBe('');
    await core.stop();
  });
});
