/**
 * The DLLs a Windows binary (a .node module, a .dll, an .exe) asks the loader for: the names in
 * its PE import table and in its delay-load import table, read from the file itself. The Windows
 * package's afterPack step (windows-runtime.ts) reads the native modules with it to ship the
 * runtime DLLs they need and Windows does not have. Layout: Microsoft's "PE Format" reference.
 */
import { readFile } from 'node:fs/promises';

/** The machines a Windows build of Perch can target, named as electron-builder names its archs. */
export type WindowsArch = 'ia32' | 'x64' | 'arm64';

const archByMachine: ReadonlyMap<number, WindowsArch> = new Map([
  [0x014c, 'ia32'],
  [0x8664, 'x64'],
  [0xaa64, 'arm64'],
]);

export interface PeImports {
  arch: WindowsArch;
  /** DLL names as the file spells them (the loader matches them without regard to case), in table order. */
  imports: string[];
  /** DLLs loaded on the first call into them (MSVC's /DELAYLOAD, e.g. node-gyp's node.exe). */
  delayImports: string[];
}

const importDirectoryIndex = 1;
const delayImportDirectoryIndex = 13;
const importDescriptorSize = 20;
const delayImportDescriptorSize = 32;
const sectionHeaderSize = 40;

interface Section {
  virtualAddress: number;
  virtualSize: number;
  rawOffset: number;
  rawSize: number;
}

class PeReader {
  private readonly view: DataView;

  constructor(private readonly bytes: Uint8Array) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  private check(offset: number, length: number, what: string): void {
    if (offset < 0 || offset + length > this.bytes.length)
      throw new Error(`${what} lies past the end of the file (${this.bytes.length} bytes)`);
  }

  u16(offset: number, what: string): number {
    this.check(offset, 2, what);
    return this.view.getUint16(offset, true);
  }

  u32(offset: number, what: string): number {
    this.check(offset, 4, what);
    return this.view.getUint32(offset, true);
  }

  u64(offset: number, what: string): number {
    this.check(offset, 8, what);
    return Number(this.view.getBigUint64(offset, true));
  }

  isZero(offset: number, length: number, what: string): boolean {
    this.check(offset, length, what);
    return this.bytes.subarray(offset, offset + length).every((byte) => byte === 0);
  }

  asciiz(offset: number, what: string): string {
    const end = this.bytes.indexOf(0, offset);
    if (offset >= this.bytes.length || end < 0) throw new Error(`${what} is not terminated within the file`);
    return new TextDecoder('latin1').decode(this.bytes.subarray(offset, end));
  }
}

/** Reads the import tables of a PE file's bytes; throws, saying what is wrong, for anything else. */
export function readPeImports(bytes: Uint8Array): PeImports {
  const pe = new PeReader(bytes);
  if (bytes.length < 0x40 || bytes[0] !== 0x4d || bytes[1] !== 0x5a) throw new Error('no MZ header: not a Windows binary');
  const peHeader = pe.u32(0x3c, 'the PE header offset');
  if (pe.u32(peHeader, 'the PE signature') !== 0x00004550) throw new Error('no PE signature where the MZ header points');

  const coff = peHeader + 4;
  const machine = pe.u16(coff, 'the machine type');
  const arch = archByMachine.get(machine);
  if (!arch) throw new Error(`machine type 0x${machine.toString(16)} is none of ${[...archByMachine.values()].join(', ')}`);
  const sectionCount = pe.u16(coff + 2, 'the section count');
  const optionalHeaderSize = pe.u16(coff + 16, 'the optional header size');

  const optional = coff + 20;
  const magic = pe.u16(optional, 'the optional header magic');
  if (magic !== 0x10b && magic !== 0x20b) throw new Error(`optional header magic 0x${magic.toString(16)} is neither PE32 nor PE32+`);
  const pe32Plus = magic === 0x20b;
  const imageBase = pe32Plus ? pe.u64(optional + 24, 'the image base') : pe.u32(optional + 28, 'the image base');
  const directoryCount = pe.u32(optional + (pe32Plus ? 108 : 92), 'the data directory count');
  const directories = optional + (pe32Plus ? 112 : 96);
  const directoryRva = (index: number) => (index < directoryCount ? pe.u32(directories + index * 8, `data directory ${index}`) : 0);

  const sectionTable = optional + optionalHeaderSize;
  const sections: Section[] = Array.from({ length: sectionCount }, (_, index) => {
    const header = sectionTable + index * sectionHeaderSize;
    const what = `section header ${index}`;
    return {
      virtualSize: pe.u32(header + 8, what),
      virtualAddress: pe.u32(header + 12, what),
      rawSize: pe.u32(header + 16, what),
      rawOffset: pe.u32(header + 20, what),
    };
  });
  const fileOffset = (rva: number, what: string): number => {
    const section = sections.find(
      (candidate) => rva >= candidate.virtualAddress && rva < candidate.virtualAddress + Math.max(candidate.virtualSize, candidate.rawSize),
    );
    if (!section || rva - section.virtualAddress >= section.rawSize)
      throw new Error(`${what} (RVA 0x${rva.toString(16)}) is in no section's data`);
    return section.rawOffset + rva - section.virtualAddress;
  };

  const imports: string[] = [];
  const importTable = directoryRva(importDirectoryIndex);
  if (importTable !== 0) {
    for (
      let descriptor = fileOffset(importTable, 'the import table');
      !pe.isZero(descriptor, importDescriptorSize, 'an import descriptor');
      descriptor += importDescriptorSize
    ) {
      imports.push(pe.asciiz(fileOffset(pe.u32(descriptor + 12, 'an import name'), 'an import name'), 'an import name'));
    }
  }

  const delayImports: string[] = [];
  const delayTable = directoryRva(delayImportDirectoryIndex);
  if (delayTable !== 0) {
    for (
      let descriptor = fileOffset(delayTable, 'the delay import table');
      !pe.isZero(descriptor, delayImportDescriptorSize, 'a delay import descriptor');
      descriptor += delayImportDescriptorSize
    ) {
      // Attribute bit 0 set: the fields are RVAs; clear (Visual C++ 6 binaries): virtual addresses.
      const rvaBased = (pe.u32(descriptor, 'a delay import descriptor') & 1) === 1;
      const name = pe.u32(descriptor + 4, 'a delay import name');
      delayImports.push(pe.asciiz(fileOffset(rvaBased ? name : name - imageBase, 'a delay import name'), 'a delay import name'));
    }
  }
  return { arch, imports, delayImports };
}

export async function readPeImportsFromFile(path: string): Promise<PeImports> {
  try {
    return readPeImports(await readFile(path));
  } catch (error) {
    throw new Error(`Cannot read the DLL imports of ${path}: ${error instanceof Error ? error.message : String(error)}.`, { cause: error });
  }
}
