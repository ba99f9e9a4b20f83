/**
 * Every native module the app loads must load unchanged in Node 20 (the tests, `npm run service`)
 * and in Electron 45 (`npm start`, the installers): each must be Node-API, or built for Electron's
 * own ABI. Read from the binaries themselves, in node_modules and in a package built with the
 * configuration's own rebuild setting, since a module built for Node's ABI kills the utility
 * process that hosts the local service.
 */
import { execFile } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { statFile } from '@electron/asar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../build/scripts/project-root.js';
import { archiveEntries, buildLinuxDirPackage, type LinuxDirPackage } from '../support/linux-package.js';
import { describeKind, nativeModuleKind } from '../support/native-module-kind.js';

const run = promisify(execFile);
const resolveFromProject = createRequire(join(projectRoot, 'package.json')).resolve;

/** The ABI the electron package itself declares for its binary (NODE_MODULE_VERSION). */
async function electronRuntime(): Promise<{ version: string; abi: number }> {
  const metadata = JSON.parse(await readFile(resolveFromProject('electron/package.json'), 'utf8')) as { version: string };
  return { version: metadata.version, abi: Number(await readFile(resolveFromProject('electron/abi_version'), 'utf8')) };
}

async function nativeFilesUnder(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { recursive: true });
  return entries.filter((entry) => entry.endsWith('.node')).map((entry) => join(folder, entry));
}

/**
 * The native files of the installed production dependency tree, optional packages included: what
 * a package holds. Each package's own files only: a nested node_modules is listed as packages of its own.
 */
async function productionNativeFiles(): Promise<string[]> {
  const { stdout } = await run('npm', ['ls', '--omit=dev', '--all', '--parseable'], { cwd: projectRoot, maxBuffer: 16 * 1024 * 1024 });
  const [, ...packageFolders] = stdout.split('\n').filter(Boolean);
  const perPackage = await Promise.all(
    packageFolders.map(async (folder) =>
      (await nativeFilesUnder(folder)).filter((file) => !relative(folder, file).includes('node_modules')),
    ),
  );
  return perPackage.flat();
}

/** The npm package a file belongs to, by its path: `@libsql/linux-x64-gnu` for `…/node_modules/@libsql/linux-x64-gnu/index.node`. */
function owningPackage(file: string): string {
  const inPackage = file.slice(file.lastIndexOf('node_modules/') + 'node_modules/'.length).split('/');
  return inPackage.slice(0, inPackage[0]?.startsWith('@') ? 2 : 1).join('/');
}

interface Verdict {
  file: string;
  description: string;
  loadsInElectron: boolean;
}

async function verdictsOn(files: readonly string[], base: string, electronAbi: number): Promise<Verdict[]> {
  return Promise.all(
    files.map(async (file) => {
      const name = relative(base, file);
      try {
        const kind = nativeModuleKind(await readFile(file));
        return {
          file: name,
          description: describeKind(kind),
          loadsInElectron: kind.kind === 'node-api' || (kind.kind === 'abi' && kind.abi === electronAbi),
        };
      } catch (error) {
        return { file: name, description: `unreadable: ${(error as Error).message}`, loadsInElectron: false };
      }
    }),
  );
}

function expectAllLoadableInElectron(verdicts: readonly Verdict[]) {
  // The ones Electron cannot load, each with what it was built for; every file read in the message.
  const line = (verdict: Verdict) => `${verdict.file}: ${verdict.description}`;
  const read = verdicts.map(line).join('\n');
  expect(
    verdicts.filter((verdict) => !verdict.loadsInElectron).map(line),
    `Electron ${electron.version} loads Node-API modules and ABI ${electron.abi}; read:\n${read}`,
  ).toEqual([]);
}

let electron: { version: string; abi: number };
beforeAll(async () => {
  electron = await electronRuntime();
});

describe('native modules of the production dependency tree in node_modules', () => {
  it("are each Node-API or built for Electron's ABI", async () => {
    const files = await productionNativeFiles();
    expect(files.length, 'the app loads native modules (the SQLite driver, keytar): the check reads them').toBeGreaterThan(0);
    expectAllLoadableInElectron(await verdictsOn(files, projectRoot, electron.abi));
  });
});

describe('native modules of the linux-unpacked app, built with the configuration as it is', () => {
  let built: LinuxDirPackage;
  let files: string[];

  beforeAll(async () => {
    built = await buildLinuxDirPackage();
    files = await nativeFilesUnder(built.app);
  }, 300_000);

  afterAll(() => built?.remove());

  it("are each Node-API or built for Electron's ABI", async () => {
    expectAllLoadableInElectron(await verdictsOn(files, built.app, electron.abi));
  });

  it('come from every production package that has one, unpacked (a native module cannot load from inside app.asar)', async () => {
    expect(new Set(files.map(owningPackage))).toEqual(new Set((await productionNativeFiles()).map(owningPackage)));
    const archive = join(built.resources, 'app.asar');
    const isUnpacked = (entry: string) => {
      const stat = statFile(archive, entry);
      return 'unpacked' in stat && stat.unpacked === true;
    };
    expect(archiveEntries(archive).filter((entry) => entry.endsWith('.node') && !isUnpacked(entry))).toEqual([]);
  });
});
