/**
 * The names a Linux shared object exports, read from its ELF dynamic symbol table: what
 * `nm -D --defined-only` prints, without needing binutils on the machine.
 */

const elfMagic = Buffer.from([0x7f, 0x45, 0x4c, 0x46]);
const elfClass64 = 2;
const littleEndian = 1;
const dynamicSymbolSection = 11; // SHT_DYNSYM
const undefinedSection = 0; // SHN_UNDEF: a symbol the object imports rather than defines
const symbolEntrySize = 24; // Elf64_Sym

interface Section {
  type: number;
  offset: number;
  size: number;
  link: number;
}

function sectionsOf(elf: Buffer): Section[] {
  const tableOffset = Number(elf.readBigUInt64LE(0x28)); // e_shoff
  const entrySize = elf.readUInt16LE(0x3a); // e_shentsize
  const count = elf.readUInt16LE(0x3c); // e_shnum
  return Array.from({ length: count }, (_, index) => {
    const header = tableOffset + index * entrySize;
    return {
      type: elf.readUInt32LE(header + 0x04),
      offset: Number(elf.readBigUInt64LE(header + 0x18)),
      size: Number(elf.readBigUInt64LE(header + 0x20)),
      link: elf.readUInt32LE(header + 0x28),
    };
  });
}

/** The symbols a 64-bit little-endian ELF object (x64, arm64 Linux) defines in its dynamic table. */
export function exportedSymbols(elf: Buffer): string[] {
  if (!elf.subarray(0, 4).equals(elfMagic)) throw new Error('not an ELF object');
  if (elf[4] !== elfClass64 || elf[5] !== littleEndian) throw new Error('not a 64-bit little-endian ELF object');
  const sections = sectionsOf(elf);
  const symbols = sections.find((section) => section.type === dynamicSymbolSection);
  const names = symbols && sections[symbols.link];
  if (!symbols || !names) return [];
  const exported: string[] = [];
  for (let entry = symbols.offset; entry + symbolEntrySize <= symbols.offset + symbols.size; entry += symbolEntrySize) {
    const nameStart = names.offset + elf.readUInt32LE(entry);
    const definedIn = elf.readUInt16LE(entry + 6);
    if (definedIn === undefinedSection || nameStart === names.offset) continue;
    exported.push(elf.toString('latin1', nameStart, elf.indexOf(0, nameStart)));
  }
  return exported;
}
