import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DateTime } from 'luxon';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { pollTimeRefreshMinutes } from '../../electron/core/account/account-cache.js';
import { cacheFolderName, cachePartFile, legacyCacheFileName, type CacheParts } from '../../electron/core/storage/cache.js';
import { demoSignIn, startCoreHarness, type CoreHarness, type CoreUnderTest } from '../support/core-harness.js';
import { steadyPeriodMinutes } from '../../electron/core/sync/poll-plan.js';

// The cache as the core writes it, on a real data folder, against the local service: what a
// poll writes is read from the files themselves (an atomic write puts a new file in place, so
// its inode and modification time change).

let harness: CoreHarness;
const running: CoreUnderTest[] = [];

beforeAll(async () => {
  harness = await startCoreHarness(DateTime.fromISO('2030-03-12T08:50:00Z', { zone: 'utc' }));
});
afterAll(() => harness.dispose());
afterEach(async () => {
  while (running.length > 0) await running.pop()!.core.stop();
  harness.intercept(null);
});

async function started(options: Parameters<CoreHarness['newCore']>[0] = {}): Promise<CoreUnderTest> {
  const created = harness.newCore(options);
  running.push(created);
  await created.core.start();
  return created;
}

async function signedIn(username = 'user'): Promise<CoreUnderTest> {
  const created = await started();
  const result = await created.core.handlers.signIn(demoSignIn(username, true));
  if (!result.ok) throw new Error(result.error.message);
  await harness.idle();
  return created;
}

async function stopped(created: CoreUnderTest): Promise<void> {
  running.splice(running.indexOf(created), 1);
  await created.core.stop();
}

/** Each file of the cache folder with what changes when it is written again. */
function cacheFiles(dataDir: string): Record<string, string> {
  const folder = join(dataDir, cacheFolderName);
  return Object.fromEntries(
    readdirSync(folder).map((name) => {
      const stat = statSync(join(folder, name), { bigint: true });
      return [name, `${stat.ino}:${stat.mtimeNs}:${stat.size}`];
    }),
  );
}

function part<N extends keyof CacheParts>(dataDir: string, name: N): CacheParts[N] {
  return JSON.parse(readFileSync(cachePartFile(dataDir, name), 'utf8')) as CacheParts[N];
}

const inAnHour = () => harness.clock.now().plus({ hours: 1 }).startOf('hour');
const referencePaths = ['/Resources/', '/Resources/Types', '/Schedules/', '/Resources/Groups/'];
const referenceReads = () => harness.requests.filter((request) => referencePaths.includes(request.path));

describe('what a poll writes', () => {
  it('writes nothing when polls bring the same answer, and only the small part when the user books', async () => {
    const { core, dataDir } = await signedIn();
    const first = cacheFiles(dataDir);
    expect(Object.keys(first).sort()).toEqual(['reference.json', 'reservations.json', 'shown.json']);
    expect(part(dataDir, 'reference').resources.length).toBeGreaterThan(5);

    for (let poll = 0; poll < 3; poll++) await harness.advance({ minutes: 1 });
    core.popoverOpened();
    await harness.idle();
    expect(core.snapshot().fetchedAt).not.toBe(null);
    expect(cacheFiles(dataDir)).toEqual(first);

    const booked = await core.handlers.book({
      resourceId: harness.org.resources.thames,
      start: inAnHour().toISO()!,
      durationMinutes: 30,
      title: 'Cached stand-up',
    });
    expect(booked.ok).toBe(true);
    await harness.idle();
    const afterBooking = cacheFiles(dataDir);
    expect(afterBooking['reference.json']).toBe(first['reference.json']);
    expect(afterBooking['reservations.json']).not.toBe(first['reservations.json']);
    expect(part(dataDir, 'reservations').reservations.map((summary) => summary.title)).toContain('Cached stand-up');
    // Compact: nobody reads it but Perch.
    expect(readFileSync(cachePartFile(dataDir, 'reservations'), 'utf8')).not.toContain('\n');
  });

  it('writes the moment of an unchanged answer alone only every so often, and when the core stops', async () => {
    const created = await signedIn();
    const { core, dataDir } = created;
    const first = cacheFiles(dataDir);
    const writtenAt = part(dataDir, 'reservations').fetchedAt;

    // Past the refresh period, to the first read of the list after it.
    await harness.advance({ minutes: pollTimeRefreshMinutes + steadyPeriodMinutes });
    const later = cacheFiles(dataDir);
    expect(later['reference.json']).toBe(first['reference.json']);
    const rewrittenAt = DateTime.fromISO(part(dataDir, 'reservations').fetchedAt!);
    expect(rewrittenAt.diff(DateTime.fromISO(writtenAt!), 'minutes').minutes).toBeGreaterThanOrEqual(pollTimeRefreshMinutes);

    // The next steady read of the list.
    await harness.advance({ minutes: steadyPeriodMinutes });
    const lastPoll = core.snapshot().fetchedAt!;
    expect(DateTime.fromISO(lastPoll).toMillis()).toBeGreaterThan(rewrittenAt.toMillis());
    await stopped(created);
    expect(DateTime.fromISO(part(dataDir, 'reservations').fetchedAt!).toMillis()).toBe(DateTime.fromISO(lastPoll).toMillis());
    expect(cacheFiles(dataDir)['reference.json']).toBe(first['reference.json']);
  });
});

describe('a restart', () => {
  it('shows the cached parts at once without reading the reference data again, and a new sign-in that reads the same does not rewrite it', async () => {
    const first = await signedIn();
    const { dataDir, secrets } = first;
    const booked = await first.core.handlers.book({
      resourceId: harness.org.resources.thames,
      start: inAnHour().plus({ hours: 1 }).toISO()!,
      durationMinutes: 30,
      title: 'Kept across restarts',
    });
    expect(booked.ok).toBe(true);
    await stopped(first);
    const written = cacheFiles(dataDir);

    harness.requests.length = 0;
    const { core } = await started({ dataDir, secrets });
    expect(core.snapshot().phase).toBe('ready');
    expect(core.snapshot().reservations.map((reservation) => reservation.title)).toContain('Kept across restarts');
    await harness.idle();
    expect(referenceReads()).toEqual([]);

    const again = await core.handlers.signIn(demoSignIn('user', true));
    expect(again.ok).toBe(true);
    await harness.idle();
    expect(referenceReads().length).toBeGreaterThan(0);
    expect(cacheFiles(dataDir)['reference.json']).toBe(written['reference.json']);
  });

  it('reads the single cache file of an earlier version once, then keeps the parts instead', async () => {
    const first = await signedIn();
    const { dataDir, secrets } = first;
    await stopped(first);
    const { reference, reservations, shown } = {
      reference: part(dataDir, 'reference'),
      reservations: part(dataDir, 'reservations'),
      shown: part(dataDir, 'shown'),
    };
    expect(reservations.reservations.length).toBeGreaterThan(0);
    rmSync(join(dataDir, cacheFolderName), { recursive: true });
    // An earlier version kept no resource types.
    const { resourceTypes, ...earlierReference } = reference;
    expect(resourceTypes?.length).toBeGreaterThan(0);
    writeFileSync(
      join(dataDir, legacyCacheFileName),
      JSON.stringify({ savedAt: reservations.fetchedAt, ...earlierReference, ...reservations, ...shown }, null, 2),
    );

    harness.requests.length = 0;
    const { core } = await started({ dataDir, secrets });
    expect(
      core
        .snapshot()
        .reservations.map((reservation) => reservation.referenceNumber)
        .sort(),
    ).toEqual(reservations.reservations.map((summary) => summary.referenceNumber).sort());
    await harness.idle();
    // Read again once for the types the icons need; the kept part then holds them.
    expect(referenceReads().map((request) => request.path)).toContain('/Resources/Types');
    expect(existsSync(join(dataDir, legacyCacheFileName))).toBe(false);
    expect(part(dataDir, 'reference')).toEqual(reference);
    expect(part(dataDir, 'shown')).toEqual(shown);
  });

  it('ignores a damaged part, shows the others, and reads what it lost again', async () => {
    const first = await signedIn();
    const { dataDir, secrets } = first;
    await stopped(first);
    const reservations = part(dataDir, 'reservations');
    writeFileSync(cachePartFile(dataDir, 'reference'), '{"account": {"apiRoot": ');

    harness.requests.length = 0;
    const { core } = await started({ dataDir, secrets });
    expect(core.snapshot().phase).toBe('ready');
    expect(core.snapshot().reservations).toHaveLength(reservations.reservations.length);
    await harness.idle();
    expect(referenceReads().length).toBeGreaterThan(0);
    expect(part(dataDir, 'reference').resources.length).toBeGreaterThan(5);
  });

  it('does not show the cache of another account', async () => {
    const first = await signedIn('user');
    const { dataDir } = first;
    const own = part(dataDir, 'reservations').reservations;
    expect(own.length).toBeGreaterThan(0);
    await stopped(first);

    // Tom's first reads fail, so all he could see is what the cache gave him.
    harness.intercept((request) =>
      ['/Reservations/', ...referencePaths].includes(request.path) ? new Response('{}', { status: 503 }) : null,
    );
    const { core } = await started({ dataDir });
    const result = await core.handlers.signIn(demoSignIn('tom'));
    expect(result.ok).toBe(true);
    await harness.idle();
    const snapshot = core.snapshot();
    expect(snapshot.account?.userName).toBe('tom');
    expect(snapshot.reservations).toEqual([]);
    expect(snapshot.fetchedAt).toBeNull();
    expect(part(dataDir, 'reservations')).toMatchObject({ account: { userName: 'tom' }, reservations: [] });
    expect(part(dataDir, 'reference')).toMatchObject({ account: { userName: 'tom' }, resources: [] });
  });
});
