/**
 * The installers' configuration and what a package holds. Real installers need the Electron
 * download, so the package here is `npm run dist` for electron-builder's `--linux dir` target,
 * built against a stand-in Electron folder (a stub executable and the files electron-builder
 * copies), with the native rebuild off (it would build against Node here, not Electron).
 */
import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { builtinModules } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { extractFile, listPackage, statFile } from '@electron/asar';
import { validateConfiguration } from 'app-builder-lib/out/util/config/config.js';
import { DebugLogger } from 'builder-util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../build/scripts/project-root.js';
import config from '../../build/electron-builder.config.js';
import { appId } from '../../electron/core/app-identity.js';
import { appLayout } from '../../electron/core/app-layout.js';

const run = promisify(execFile);

const trayIcons = ['trayTemplate.png', 'trayTemplate@2x.png', 'tray-light.png', 'tray-light@2x.png', 'tray-dark.png', 'tray-dark@2x.png'];

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

function hasInstalled(name: string): Promise<boolean> {
  return readFile(join(projectRoot, 'node_modules', name, 'package.json')).then(
    () => true,
    () => false,
  );
}

describe('the electron-builder configuration', () => {
  it("passes electron-builder's schema check", async () => {
    await expect(validateConfiguration(config, new DebugLogger(false))).resolves.toBeUndefined();
  });

  it('is refused by that check when it is wrong (the check is live)', async () => {
    const wrong = { ...config, nsis: { ...config.nsis, perMachine: 'yes' } } as unknown as typeof config;
    await expect(validateConfiguration(wrong, new DebugLogger(false))).rejects.toThrow(/perMachine/);
  });

  it("names the built main as package.json's main", async () => {
    const metadata = JSON.parse(await readFile(join(projectRoot, 'package.json'), 'utf8')) as { main?: string };
    expect(metadata.main).toBe(appLayout.main);
  });
});

describe('a --linux dir package built against a stand-in Electron', () => {
  let workFolder: string;
  let resources: string;
  let archive: string;
  let inArchive: Set<string>;
  // Every request electron-builder makes goes here instead of the internet (see the mirrors below).
  const networkRequests: string[] = [];
  let recorder: Server;

  beforeAll(async () => {
    workFolder = await mkdtemp(join(tmpdir(), 'perch-package-'));
    const electronDist = join(workFolder, 'electron-dist');
    await mkdir(join(electronDist, 'resources'), { recursive: true });
    await writeFile(join(electronDist, 'electron'), '#!/bin/sh\nexit 0\n');
    await chmod(join(electronDist, 'electron'), 0o755);
    await writeFile(join(electronDist, 'LICENSE'), 'stand-in\n');
    await writeFile(join(electronDist, 'LICENSES.chromium.html'), '<p>stand-in</p>\n');

    recorder = createServer((request, response) => {
      networkRequests.push(`${request.method} ${request.url}`);
      response.writeHead(404).end();
    });
    recorder.on('connect', (request, socket) => {
      networkRequests.push(`CONNECT ${request.url}`);
      socket.end('HTTP/1.1 403 Forbidden\r\n\r\n');
    });
    recorder.listen(0, '127.0.0.1');
    await once(recorder, 'listening');
    const recorderUrl = `http://127.0.0.1:${(recorder.address() as AddressInfo).port}`;

    const output = join(workFolder, 'release');
    // The real `npm run dist` (build, then electron-builder), for the Linux dir target.
    await run(
      'npm',
      [
        'run',
        'dist',
        '--',
        '--linux',
        'dir',
        `-c.electronDist=${electronDist}`,
        '-c.npmRebuild=false',
        `-c.directories.output=${output}`,
      ],
      {
        cwd: projectRoot,
        env: {
          ...process.env,
          CI: 'true',
          // Electron's and electron-builder's downloads, and anything that honours a proxy.
          ELECTRON_MIRROR: `${recorderUrl}/electron/`,
          ELECTRON_BUILDER_BINARIES_MIRROR: `${recorderUrl}/electron-builder-binaries/`,
          http_proxy: recorderUrl,
          https_proxy: recorderUrl,
          HTTP_PROXY: recorderUrl,
          HTTPS_PROXY: recorderUrl,
          NO_PROXY: '',
          no_proxy: '',
        },
        maxBuffer: 16 * 1024 * 1024,
      },
    );
    resources = join(output, 'linux-unpacked', 'resources');
    archive = join(resources, 'app.asar');
    inArchive = new Set(listPackage(archive, { isPack: false }).map((entry) => entry.replace(/^[/\\]/, '').replaceAll('\\', '/')));
  }, 300_000);

  afterAll(async () => {
    recorder?.close();
    if (workFolder) await rm(workFolder, { recursive: true, force: true });
  });

  it('holds the built main, preload, local service host and popover in app.asar', () => {
    for (const file of [appLayout.main, appLayout.preload, appLayout.serviceHost, `${appLayout.renderer}/index.html`]) {
      expect(inArchive, file).toContain(file);
    }
  });

  it('holds every tray icon main.ts loads', () => {
    for (const icon of trayIcons) expect(inArchive, icon).toContain(`${appLayout.trayIcons}/${icon}`);
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
    expect([...inArchive].filter((entry) => entry.startsWith('node_modules/better-sqlite3/deps/'))).toEqual([]);
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

  it("unpacks better-sqlite3's native module (and keytar's, where keytar is installed)", async () => {
    const unpacked = join(resources, 'app.asar.unpacked');
    await expect(readFile(join(unpacked, 'node_modules/better-sqlite3/build/Release/better_sqlite3.node'))).resolves.toBeInstanceOf(Buffer);
    if (await hasInstalled('keytar')) {
      await expect(readFile(join(unpacked, 'node_modules/keytar/build/Release/keytar.node'))).resolves.toBeInstanceOf(Buffer);
    }
  });

  it("unpacks node-notifier's helper programs (a Linux package keeps terminal-notifier; only Windows builds keep .exe files)", async () => {
    const vendor = 'node_modules/node-notifier/vendor';
    const vendorFiles = [...inArchive].filter((entry) => entry.startsWith(`${vendor}/`) && 'size' in statFile(archive, entry));
    expect(vendorFiles).toContain(`${vendor}/mac.noindex/terminal-notifier.app/Contents/MacOS/terminal-notifier`);
    for (const file of vendorFiles) {
      expect(statFile(archive, file), file).toMatchObject({ unpacked: true });
      await expect(readFile(join(resources, 'app.asar.unpacked', file)), file).resolves.toBeInstanceOf(Buffer);
    }
  });

  it('asked nothing of the network', () => {
    expect(networkRequests).toEqual([]);
  });
});
