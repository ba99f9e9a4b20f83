/**
 * Bytes written into a data folder, for the benchmarks: counted at each write, whatever code makes
 * it, by wrapping the file-system calls that write (Node's built-in modules are objects that can be
 * wrapped, and `syncBuiltinESMExports` makes the modules that imported their functions by name see
 * the wrappers). A write counts when its file lies under the folder being metered.
 *
 * As a check that no way of writing escaped the wrappers, the folder is also surveyed: a file that
 * is new since the last survey (a new name or inode, as an atomic replace leaves) was written with at
 * least its present size, and one that grew with at least its growth. When the surveys find more
 * than the wrappers counted, something wrote by a path not wrapped here, and the figure says so
 * rather than passing for the truth.
 */
import fs from 'node:fs';
import fsPromises, { type FileHandle } from 'node:fs/promises';
import { syncBuiltinESMExports } from 'node:module';
import { devNull } from 'node:os';
import { join, resolve, sep } from 'node:path';

type Data = string | NodeJS.ArrayBufferView | Iterable<string | NodeJS.ArrayBufferView> | AsyncIterable<string | NodeJS.ArrayBufferView>;

/** The folders being metered, each with its running count. */
const meters = new Map<string, { bytes: number }>();
/** Where each open file handle and descriptor points, to place their writes. */
const handlePaths = new WeakMap<FileHandle, string>();
const descriptorPaths = new Map<number, string>();

function meterOf(path: string | null): { bytes: number } | null {
  if (path === null) return null;
  const absolute = resolve(path);
  for (const [folder, meter] of meters) if (absolute === folder || absolute.startsWith(folder + sep)) return meter;
  return null;
}

function pathOf(target: unknown): string | null {
  if (typeof target === 'string') return target;
  if (target instanceof URL) return target.pathname;
  if (Buffer.isBuffer(target)) return target.toString();
  if (typeof target === 'number') return descriptorPaths.get(target) ?? null;
  if (typeof target === 'object' && target !== null && handlePaths.has(target as FileHandle)) return handlePaths.get(target as FileHandle)!;
  return null;
}

function encodingOf(options: unknown): BufferEncoding {
  if (typeof options === 'string') return options as BufferEncoding;
  if (typeof options === 'object' && options !== null && 'encoding' in options && typeof options.encoding === 'string') return options.encoding as BufferEncoding;
  return 'utf8';
}

/** The bytes a whole-file write puts down; streams and iterables are not measured (the survey still sees them). */
function sizeOf(data: Data, options: unknown): number {
  if (typeof data === 'string') return Buffer.byteLength(data, encodingOf(options));
  if (ArrayBuffer.isView(data)) return data.byteLength;
  return 0;
}

function count(target: unknown, bytes: number): void {
  const meter = meterOf(pathOf(target));
  if (meter) meter.bytes += bytes;
}

let installed: Promise<void> | null = null;

async function install(): Promise<void> {
  const promises = fsPromises as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
  const sync = fs as unknown as Record<string, (...args: unknown[]) => unknown>;

  const open = promises.open!;
  promises.open = async (...args) => {
    const handle = (await open(...args)) as FileHandle;
    const path = pathOf(args[0]);
    if (path !== null) handlePaths.set(handle, path);
    return handle;
  };
  for (const name of ['writeFile', 'appendFile'] as const) {
    const original = promises[name]!;
    promises[name] = async (...args) => {
      const result = await original(...args);
      count(args[0], sizeOf(args[1] as Data, args[2]));
      return result;
    };
  }

  // FileHandle is not exported: its prototype is reached through a handle.
  const probe = await open(devNull, 'r');
  const handlePrototype = Object.getPrototypeOf(probe) as Record<string, (this: FileHandle, ...args: unknown[]) => Promise<unknown>>;
  await (probe as FileHandle).close();
  for (const name of ['writeFile', 'appendFile'] as const) {
    const original = handlePrototype[name]!;
    handlePrototype[name] = async function (this: FileHandle, ...args) {
      const result = await original.apply(this, args);
      count(this, sizeOf(args[0] as Data, args[1]));
      return result;
    };
  }
  for (const name of ['write', 'writev'] as const) {
    const original = handlePrototype[name]!;
    handlePrototype[name] = async function (this: FileHandle, ...args) {
      const result = (await original.apply(this, args)) as { bytesWritten: number };
      count(this, result.bytesWritten);
      return result;
    };
  }

  const openSync = sync.openSync!;
  sync.openSync = (...args) => {
    const descriptor = openSync(...args) as number;
    const path = pathOf(args[0]);
    if (path !== null) descriptorPaths.set(descriptor, path);
    return descriptor;
  };
  const closeSync = sync.closeSync!;
  sync.closeSync = (...args) => {
    descriptorPaths.delete(args[0] as number);
    return closeSync(...args);
  };
  for (const name of ['writeFileSync', 'appendFileSync'] as const) {
    const original = sync[name]!;
    sync[name] = (...args) => {
      const result = original(...args);
      count(args[0], sizeOf(args[1] as Data, args[2]));
      return result;
    };
  }
  const writeSync = sync.writeSync!;
  sync.writeSync = (...args) => {
    const written = writeSync(...args) as number;
    count(args[0], written);
    return written;
  };
  syncBuiltinESMExports();
}

interface Seen {
  ino: bigint;
  size: bigint;
}

function survey(folder: string, into = new Map<string, Seen>()): Map<string, Seen> {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(folder, { withFileTypes: true });
  } catch {
    return into;
  }
  for (const entry of entries) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) survey(path, into);
    else if (entry.isFile()) {
      try {
        const stat = fs.statSync(path, { bigint: true });
        into.set(path, { ino: stat.ino, size: stat.size });
      } catch {
        // Gone between listing and reading: a temporary file renamed away, seen under its new name.
      }
    }
  }
  return into;
}

export interface WriteMeter {
  /** Bytes written under the folder since the meter started (or was last reset). */
  readonly bytes: number;
  /** Compares the folder with the last survey; call after each step that may have written. */
  survey(): void;
  /** Bytes the surveys prove were written at the least; more than `bytes` means writes escaped the count. */
  readonly surveyedAtLeast: number;
  reset(): void;
  stop(): void;
}

/** Meters writes into `folder` from now on. */
export async function meterWrites(folder: string): Promise<WriteMeter> {
  installed ??= install();
  await installed;
  const root = resolve(folder);
  const meter = { bytes: 0 };
  meters.set(root, meter);
  let last = survey(root);
  let surveyedAtLeast = 0;
  return {
    get bytes() {
      return meter.bytes;
    },
    get surveyedAtLeast() {
      return surveyedAtLeast;
    },
    survey() {
      const now = survey(root);
      for (const [path, seen] of now) {
        const before = last.get(path);
        if (before === undefined || before.ino !== seen.ino) surveyedAtLeast += Number(seen.size);
        else if (seen.size > before.size) surveyedAtLeast += Number(seen.size - before.size);
      }
      last = now;
    },
    reset() {
      meter.bytes = 0;
      surveyedAtLeast = 0;
      last = survey(root);
    },
    stop() {
      meters.delete(root);
    },
  };
}
