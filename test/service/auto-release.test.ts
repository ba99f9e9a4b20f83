import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ManualClock } from '../support/manual-clock.js';
import { releaseDue, startAutoRelease } from '../../electron/service/jobs/auto-release.js';
import { createAdministrator } from '../../electron/service/seed/bootstrap.js';
import { startService } from '../../electron/service/service.js';
import type { Store } from '../../electron/service/store/database.js';
import type { SeriesValues } from '../../electron/service/store/reservations.js';
import { notFoundBody } from '../support/answers.js';
import { insertResource, insertSchedule, signInAdmin } from '../support/fixtures.js';
import { queryPlan, recordQueries } from '../support/query-plans.js';
import { insertReservation } from '../support/reservations.js';
import { createNormalUser, startTestService, type Session, type TestService } from '../support/service.js';

const utc = (iso: string) => DateTime.fromISO(iso, { zone: 'utc' });
const start = utc('2027-02-01T09:00:00Z');

let service: TestService;
let rita: Session;
let releasing: number;
let withoutCheckIn: number;
let neverReleasing: number;

async function reserve(
  store: Store,
  ownerId: number,
  resourceId: number,
  from: DateTime,
  minutes = 60,
  series: Partial<SeriesValues> = {},
) {
  const stored = await insertReservation(store, {
    ownerId,
    resourceId,
    occurrences: [{ start: from, end: from.plus({ minutes }) }],
    series,
  });
  return stored.referenceNumbers[0]!;
}

/** Moves the clock; sessions lapse after 30 idle minutes, so both sign in again. */
async function at(time: DateTime) {
  service.clock.set(time);
  [rita, service.admin] = await Promise.all([service.signIn('rita', 'rita-password-1'), signInAdmin(service)]);
}

const status = async (referenceNumber: string) =>
  (await service.call('GET', `/Reservations/${referenceNumber}`, { session: service.admin })).status;

beforeAll(async () => {
  service = await startTestService({ now: start.minus({ days: 1 }) });
  rita = await createNormalUser(service, 'rita');
  const scheduleId = await insertSchedule(service.store);
  releasing = await insertResource(service.store, { name: 'Hot desk', scheduleId, requiresCheckIn: 1, autoReleaseMinutes: 15 });
  withoutCheckIn = await insertResource(service.store, { name: 'Room', scheduleId, autoReleaseMinutes: 15 });
  neverReleasing = await insertResource(service.store, { name: 'Desk', scheduleId, requiresCheckIn: 1 });
  await service.store
    .insertInto('userResourcePermissions')
    .values([releasing, withoutCheckIn, neverReleasing].map((resourceId) => ({ userId: rita.userId, resourceId, permissionType: 0 })))
    .execute();
});
afterAll(() => service.dispose());

describe('releaseDue', () => {
  it('releases an occurrence nobody checked in to autoReleaseMinutes after its start, not a minute earlier', async () => {
    const reference = await reserve(service.store, rita.userId, releasing, start);
    await at(start.plus({ minutes: 14 }));
    expect(await releaseDue(service.store, service.clock.now().toMillis())).toBe(0);
    expect(await status(reference)).toBe(200);
    await at(start.plus({ minutes: 15 }));
    expect(await releaseDue(service.store, service.clock.now().toMillis())).toBe(1);
    const answer = await service.call('GET', `/Reservations/${reference}`, { session: rita });
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual(notFoundBody);
    expect(
      await service.store.selectFrom('reservationBookings').select('reservationId').where('resourceId', '=', releasing).execute(),
    ).toEqual([]);
  });

  it('keeps one checked in, one pending approval, and those on resources that do not release', async () => {
    const later = start.plus({ hours: 2 });
    const checkedIn = await reserve(service.store, rita.userId, releasing, later);
    const pending = await reserve(service.store, rita.userId, releasing, later, 60, { isPendingApproval: true });
    const noCheckIn = await reserve(service.store, rita.userId, withoutCheckIn, later);
    const noRelease = await reserve(service.store, rita.userId, neverReleasing, later);
    await at(later.minus({ minutes: 1 }));
    const checkIn = await service.call('POST', `/Reservations/${checkedIn}/CheckIn`, { session: rita });
    expect(checkIn.status).toBe(200);
    await at(later.plus({ minutes: 30 }));
    expect(await releaseDue(service.store, service.clock.now().toMillis())).toBe(0);
    for (const reference of [checkedIn, pending, noCheckIn, noRelease]) expect(await status(reference)).toBe(200);
  });

  it('leaves an occurrence that is already over as history, and the other occurrences of a series', async () => {
    const day = start.plus({ days: 1 });
    const over = await reserve(service.store, rita.userId, releasing, day, 30);
    const series = await insertReservation(service.store, {
      ownerId: rita.userId,
      resourceId: releasing,
      occurrences: [
        { start: day.plus({ hours: 1 }), end: day.plus({ hours: 2 }) },
        { start: day.plus({ days: 1, hours: 1 }), end: day.plus({ days: 1, hours: 2 }) },
      ],
    });
    await at(day.plus({ hours: 1, minutes: 20 }));
    expect(await releaseDue(service.store, service.clock.now().toMillis())).toBe(1);
    expect(await status(over)).toBe(200);
    expect(await status(series.referenceNumbers[0]!)).toBe(404);
    expect(await status(series.referenceNumbers[1]!)).toBe(200);
  });

  it('finds what is due with one index range query', async () => {
    const { queries } = await recordQueries(service.store, (store) => releaseDue(store, service.clock.now().toMillis()));
    const finder = queries.find((query) => query.sql.includes('from "reservations"'));
    const plan = (await queryPlan(service.store, finder!)).join('\n');
    expect(plan).toMatch(/SEARCH reservations USING INDEX reservations_by_start/);
    expect(plan).not.toMatch(/^SCAN/m);
  });
});

describe('startAutoRelease', () => {
  it('releases on its timer as the clock passes the due time', async () => {
    const when = start.plus({ days: 5 });
    const reference = await reserve(service.store, rita.userId, releasing, when);
    await at(when.plus({ minutes: 10 }));
    const job = startAutoRelease({ store: service.store, clock: service.clock, intervalMs: 10 });
    try {
      await job.settled();
      expect(await status(reference)).toBe(200);
      service.clock.set(when.plus({ minutes: 15 }));
      await vi.waitFor(async () => expect(await status(reference)).toBe(404), { timeout: 2_000, interval: 20 });
    } finally {
      await job.stop();
    }
  });

  it('reports a failed run and keeps going', async () => {
    const failures: unknown[] = [];
    const broken = {
      transaction: () => {
        throw new Error('disk gone');
      },
    } as unknown as Store;
    const job = startAutoRelease({ store: broken, clock: service.clock, intervalMs: 10, onError: (error) => failures.push(error) });
    await vi.waitFor(() => expect(failures.length).toBeGreaterThanOrEqual(2), { timeout: 2_000, interval: 10 });
    await job.stop();
    expect((failures[0] as Error).message).toBe('disk gone');
  });
});

describe('the service', () => {
  it('catches up on releases that fell due while it was down, as it starts', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'perch-release-'));
    const database = join(folder, 'perch.db');
    const clock = new ManualClock(start.minus({ hours: 1 }));
    try {
      const first = await startService({ database, clock });
      await createAdministrator(first.store, {
        userName: 'admin',
        emailAddress: 'admin@example.org',
        password: 'admin-password-1',
        timezone: 'UTC',
      });
      const owner = await first.store.selectFrom('users').select('id').executeTakeFirstOrThrow();
      const scheduleId = await insertSchedule(first.store);
      const resourceId = await insertResource(first.store, { name: 'Hot desk', scheduleId, requiresCheckIn: 1, autoReleaseMinutes: 15 });
      const due = await reserve(first.store, owner.id, resourceId, start);
      const notYet = await reserve(first.store, owner.id, resourceId, start.plus({ minutes: 30 }));
      await first.close();

      clock.set(start.plus({ minutes: 20 }));
      const second = await startService({ database, clock });
      try {
        const left = await second.store.selectFrom('reservations').select('referenceNumber').execute();
        expect(left).toEqual([{ referenceNumber: notYet }]);
        expect(left.map((row) => row.referenceNumber)).not.toContain(due);
      } finally {
        await second.close();
      }
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
