/**
 * The app's log: timestamped lines appended to `<logsDir>/perch.log`, which moves to
 * `perch.old.log` once it passes about a megabyte, so the two never hold much more than 2 MB.
 * Logging must never take the app down: a failing disk loses log lines, nothing else.
 */
import { appendFile, mkdir, rename, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { inspect } from 'node:util';

export const logFileName = 'perch.log';
export const oldLogFileName = 'perch.old.log';

export interface LogFileOptions {
  logsDir: string;
  /** Past this size the log is rotated. */
  maxBytes?: number;
  now?: () => Date;
}

export interface LogFile {
  /** Queues one line; never throws. Shaped like the core's `log` options, so it can be passed as one. */
  write(message: string, detail?: unknown): void;
  /** Resolves once every queued line is written (or given up on); never rejects. */
  flush(): Promise<void>;
}

const redactedKey = /password|token|secret|authorization|cookie|credential/i;

/**
 * A copy of a value fit for a log: the values of keys that name secrets (`password`,
 * `sessionToken`, …) are replaced, at any depth. Errors keep their name, message and stack.
 */
export function redact(value: unknown): unknown {
  const ancestors = new Set<object>();
  const copy = (item: unknown): unknown => {
    if (item instanceof Error) return { name: item.name, message: item.message, stack: item.stack };
    if (typeof item !== 'object' || item === null) return item;
    if (ancestors.has(item)) return '[circular]';
    ancestors.add(item);
    try {
      if (Array.isArray(item)) return item.map(copy);
      return Object.fromEntries(Object.entries(item).map(([key, inner]) => [key, redactedKey.test(key) ? '[redacted]' : copy(inner)]));
    } finally {
      ancestors.delete(item);
    }
  };
  return copy(value);
}

function formatDetail(detail: unknown): string {
  if (detail instanceof Error) return detail.stack ?? `${detail.name}: ${detail.message}`;
  if (typeof detail === 'string') return detail;
  return inspect(redact(detail), { depth: 6, breakLength: Infinity });
}

export function openLogFile(options: LogFileOptions): LogFile {
  const file = join(options.logsDir, logFileName);
  const oldFile = join(options.logsDir, oldLogFileName);
  const maxBytes = options.maxBytes ?? 1024 * 1024;
  const now = options.now ?? (() => new Date());
  let size: number | null = null;
  let queue: Promise<void> = Promise.resolve();

  async function append(line: string): Promise<void> {
    if (size === null) {
      await mkdir(options.logsDir, { recursive: true });
      size = await stat(file).then(
        (stats) => stats.size,
        () => 0,
      );
    }
    const bytes = Buffer.byteLength(line);
    if (size > 0 && size + bytes > maxBytes) {
      await rename(file, oldFile);
      size = 0;
    }
    await appendFile(file, line);
    size += bytes;
  }

  return {
    write(message, detail) {
      try {
        const text = detail === undefined ? message : `${message} ${formatDetail(detail)}`;
        const line = `${now().toISOString()} ${text}\n`;
        queue = queue
          .then(() => append(line))
          .catch(() => {
            // Unknown state after a failure (a folder gone, a full disk): measure again next time.
            size = null;
          });
      } catch {
        // A detail that cannot even be formatted is not worth a crash.
      }
    },
    flush: () => queue,
  };
}
