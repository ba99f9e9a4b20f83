/**
 * A series repeats on its booker's clock and ends on its booker's day, as on real LibreBooking:
 * the web service reads the termination date in the session's zone (WebServiceDate::GetDate,
 * then ToTimezone(session)) and ReservationSeries::Repeats lays the instances out from the first
 * one converted to the booker's zone. Here the schedule is London's and the callers are not.
 */
import { Kysely, Migrator, SqliteDialect, sql } from 'kysely';
import SQLite from 'libsql';
import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatWireDateTime } from '../../electron/api/dates.js';
import { NO_RECURRENCE, readStoredRecurrenceRule } from '../../electron/service/domain/recurrence.js';
import { migrations } from '../../electron/service/store/migrations.js';
import { insertResource, insertSchedule } from '../support/fixtures.js';
import { createNormalUser, startTestService, type Session, type TestService } from '../support/service.js';

const LONDON = 'Europe/London';
const TOKYO = 'Asia/Tokyo';
const LOS_ANGELES = 'America/Los_Angeles';

let service: TestService;
let tokyo: Session;
let losAngeles: Session;
let booth: number;

beforeAll(async () => {
  // Wednesday 25 November 2026, noon in London: before every series below.
  service = await startTestService({ now: DateTime.fromISO('2026-11-25T12:00:00Z') });
  tokyo = await createNormalUser(service, 'kenji', { timezone: TOKYO });
  losAngeles = await createNormalUser(service, 'lena', { timezone: LOS_ANGELES });
  const hours = Array.from({ length: 24 }, (_, hour) => ({
    weekday: null,
    startTime: `${String(hour).padStart(2, '0')}:00`,
    endTime: hour === 23 ? '24:00' : `${String(hour + 1).padStart(2, '0')}:00`,
    label: '',
    isReservable: 1,
  }));
  const scheduleId = await insertSchedule(service.store, { timezone: LONDON }, hours);
  booth = await insertResource(service.store, { name: 'Night booth', scheduleId });
  await service.store
    .insertInto('userResourcePermissions')
    .values([tokyo, losAngeles].map((session) => ({ userId: session.userId, resourceId: booth, permissionType: 0 })))
    .execute();
});
afterAll(() => service.dispose());

/** Books an hour from `start` (the caller's wall clock) with `rule`; answers the reference of the first occurrence. */
async function bookSeries(session: Session, zone: string, start: string, rule: Record<string, unknown>): Promise<string> {
  const first = DateTime.fromISO(start, { zone });
  const answer = await service.call('POST', '/Reservations/', {
    session,
    body: {
      resourceId: booth,
      title: `Series from ${start}`,
      startDateTime: formatWireDateTime(first),
      endDateTime: formatWireDateTime(first.plus({ hours: 1 })),
      recurrenceRule: rule,
    },
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body.referenceNumber as string;
}

/** The occurrences of the series `referenceNumber` belongs to, as the service stored them, in order. */
async function occurrencesOf(referenceNumber: string) {
  const { seriesId } = await service.store
    .selectFrom('reservations')
    .select('seriesId')
    .where('referenceNumber', '=', referenceNumber)
    .executeTakeFirstOrThrow();
  return service.store
    .selectFrom('reservations')
    .select(['referenceNumber', 'startAt'])
    .where('seriesId', '=', seriesId)
    .orderBy('startAt')
    .execute();
}

/** The series' occurrences as wall-clock starts in `zone`. */
async function startsIn(zone: string, referenceNumber: string): Promise<string[]> {
  return (await occurrencesOf(referenceNumber)).map((row) => DateTime.fromMillis(row.startAt, { zone }).toFormat("ccc yyyy-MM-dd'T'HH:mm"));
}

/** GetReservation's termination date, as the instant it names seen in `zone`. */
async function terminationIn(session: Session, zone: string, referenceNumber: string): Promise<string> {
  const answer = await service.call('GET', `/Reservations/${referenceNumber}`, { session });
  expect(answer.status).toBe(200);
  return DateTime.fromISO(answer.body.recurrenceRule.repeatTerminationDate as string, { setZone: true })
    .setZone(zone)
    .toFormat("yyyy-MM-dd'T'HH:mm");
}

describe('a Tokyo caller on a London schedule', () => {
  it('gets a daily 07:00 series “until 28 November” on the Tokyo days 26, 27 and 28 only (London’s 25th to 27th, 22:00)', async () => {
    const reference = await bookSeries(tokyo, TOKYO, '2026-11-26T07:00', {
      type: 'daily',
      interval: 1,
      repeatTerminationDate: '2026-11-28',
    });
    expect(await startsIn(TOKYO, reference)).toEqual(['Thu 2026-11-26T07:00', 'Fri 2026-11-27T07:00', 'Sat 2026-11-28T07:00']);
    // Its last day is named as Tokyo's midnight starting the 28th, whatever offset it is written with.
    expect(await terminationIn(tokyo, TOKYO, reference)).toBe('2026-11-28T00:00');
  });

  it('reads a termination date-time as the Tokyo day it falls on', async () => {
    // 02:00 on London's 1 December is 11:00 on Tokyo's 1 December; London's 1st runs on into Tokyo's 2nd.
    const reference = await bookSeries(tokyo, TOKYO, '2026-11-30T07:00', {
      type: 'daily',
      interval: 1,
      repeatTerminationDate: formatWireDateTime(DateTime.fromISO('2026-12-01T02:00', { zone: LONDON })),
    });
    expect(await startsIn(TOKYO, reference)).toEqual(['Mon 2026-11-30T07:00', 'Tue 2026-12-01T07:00']);
  });

  it('keeps the last day when the termination date it answered is sent back, as Perch does when it changes a series', async () => {
    const reference = await bookSeries(tokyo, TOKYO, '2026-12-07T07:00', {
      type: 'daily',
      interval: 1,
      repeatTerminationDate: '2026-12-08',
    });
    const { body: detail } = await service.call('GET', `/Reservations/${reference}`, { session: tokyo });
    const later = DateTime.fromISO('2026-12-07T08:00', { zone: TOKYO });
    const moved = await service.call('POST', `/Reservations/${reference}?updateScope=full`, {
      session: tokyo,
      body: {
        resourceId: booth,
        title: detail.title,
        startDateTime: formatWireDateTime(later),
        endDateTime: formatWireDateTime(later.plus({ hours: 1 })),
        recurrenceRule: detail.recurrenceRule,
      },
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(await startsIn(TOKYO, reference)).toEqual(['Mon 2026-12-07T08:00', 'Tue 2026-12-08T08:00']);
  });
  it('ends the earlier part of a series split from a later occurrence on the Tokyo day before it', async () => {
    const reference = await bookSeries(tokyo, TOKYO, '2026-12-21T07:00', {
      type: 'daily',
      interval: 1,
      repeatTerminationDate: '2026-12-24',
    });
    const [, , third] = await occurrencesOf(reference);
    const later = DateTime.fromISO('2026-12-23T08:00', { zone: TOKYO });
    const split = await service.call('POST', `/Reservations/${third!.referenceNumber}?updateScope=future`, {
      session: tokyo,
      body: {
        resourceId: booth,
        title: 'Later',
        startDateTime: formatWireDateTime(later),
        endDateTime: formatWireDateTime(later.plus({ hours: 1 })),
        recurrenceRule: { type: 'daily', interval: 1, repeatTerminationDate: '2026-12-24' },
      },
    });
    expect(split.status, JSON.stringify(split.body)).toBe(200);
    expect(await startsIn(TOKYO, reference)).toEqual(['Mon 2026-12-21T07:00', 'Tue 2026-12-22T07:00']);
    // 07:00 on Tokyo's 23rd is 22:00 on London's 22nd: the day before that is London's 21st, not Tokyo's.
    expect(await terminationIn(tokyo, TOKYO, reference)).toBe('2026-12-22T00:00');
  });
});

describe('a Los Angeles caller on a London schedule', () => {
  it('repeats weekly on its own Wednesdays at 17:00, which are London’s Thursdays at 01:00', async () => {
    const reference = await bookSeries(losAngeles, LOS_ANGELES, '2026-12-02T17:00', {
      type: 'weekly',
      interval: 1,
      weekdays: [3],
      repeatTerminationDate: '2026-12-16',
    });
    expect(await startsIn(LOS_ANGELES, reference)).toEqual(['Wed 2026-12-02T17:00', 'Wed 2026-12-09T17:00', 'Wed 2026-12-16T17:00']);
    expect(await terminationIn(losAngeles, LOS_ANGELES, reference)).toBe('2026-12-16T00:00');
  });

  it('repeats weekly without weekdays on the weekday of its own first occurrence', async () => {
    const reference = await bookSeries(losAngeles, LOS_ANGELES, '2026-12-03T18:00', {
      type: 'weekly',
      interval: 1,
      repeatTerminationDate: '2026-12-17',
    });
    expect(await startsIn(LOS_ANGELES, reference)).toEqual(['Thu 2026-12-03T18:00', 'Thu 2026-12-10T18:00', 'Thu 2026-12-17T18:00']);
  });

  it('repeats monthly on its own day of the month: the 30th at 19:00, London’s 1st or 31st at 03:00', async () => {
    const reference = await bookSeries(losAngeles, LOS_ANGELES, '2026-11-30T19:00', {
      type: 'monthly',
      interval: 1,
      monthlyType: 'dayOfMonth',
      repeatTerminationDate: '2027-01-31',
    });
    expect(await startsIn(LOS_ANGELES, reference)).toEqual(['Mon 2026-11-30T19:00', 'Wed 2026-12-30T19:00', 'Sat 2027-01-30T19:00']);
  });

  it('repeats monthly on its own week of the month: the fifth Monday, skipping months without one', async () => {
    // London's 1 December, a first Tuesday; LA's 30 November, a fifth Monday.
    const reference = await bookSeries(losAngeles, LOS_ANGELES, '2026-11-30T20:00', {
      type: 'monthly',
      interval: 1,
      monthlyType: 'dayOfWeek',
      repeatTerminationDate: '2027-03-31',
    });
    expect(await startsIn(LOS_ANGELES, reference)).toEqual(['Mon 2026-11-30T20:00', 'Mon 2027-03-29T20:00']);
  });
});

describe('a series stored before series kept their zone', () => {
  it('keeps repeating in its schedule’s zone, the zone it was laid out in', async () => {
    const database = new Kysely<unknown>({ dialect: new SqliteDialect({ database: new SQLite(':memory:') }) });
    try {
      const migrator = new Migrator({ db: database, provider: { getMigrations: async () => migrations } });
      expect((await migrator.migrateTo('0004-no-calendar-tokens')).error).toBeUndefined();
      await sql`INSERT INTO schedules (id, name, timezone) VALUES (1, 'London', ${LONDON})`.execute(database);
      await sql`INSERT INTO users (id, user_name, email_address, first_name, last_name, password_hash, timezone, date_created)
        VALUES (1, 'early', 'early@example.org', 'Early', 'Adopter', 'x', ${TOKYO}, '2026-01-01')`.execute(database);
      await sql`INSERT INTO resources (id, name, schedule_id) VALUES (1, 'Night booth', 1)`.execute(database);
      const oldDaily = '{"type":"daily","interval":1,"monthlyType":null,"weekdays":[],"terminationDate":"2026-11-28"}';
      await sql`INSERT INTO reservation_series (id, owner_id, resource_id, recurrence, created_at, updated_at) VALUES
        (1, 1, 1, ${oldDaily}, 0, 0), (2, 1, 1, '{"type":"none"}', 0, 0)`.execute(database);
      expect((await migrator.migrateToLatest()).error).toBeUndefined();
      const rows = await sql<{ recurrence: string }>`SELECT recurrence FROM reservation_series ORDER BY id`.execute(database);
      expect(rows.rows.map((row) => readStoredRecurrenceRule(row.recurrence))).toEqual([
        { type: 'daily', interval: 1, monthlyType: null, weekdays: [], terminationDate: '2026-11-28', zone: LONDON },
        NO_RECURRENCE,
      ]);
    } finally {
      await database.destroy();
    }
  });
});
