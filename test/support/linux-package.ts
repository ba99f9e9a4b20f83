/**
 * A package built as `npm run dist` builds one, for electron-builder's `--linux dir` target.
 * Real installers need the Electron download, so it is built against a stand-in Electron folder
 * (a stub executable and the files electron-builder copies), offline, and otherwise with the
 * configuration as it is: its rebuild setting included.
 */
import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { chmod, mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { listPackage } from '@electron/asar';
import { projectRoot } from '../../build/scripts/project-root.js';

const runFile = promisify(execFile);

export interface LinuxDirPackage {
  /** The unpacked app: the stand-in executable, resources/app.asar and resources/app.asar.unpacked. */
  app: string;
  resources: string;
  /** Every request electron-builder made; each went to a local recorder instead of the internet. */
  networkRequests: string[];
  /** Runs electron-builder again with the configuration and the stand-in Electron, offline as the build was, without rebuilding dist/. */
  electronBuilder(args: string[], env?: NodeJS.ProcessEnv): Promise<{ stdout: string; stderr: string }>;
  /** The AppImage's AppDir made from this package, as electron-builder stages it (see `stageAppImage`). */
  stageAppImage(): Promise<string>;
  remove(): Promise<void>;
}

async function standInElectron(folder: string): Promise<string> {
  const electronDist = join(folder, 'electron-dist');
  await mkdir(join(electronDist, 'resources'), { recursive: true });
  // Given a folder in PERCH_STAND_IN_RECORD, it writes down there how it was started: its
  // arguments one a line, its environment NUL-separated.
  await writeFile(
    join(electronDist, 'electron'),
    '#!/bin/sh\nif [ -n "$PERCH_STAND_IN_RECORD" ]; then\n  printf \'%s\\n\' "$@" > "$PERCH_STAND_IN_RECORD/arguments"\n  env -0 > "$PERCH_STAND_IN_RECORD/environment"\nfi\nexit 0\n',
  );
  await chmod(join(electronDist, 'electron'), 0o755);
  await writeFile(join(electronDist, 'LICENSE'), 'stand-in\n');
  await writeFile(join(electronDist, 'LICENSES.chromium.html'), '<p>stand-in</p>\n');
  return electronDist;
}

/**
 * A stand-in for electron-builder's static-runtime AppImage toolset (appimage-tools-runtime, found
 * through APPIMAGE_TOOLS_PATH in the layout getAppImageTools in app-builder-lib's toolsets/linux
 * expects for it): its mksquashfs keeps a copy of the AppDir it was given beside the AppImage,
 * `<name>.AppImage.AppDir`, instead of compressing it. A legacy-toolset build would look for
 * other paths (linux-x64/mksquashfs) and fail.
 */
async function standInAppImageTools(folder: string): Promise<string> {
  const tools = join(folder, 'appimage-tools');
  await mkdir(join(tools, 'runtimes'), { recursive: true });
  await mkdir(join(tools, 'lib', 'x64'), { recursive: true });
  await writeFile(join(tools, 'mksquashfs'), '#!/bin/sh\ncp -a "$1" "$2.AppDir"\n: > "$2"\n');
  await writeFile(join(tools, 'desktop-file-validate'), '#!/bin/sh\nexit 0\n');
  await chmod(join(tools, 'mksquashfs'), 0o755);
  await chmod(join(tools, 'desktop-file-validate'), 0o755);
  await writeFile(join(tools, 'runtimes', 'runtime-x64'), 'stand-in runtime\n');
  return tools;
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

  const offline: NodeJS.ProcessEnv = {
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
  };
  const run = (command: string, args: string[], env: NodeJS.ProcessEnv = {}) =>
    runFile(command, args, { cwd: projectRoot, env: { ...offline, ...env }, maxBuffer: 16 * 1024 * 1024 });

  try {
    const output = join(folder, 'release');
    const electronDist = await standInElectron(folder);
    await run('npm', ['run', 'dist', '--', '--linux', 'dir', `-c.electronDist=${electronDist}`, `-c.directories.output=${output}`]);
    const app = join(output, 'linux-unpacked');
    const electronBuilder = (args: string[], env?: NodeJS.ProcessEnv) =>
      run(
        join(projectRoot, 'node_modules', '.bin', 'electron-builder'),
        ['--config', 'build/electron-builder.config.ts', `-c.electronDist=${electronDist}`, ...args],
        env,
      );
    const stageAppImage = async () => {
      const appImageOutput = join(folder, 'appimage');
      await electronBuilder(['--prepackaged', app, '--linux', 'AppImage', `-c.directories.output=${appImageOutput}`], {
        APPIMAGE_TOOLS_PATH: await standInAppImageTools(folder),
      });
      const staged = (await readdir(appImageOutput)).filter((name) => name.endsWith('.AppDir'));
      if (staged.length !== 1) throw new Error(`expected one staged AppDir in ${appImageOutput}, found ${staged.join(', ') || 'none'}`);
      return join(appImageOutput, staged[0]!);
    };
    return { app, resources: join(app, 'resources'), networkRequests, electronBuilder, stageAppImage, remove };
  } catch (error) {
    await remove();
    throw error;
  }
}

/** The paths app.asar holds, relative to the app and with forward slashes, as its files name them. */
export function archiveEntries(archive: string): string[] {
  return listPackage(archive, { isPack: false }).map((entry) => entry.replace(/^[/\\]/, '').replaceAll('\\', '/'));
}
