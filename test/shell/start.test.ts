/**
 * `npm start` where the Electron binary is missing (always here: npm's install-script policy
 * skips electron's download). ELECTRON_OVERRIDE_DIST_PATH, which the electron package itself
 * honours, points at an empty folder so the test means the same on a machine that has the binary.
 * Then, with /proc and the helper's ownership simulated, whether Chromium's sandbox could start.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sandboxHelperProblem, userNamespaceSwitches, type FileOwnership } from '../../build/scripts/linux-sandbox.js';
import { projectRoot } from '../../build/scripts/project-root.js';

let emptyElectronDist: string;
beforeEach(async () => {
  emptyElectronDist = await mkdtemp(join(tmpdir(), 'perch-no-electron-'));
});
afterEach(() => rm(emptyElectronDist, { recursive: true, force: true }));

function npmStart(): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    // --silent: only what Perch's start script prints, not npm's banner or its own warnings.
    execFile(
      'npm',
      ['start', '--silent'],
      { cwd: projectRoot, env: { ...process.env, ELECTRON_OVERRIDE_DIST_PATH: emptyElectronDist } },
      (error, stdout, stderr) => resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr }),
    );
  });
}

it('says in one line that the Electron binary is missing, how to install it and what works without it, and fails', async () => {
  const { code, stdout, stderr } = await npmStart();

  expect(stdout).toBe('');
  expect(stderr).toBe(
    'Perch needs the Electron binary, which is not installed: run "node node_modules/electron/install.js", ' +
      'or try the local service alone with "npm run service -- --demo" and the tests with "npm test".\n',
  );
  expect(code).toBe(1);
}, 60_000);

describe('on Linux, where Chromium would need its setuid sandbox helper (simulated /proc and stat)', () => {
  const electronBinary = '/home/dev/perch/node_modules/electron/dist/electron';
  const helper = '/home/dev/perch/node_modules/electron/dist/chrome-sandbox';
  const asInstalledByNpm: FileOwnership = { uid: 1000, mode: 0o100755 };
  const setuidRoot: FileOwnership = { uid: 0, mode: 0o104755 };
  const ubuntu2404 = { [userNamespaceSwitches.appArmorRestriction]: '1\n', [userNamespaceSwitches.maxUserNamespaces]: '63344\n' };
  const olderDebian = { [userNamespaceSwitches.debianClone]: '0\n', [userNamespaceSwitches.maxUserNamespaces]: '63344\n' };

  function check(options: {
    proc: Record<string, string>;
    helperOwnership: FileOwnership | null;
    label?: string;
    platform?: NodeJS.Platform;
    environment?: NodeJS.ProcessEnv;
  }): string | null {
    return sandboxHelperProblem({
      platform: options.platform ?? 'linux',
      electronBinary,
      environment: options.environment ?? {},
      reads: {
        readFile: (path) => options.proc[path] ?? null,
        stat: (path) => (path === helper ? options.helperOwnership : null),
        electronAppArmorLabel: () => options.label ?? 'unconfined',
      },
    });
  }

  it('Ubuntu 24.04 (AppArmor restricts user namespaces) with the helper as npm installed it: the AppArmor profile or the setuid helper, never --no-sandbox', () => {
    const message = check({ proc: ubuntu2404, helperOwnership: asInstalledByNpm });

    expect(message).toBe(
      [
        'Perch cannot start from source here: this system refuses unprivileged user namespaces (kernel.apparmor_restrict_unprivileged_userns = 1), ' +
          `so Chromium's sandbox needs its setuid helper, and ${helper} is not owned by root with mode 4755. ` +
          'Chromium would abort ("The SUID sandbox helper binary was found, but is not configured correctly").',
        'Either let this Electron binary create user namespaces with an AppArmor profile (it outlasts npm ci):',
        "sudo tee /etc/apparmor.d/perch-dev-electron >/dev/null <<'EOF'",
        'abi <abi/4.0>,',
        'include <tunables/global>',
        '',
        `profile perch-dev-electron "${electronBinary}" flags=(unconfined) {`,
        '  userns,',
        '}',
        'EOF',
        'sudo apparmor_parser -r /etc/apparmor.d/perch-dev-electron',
        'or make the helper setuid root (again after every npm ci, which replaces it):',
        `sudo chown root:root ${helper} && sudo chmod 4755 ${helper}`,
      ].join('\n'),
    );
    expect(message).not.toContain('no-sandbox');
  });

  it.each([
    { case: 'owned by root but not setuid', ownership: { uid: 0, mode: 0o100755 } },
    { case: 'setuid but owned by the user', ownership: { uid: 1000, mode: 0o104755 } },
    { case: 'setuid root but not executable by others', ownership: { uid: 0, mode: 0o104750 } },
  ])('a helper $case is no use to Chromium either', ({ ownership }) => {
    expect(check({ proc: ubuntu2404, helperOwnership: ownership })).toContain(`${helper} is not owned by root with mode 4755`);
  });

  it('older Debian (kernel.unprivileged_userns_clone = 0): the setuid helper, and no AppArmor profile, which would not help', () => {
    expect(check({ proc: olderDebian, helperOwnership: asInstalledByNpm })?.split('\n').slice(1)).toEqual([
      'Make the helper setuid root (again after every npm ci, which replaces it):',
      `sudo chown root:root ${helper} && sudo chmod 4755 ${helper}`,
    ]);
  });

  it('user namespaces turned off (user.max_user_namespaces = 0) are refused too', () => {
    expect(check({ proc: { [userNamespaceSwitches.maxUserNamespaces]: '0\n' }, helperOwnership: asInstalledByNpm })).toContain(
      '(user.max_user_namespaces = 0)',
    );
  });

  it('a missing helper: Chromium has no sandbox at all, so Electron is installed again first', () => {
    const message = check({ proc: ubuntu2404, helperOwnership: null });
    expect(message).toContain(`${helper} is missing`);
    expect(message?.split('\n').slice(-2)).toEqual([
      'rm -rf node_modules/electron/dist && node node_modules/electron/install.js',
      `sudo chown root:root ${helper} && sudo chmod 4755 ${helper}`,
    ]);
  });

  it('a path with a space is quoted for the shell', () => {
    const message = sandboxHelperProblem({
      platform: 'linux',
      electronBinary: "/home/dev/Dev's work/perch/node_modules/electron/dist/electron",
      environment: {},
      reads: {
        readFile: (path) => ubuntu2404[path as keyof typeof ubuntu2404] ?? null,
        stat: () => asInstalledByNpm,
        electronAppArmorLabel: () => 'unconfined',
      },
    });
    const quoted = `'/home/dev/Dev'\\''s work/perch/node_modules/electron/dist/chrome-sandbox'`;
    expect(message?.split('\n').at(-1)).toBe(`sudo chown root:root ${quoted} && sudo chmod 4755 ${quoted}`);
  });

  it.each([
    { case: 'the helper is setuid root', proc: ubuntu2404, helperOwnership: setuidRoot },
    {
      case: "an AppArmor profile confines the Electron binary (the remedy's)",
      proc: ubuntu2404,
      helperOwnership: asInstalledByNpm,
      label: 'perch-dev-electron (unconfined)',
    },
    {
      case: 'user namespaces are allowed (Fedora, Debian 11+)',
      proc: { [userNamespaceSwitches.maxUserNamespaces]: '63344\n' },
      helperOwnership: asInstalledByNpm,
    },
    {
      case: 'AppArmor does not restrict them (Ubuntu 22.04)',
      proc: { [userNamespaceSwitches.appArmorRestriction]: '0\n' },
      helperOwnership: asInstalledByNpm,
    },
    {
      case: 'the sandbox is off by ELECTRON_DISABLE_SANDBOX',
      proc: ubuntu2404,
      helperOwnership: asInstalledByNpm,
      environment: { ELECTRON_DISABLE_SANDBOX: '1' },
    },
    { case: 'it is not Linux', proc: ubuntu2404, helperOwnership: asInstalledByNpm, platform: 'darwin' as const },
  ])('starts where Chromium would: $case', (options) => {
    expect(check(options)).toBeNull();
  });
});
