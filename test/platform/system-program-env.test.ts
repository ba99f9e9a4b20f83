/**
 * Run from an AppImage, Perch's environment carries AppRun's LD_LIBRARY_PATH="$APPDIR/usr/lib:…";
 * the system's programs it runs must not load the AppImage's libraries. What they receive is read
 * from inside a real child process. (The notify-send helpers: test/platform/notify-send-notifier.test.ts.)
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { systemProgramEnv } from '../../electron/platform/system-program-env.js';
import { probeTrayHost } from '../../electron/platform/tray-host.js';
import { secretServiceLocked } from '../../electron/platform/keychain/secret-service-lock.js';

let folder: string;
let appDir: string;

beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'perch-system-program-'));
  appDir = join(folder, '.mount_PerchXyZ');
});

afterEach(() => rmSync(folder, { recursive: true, force: true }));

/** LD_LIBRARY_PATH as a child started with this environment sees it. */
function libraryPathSeenBy(env: NodeJS.ProcessEnv): string {
  return execFileSync('sh', ['-c', 'printf %s "${LD_LIBRARY_PATH-(unset)}"'], { env, encoding: 'utf8' });
}

describe('the environment for a system program', () => {
  it("drops every LD_LIBRARY_PATH entry inside $APPDIR and keeps the user's own, in their order", () => {
    const env = {
      ...process.env,
      APPDIR: appDir,
      LD_LIBRARY_PATH: `${appDir}/usr/lib:/opt/vendor/lib:${appDir}/usr/lib/x86_64-linux-gnu/:/usr/local/lib`,
    };
    expect(libraryPathSeenBy(systemProgramEnv(env))).toBe('/opt/vendor/lib:/usr/local/lib');
  });

  it('leaves LD_LIBRARY_PATH unset when only the AppImage had entries in it (AppRun with nothing of the user)', () => {
    const env = { ...process.env, APPDIR: `${appDir}/`, LD_LIBRARY_PATH: `${appDir}/usr/lib` };
    expect(libraryPathSeenBy(systemProgramEnv(env))).toBe('(unset)');
  });

  it('keeps a folder that only starts with the same name as $APPDIR', () => {
    const env = { ...process.env, APPDIR: appDir, LD_LIBRARY_PATH: `${appDir}/usr/lib:${appDir}-tools/lib` };
    expect(libraryPathSeenBy(systemProgramEnv(env))).toBe(`${appDir}-tools/lib`);
  });

  it('passes LD_LIBRARY_PATH on untouched outside an AppImage (no APPDIR)', () => {
    const env: NodeJS.ProcessEnv = { ...process.env, LD_LIBRARY_PATH: `${appDir}/usr/lib:/opt/vendor/lib` };
    delete env['APPDIR'];
    expect(libraryPathSeenBy(systemProgramEnv(env))).toBe(`${appDir}/usr/lib:/opt/vendor/lib`);
  });

  it('changes nothing else in the environment', () => {
    const env = { ...process.env, APPDIR: appDir, LD_LIBRARY_PATH: `${appDir}/usr/lib`, PERCH_MARK: 'kept' };
    const { LD_LIBRARY_PATH: _dropped, ...others } = env;
    expect(systemProgramEnv(env)).toEqual(others);
  });
});

describe('the dbus-send calls of the tray probe and the keychain', () => {
  /** A dbus-send first on PATH that writes down its LD_LIBRARY_PATH and answers with `reply`. */
  function recordingDbusSend(reply: string): { env: NodeJS.ProcessEnv; received: () => string } {
    const record = join(folder, 'received');
    const program = join(folder, 'dbus-send');
    writeFileSync(program, `#!/bin/sh\nprintf '%s\\n' "\${LD_LIBRARY_PATH-(unset)}" >> '${record}'\necho '   ${reply}'\n`);
    chmodSync(program, 0o755);
    return {
      env: {
        PATH: `${folder}:${process.env['PATH']}`,
        DBUS_SESSION_BUS_ADDRESS: `unix:path=${join(folder, 'bus')}`,
        APPDIR: appDir,
        LD_LIBRARY_PATH: `${appDir}/usr/lib:/opt/vendor/lib`,
      },
      received: () => readFileSync(record, 'utf8').trim(),
    };
  }

  it('the tray host probe runs dbus-send without the AppImage in LD_LIBRARY_PATH', async () => {
    const dbusSend = recordingDbusSend('boolean true');
    expect(await probeTrayHost({ env: dbusSend.env })).toEqual({ kind: 'registered' });
    expect(dbusSend.received()).toBe('/opt/vendor/lib');
  });

  it("the keychain's lock check runs dbus-send without the AppImage in LD_LIBRARY_PATH", async () => {
    const dbusSend = recordingDbusSend('variant       boolean false');
    expect(await secretServiceLocked(dbusSend.env)).toBe(false);
    expect(dbusSend.received()).toBe('/opt/vendor/lib');
  });
});
