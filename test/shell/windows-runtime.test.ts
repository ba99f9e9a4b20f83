/**
 * The Windows package ships the Visual C++ runtime DLLs its native modules import beside them,
 * and stops building when one is missing (build/scripts/windows-runtime.ts, run by afterPack).
 * The packaged native module is a real Rust module built with MSVC that imports VCRUNTIME140.dll
 * as libsql 0.5.29's win32-x64 binary does; the runtime DLLs are small PE files written here.
 */
import { existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Arch } from 'builder-util';
import type { AfterPackContext } from 'electron-builder';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import config from '../../build/electron-builder.config.js';
import type { WindowsArch } from '../../build/scripts/pe-imports.js';
import { projectRoot } from '../../build/scripts/project-root.js';
import { runtimeFolder, shipWindowsRuntime } from '../../build/scripts/windows-runtime.js';
import { peFile } from '../support/pe-file.js';

const rustMsvcModule = join(projectRoot, 'node_modules', '@electron-internal', 'extract-zip', 'index.win32-x64-msvc.node');
const libsqlFolder = join('app.asar.unpacked', 'node_modules', '@libsql', 'win32-x64-msvc');
/** What the Redistributable's vcruntime140.dll imports: Windows' own DLLs only. */
const vcruntime = (machine: WindowsArch) =>
  peFile({ machine, imports: ['KERNEL32.dll', 'api-ms-win-crt-runtime-l1-1-0.dll', 'api-ms-win-crt-string-l1-1-0.dll'] });

let folder: string;
let appOutDir: string;
let resources: string;
let runtime: string;

async function packageModule(relativePath: string, contents: Buffer | string): Promise<void> {
  await mkdir(join(resources, relativePath, '..'), { recursive: true });
  if (typeof contents === 'string') await copyFile(contents, join(resources, relativePath));
  else await writeFile(join(resources, relativePath), contents);
}

async function putRuntime(arch: WindowsArch, name: string, contents: Buffer, into = runtime): Promise<string> {
  await mkdir(join(into, arch), { recursive: true });
  await writeFile(join(into, arch, name), contents);
  return join(into, arch, name);
}

const fromRuntime = (arch: WindowsArch) => [join(runtime, arch)];

beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), 'perch-win-runtime-'));
  appOutDir = join(folder, 'win-unpacked');
  resources = join(appOutDir, 'resources');
  runtime = join(folder, 'win-runtime');
  await packageModule(join(libsqlFolder, 'index.node'), rustMsvcModule);
});

afterEach(async () => {
  await rm(folder, { recursive: true, force: true });
});

describe('the Visual C++ runtime in the Windows package', () => {
  it('copies vcruntime140.dll beside the native module that imports it, from the folder for its architecture', async () => {
    const source = await putRuntime('x64', 'vcruntime140.dll', vcruntime('x64'));
    await expect(shipWindowsRuntime(resources, fromRuntime)).resolves.toEqual([
      { path: join(libsqlFolder, 'vcruntime140.dll'), from: source },
    ]);
    expect(await readFile(join(resources, libsqlFolder, 'vcruntime140.dll'))).toEqual(vcruntime('x64'));
  });

  it('stops the build when the runtime DLL is not there, saying which module needs which DLL and where to put it', async () => {
    const failure = shipWindowsRuntime(resources, fromRuntime);
    await expect(failure).rejects.toThrow(
      `${join(libsqlFolder, 'index.node')} (x64) imports VCRUNTIME140.dll, part of the Visual C++ 2015–2022 runtime, which Windows does not have`,
    );
    await expect(failure).rejects.toThrow(`in ${runtimeFolder('x64')}.`);
    expect(await readdir(join(resources, libsqlFolder))).toEqual(['index.node']);
  });

  it('takes no DLL built for another architecture, and says so', async () => {
    const arm64Build = await putRuntime('x64', 'VCRUNTIME140.dll', vcruntime('arm64'));
    await expect(shipWindowsRuntime(resources, fromRuntime)).rejects.toThrow(`Not taken: ${arm64Build} is built for arm64.`);

    // The next folder offered (System32, on a Windows build machine) has the right one.
    const fallback = await putRuntime('x64', 'vcruntime140.dll', vcruntime('x64'), join(folder, 'System32'));
    await expect(shipWindowsRuntime(resources, (arch) => [join(runtime, arch), join(folder, 'System32', arch)])).resolves.toEqual([
      { path: join(libsqlFolder, 'vcruntime140.dll'), from: fallback },
    ]);
  });

  it('also ships what the shipped DLLs import (the C++ library needs vcruntime140.dll and vcruntime140_1.dll)', async () => {
    await packageModule(
      join('app.asar.unpacked', 'node_modules', 'cpp-module', 'build', 'Release', 'cpp.node'),
      peFile({ machine: 'x64', imports: ['KERNEL32.dll', 'MSVCP140.dll'] }),
    );
    await putRuntime(
      'x64',
      'msvcp140.dll',
      peFile({ machine: 'x64', imports: ['KERNEL32.dll', 'VCRUNTIME140.dll', 'VCRUNTIME140_1.dll'] }),
    );
    await putRuntime('x64', 'vcruntime140.dll', vcruntime('x64'));
    await putRuntime('x64', 'vcruntime140_1.dll', vcruntime('x64'));
    const shipped = await shipWindowsRuntime(resources, fromRuntime);
    const cppFolder = join('app.asar.unpacked', 'node_modules', 'cpp-module', 'build', 'Release');
    expect(shipped.map((dll) => dll.path).sort()).toEqual(
      [
        join(cppFolder, 'msvcp140.dll'),
        join(cppFolder, 'vcruntime140.dll'),
        join(cppFolder, 'vcruntime140_1.dll'),
        join(libsqlFolder, 'vcruntime140.dll'),
      ].sort(),
    );
  });

  it("ships nothing for a module that needs only Windows' own DLLs and the program hosting it (keytar, built with node-gyp)", async () => {
    await rm(join(resources, libsqlFolder), { recursive: true });
    await packageModule(
      join('app.asar.unpacked', 'node_modules', 'keytar', 'build', 'Release', 'keytar.node'),
      peFile({ machine: 'x64', imports: ['KERNEL32.dll', 'ADVAPI32.dll', 'api-ms-win-crt-heap-l1-1-0.dll'], delayImports: ['node.exe'] }),
    );
    await expect(shipWindowsRuntime(resources, fromRuntime)).resolves.toEqual([]);
  });

  it('leaves a DLL a package ships beside its module as it is, but checks what that DLL imports', async () => {
    const ownCopy = peFile({ machine: 'x64', imports: ['KERNEL32.dll'] });
    await packageModule(join(libsqlFolder, 'VCRUNTIME140.dll'), ownCopy);
    await putRuntime('x64', 'vcruntime140.dll', vcruntime('x64'));
    await expect(shipWindowsRuntime(resources, fromRuntime)).resolves.toEqual([]);
    expect(await readFile(join(resources, libsqlFolder, 'VCRUNTIME140.dll'))).toEqual(ownCopy);

    await packageModule(
      join(libsqlFolder, 'VCRUNTIME140.dll'),
      peFile({ machine: 'x64', imports: ['KERNEL32.dll', 'libcrypto-3-x64.dll'] }),
    );
    await expect(shipWindowsRuntime(resources, fromRuntime)).rejects.toThrow(
      `The Windows package's native modules would not load on Windows:\n- ${join(libsqlFolder, 'VCRUNTIME140.dll')} imports libcrypto-3-x64.dll, which is neither part of Windows nor of the Visual C++ runtime nor beside it: ship it with its package, or add it to windowsDlls in build/scripts/windows-runtime.ts if every Windows 10 and 11 has it.`,
    );
  });

  it('stops the build when the package holds a native module of another OS, as one built on Linux does', async () => {
    await packageModule(
      join('app.asar.unpacked', 'node_modules', '@libsql', 'linux-x64-gnu', 'index.node'),
      join(projectRoot, 'node_modules', '@libsql', 'linux-x64-gnu', 'index.node'),
    );
    await putRuntime('x64', 'vcruntime140.dll', vcruntime('x64'));
    await expect(shipWindowsRuntime(resources, fromRuntime)).rejects.toThrow(
      `The Windows package's native modules would not load on Windows:\n- ${join('app.asar.unpacked', 'node_modules', '@libsql', 'linux-x64-gnu', 'index.node')} cannot be loaded on Windows (no MZ header: not a Windows binary): build the Windows package on Windows, where npm installs the Windows native modules.`,
    );
  });

  it('ships nothing where no native module is unpacked', async () => {
    await rm(join(resources, 'app.asar.unpacked'), { recursive: true });
    await expect(shipWindowsRuntime(resources, fromRuntime)).resolves.toEqual([]);
  });
});

describe('the Windows build', () => {
  const afterPack = async (electronPlatformName: string) => {
    if (typeof config.afterPack !== 'function') throw new Error('the configuration has no afterPack function');
    // The x64 package of each platform, all laid out as Windows' (resources/ beside the program).
    const packager = { getResourcesDir: (outDir: string) => join(outDir, 'resources') };
    await config.afterPack({ electronPlatformName, appOutDir, arch: Arch.x64, packager } as unknown as AfterPackContext);
  };

  // Off Windows the runtime can come only from build/win-runtime/, which the repository leaves
  // empty; where a release process has filled it, or on Windows (System32), the build goes on.
  it.skipIf(process.platform === 'win32' || existsSync(runtimeFolder('x64')))(
    'fails in afterPack when build/win-runtime/ lacks the DLL libsql imports',
    async () => {
      await expect(afterPack('win32')).rejects.toThrow(
        `imports VCRUNTIME140.dll, part of the Visual C++ 2015–2022 runtime, which Windows does not have: put the x64 vcruntime140.dll from the Visual C++ Redistributable`,
      );
    },
  );

  it("leaves the other platforms' packages alone", async () => {
    // Each with its own libsql binary, which afterPack asks of every package (build/scripts/libsql-binary.ts).
    for (const own of ['linux-x64-gnu', 'darwin-x64'])
      await packageModule(join('app.asar.unpacked', 'node_modules', '@libsql', own, 'index.node'), Buffer.from('binary'));
    await expect(afterPack('linux')).resolves.toBeUndefined();
    await expect(afterPack('darwin')).resolves.toBeUndefined();
    expect(await readdir(join(resources, libsqlFolder))).toEqual(['index.node']);
  });
});
