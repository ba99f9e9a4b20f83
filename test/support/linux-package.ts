/**
 * A package built as `npm run dist` builds one, for electron-builder's `--linux dir` target.
 * Real installers need the Electron download, so it is built against a stand-in Electron folder
 * (a stub executable and the files electron-builder copies), offline, and otherwise with the
 * configuration as it is: its rebuild setting included.
 */
import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { listPackage } from '@electron/asar';
import { projectRoot } from '../../build/scripts/project-root.js';

const run = promisify(execFile);

export interface LinuxDirPackage {
  /** The unpacked app: the stand-in executable, resources/app.asar and resources/app.asar.unpacked. */
  app: string;
  resources: string;
  /** Every request electron-builder made; each went to a local recorder instead of the internet. */
  networkRequests: string[];
  remove(): Promise<void>;
}

async function standInElectron(folder: string): Promise<string> {
  const electronDist = join(folder, 'electron-dist');
  await mkdir(join(electronDist, 'resources'), { recursive: true });
  await writeFile(join(electronDist, 'electron'), '#!/bin/sh\nexit 0\n');
  await chmod(join(electronDist, 'electron'), 0o755);
  await writeFile(join(electronDist, 'LICENSE'), 'stand-in\n');
  await writeFile(join(electronDist, 'LICENSES.chromium.html'), '<p>stand-in</p>\n');
  return electronDist;
}

export async function buildLinuxDirPackage(): Promise<LinuxDirPackage> {
  const folder = await mkdtemp(join(tmpdir(), 'perch-package-'));
  const networkRequests: string[] = [];
  const recorder = createServer((request, response) => {
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
  const remove = async () => {
    recorder.close();
    await rm(folder, { recursive: true, force: true });
  };

  try {
    const output = join(folder, 'release');
    await run('npm', ['run', 'dist', '--', '--linux', 'dir', `-c.electronDist=${await standInElectron(folder)}`, `-c.directories.output=${output}`], {
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
    });
    const app = join(output, 'linux-unpacked');
    return { app, resources: join(app, 'resources'), networkRequests, remove };
  } catch (error) {
    await remove();
    throw error;
  }
}

/** The paths app.asar holds, relative to the app and with forward slashes, as its files name them. */
export function archiveEntries(archive: string): string[] {
  return listPackage(archive, { isPack: false }).map((entry) => entry.replace(/^[/\\]/, '').replaceAll('\\', '/'));
}
