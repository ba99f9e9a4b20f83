import SQLite from 'libsql';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { DateTime } from 'luxon';
import { afterAll, describe, expect, it } from 'vitest';
import { formatWireDateTime } from '../../electron/api/dates.js';

const repository = resolve(import.meta.dirname, '../..');
const apiRootLine = /^Perch local service: (http:\/\/127\.0\.0\.1:\d+\/Web\/Services\/index\.php)$/m;

const folder = mkdtempSync(join(tmpdir(), 'perch-crash-'));
const dataFolder = join(folder, 'data');
const children = new Set<ChildProcess>();

afterAll(() => {
  // Only a failed test leaves a service behind; end exactly the processes this file started.
  for (const child of children) child.kill('SIGKILL');
  rmSync(folder, { recursive: true, force: true });
});

interface Running {
  apiRoot: string;
  child: ChildProcess;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * The CLI as one node process (no npx or tsx wrapper in between, whose own process would take
 * the SIGKILL and leave the service running), ready once it prints its API root.
 */
async function startService(): Promise<Running> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'electron/service/cli.ts', '--port', '0', '--data', dataFolder, '--demo'], {
    cwd: repository,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  let stdout = '';
  let stderr = '';
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
    child.on('exit', (code, signal) => {
      children.delete(child);
      done({ code, signal });
    }),
  );
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const apiRoot = await new Promise<string>((done, fail) => {
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      const match = apiRootLine.exec(stdout);
      if (match) done(match[1]!);
    });
    void exited.then(({ code }) => fail(new Error(`the service exited early (${code}): ${stderr}`)));
  });
  return { apiRoot, child, exited };
}

interface Session {
  'X-Booked-SessionToken': string;
  'X-Booked-UserId': string;
}

async function call(apiRoot: string, method: string, path: string, session?: Session, body?: unknown) {
  const response = await fetch(apiRoot + path, {
    method,
    headers: { ...session, ...(body !== undefined && { 'Content-Type': 'application/json' }) },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

async function signIn(apiRoot: string): Promise<Session> {
  const { body } = await call(apiRoot, 'POST', '/Authentication/Authenticate', undefined, { username: 'admin', password: 'password' });
  expect(body.isAuthenticated).toBe(true);
  return { 'X-Booked-SessionToken': body.sessionToken, 'X-Booked-UserId': String(body.userId) };
}

describe('a service killed while it takes reservations', () => {
  it('keeps every reservation it answered 201 for, in an intact database, after SIGKILL and a restart', { timeout: 60_000 }, async () => {
    const first = await startService();
    const session = await signIn(first.apiRoot);
    const resources = await call(first.apiRoot, 'GET', '/Resources/', session);
    // The Lab schedule: 30-minute slots round the clock, in Berlin.
    const printer = (resources.body.resources as { resourceId: number; name: string }[]).find((resource) => resource.name === '3D printer');
    expect(printer).toBeDefined();
    const resourceId = printer!.resourceId;

    // Distinct slots from the day after tomorrow on; a few requests are always in flight.
    const firstSlot = DateTime.now().setZone('Europe/Berlin').startOf('day').plus({ days: 2, hours: 8 });
    const slotStart = (index: number) => firstSlot.plus({ minutes: 30 * index });
    const confirmed = new Map<string, number>();
    const refused: string[] = [];
    const killAfter = 30;
    const inFlight = 4;
    let next = 0;
    let killed = false;
    let cutOff = 0;

    const worker = async () => {
      while (!killed) {
        const index = next++;
        const start = slotStart(index);
        const pending = call(first.apiRoot, 'POST', '/Reservations/', session, {
          resourceId,
          startDateTime: formatWireDateTime(start),
          endDateTime: formatWireDateTime(start.plus({ minutes: 30 })),
          title: `Crash test ${index}`,
        });
        if (confirmed.size >= killAfter && !killed) {
          killed = true;
          // Mid-stream, with this request just sent: a service that answers the others' requests
          // before the signal lands still has this one to lose.
          first.child.kill('SIGKILL');
        }
        try {
          const answer = await pending;
          if (answer.status === 201) confirmed.set(answer.body.referenceNumber as string, start.toMillis());
          else refused.push(`${answer.status} ${JSON.stringify(answer.body)}`);
        } catch {
          // The connection died with the process: this request was never answered.
          cutOff += 1;
          return;
        }
      }
    };
    await Promise.all(Array.from({ length: inFlight }, worker));
    const ending = await first.exited;
    expect(ending.signal).toBe('SIGKILL');
    expect(refused).toEqual([]);
    expect(confirmed.size).toBeGreaterThanOrEqual(killAfter);
    // Each worker always has a request outstanding, so the kill cut some off half-way.
    expect(cutOff).toBeGreaterThan(0);

    const second = await startService();
    try {
      const again = await signIn(second.apiRoot);
      for (const [referenceNumber, startAt] of confirmed) {
        const answer = await call(second.apiRoot, 'GET', `/Reservations/${referenceNumber}`, again);
        expect(answer.status, referenceNumber).toBe(200);
        expect(answer.body.resourceId).toBe(resourceId);
        expect(DateTime.fromISO(answer.body.startDate as string).toMillis()).toBe(startAt);
      }
      // Still writable: the next free slot books as usual.
      const after = slotStart(next + 10);
      const booked = await call(second.apiRoot, 'POST', '/Reservations/', again, {
        resourceId,
        startDateTime: formatWireDateTime(after),
        endDateTime: formatWireDateTime(after.plus({ minutes: 30 })),
      });
      expect(booked.status).toBe(201);
    } finally {
      second.child.kill('SIGTERM');
      expect((await second.exited).code).toBe(0);
    }

    const database = new SQLite(join(dataFolder, 'perch.db'));
    try {
      expect(database.prepare('PRAGMA integrity_check').pluck().all()).toEqual(['ok']);
      expect(database.pragma('foreign_key_check')).toEqual([]);
      // Each reservation went in whole or not at all: none without what it occupies.
      const halfStored = database
        .prepare(
          `SELECT count(*) FROM reservations WHERE NOT EXISTS (SELECT 1 FROM reservation_bookings WHERE reservation_id = reservations.id)`,
        )
        .pluck()
        .all();
      expect(halfStored).toEqual([0]);
      const stored = database
        .prepare(`SELECT reference_number FROM reservations WHERE reference_number IN (SELECT value FROM json_each(?))`)
        .all(JSON.stringify([...confirmed.keys()])) as { reference_number: string }[];
      expect(stored.map((row) => row.reference_number).sort()).toEqual([...confirmed.keys()].sort());
    } finally {
      database.close();
    }
  });
});
