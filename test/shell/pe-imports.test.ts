/**
 * The PE import-table reader the Windows package's runtime check stands on: small PE files
 * written by the test, and Windows binaries npm installs here (whose imports `llvm-readobj
 * --coff-imports` lists as expected below).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readPeImports, readPeImportsFromFile } from '../../build/scripts/pe-imports.js';
import { projectRoot } from '../../build/scripts/project-root.js';
import { peFile } from '../support/pe-file.js';

const installed = (...path: string[]) => join(projectRoot, 'node_modules', ...path);

describe('reading the DLLs a Windows binary imports', () => {
  it('reads a 64-bit file: its machine, its imports and its delay-loaded imports, in table order and spelling', () => {
    const file = peFile({
      machine: 'x64',
      imports: ['KERNEL32.dll', 'VCRUNTIME140.dll', 'api-ms-win-crt-runtime-l1-1-0.dll'],
      delayImports: ['node.exe'],
    });
    expect(readPeImports(file)).toEqual({
      arch: 'x64',
      imports: ['KERNEL32.dll', 'VCRUNTIME140.dll', 'api-ms-win-crt-runtime-l1-1-0.dll'],
      delayImports: ['node.exe'],
    });
  });

  it('reads a 32-bit file, and delay-load names given as virtual addresses (Visual C++ 6)', () => {
    const file = peFile({
      machine: 'ia32',
      imports: ['KERNEL32.dll'],
      delayImports: ['USER32.dll', 'ADVAPI32.dll'],
      delayNamesAsVirtualAddresses: true,
    });
    expect(readPeImports(file)).toEqual({ arch: 'ia32', imports: ['KERNEL32.dll'], delayImports: ['USER32.dll', 'ADVAPI32.dll'] });
  });

  it('reads an arm64 file and one that imports nothing', () => {
    expect(readPeImports(peFile({ machine: 'arm64', imports: [] }))).toEqual({ arch: 'arm64', imports: [], delayImports: [] });
  });

  it('reads Rust native modules built with MSVC for x64 and arm64, as libsql is (they import VCRUNTIME140.dll)', async () => {
    // @electron-internal/extract-zip (Electron's own dependency) ships a napi-rs module per platform.
    const rustModuleImports = [
      'kernel32.dll',
      'bcryptprimitives.dll',
      'api-ms-win-core-synch-l1-2-0.dll',
      'KERNEL32.dll',
      'ntdll.dll',
      'VCRUNTIME140.dll',
      'api-ms-win-crt-string-l1-1-0.dll',
      'api-ms-win-crt-utility-l1-1-0.dll',
      'api-ms-win-crt-heap-l1-1-0.dll',
      'api-ms-win-crt-runtime-l1-1-0.dll',
      'api-ms-win-crt-stdio-l1-1-0.dll',
    ];
    await expect(readPeImportsFromFile(installed('@electron-internal', 'extract-zip', 'index.win32-x64-msvc.node'))).resolves.toEqual({
      arch: 'x64',
      imports: rustModuleImports,
      delayImports: [],
    });
    await expect(readPeImportsFromFile(installed('@electron-internal', 'extract-zip', 'index.win32-arm64-msvc.node'))).resolves.toEqual({
      arch: 'arm64',
      imports: rustModuleImports,
      delayImports: [],
    });
  });

  it("reads a 32-bit program's delay-loaded DLLs (Squirrel's Setup.exe)", async () => {
    await expect(readPeImportsFromFile(installed('electron-winstaller', 'vendor', 'Setup.exe'))).resolves.toEqual({
      arch: 'ia32',
      imports: ['KERNEL32.dll', 'SHLWAPI.dll', 'COMCTL32.dll'],
      delayImports: ['USER32.dll', 'ADVAPI32.dll', 'SHELL32.dll', 'ole32.dll', 'OLEAUT32.dll', 'urlmon.dll'],
    });
  });

  it('refuses a Linux binary, naming the file and why', async () => {
    const linuxModule = installed('@libsql', 'linux-x64-gnu', 'index.node');
    await expect(readPeImportsFromFile(linuxModule)).rejects.toThrow(
      `Cannot read the DLL imports of ${linuxModule}: no MZ header: not a Windows binary.`,
    );
  });

  it('refuses a truncated file, a machine Perch does not target and a file without its PE header', async () => {
    const whole = await readFile(installed('@electron-internal', 'extract-zip', 'index.win32-x64-msvc.node'));
    expect(() => readPeImports(whole.subarray(0, 0x400))).toThrow('an import descriptor lies past the end of the file (1024 bytes)');
    expect(() => readPeImports(whole.subarray(0, 0x40))).toThrow('the PE signature lies past the end of the file (64 bytes)');

    const itanium = peFile({ machine: 'x64', imports: ['KERNEL32.dll'] });
    itanium.writeUInt16LE(0x0200, 0x44);
    expect(() => readPeImports(itanium)).toThrow('machine type 0x200 is none of ia32, x64, arm64');

    const noSignature = peFile({ machine: 'x64', imports: ['KERNEL32.dll'] });
    noSignature.write('NE', 0x40, 'latin1');
    expect(() => readPeImports(noSignature)).toThrow('no PE signature where the MZ header points');
  });
});
