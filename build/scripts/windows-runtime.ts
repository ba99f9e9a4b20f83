/**
 * The Visual C++ runtime DLLs the Windows package's native modules need, shipped beside them.
 *
 * libsql's win32-x64 binary (@libsql/win32-x64-msvc 0.5.29) is built against the DLL runtime: it
 * imports VCRUNTIME140.dll, which Windows does not have (only the VC++ 2015–2022 Redistributable
 * installs it), so without it "Try it on this computer" fails on Windows with "The specified
 * module could not be found" (tursodatabase/libsql#1797). Electron itself needs none: Chromium
 * links the CRT statically, and Electron's win32 zip holds no vcruntime140.dll. The Redistributable
 * asks for an administrator, which Perch's per-user installer never does, so Perch ships the
 * DLLs itself ("app-local" deployment, which Microsoft's Distributable Code terms allow).
 *
 * Each goes into the folder of the module that imports it: Node loads a native module with
 * LoadLibraryExW(LOAD_WITH_ALTERED_SEARCH_PATH) (libuv's uv_dlopen), which looks for the module's
 * own imports in the module's folder, then in System32 — never beside Perch.exe.
 *
 * What is needed is read from the binaries' import tables at packaging time (afterPack), so a new
 * native module or a new libsql is covered without anyone listing its DLLs: a DLL that is neither
 * Windows' own nor found where the release process keeps the runtime stops the build.
 */
import { copyFile, readdir, readFile } from 'node:fs/promises';
import { dirname, extname, join, relative } from 'node:path';
import { readPeImports, readPeImportsFromFile, type WindowsArch } from './pe-imports.js';
import { projectRoot } from './project-root.js';

/**
 * DLLs in System32 on every Windows 10 and 11 edition (Electron 45's minimum is Windows 10) that
 * Perch's native modules import; a binary importing a system DLL not listed here stops the build
 * until it is confirmed and added. API sets (api-ms-win-*, ext-ms-win-*) are resolved by Windows
 * itself; api-ms-win-crt-* name the Universal CRT, part of Windows since Windows 10.
 */
const windowsDlls = new Set([
  'advapi32.dll',
  'bcrypt.dll',
  'bcryptprimitives.dll',
  'crypt32.dll',
  'kernel32.dll',
  'ntdll.dll',
  'ole32.dll',
  'oleaut32.dll',
  'shell32.dll',
  'user32.dll',
  'ws2_32.dll',
]);
const windowsApiSet = /^(api|ext)-ms-win-/;

/** node-gyp links modules to delay-load node.exe and resolves it to the running program (Perch.exe). */
const hostDlls = new Set(['node.exe']);

/** The Visual C++ 2015–2022 runtime: the Redistributable's DLLs (Microsoft.VC14x.CRT and .OpenMP). */
const visualCppRuntimeDlls = new Set([
  'concrt140.dll',
  'msvcp140.dll',
  'msvcp140_1.dll',
  'msvcp140_2.dll',
  'msvcp140_atomic_wait.dll',
  'msvcp140_codecvt_ids.dll',
  'vccorlib140.dll',
  'vcomp140.dll',
  'vcruntime140.dll',
  'vcruntime140_1.dll',
  'vcruntime140_threads.dll',
]);

/** Where the release process puts the runtime DLLs for one architecture, e.g. build/win-runtime/x64/. */
export function runtimeFolder(arch: WindowsArch): string {
  return join(projectRoot, 'build', 'win-runtime', arch);
}

/**
 * The folders the runtime DLLs are taken from, first match wins: build/win-runtime/<arch>/, then,
 * on a Windows build machine with the Redistributable installed, the system's own copies (each
 * file's architecture is checked, so System32 and SysWOW64 can both be offered).
 */
export function runtimeSources(arch: WindowsArch): string[] {
  const systemRoot = process.platform === 'win32' ? process.env.SystemRoot : undefined;
  return [runtimeFolder(arch), ...(systemRoot ? [join(systemRoot, 'System32'), join(systemRoot, 'SysWOW64')] : [])];
}

export interface ShippedDll {
  /** Relative to the resources folder: the DLL as shipped, beside the module that imports it. */
  path: string;
  from: string;
}

/** A file in a folder, matched as Windows matches names: without regard to case. */
async function findInFolder(folder: string, name: string): Promise<string | undefined> {
  const entries = await readdir(folder).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    throw error;
  });
  const entry = entries.find((candidate) => candidate.toLowerCase() === name.toLowerCase());
  return entry === undefined ? undefined : join(folder, entry);
}

/**
 * Copies the runtime DLLs the native binaries under `resources`/app.asar.unpacked import beside
 * each binary, and the DLLs those import in turn. Throws, naming every binary and DLL, when one is
 * neither Windows' own nor found in `sources(arch)`.
 */
export async function shipWindowsRuntime(
  resources: string,
  sources: (arch: WindowsArch) => string[] = runtimeSources,
): Promise<ShippedDll[]> {
  const unpacked = join(resources, 'app.asar.unpacked');
  const entries = await readdir(unpacked, { recursive: true }).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    throw error;
  });
  const pending = entries.filter((entry) => ['.node', '.dll'].includes(extname(entry).toLowerCase())).map((entry) => join(unpacked, entry));
  const shipped: ShippedDll[] = [];
  const problems: string[] = [];

  for (let binary = pending.shift(); binary !== undefined; binary = pending.shift()) {
    const needing = relative(resources, binary);
    const read = await readFile(binary)
      .then(readPeImports)
      .catch((error: unknown) => (error instanceof Error ? error : new Error(String(error))));
    if (read instanceof Error) {
      // Typically a Linux or macOS module: npm installs the native packages of the OS it runs on.
      problems.push(
        `${needing} cannot be loaded on Windows (${read.message}): build the Windows package on Windows, where npm installs the Windows native modules.`,
      );
      continue;
    }
    const { arch, imports, delayImports } = read;
    const folder = dirname(binary);
    for (const dll of [...imports, ...delayImports]) {
      const name = dll.toLowerCase();
      if (windowsDlls.has(name) || windowsApiSet.test(name) || hostDlls.has(name)) continue;
      if (await findInFolder(folder, name)) continue;
      if (!visualCppRuntimeDlls.has(name)) {
        problems.push(
          `${needing} imports ${dll}, which is neither part of Windows nor of the Visual C++ runtime nor beside it: ship it with its package, or add it to windowsDlls in build/scripts/windows-runtime.ts if every Windows 10 and 11 has it.`,
        );
        continue;
      }
      const source = await findRuntimeDll(name, arch, sources(arch));
      if (typeof source !== 'string') {
        problems.push(
          `${needing} (${arch}) imports ${dll}, part of the Visual C++ 2015–2022 runtime, which Windows does not have: put the ${arch} ${name} from the Visual C++ Redistributable (Visual Studio's VC\\Redist\\MSVC\\<version>\\${arch}\\Microsoft.VC14x.CRT, or System32 of a machine that has the Redistributable) in ${runtimeFolder(arch)}.${source.rejected.length > 0 ? ` Not taken: ${source.rejected.join('; ')}.` : ''}`,
        );
        continue;
      }
      const target = join(folder, name);
      await copyFile(source, target);
      shipped.push({ path: relative(resources, target), from: source });
      pending.push(target);
    }
  }
  if (problems.length > 0)
    throw new Error(
      `The Windows package's native modules would not load on Windows:\n${problems.map((problem) => `- ${problem}`).join('\n')}`,
    );
  return shipped;
}

/** The first copy of a runtime DLL built for `arch`, or why none was taken. */
async function findRuntimeDll(name: string, arch: WindowsArch, folders: string[]): Promise<string | { rejected: string[] }> {
  const rejected: string[] = [];
  for (const folder of folders) {
    const candidate = await findInFolder(folder, name);
    if (candidate === undefined) continue;
    const read = await readPeImportsFromFile(candidate).then(
      ({ arch: built }) => ({ built }),
      (error: unknown) => ({ unreadable: error instanceof Error ? error.message : String(error) }),
    );
    if ('built' in read && read.built === arch) return candidate;
    rejected.push('built' in read ? `${candidate} is built for ${read.built}` : read.unreadable);
  }
  return { rejected };
}
