import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { access, mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { DateTime } from 'luxon';

export type JsonRead = { kind: 'missing' } | { kind: 'unreadable'; problem: string } | { kind: 'ok'; value: unknown };

/** Reads and parses a JSON file; a missing file and a damaged one are answers, not exceptions. */
export async function readJsonFile(path: string): Promise<JsonRead> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'missing' };
    return { kind: 'unreadable', problem: `it could not be read (${(error as Error).message})` };
  }
  try {
    return { kind: 'ok', value: JSON.parse(text) as unknown };
  } catch {
    return { kind: 'unreadable', problem: 'it is not valid JSON' };
  }
}

/**
 * Replaces a file's contents all at once: a crash or power cut mid-write leaves either the old
 * file or the new one, never half of each. The temporary file sits in the same folder because a
 * rename is only atomic within one file system.
 */
export async function writeJsonAtomic(path: string, value: unknown): Promise<void> {
  await writeTextAtomic(path, `${JSON.stringify(value, null, 2)}\n`);
}

/** As `writeJsonAtomic`, for text the caller has already made (the cache serializes once, to compare and to write). */
export async function writeTextAtomic(path: string, text: string): Promise<void> {
  const folder = dirname(path);
  await mkdir(folder, { recursive: true });
  const temporary = join(folder, `.${basename(path)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    // Owner-only: the data folder holds nothing secret, but what a user booked is still theirs.
    const handle = await open(temporary, 'w', 0o600);
    try {
      await handle.writeFile(text, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
  await syncFolder(folder);
}

/** Makes the rename itself durable; folders cannot be opened for syncing on Windows, which is fine there. */
async function syncFolder(folder: string): Promise<void> {
  try {
    const handle = await open(folder, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // Best effort only.
  }
}

/**
 * Renames a damaged file to `<name>.corrupt-<UTC timestamp>` so the user's data is never lost,
 * and answers the new name (null when even the rename failed).
 */
export async function moveAside(path: string, now: DateTime): Promise<string | null> {
  const stem = `${path}.corrupt-${now.toUTC().toFormat("yyyyLLdd'T'HHmmss'Z'")}`;
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const candidate = attempt === 0 ? stem : `${stem}-${attempt}`;
    // rename() silently replaces an existing file, which would lose an earlier damaged copy.
    if (await exists(candidate)) continue;
    try {
      await rename(path, candidate);
      return candidate;
    } catch {
      return null;
    }
  }
  return null;
}

async function exists(path: string): Promise<boolean> {
  try {
    await access(path, constants.F_OK);
    return true;
  } catch {
    return false;
  }
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
