/**
 * The installers' configuration and what a package holds: the `--linux dir` package built the
 * way `npm run dist` builds one, against a stand-in Electron (test/support/linux-package.ts).
 */
import { constants } from 'node:fs';
import { access, readFile } from 'node:fs/promises';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import { extractFile, statFile } from '@electron/asar';
import { validateConfiguration } from 'app-builder-lib/out/util/config/config.js';
import { DebugLogger } from 'builder-util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../build/scripts/project-root.js';
import config from '../../build/electron-builder.config.js';
import { appId } from '../../electron/core/desktop/app-identity.js';
import { appLayout, unpackedPath } from '../../electron/core/desktop/app-layout.js';
import { archiveEntries, buildLinuxDirPackage, type LinuxDirPackage } from '../support/linux-package.js';

const trayIcons = ['trayTemplate.png', 'trayTemplate@2x.png', 'tray-light.png', 'tray-light@2x.png', 'tray-dark.png', 'tray-dark@2x.png', 'tray-color.png', 'tray-color@2x.png'];

/** The npm packages an esbuild bundle loads at run time: its import statements, dynamic imports and requires. */
function importedPackages(code: string): string[] {
  const specifiers = [
    ...code.matchAll(/^(?:import|export|\})[^;\n]*?\bfrom\s*"([^"]+)";?$/gm),
    ...code.matchAll(/^import\s*"([^"]+)";?$/gm),
    ...code.matchAll(/\b(?:import|require)\("([^"]+)"\)/g),
  ].map((match) => match[1] ?? '');
  const packageName = (specifier: string) => specifier.split('/').slice(0, specifier.startsWith('@') ? 2 : 1).join('/');
  const provided = (specifier: string) => specifier === 'electron' || specifier.startsWith('node:') || builtinModules.includes(specifier);
  return [...new Set(specifiers.filter((specifier) => !provided(specifier)).map(packageName))].sort();
}

describe('the electron-builder configuration', () => {
  it("passes electron-builder's schema check", async () => {
    await expect(validateConfiguration(config, new DebugLogger(false))).resolves.toBeUndefined();
  });

  it('is refused by that check when it is wrong (the check is live)', async () => {
    const wrong = { ...config, nsis: { ...config.nsis, perMachine: 'yes' } } as unknown as typeof config;
    await expect(validateConfiguration(wrong, new DebugLogger(false))).rejects.toThrow(/perMachine/);
  });

  it('puts Perch where users look for it: the Start menu, the Linux app menu, and macOS as a menu-bar app', () => {
    expect(config.nsis).toMatchObject({ createStartMenuShortcut: true, shortcutName: 'Perch' });
    // deb and AppImage install a .desktop entry for the app menu, named after desktopName (syncDesktopName).
    expect(config.linux).toMatchObject({ syncDesktopName: true });
    expect(config.extraMetadata).toMatchObject({ desktopName: `${appId}.desktop` });
    expect(config.mac?.extendInfo).toMatchObject({ LSUIElement: true });
  });

  it('builds the deb first, with the scripts that install its AppArmor profile left as electron-builder writes them', () => {
    expect(config.linux?.target).toEqual(['deb', 'AppImage']);
    expect(config.linux?.executableName).toBe('perch');
    for (const override of ['afterInstall', 'afterRemove', 'appArmorProfile'] as const) expect(config.deb, override).not.toHaveProperty(override);
  });

  it("installs with the deb an AppArmor profile that lets the installed program create user namespaces (Ubuntu 24.04's rule)", async () => {
    const templates = join(projectRoot, 'node_modules', 'app-builder-lib', 'templates', 'linux');
    const { productName } = JSON.parse(await readFile(join(projectRoot, 'package.json'), 'utf8')) as { productName: string };
    // Filled in as electron-builder's deb target fills them: the program's name and the product's folder in /opt.
    const fill = (template: string) => template.replaceAll('${executable}', config.linux?.executableName ?? '').replaceAll('${sanitizedProductName}', productName);
    const profile = fill(await readFile(join(templates, 'apparmor-profile.tpl'), 'utf8'));
    expect(profile).toContain('abi <abi/4.0>,');
    expect(profile).toMatch(/^profile "perch" "\/opt\/Perch\/perch" flags=\(unconfined\) \{\n\s+userns,$/m);
    const postinst = fill(await readFile(join(templates, 'after-install.tpl'), 'utf8'));
    expect(postinst).toContain("APPARMOR_PROFILE_TARGET='/etc/apparmor.d/perch'");
    expect(postinst).toContain('apparmor_parser --replace');
    const postrm = fill(await readFile(join(templates, 'after-remove.tpl'), 'utf8'));
    expect(postrm).toContain('/etc/apparmor.d/perch');
  });

  it("names the built main as package.json's main", async () => {
    const metadata = JSON.parse(await readFile(join(projectRoot, 'package.json'), 'utf8')) as { main?: string };
    expect(metadata.main).toBe(appLayout.main);
  });
});

describe('a --linux dir package built against a stand-in Electron', () => {
  let built: LinuxDirPackage;
  let resources: string;
  let archive: string;
  let inArchive: Set<string>;

  beforeAll(async () => {
    built = await buildLinuxDirPackage();
    resources = built.resources;
    archive = join(resources, 'app.asar');
    inArchive = new Set(archiveEntries(archive));
  }, 300_000);

  afterAll(() => built?.remove());

  it('puts the program where the AppArmor profile of the deb expects it: perch, at the top of the folder the deb installs as /opt/Perch', async () => {
    await expect(access(join(built.app, 'perch'), constants.X_OK)).resolves.toBeUndefined();
  });

  it('holds the built main, preload, local service host and popover in app.asar', () => {
    for (const file of [appLayout.main, appLayout.preload, appLayout.serviceHost, `${appLayout.renderer}/index.html`]) {
      expect(inArchive, file).toContain(file);
    }
  });

  it('holds every tray icon main.ts loads', () => {
    for (const icon of trayIcons) expect(inArchive, icon).toContain(`${appLayout.trayIcons}/${icon}`);
  });

  it('keeps the notification icon outside app.asar, where the notification service can read it', async () => {
    expect(statFile(archive, appLayout.notificationIcon)).toMatchObject({ unpacked: true });
    // Where the shell looks for it: the path of app.asar is what app.getAppPath() answers when packaged.
    const icon = await readFile(unpackedPath(archive, appLayout.notificationIcon));
    expect(icon.subarray(1, 4).toString('latin1')).toBe('PNG');
  });

  it("holds a package.json naming the built main, and the desktop name Linux windows take their app_id from", () => {
    const metadata = JSON.parse(extractFile(archive, 'package.json').toString('utf8')) as { main?: string; desktopName?: string };
    expect(metadata.main).toBe(appLayout.main);
    expect(metadata.desktopName).toBe(`${appId}.desktop`);
  });

  it('holds neither sources nor the build tooling (only dist/, the tray icons and production node_modules)', () => {
    const topLevel = new Set([...inArchive].map((entry) => entry.split('/')[0]));
    expect([...topLevel].sort()).toEqual(['build', 'dist', 'node_modules', 'package.json']);
    for (const devOnly of ['electron', 'electron-builder', 'vite', 'vitest', 'esbuild']) {
      expect(inArchive, devOnly).not.toContain(`node_modules/${devOnly}`);
    }
    expect([...inArchive].filter((entry) => entry.endsWith('.d.ts'))).toEqual([]);
  });

  it('holds every npm package the built main and service host import (production dependencies only)', () => {
    for (const bundle of [appLayout.main, appLayout.serviceHost]) {
      const packages = importedPackages(extractFile(archive, bundle).toString('utf8'));
      expect(packages.length, bundle).toBeGreaterThan(0);
      for (const name of packages) expect(inArchive, `${bundle} imports ${name}`).toContain(`node_modules/${name}/package.json`);
    }
  });

  it('has a preload that requires nothing but electron, as a sandboxed preload must', () => {
    const preload = extractFile(archive, appLayout.preload).toString('utf8');
    expect(preload).toContain('require("electron")');
    expect(importedPackages(preload)).toEqual([]);
  });

  it('asked nothing of the network', () => {
    expect(built.networkRequests).toEqual([]);
  });
});
