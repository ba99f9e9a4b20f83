/**
 * `npm start`: runs the tray app from source. Checks for the Electron binary first (a build is no
 * use without it), builds dist/, then starts Electron on the project folder.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { buildApp } from './app-build.js';
import { projectRoot } from './project-root.js';

const missingElectronMessage =
  'Perch needs the Electron binary, which is not installed: run "node node_modules/electron/install.js", ' +
  'or try the local service alone with "npm run service -- --demo" and the tests with "npm test".';

const electronPackage = dirname(createRequire(import.meta.url).resolve('electron/package.json'));

/**
 * Whether the binary the electron package would run exists, found the way its index.js finds it.
 * Requiring that index.js instead would start a download when the binary is missing.
 */
function electronBinaryInstalled(): boolean {
  const pathFile = join(electronPackage, 'path.txt');
  const relativePath = existsSync(pathFile) ? readFileSync(pathFile, 'utf8') : null;
  const override = process.env.ELECTRON_OVERRIDE_DIST_PATH;
  if (override) return existsSync(join(override, relativePath ?? 'electron'));
  return relativePath !== null && existsSync(join(electronPackage, 'dist', relativePath));
}

if (!electronBinaryInstalled()) {
  console.error(missingElectronMessage);
  process.exit(1);
}

await buildApp();
// electron/cli.js runs the binary, forwards Ctrl-C and passes its exit code on.
const app = spawn(process.execPath, [join(electronPackage, 'cli.js'), projectRoot], { stdio: 'inherit' });
app.on('exit', (code) => process.exit(code ?? 1));
