import { execFile } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { appId } from '../../electron/core/desktop/app-identity.js';
import {
  isLinuxAutostartEnabled,
  linuxAutostartExecutable,
  linuxAutostartFile,
  linuxConfigHome,
  setLinuxAutostart,
} from '../../electron/platform/linux-autostart.js';

const run = promisify(execFile);

let folder: string;
let configHome: string;
beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), 'perch-autostart-'));
  configHome = join(folder, 'config');
});
afterEach(() => rm(folder, { recursive: true, force: true }));

const entryPath = () => join(configHome, 'autostart', `${appId}.desktop`);

async function hasGio(): Promise<boolean> {
  try {
    await run('gio', ['help', 'launch']);
    return true;
  } catch {
    return false;
  }
}

describe('linuxConfigHome', () => {
  it.each([
    ['an absolute XDG_CONFIG_HOME', { XDG_CONFIG_HOME: '/srv/me/conf' }, '/srv/me/conf'],
    ['no XDG_CONFIG_HOME', {}, '/home/me/.config'],
    ['an empty XDG_CONFIG_HOME', { XDG_CONFIG_HOME: '' }, '/home/me/.config'],
    ['a relative XDG_CONFIG_HOME, which the spec says to ignore', { XDG_CONFIG_HOME: 'conf' }, '/home/me/.config'],
  ])('with %s', (_case, env, expected) => {
    expect(linuxConfigHome(env, '/home/me')).toBe(expected);
  });
});

describe('linuxAutostartExecutable', () => {
  it('is the AppImage file when running from one, not its temporary mount', () => {
    expect(linuxAutostartExecutable({ APPIMAGE: '/home/me/Apps/Perch.AppImage' }, '/tmp/.mount_PerchX/perch')).toBe(
      '/home/me/Apps/Perch.AppImage',
    );
  });

  it('is the running executable otherwise (deb installs, unpacked builds)', () => {
    expect(linuxAutostartExecutable({}, '/opt/Perch/perch')).toBe('/opt/Perch/perch');
  });
});

describe('setLinuxAutostart', () => {
  it('writes the XDG autostart entry named after the app id, creating the folder', async () => {
    await setLinuxAutostart(true, { executable: '/opt/Perch/perch', configHome, name: 'Perch' });

    expect(linuxAutostartFile(configHome)).toBe(entryPath());
    expect(await readFile(entryPath(), 'utf8')).toBe(
      [
        '[Desktop Entry]',
        'Type=Application',
        'Name=Perch',
        'Exec=/opt/Perch/perch',
        'Terminal=false',
        'X-GNOME-Autostart-enabled=true',
        '',
      ].join('\n'),
    );
    expect(await isLinuxAutostartEnabled(configHome)).toBe(true);
  });

  it('quotes and escapes an executable path with spaces, quotes, $ and %', async () => {
    await setLinuxAutostart(true, { executable: '/home/me/My Apps/"x" $y 100%/perch', configHome, name: 'Perch' });

    const entry = await readFile(entryPath(), 'utf8');
    // Quoting rule: "…" with \" and \$; then the string rule doubles each backslash; % doubles.
    expect(entry).toContain('Exec="/home/me/My Apps/\\\\"x\\\\" \\\\$y 100%%/perch"\n');
  });

  it('keeps a name with a line break on one line, so it cannot add keys', async () => {
    await setLinuxAutostart(true, { executable: '/opt/Perch/perch', configHome, name: 'Perch\nExec=/bin/evil' });

    const entry = await readFile(entryPath(), 'utf8');
    expect(entry).toContain('Name=Perch\\nExec=/bin/evil\n');
    expect(entry.match(/^Exec=/gm)).toEqual(['Exec=']);
  });

  it('removes the entry when switched off, and switching off twice is fine', async () => {
    await setLinuxAutostart(true, { executable: '/opt/Perch/perch', configHome, name: 'Perch' });
    await setLinuxAutostart(false, { executable: '/opt/Perch/perch', configHome, name: 'Perch' });
    await setLinuxAutostart(false, { executable: '/opt/Perch/perch', configHome, name: 'Perch' });

    await expect(stat(entryPath())).rejects.toMatchObject({ code: 'ENOENT' });
    expect(await isLinuxAutostartEnabled(configHome)).toBe(false);
  });

  it('rejects when the configuration folder cannot be written', async () => {
    await writeFile(configHome, 'a file where the folder should be');

    await expect(setLinuxAutostart(true, { executable: '/opt/Perch/perch', configHome, name: 'Perch' })).rejects.toThrow();
  });
});

describe('isLinuxAutostartEnabled', () => {
  it.each([
    ['Hidden=true', 'Hidden=true'],
    ['X-GNOME-Autostart-enabled=false', 'X-GNOME-Autostart-enabled=false'],
  ])('is false for an entry a desktop switched off with %s', async (_case, line) => {
    await mkdir(join(configHome, 'autostart'), { recursive: true });
    await writeFile(entryPath(), `[Desktop Entry]\nType=Application\nName=Perch\nExec=/opt/Perch/perch\n${line}\n`);

    expect(await isLinuxAutostartEnabled(configHome)).toBe(false);
  });
});

describe('the entry as a desktop launches it', async () => {
  const gio = await hasGio();
  it.skipIf(!gio)(
    'GLib (gio launch) runs the executable named in Exec, even from an awkward path (skipped where gio, from libglib2.0-bin, is missing)',
    async () => {
      const programFolder = join(folder, `My Apps/it's "quoted" $HOME`);
      const program = join(programFolder, 'perch');
      const marker = join(folder, 'launched');
      await mkdir(programFolder, { recursive: true });
      await writeFile(program, `#!/bin/sh\necho "$0" > '${marker}'\n`);
      await chmod(program, 0o755);

      await setLinuxAutostart(true, { executable: program, configHome, name: 'Perch' });
      await run('gio', ['launch', entryPath()]);

      await expect.poll(() => readFile(marker, 'utf8').catch(() => ''), { timeout: 5_000 }).toBe(`${program}\n`);
    },
  );
});
