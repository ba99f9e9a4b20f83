/**
 * `npm start` where the Electron binary is missing (always here: npm's install-script policy
 * skips electron's download). ELECTRON_OVERRIDE_DIST_PATH, which the electron package itself
 * honours, points at an empty folder so the test means the same on a machine that has the binary.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
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
