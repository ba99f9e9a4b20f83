import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { logFileName, oldLogFileName, openLogFile, redact } from '../../electron/platform/log-file.js';

let folder: string;
beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), 'perch-log-'));
});
afterEach(() => rm(folder, { recursive: true, force: true }));

const logsDir = () => join(folder, 'logs');
const readLog = (name = logFileName) => readFile(join(logsDir(), name), 'utf8');
const fixedClock = () => new Date('2025-03-30T01:30:05.250Z');

describe('openLogFile', () => {
  it('appends timestamped lines in order, creating the folder', async () => {
    const log = openLogFile({ logsDir: logsDir(), now: fixedClock });
    log.write('Perch started');
    log.write('[poller] refresh failed', new TypeError('fetch failed'));
    log.write('[session] signed in', { userId: 7, server: 'local' });
    await log.flush();

    const lines = (await readLog()).split('\n');
    expect(lines[0]).toBe('2025-03-30T01:30:05.250Z Perch started');
    expect(lines[1]).toBe('2025-03-30T01:30:05.250Z [poller] refresh failed TypeError: fetch failed');
    expect(lines[2]).toMatch(/^\s+at /); // the stack follows the error's line
    expect(lines.at(-2)).toBe("2025-03-30T01:30:05.250Z [session] signed in { userId: 7, server: 'local' }");
    expect(lines.at(-1)).toBe('');
  });

  it('continues an existing log rather than replacing it', async () => {
    const first = openLogFile({ logsDir: logsDir(), now: fixedClock });
    first.write('first run');
    await first.flush();
    const second = openLogFile({ logsDir: logsDir(), now: fixedClock });
    second.write('second run');
    await second.flush();

    expect(await readLog()).toBe('2025-03-30T01:30:05.250Z first run\n2025-03-30T01:30:05.250Z second run\n');
  });

  it('moves the log to perch.old.log once the next line would pass the limit, replacing the older one', async () => {
    const line = (n: number) => `line ${n} ${'x'.repeat(60)}`; // 93 bytes with the timestamp and newline: two fit in 250
    const log = openLogFile({ logsDir: logsDir(), now: fixedClock, maxBytes: 250 });
    for (let n = 1; n <= 7; n += 1) log.write(line(n));
    await log.flush();

    expect(await readLog()).toBe(`2025-03-30T01:30:05.250Z ${line(7)}\n`);
    expect(await readLog(oldLogFileName)).toBe(`2025-03-30T01:30:05.250Z ${line(5)}\n2025-03-30T01:30:05.250Z ${line(6)}\n`);
    expect((await stat(join(logsDir(), logFileName))).size).toBeLessThanOrEqual(250);
  });

  it('counts a log left by an earlier run toward the limit', async () => {
    const earlier = openLogFile({ logsDir: logsDir(), now: fixedClock });
    earlier.write('x'.repeat(200));
    await earlier.flush();
    const log = openLogFile({ logsDir: logsDir(), now: fixedClock, maxBytes: 250 });
    log.write('after the restart');
    await log.flush();

    expect(await readLog()).toBe('2025-03-30T01:30:05.250Z after the restart\n');
    expect(await readLog(oldLogFileName)).toContain('x'.repeat(200));
  });

  it('never throws or rejects when the log cannot be written, and writes again once it can', async () => {
    await writeFile(logsDir(), 'a file where the logs folder should be');
    const log = openLogFile({ logsDir: logsDir(), now: fixedClock });

    expect(() => log.write('lost')).not.toThrow();
    await expect(log.flush()).resolves.toBeUndefined();

    await rm(logsDir());
    log.write('kept');
    await log.flush();
    expect(await readLog()).toBe('2025-03-30T01:30:05.250Z kept\n');
  });

  it('never throws on a detail that cannot be formatted', async () => {
    const log = openLogFile({ logsDir: logsDir(), now: fixedClock });
    const hostile = {
      get boom(): never {
        throw new Error('getter exploded');
      },
    };

    expect(() => log.write('hostile detail', hostile)).not.toThrow();
    await expect(log.flush()).resolves.toBeUndefined();
  });

  it('writes the secrets of a logged object as [redacted]', async () => {
    const log = openLogFile({ logsDir: logsDir(), now: fixedClock });
    log.write('sign-in', { userName: 'ada', password: 'hunter2', session: { sessionToken: 'tok-123', userId: 4 } });
    await log.flush();

    const text = await readLog();
    expect(text).not.toContain('hunter2');
    expect(text).not.toContain('tok-123');
    expect(text).toContain("password: '[redacted]'");
    expect(text).toContain("userName: 'ada'");
  });
});

describe('redact', () => {
  it('replaces the values of keys that name secrets, at any depth and in arrays', () => {
    const original = {
      userName: 'ada',
      password: 'hunter2',
      headers: { 'X-Booked-SessionToken': 'tok', Authorization: 'Basic abc', Accept: 'application/json' },
      accounts: [{ clientSecret: 's', id: 1 }],
      credentials: { anything: 'inside' },
    };

    expect(redact(original)).toEqual({
      userName: 'ada',
      password: '[redacted]',
      headers: { 'X-Booked-SessionToken': '[redacted]', Authorization: '[redacted]', Accept: 'application/json' },
      accounts: [{ clientSecret: '[redacted]', id: 1 }],
      credentials: '[redacted]',
    });
    expect(original.password).toBe('hunter2'); // a copy: the caller's object is untouched
  });

  it('marks cycles, but not an object that is merely referenced twice', () => {
    const shared = { id: 1 };
    const cyclic: Record<string, unknown> = { a: shared, b: shared };
    cyclic.self = cyclic;

    expect(redact(cyclic)).toEqual({ a: { id: 1 }, b: { id: 1 }, self: '[circular]' });
  });

  it('keeps an error as its name, message and stack', () => {
    const error = new RangeError('out of range');
    expect(redact({ error })).toEqual({ error: { name: 'RangeError', message: 'out of range', stack: error.stack } });
  });

  it('passes plain values through', () => {
    expect([redact('text'), redact(3), redact(null), redact(undefined)]).toEqual(['text', 3, null, undefined]);
  });
});
