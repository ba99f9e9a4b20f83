/**
 * Small Windows PE files written byte by byte after Microsoft's "PE Format" reference: headers,
 * one section holding the import and delay-load import tables, nothing to run. They stand in for
 * DLLs and native modules whose imports a test chooses.
 */
export interface PeFileOptions {
  machine: 'ia32' | 'x64' | 'arm64';
  imports: string[];
  delayImports?: string[];
  /** Visual C++ 6's delay-load descriptors: virtual addresses where later linkers write RVAs. */
  delayNamesAsVirtualAddresses?: boolean;
}

const machineTypes = { ia32: 0x014c, x64: 0x8664, arm64: 0xaa64 } as const;
const fileAlignment = 0x200;
const sectionRva = 0x1000;

export function peFile({ machine, imports, delayImports = [], delayNamesAsVirtualAddresses = false }: PeFileOptions): Buffer {
  const pe32Plus = machine !== 'ia32';
  // PE32+ puts the image above 4 GiB, as 64-bit DLLs do, so a virtual address needs all 64 bits.
  const imageBase = pe32Plus ? 0x1_8000_0000 : 0x1000_0000;
  const optionalHeaderSize = (pe32Plus ? 112 : 96) + 16 * 8;
  const peHeader = 0x40;
  const sectionHeader = peHeader + 4 + 20 + optionalHeaderSize;

  // The section: import descriptors, each list ended by an empty one, then the names.
  const importTable = 0;
  const delayTable = importTable + 20 * (imports.length + 1);
  let namesEnd = delayTable + 32 * (delayImports.length + 1);
  const nameRvas = [...imports, ...delayImports].map((name) => {
    const rva = sectionRva + namesEnd;
    namesEnd += name.length + 1;
    return rva;
  });
  const rawSize = Math.ceil(namesEnd / fileAlignment) * fileAlignment;
  const file = Buffer.alloc(fileAlignment + rawSize);

  file.write('MZ', 0, 'latin1');
  file.writeUInt32LE(peHeader, 0x3c);
  file.write('PE\0\0', peHeader, 'latin1');
  const coff = peHeader + 4;
  file.writeUInt16LE(machineTypes[machine], coff);
  file.writeUInt16LE(1, coff + 2);
  file.writeUInt16LE(optionalHeaderSize, coff + 16);
  file.writeUInt16LE(0x2022, coff + 18); // executable, large-address aware, DLL
  const optional = coff + 20;
  file.writeUInt16LE(pe32Plus ? 0x20b : 0x10b, optional);
  if (pe32Plus) file.writeBigUInt64LE(BigInt(imageBase), optional + 24);
  else file.writeUInt32LE(imageBase, optional + 28);
  file.writeUInt32LE(16, optional + (pe32Plus ? 108 : 92));
  const directories = optional + (pe32Plus ? 112 : 96);
  if (imports.length > 0) file.writeUInt32LE(sectionRva + importTable, directories + 1 * 8);
  if (delayImports.length > 0) file.writeUInt32LE(sectionRva + delayTable, directories + 13 * 8);

  file.write('.idata', sectionHeader, 'latin1');
  file.writeUInt32LE(namesEnd, sectionHeader + 8);
  file.writeUInt32LE(sectionRva, sectionHeader + 12);
  file.writeUInt32LE(rawSize, sectionHeader + 16);
  file.writeUInt32LE(fileAlignment, sectionHeader + 20);

  const section = fileAlignment;
  imports.forEach((_, index) => file.writeUInt32LE(nameRvas[index] ?? 0, section + importTable + 20 * index + 12));
  delayImports.forEach((_, index) => {
    const descriptor = section + delayTable + 32 * index;
    const rva = nameRvas[imports.length + index] ?? 0;
    file.writeUInt32LE(delayNamesAsVirtualAddresses ? 0 : 1, descriptor);
    file.writeUInt32LE(delayNamesAsVirtualAddresses ? imageBase + rva : rva, descriptor + 4);
  });
  [...imports, ...delayImports].forEach((name, index) => file.write(`${name}\0`, section + (nameRvas[index] ?? 0) - sectionRva, 'latin1'));
  return file;
}
