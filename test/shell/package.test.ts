/**
 * The installers' configuration and what a package holds: the `--linux dir` package built the
 * way `npm run dist` builds one, against a stand-in Electron (test/support/linux-package.ts).
 */
import { execFile } from 'node:child_process';
import { constants } from 'node:fs';
import { access, chmod, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { extractFile, statFile } from '@electron/asar';
import { validateConfiguration } from 'app-builder-lib/out/util/config/config.js';
import { Arch, DebugLogger } from 'builder-util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../build/scripts/project-root.js';
import config from '../../build/electron-builder.config.js';
import { missingLibsqlBinary } from '../../build/scripts/libsql-binary.js';
import { appId } from '../../electron/core/desktop/app-identity.js';
import { appLayout, unpackedPath } from '../../electron/core/desktop/app-layout.js';
import { systemProgramEnv } from '../../electron/platform/system-program-env.js';
import { archiveEntries, buildLinuxDirPackage, type LinuxDirPackage } from '../support/linux-package.js';

const run = promisify(execFile);

const trayIcons = [
  'trayTemplate.png',
  'trayTemplate@2x.png',
  'tray-light.png',
  'tray-light@2x.png',
  'tray-dark.png',
  'tray-dark@2x.png',
  'tray-color.png',
  'tray-color@2x.png',
];

/** The npm packages an esbuild bundle loads at run time: its import statements, dynamic imports and requires. */
function importedPackages(code: string): string[] {
  const specifiers = [
    ...code.matchAll(/^(?:import|export|\})[^;\n]*?\bfrom\s*"([^"]+)";?$/gm),
    ...code.matchAll(/^import\s*"([^"]+)";?$/gm),
    ...code.matchAll(/\b(?:import|require)\("([^"]+)"\)/g),
  ].map((match) => match[1] ?? '');
  const packageName = (specifier: string) =>
    specifier
      .split('/')
      .slice(0, specifier.startsWith('@') ? 2 : 1)
      .join('/');
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
    for (const override of ['afterInstall', 'afterRemove', 'appArmorProfile'] as const)
      expect(config.deb, override).not.toHaveProperty(override);
  });

  it("installs with the deb an AppArmor profile that lets the installed program create user namespaces (Ubuntu 24.04's rule)", async () => {
    const templates = join(projectRoot, 'node_modules', 'app-builder-lib', 'templates', 'linux');
    const { productName } = JSON.parse(await readFile(join(projectRoot, 'package.json'), 'utf8')) as { productName: string };
    // Filled in as electron-builder's deb target fills them: the program's name and the product's folder in /opt.
    const fill = (template: string) =>
      template.replaceAll('${executable}', config.linux?.executableName ?? '').replaceAll('${sanitizedProductName}', productName);
    const profile = fill(await readFile(join(templates, 'apparmor-profile.tpl'), 'utf8'));
    expect(profile).toContain('abi <abi/4.0>,');
    expect(profile).toMatch(/^profile "perch" "\/opt\/Perch\/perch" flags=\(unconfined\) \{\n\s+userns,$/m);
    const postinst = fill(await readFile(join(templates, 'after-install.tpl'), 'utf8'));
    expect(postinst).toContain("APPARMOR_PROFILE_TARGET='/etc/apparmor.d/perch'");
    expect(postinst).toContain('apparmor_parser --replace');
    const postrm = fill(await readFile(join(templates, 'after-remove.tpl'), 'utf8'));
    expect(postrm).toContain('/etc/apparmor.d/perch');
  });

  it('takes the static AppImage runtime, which needs no libfuse2 (the default "0.0.0" is the legacy runtime that does)', () => {
    expect(config.toolsets?.appimage).toBe('1.0.3');
    // No executableArgs: electron-builder's desktop entry then carries no --no-sandbox (checked on the staged AppImage below).
    expect(config.appImage?.executableArgs ?? null).toBeNull();
  });

  it('refuses to package for Windows on ARM: libsql 0.5.29 publishes no SQLite binary for it', async () => {
    const resources = await mkdtemp(join(tmpdir(), 'perch-resources-'));
    try {
      expect(await missingLibsqlBinary(resources, 'win32', Arch.arm64)).toBe(
        'Perch cannot be packaged for win32 arm64: libsql 0.5.29 publishes no SQLite binary for it (@libsql/win32-arm64-msvc is not among its optionalDependencies).',
      );
      expect(await missingLibsqlBinary(resources, 'linux', Arch.ia32)).toBe(
        'Perch cannot be packaged for linux ia32: libsql 0.5.29 publishes no SQLite binary for it.',
      );
    } finally {
      await rm(resources, { recursive: true, force: true });
    }
  });

  it('asks a universal Mac package for both Mac binaries, and a Windows x64 one for the msvc build', async () => {
    const resources = await mkdtemp(join(tmpdir(), 'perch-resources-'));
    const place = async (name: string) => {
      await mkdir(join(resources, 'app.asar.unpacked', 'node_modules', '@libsql', name), { recursive: true });
      await writeFile(join(resources, 'app.asar.unpacked', 'node_modules', '@libsql', name, 'index.node'), 'binary');
    };
    try {
      await place('darwin-arm64');
      expect(await missingLibsqlBinary(resources, 'darwin', Arch.arm64)).toBeNull();
      expect(await missingLibsqlBinary(resources, 'darwin', Arch.universal)).toContain('@libsql/darwin-x64/index.node is missing');
      await place('darwin-x64');
      expect(await missingLibsqlBinary(resources, 'darwin', Arch.universal)).toBeNull();
      expect(await missingLibsqlBinary(resources, 'win32', Arch.x64)).toContain('@libsql/win32-x64-msvc/index.node is missing');
      await place('win32-x64-msvc');
      expect(await missingLibsqlBinary(resources, 'win32', Arch.x64)).toBeNull();
    } finally {
      await rm(resources, { recursive: true, force: true });
    }
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

  it('holds a package.json naming the built main, and the desktop name Linux windows take their app_id from', () => {
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

  it("holds the build machine's own SQLite binary, which the afterPack check found", async () => {
    await expect(
      access(join(resources, 'app.asar.unpacked', 'node_modules', '@libsql', `linux-${process.arch}-gnu`, 'index.node')),
    ).resolves.toBeUndefined();
  });

  it('is not built for another architecture, whose @libsql/<platform> npm did not install here: the build fails and says why', async () => {
    const other = process.arch === 'arm64' ? 'x64' : 'arm64';
    const output = join(dirname(built.app), `linux-${other}`);
    const failure = await built.electronBuilder(['--linux', 'dir', `--${other}`, `-c.directories.output=${output}`]).then(
      () => null,
      (error: unknown) => error as { stdout: string; stderr: string },
    );
    expect(failure).not.toBeNull();
    const missing = join(
      output,
      `linux-${other}-unpacked`,
      'resources',
      'app.asar.unpacked',
      'node_modules',
      '@libsql',
      `linux-${other}-gnu`,
      'index.node',
    );
    expect(`${failure?.stdout}${failure?.stderr}`).toContain(
      `The linux ${other} package has no SQLite binary: ${missing} is missing. npm installs only the build machine's own @libsql/<platform> package, and the build rebuilds nothing (npmRebuild: false). Build the linux ${other} package on a linux ${other} machine, after npm ci there.`,
    );
  }, 300_000);

  describe('made into an AppImage (stand-in static-runtime toolset)', () => {
    let appDir: string;

    beforeAll(async () => {
      appDir = await built.stageAppImage();
    }, 300_000);

    it("was staged with the static runtime's toolset, and its desktop entry starts AppRun without --no-sandbox", async () => {
      const desktopFiles = (await readdir(appDir)).filter((name) => name.endsWith('.desktop'));
      expect(desktopFiles).toEqual([`${appId}.desktop`]);
      const entry = await readFile(join(appDir, desktopFiles[0]!), 'utf8');
      expect(entry).toMatch(/^Exec=AppRun %U$/m);
      expect(entry).not.toContain('--no-sandbox');
    });

    /** How AppRun starts Perch (the stand-in Electron writes it down), where `unshare -Ur true` answers `status`. */
    async function startedByAppRun(status: number): Promise<{ args: string[]; env: NodeJS.ProcessEnv }> {
      const folder = await mkdtemp(join(tmpdir(), 'perch-apprun-'));
      try {
        await writeFile(join(folder, 'unshare'), `#!/bin/sh\nexit ${status}\n`);
        await chmod(join(folder, 'unshare'), 0o755);
        await run(join(appDir, 'AppRun'), ['--hidden'], {
          env: { APPDIR: appDir, PATH: `${folder}:/usr/bin:/bin`, LD_LIBRARY_PATH: '/opt/vendor/lib', PERCH_STAND_IN_RECORD: folder },
        });
        const args = (await readFile(join(folder, 'arguments'), 'utf8')).trim().split('\n');
        const variables = (await readFile(join(folder, 'environment'), 'utf8')).split('\0').filter(Boolean);
        const env = Object.fromEntries(
          variables.map((variable) => [variable.slice(0, variable.indexOf('=')), variable.slice(variable.indexOf('=') + 1)]),
        );
        return { args, env };
      } finally {
        await rm(folder, { recursive: true, force: true });
      }
    }

    it("has an AppRun that keeps Chromium's sandbox where user namespaces can be created (as with the AppImage's AppArmor profile)", async () => {
      expect((await startedByAppRun(0)).args).toEqual(['--hidden']);
    });

    it('has an AppRun that itself adds --no-sandbox where they cannot (Ubuntu 24.04 without that profile): no setting turns this off', async () => {
      expect((await startedByAppRun(1)).args).toEqual(['--no-sandbox', '--hidden']);
    });

    it("has an AppRun that puts the AppImage's libraries first in LD_LIBRARY_PATH, which the system programs Perch runs are given without", async () => {
      const { env } = await startedByAppRun(0);
      expect(env['LD_LIBRARY_PATH']).toBe(`${appDir}/usr/lib:/opt/vendor/lib`);
      expect(systemProgramEnv(env)['LD_LIBRARY_PATH']).toBe('/opt/vendor/lib');
    });
  });

  it('asked nothing of the network', () => {
    expect(built.networkRequests).toEqual([]);
  });
});
