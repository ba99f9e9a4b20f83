import { Buffer } from 'node:buffer';
import fsPromises from 'node:fs/promises';
import { syncBuiltinESMExports } from 'node:module';
import { relative, resolve, sep } from 'node:path';

/** What was put in one folder: bytes and writes per file name (temporary names are counted under the name they are renamed to). */
export interface DiskWrites {
  bytes: number;
  writes: number;
  /** Writes that left the file byte for byte as it was: spent for nothing. */
  unchanged: number;
  byFile: Map<string, { bytes: number; writes: number }>;
}

export interface DiskWriteCounter {
  /** Counts the writes into this folder from now on; null counts nothing. */
  watch(folder: string | null): void;
  /** What was written since the last take, and starts afresh. */
  take(): DiskWrites;
}

/** Issue 20: what the core may write to its data folder in a working day of 8 hours (the cache, settings, the account). */
export const diskBudgetMbPerWorkday = 20;

const none = (): DiskWrites => ({ bytes: 0, writes: 0, unchanged: 0, byFile: new Map() });

/**
 * Counts the bytes the process writes into a folder, by wrapping the file-system calls the core
 * writes with: `rename` (every atomic write puts its temporary file in place with it: counted at
 * the temporary file's size), `writeFile` and `appendFile`; a write whose file reads the same
 * after as before is counted as unchanged. Node's named exports of built-in
 * modules are re-synced, so modules that imported `rename` by name see the wrapped one.
 */
export function countDiskWrites(): DiskWriteCounter {
  let folder: string | null = null;
  let counted = none();
  const inFolder = (path: unknown): string | null => {
    if (folder === null || typeof path !== 'string') return null;
    const full = resolve(path);
    return full.startsWith(folder + sep) ? relative(folder, full) : null;
  };
  const add = (name: string, bytes: number, same: boolean) => {
    counted.bytes += bytes;
    counted.writes += 1;
    if (same) counted.unchanged += 1;
    const file = counted.byFile.get(name) ?? { bytes: 0, writes: 0 };
    counted.byFile.set(name, { bytes: file.bytes + bytes, writes: file.writes + 1 });
  };
  const sizeOf = (data: unknown) => (typeof data === 'string' ? Buffer.byteLength(data) : ArrayBuffer.isView(data) ? data.byteLength : 0);

  const { rename, writeFile, appendFile, readFile, stat } = fsPromises;
  const contentOf = (path: Parameters<typeof readFile>[0]) => readFile(path).catch(() => null);
  const wrapped = {
    rename: async (from: Parameters<typeof rename>[0], to: Parameters<typeof rename>[1]) => {
      const name = inFolder(to);
      const size = name === null ? 0 : (await stat(from)).size;
      const before = name === null ? null : await contentOf(to);
      const same = before !== null && before.equals((await contentOf(from)) ?? Buffer.alloc(0));
      await rename(from, to);
      if (name !== null) add(name, size, same);
    },
    writeFile: async (...args: Parameters<typeof writeFile>) => {
      const name = inFolder(args[0]);
      const before = name === null ? null : await contentOf(args[0] as string);
      await writeFile(...args);
      const same = before !== null && before.equals((await contentOf(args[0] as string)) ?? Buffer.alloc(0));
      if (name !== null) add(name, sizeOf(args[1]), same);
    },
    appendFile: async (...args: Parameters<typeof appendFile>) => {
      await appendFile(...args);
      const name = inFolder(args[0]);
      if (name !== null) add(name, sizeOf(args[1]), sizeOf(args[1]) === 0);
    },
  };
  Object.assign(fsPromises, wrapped);
  syncBuiltinESMExports();

  return {
    watch(next) {
      folder = next === null ? null : resolve(next);
    },
    take() {
      const taken = counted;
      counted = none();
      return taken;
    },
  };
}
