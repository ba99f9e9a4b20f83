/**
 * `npm start`: runs the tray app from source. Checks for the Electron binary first (a build is no
 * use without it) and, on Linux, that Chromium's sandbox can start with it; builds dist/, then
 * starts Electron on the project folder.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { buildApp } from './app-build.js';
import { sandboxHelperProblem, type SandboxReads } from './linux-sandbox.js';
import { projectRoot } from './project-root.js';

const missingElectronMessage =
  'Perch needs the Electron binary, which is not installed: run "node node_modules/electron/install.js", ' +
  'or try the local service alone with "npm run service -- --demo" and the tests with "npm test".';

const electronPackage = dirname(createRequire(import.meta.url).resolve('electron/package.json'));

/**
 * The binary the electron package would run, found the way its index.js finds it, or null where
 * it does not exist. Requiring that index.js instead would start a download when it is missing.
 */
function installedElectronBinary(): string | null {
  const pathFile = join(electronPackage, 'path.txt');
  const relativePath = existsSync(pathFile) ? readFileSync(pathFile, 'utf8') : null;
  const override = process.env.ELECTRON_OVERRIDE_DIST_PATH;
  const binary = override
    ? join(override, relativePath ?? 'electron')
    : relativePath === null
      ? null
      : join(electronPackage, 'dist', relativePath);
  return binary !== null && existsSync(binary) ? binary : null;
}

function systemReads(electronBinary: string): SandboxReads {
  return {
    readFile: (path) => {
      try {
        return readFileSync(path, 'utf8');
      } catch {
        return null;
      }
    },
    stat: (path) => {
      const stats = statSync(path, { throwIfNoEntry: false });
      return stats === undefined ? null : { uid: stats.uid, mode: stats.mode };
    },
    // AppArmor attaches a profile by the path of the program run, so only the binary itself can
    // tell its label. Run as Node it starts no Chromium, and so no sandbox.
    electronAppArmorLabel: () => {
      const readLabel =
        "let label = ''; for (const path of ['/proc/self/attr/apparmor/current', '/proc/self/attr/current']) " +
        "{ try { label = require('node:fs').readFileSync(path, 'utf8'); break; } catch {} } process.stdout.write(label);";
      const result = spawnSync(electronBinary, ['-e', readLabel], {
        env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
        encoding: 'utf8',
        timeout: 10_000,
      });
      return result.status === 0 && result.stdout.trim() !== '' ? result.stdout.trim() : null;
    },
  };
}

const electronBinary = installedElectronBinary();
if (electronBinary === null) {
  console.error(missingElectronMessage);
  process.exit(1);
}
const sandboxProblem = sandboxHelperProblem({
  platform: process.platform,
  electronBinary,
  environment: process.env,
  reads: systemReads(electronBinary),
});
if (sandboxProblem !== null) {
  console.error(sandboxProblem);
  process.exit(1);
}

await buildApp();
// electron/cli.js runs the binary, forwards Ctrl-C and passes its exit code on.
const app = spawn(process.execPath, [join(electronPackage, 'cli.js'), projectRoot], { stdio: 'inherit' });
app.on('exit', (code) => process.exit(code ?? 1));
