/**
 * The Windows uninstaller removes what Electron registers for Perch's toasts: the toast activator
 * under HKCU\Software\Classes\CLSID (Electron's windows_toast_activator.cc, EnsureCLSIDRegistry),
 * for the CLSID main.ts sets. Read from the configuration and the NSIS include it names; there is
 * no NSIS compiler here.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import config from '../../build/electron-builder.config.js';
import { projectRoot } from '../../build/scripts/project-root.js';
import { runIdentity, toastActivatorClsid } from '../../electron/core/desktop/app-identity.js';

const nsisTemplates = join(projectRoot, 'node_modules', 'app-builder-lib', 'templates', 'nsis');

function customUnInstallMacro(): string {
  const include = config.nsis?.include;
  if (typeof include !== 'string') throw new Error('nsis.include is not set');
  const path = join(projectRoot, include);
  expect(existsSync(path), path).toBe(true);
  const macro = /^!macro customUnInstall\n([\s\S]*?)^!macroend$/m.exec(readFileSync(path, 'utf8'))?.[1];
  if (macro === undefined) throw new Error(`${include} defines no customUnInstall macro`);
  return macro;
}

it("removes the installed app's toast activator key on uninstall, and keeps it on an update", () => {
  const commands = customUnInstallMacro()
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith(';'));

  expect(commands).toEqual(['${ifNot} ${isUpdated}', `DeleteRegKey HKCU "Software\\Classes\\CLSID\\${toastActivatorClsid}"`, '${endIf}']);
  expect(runIdentity(true).toastActivatorClsid).toBe(toastActivatorClsid);
});

it('leaves the key of runs from source, which have an activator of their own, alone', () => {
  expect(customUnInstallMacro()).not.toContain(runIdentity(false).toastActivatorClsid);
});

it("is a hook electron-builder's uninstaller runs, in its uninstall section, where an update is told apart", () => {
  const uninstaller = readFileSync(join(nsisTemplates, 'uninstaller.nsh'), 'utf8');
  const section = uninstaller.slice(uninstaller.indexOf('Section "un.'));
  const hook = section.indexOf('!insertmacro customUnInstall');
  expect(hook).toBeGreaterThan(0);
  expect(section.indexOf('${isUpdated}', hook)).toBeGreaterThan(hook);
});
