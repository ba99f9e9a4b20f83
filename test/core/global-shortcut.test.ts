import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DateTime } from 'luxon';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  acceleratorLabel,
  checkAccelerator,
  deliveryProblem,
  launchCommand,
  waylandSession,
  type GlobalShortcut,
  type ShortcutDelivery,
} from '../../electron/core/desktop/global-shortcut.js';
import { createPerchCore } from '../../electron/core/perch-core.js';
import { memorySecretStore } from '../../electron/core/storage/secret-store.js';
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
    expect(checkAccelerator(text)).toEqual({ ok: true, value: accelerator });
  });

  it.each([
    ['P', 'needs Ctrl, Alt, Super or Cmd with the key, or other apps would lose it'],
    ['Shift+P', 'needs Ctrl, Alt, Super or Cmd with the key, or other apps would lose it'],
    ['Ctrl+Alt', '"Alt" is not a key a shortcut can use'],
    ['Hyper+P', '"Hyper" is not a modifier key'],
    ['Ctrl+Alt+Pause', '"Pause" is not a key a shortcut can use'],
  ])('refuses %j: %s', (text, problem) => {
    expect(checkAccelerator(text)).toEqual({ ok: false, error: problem });
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

describe('launchCommand', () => {
  const linux = { platform: 'linux' as const, packaged: true, appImage: undefined, appPath: '/opt/Perch/resources/app.asar' };

  it('is `perch` for the deb, whose postinst links /usr/bin/perch to /opt/Perch/perch', () => {
    expect(launchCommand({ ...linux, execPath: '/opt/Perch/perch' })).toBe('perch');
  });

  it('is the AppImage file itself for an AppImage (the program inside lies in a mount that changes each run)', () => {
    const appImage = { ...linux, execPath: '/tmp/.mount_PerchXy12/perch' };
    expect(launchCommand({ ...appImage, appImage: '/home/ada/Applications/Perch-1.2.0.AppImage' })).toBe(
      '/home/ada/Applications/Perch-1.2.0.AppImage',
    );
    // Quoted as a desktop's command line splits words.
    expect(launchCommand({ ...appImage, appImage: "/home/ada/My Apps/Ada's Perch.AppImage" })).toBe(
      `'/home/ada/My Apps/Ada'\\''s Perch.AppImage'`,
    );
  });

  it('is the program where it lies when unpacked elsewhere, and Electron with the app folder for a run from source', () => {
    expect(launchCommand({ ...linux, execPath: '/home/ada/perch-linux-unpacked/perch' })).toBe('/home/ada/perch-linux-unpacked/perch');
    expect(
      launchCommand({
        ...linux,
        packaged: false,
        execPath: '/home/ada/perch/node_modules/electron/dist/electron',
        appPath: '/home/ada/perch',
      }),
    ).toBe('/home/ada/perch/node_modules/electron/dist/electron /home/ada/perch');
  });

  it('is none on macOS and Windows, whose shortcuts Perch registers itself', () => {
    expect(launchCommand({ ...linux, platform: 'darwin', execPath: '/Applications/Perch.app/Contents/MacOS/Perch' })).toBeNull();
    expect(
      launchCommand({ ...linux, platform: 'win32', execPath: 'C:\\Users\\ada\\AppData\\Local\\Programs\\Perch\\Perch.exe' }),
    ).toBeNull();
  });
});

describe('waylandSession', () => {
  it('is a session that says it is Wayland, or offers a Wayland display', () => {
    expect(waylandSession({ XDG_SESSION_TYPE: 'wayland' })).toBe(true);
    expect(waylandSession({ WAYLAND_DISPLAY: 'wayland-0' })).toBe(true);
    expect(waylandSession({ XDG_SESSION_TYPE: 'x11', DISPLAY: ':0' })).toBe(false);
    expect(waylandSession({})).toBe(false);
  });
});

describe('deliveryProblem', () => {
  const missing: ShortcutDelivery = { kind: 'portal', portal: { kind: 'missing', reason: 'no GlobalShortcuts' } };

  it('says a Wayland desktop without the GlobalShortcuts portal never passes the keys on, and which desktops do', () => {
    const problem = deliveryProblem(missing, 'CommandOrControl+Alt+P', 'perch');
    expect(problem).toContain(`${acceleratorLabel('CommandOrControl+Alt+P', process.platform)} does nothing on this desktop`);
    expect(problem).toContain('GNOME has one from version 48, KDE Plasma from 5.27');
    expect(problem).toContain("add a custom shortcut in your desktop's keyboard settings");
    // Without a command to offer, no route through the desktop's settings either.
    expect(deliveryProblem(missing, 'CommandOrControl+Alt+P', null)).not.toContain('custom shortcut');
  });

  it('is none where the keys arrive, where the bus could not tell, and with no shortcut set', () => {
    expect(deliveryProblem({ kind: 'direct' }, 'CommandOrControl+Alt+P', 'perch')).toBeNull();
    expect(deliveryProblem({ kind: 'portal', portal: { kind: 'present', version: 1 } }, 'CommandOrControl+Alt+P', 'perch')).toBeNull();
    expect(
      deliveryProblem({ kind: 'portal', portal: { kind: 'unknown', reason: 'no answer in time' } }, 'CommandOrControl+Alt+P', 'perch'),
    ).toBeNull();
    expect(deliveryProblem(missing, '', 'perch')).toBeNull();
  });
});

describe('the core and the OS shortcut', () => {
  let dataDir: string;
  /** The OS's side: what Perch holds now, and keys another app holds. */
  let held: string;
  let takenElsewhere: Set<string>;
  /** A shortcut on a desktop that delivers keys as `delivery` says, offering `command` for its own shortcut. */
  function osShortcut(delivery: ShortcutDelivery = { kind: 'direct' }, command: string | null = null): GlobalShortcut {
    return {
      set(accelerator) {
        held = '';
        if (takenElsewhere.has(accelerator)) return false;
        held = accelerator;
        return true;
      },
      delivery: async () => delivery,
      launchCommand: command,
    };
  }

  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'perch-shortcut-'));
    held = '';
    takenElsewhere = new Set();
  });
  afterEach(() => rm(dataDir, { recursive: true, force: true }));

  async function startedCore(shortcut: GlobalShortcut = osShortcut()) {
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
    expect(core.snapshot().globalShortcut).toEqual({
      label: acceleratorLabel('CommandOrControl+Alt+P', process.platform),
      problem: null,
      command: null,
    });
    await core.stop();
  });

  it('says so in the state when another app holds the saved shortcut at start', async () => {
    takenElsewhere.add('CommandOrControl+Alt+P');
    const core = await startedCore();
    expect(held).toBe('');
    expect(core.snapshot().globalShortcut.problem).toMatch(/is taken by another app or the desktop: choose another shortcut$/);
    // Choosing another clears it.
    expect(await core.handlers.setSettings({ globalShortcut: 'Control+Shift+F12' })).toMatchObject({
      ok: true,
      value: { globalShortcut: 'Control+Shift+F12' },
    });
    expect(held).toBe('Control+Shift+F12');
    expect(core.snapshot().globalShortcut.problem).toBeNull();
    await core.stop();
  });

  it('refuses a shortcut another app holds, naming the setting, and keeps the one it had', async () => {
    await saveSettings(dataDir, { ...defaultSettings, globalShortcut: 'Control+Shift+F12' });
    takenElsewhere.add('Alt+Space');
    const core = await startedCore();
    const refused = await core.handlers.setSettings({ globalShortcut: 'alt+space', theme: 'dark' });
    expect(refused).toMatchObject({
      ok: false,
      error: {
        kind: 'invalidInput',
        fields: [{ field: 'globalShortcut', problem: expect.stringMatching(/Space is taken by another app/) }],
      },
    });
    expect(held).toBe('Control+Shift+F12');
    expect(await core.handlers.getSettings()).toMatchObject({ globalShortcut: 'Control+Shift+F12', theme: 'system' });
    await core.stop();
  });

  it('refuses what is not a shortcut before the OS is asked, and takes none when cleared', async () => {
    const core = await startedCore();
    expect(await core.handlers.setSettings({ globalShortcut: 'Shift+P' })).toMatchObject({
      ok: false,
      error: {
        kind: 'invalidInput',
        fields: [{ field: 'globalShortcut', problem: 'needs Ctrl, Alt, Super or Cmd with the key, or other apps would lose it' }],
      },
    });
    expect(held).toBe('CommandOrControl+Alt+P');
    expect(await core.handlers.setSettings({ globalShortcut: '' })).toMatchObject({ ok: true, value: { globalShortcut: '' } });
    expect(held).toBe('');
    expect(core.snapshot().globalShortcut.label).toBe('');
    await core.stop();
  });

  it('on a Wayland desktop without the GlobalShortcuts portal, holds the shortcut but says it never fires, with the command for the desktop’s own', async () => {
    const core = await startedCore(osShortcut({ kind: 'portal', portal: { kind: 'missing', reason: 'no GlobalShortcuts' } }, 'perch'));
    expect(held).toBe('CommandOrControl+Alt+P');
    const shown = core.snapshot().globalShortcut;
    expect(shown.problem).toMatch(/does nothing on this desktop: it does not pass shortcuts to apps/);
    expect(shown.command).toBe('perch');
    // Another shortcut does no better: it is kept (the setting is the user's), and the desktop's limit still shown.
    expect(await core.handlers.setSettings({ globalShortcut: 'Control+Shift+F12' })).toMatchObject({ ok: true });
    expect(held).toBe('Control+Shift+F12');
    expect(core.snapshot().globalShortcut.problem).toMatch(/^Ctrl\+Shift\+F12 does nothing on this desktop/);
    // None set, nothing to warn about.
    expect(await core.handlers.setSettings({ globalShortcut: '' })).toMatchObject({ ok: true });
    expect(core.snapshot().globalShortcut).toEqual({ label: '', problem: null, command: 'perch' });
    await core.stop();
  });

  it('where the portal offers GlobalShortcuts, shows no problem', async () => {
    const core = await startedCore(osShortcut({ kind: 'portal', portal: { kind: 'present', version: 1 } }, 'perch'));
    expect(held).toBe('CommandOrControl+Alt+P');
    expect(core.snapshot().globalShortcut).toMatchObject({ problem: null });
    await core.stop();
  });

  it('offers the desktop’s own shortcut, with the command, when the keys are taken and Perch can be started by a command', async () => {
    takenElsewhere.add('CommandOrControl+Alt+P');
    const core = await startedCore(osShortcut({ kind: 'direct' }, "'/home/ada/My Apps/Perch.AppImage'"));
    const shown = core.snapshot().globalShortcut;
    expect(shown.problem).toMatch(
      /is taken by another app or the desktop: choose another shortcut, or add a custom shortcut in your desktop's keyboard settings that runs the command below/,
    );
    expect(shown.command).toBe("'/home/ada/My Apps/Perch.AppImage'");
    await core.stop();
  });
});
