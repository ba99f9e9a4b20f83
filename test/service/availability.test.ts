import { sql } from 'kysely';
import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { availabilityHandlers } from '../../electron/service/handlers/availability.js';
import type { LinkBuilder, RequestContext } from '../../electron/service/handlers/types.js';
import type { Store } from '../../electron/service/store/database.js';
import { PermissionType } from '../../electron/service/tables.js';
import { invalidBody, notFoundBody, unauthenticatedBody } from '../support/answers.js';
import { insertResource, insertSchedule } from '../support/fixtures.js';
import { recordQueries, queryPlan } from '../support/query-plans.js';
import { insertReservation } from '../support/reservations.js';
import { createNormalUser, startTestService, type Session, type TestService } from '../support/service.js';

// The clock stands at 09:00 UTC; most calls ask about 10:00 UTC (11:00 in Berlin, where the
// administrator lives; 05:00 in New York, where the normal user lives).
const now = DateTime.fromISO('2026-12-01T09:00:00Z');
const utc = (time: string) => DateTime.fromISO(`${time}Z`);

let service: TestService;
let user: Session;
let scheduleId: number;
const room: Record<'free' | 'busy' | 'chain' | 'broken' | 'hidden' | 'quiet', number> = {
  free: 0,
  busy: 0,
  chain: 0,
  broken: 0,
  hidden: 0,
  quiet: 0,
};
const reference: Record<string, string> = {};

const link = (path: string, title: string) => ({ href: `${service.apiRoot}${path}`, title });

async function reserve(name: string, resourceId: number, start: string, end: string): Promise<void> {
  const { referenceNumbers } = await insertReservation(service.store, {
    ownerId: service.admin.userId,
    resourceId,
    occurrences: [{ start: utc(start), end: utc(end) }],
  });
  reference[name] = referenceNumbers[0]!;
}

function item(
  resourceId: number,
  name: string,
  answer: { available: boolean; availableAt: string | null; availableUntil: string | null; reservation?: string; statusId?: number },
) {
  return {
    available: answer.available,
    resource: {
      resourceId,
      name,
      scheduleId,
      statusId: answer.statusId ?? 1,
      statusReasonId: null,
      links: [link(`/Resources/${resourceId}`, 'get_resource'), link(`/Schedules/${scheduleId}`, 'get_schedule')],
      message: null,
    },
    availableAt: answer.availableAt,
    availableUntil: answer.availableUntil,
    links: answer.reservation
      ? [link(`/Users/${service.admin.userId}`, 'get_user'), link(`/Reservations/${reference[answer.reservation]}`, 'get_reservation')]
      : [],
    message: null,
  };
}

/** The expected items at 10:00 UTC, written in Berlin time. */
const atTenUtc = () => ({
  free: item(room.free, 'A free room', {
    available: true,
    availableAt: '2026-12-01T11:00:00+0100',
    availableUntil: '2026-12-01T14:00:00+0100',
    reservation: 'free later',
  }),
  busy: item(room.busy, 'B busy room', {
    available: false,
    availableAt: '2026-12-01T11:30:00+0100',
    availableUntil: '2026-12-08T11:00:00+0100',
    reservation: 'busy now',
  }),
  chain: item(room.chain, 'C chained room', {
    available: false,
    availableAt: '2026-12-01T13:00:00+0100',
    availableUntil: '2026-12-01T16:00:00+0100',
    reservation: 'chain 1',
  }),
  broken: item(room.broken, 'D broken room', { available: false, availableAt: null, availableUntil: null, statusId: 2 }),
  hidden: item(room.hidden, 'E hidden room', { available: false, availableAt: null, availableUntil: null, statusId: 0 }),
  quiet: item(room.quiet, 'F quiet room', {
    available: true,
    availableAt: '2026-12-01T11:00:00+0100',
    availableUntil: '2026-12-08T11:00:00+0100',
  }),
});

const ok = (resources: unknown[]) => ({ resources, links: [], message: null });

beforeAll(async () => {
  service = await startTestService({ now });
  user = await createNormalUser(service, 'nora');
  scheduleId = await insertSchedule(service.store);
  room.free = await insertResource(service.store, { name: 'A free room', scheduleId });
  room.busy = await insertResource(service.store, { name: 'B busy room', scheduleId });
  room.chain = await insertResource(service.store, { name: 'C chained room', scheduleId });
  room.broken = await insertResource(service.store, { name: 'D broken room', scheduleId, statusId: 2 });
  room.hidden = await insertResource(service.store, { name: 'E hidden room', scheduleId, statusId: 0 });
  room.quiet = await insertResource(service.store, { name: 'F quiet room', scheduleId });
  // The normal user may see every room but the chained one; the hidden one stays out of sight anyway.
  await service.store
    .insertInto('userResourcePermissions')
    .values(
      [room.free, room.busy, room.broken, room.hidden, room.quiet].map((resourceId) => ({
        userId: user.userId,
        resourceId,
        permissionType: PermissionType.full,
      })),
    )
    .execute();

  await reserve('free earlier', room.free, '2026-12-01T08:00:00', '2026-12-01T10:00:00');
  await reserve('free later', room.free, '2026-12-01T13:00:00', '2026-12-01T14:00:00');
  await reserve('busy now', room.busy, '2026-12-01T09:30:00', '2026-12-01T10:30:00');
  await reserve('chain 1', room.chain, '2026-12-01T09:00:00', '2026-12-01T10:30:00');
  await reserve('chain 2', room.chain, '2026-12-01T10:30:00', '2026-12-01T11:00:00');
  await reserve('chain 3', room.chain, '2026-12-01T10:45:00', '2026-12-01T12:00:00');
  await reserve('chain next', room.chain, '2026-12-01T15:00:00', '2026-12-01T16:00:00');
  await reserve('broken now', room.broken, '2026-12-01T09:00:00', '2026-12-01T11:00:00');
  await reserve('quiet far', room.quiet, '2026-12-08T10:00:00', '2026-12-08T11:00:00');
});
afterAll(() => service.dispose());

describe('GetAvailability', () => {
  it('answers every resource for an administrator, in the administrator’s timezone', async () => {
    const answer = await service.call('GET', '/Resources/Availability?dateTime=2026-12-01T10:00:00%2B0000', { session: service.admin });
    expect(answer.status).toBe(200);
    const expected = atTenUtc();
    expect(answer.body).toEqual(ok([expected.free, expected.busy, expected.chain, expected.broken, expected.hidden, expected.quiet]));
  });

  it('shows a normal user only the resources they may see, hidden ones left out, in their timezone', async () => {
    const answer = await service.call('GET', '/Resources/Availability?dateTime=2026-12-01T10:00:00%2B0000', { session: user });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual(
      ok([
        item(room.free, 'A free room', {
          available: true,
          availableAt: '2026-12-01T05:00:00-0500',
          availableUntil: '2026-12-01T08:00:00-0500',
          reservation: 'free later',
        }),
        item(room.busy, 'B busy room', {
          available: false,
          availableAt: '2026-12-01T05:30:00-0500',
          availableUntil: '2026-12-08T05:00:00-0500',
          reservation: 'busy now',
        }),
        item(room.broken, 'D broken room', { available: false, availableAt: null, availableUntil: null, statusId: 2 }),
        item(room.quiet, 'F quiet room', {
          available: true,
          availableAt: '2026-12-01T05:00:00-0500',
          availableUntil: '2026-12-08T05:00:00-0500',
        }),
      ]),
    );
  });

  it.each([
    ['an offset-less time in the caller’s timezone', '2026-12-01T11:00:00'],
    ['an offset with a colon', '2026-12-01T12:00:00%2B02:00'],
    ['Z', '2026-12-01T10:00:00Z'],
    ['an offset whose + arrived as a space', '2026-12-01T11:00:00+0100'],
    ['a + already decoded to a space', '2026-12-01T11:00:00%200100'],
  ])('reads %s', async (_name, dateTime) => {
    const answer = await service.call('GET', `/Resources/Availability?dateTime=${dateTime}`, { session: service.admin });
    expect(answer.status).toBe(200);
    expect(answer.body.resources[1]).toEqual(atTenUtc().busy);
  });

  it('reads an offset-less time in a New York caller’s own timezone', async () => {
    const answer = await service.call('GET', `/Resources/${room.busy}/Availability?dateTime=2026-12-01T05:00:00`, { session: user });
    expect(answer.status).toBe(200);
    expect(answer.body.resources[0]).toMatchObject({ available: false, availableAt: '2026-12-01T05:30:00-0500' });
  });

  it.each(['', '?dateTime='])('asks about now when dateTime is omitted or empty (%j)', async (query) => {
    const answer = await service.call('GET', `/Resources/Availability${query}`, { session: service.admin });
    expect(answer.status).toBe(200);
    const byName = Object.fromEntries(
      (answer.body.resources as { resource: { name: string } }[]).map((entry) => [entry.resource.name, entry]),
    );
    expect(byName['A free room']).toMatchObject({
      available: false,
      availableAt: '2026-12-01T11:00:00+0100',
      availableUntil: '2026-12-01T14:00:00+0100',
    });
    expect(byName['B busy room']).toMatchObject({
      available: true,
      availableAt: '2026-12-01T10:00:00+0100',
      availableUntil: '2026-12-01T10:30:00+0100',
    });
    // The reservation on the 8th starts an hour after the horizon.
    expect(byName['F quiet room']).toMatchObject({
      available: true,
      availableAt: '2026-12-01T10:00:00+0100',
      availableUntil: '2026-12-08T10:00:00+0100',
    });
  });

  it('lets a booking just inside the 7-day horizon end the free stretch', async () => {
    const answer = await service.call('GET', `/Resources/${room.quiet}/Availability?dateTime=2026-12-01T10:30:00Z`, {
      session: service.admin,
    });
    expect(answer.body).toEqual(
      ok([
        item(room.quiet, 'F quiet room', {
          available: true,
          availableAt: '2026-12-01T11:30:00+0100',
          availableUntil: '2026-12-08T11:00:00+0100',
          reservation: 'quiet far',
        }),
      ]),
    );
  });

  it.each(['tomorrow', '2026-13-01T10:00:00', '2026-12-01T25:00:00', '2026-12-01T10:00:00 99'])(
    'answers 400 for dateTime=%j',
    async (dateTime) => {
      const answer = await service.call('GET', `/Resources/Availability?dateTime=${encodeURIComponent(dateTime)}`, {
        session: service.admin,
      });
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual(invalidBody(`Invalid dateTime: ${dateTime}`));
    },
  );

  it('answers 401 without a session', async () => {
    const answer = await service.call('GET', '/Resources/Availability');
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual(unauthenticatedBody);
  });
});

describe('GetResourceAvailability', () => {
  it('answers the one resource in the path', async () => {
    for (const name of ['free', 'busy', 'chain', 'broken', 'hidden', 'quiet'] as const) {
      const answer = await service.call('GET', `/Resources/${room[name]}/Availability?dateTime=2026-12-01T10:00:00Z`, {
        session: service.admin,
      });
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual(ok([atTenUtc()[name]]));
    }
  });

  it('answers 404 for an unknown resource and for ones the caller may not see', async () => {
    for (const [resourceId, session] of [
      [9999, service.admin],
      [room.chain, user],
      [room.hidden, user],
    ] as const) {
      const answer = await service.call('GET', `/Resources/${resourceId}/Availability`, { session });
      expect(answer.status).toBe(404);
      expect(answer.body).toEqual(notFoundBody);
    }
  });

  it('answers 400 for a bad dateTime and 401 without a session', async () => {
    const bad = await service.call('GET', `/Resources/${room.free}/Availability?dateTime=soon`, { session: user });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual(invalidBody('Invalid dateTime: soon'));
    const anonymous = await service.call('GET', `/Resources/${room.free}/Availability`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual(unauthenticatedBody);
  });
});

describe('at scale', () => {
  const resourceCount = 1_000;
  const reservationCount = 200_000;
  const hourMs = 3_600_000;

  /**
   * 1,000 resources with 200 reservations each, one a day per resource for 200 days around now
   * (1–3 hours long, at varying hours): a week holds some 7,000 bookings. Written with set-based
   * SQL so the setup takes seconds.
   */
  async function fill(store: Store, ownerId: number, groupMemberId: number): Promise<void> {
    const scheduleId = await insertSchedule(store);
    const base = now.minus({ days: 100 }).toMillis();
    await store.transaction().execute(async (trx) => {
      await sql`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${resourceCount})
        INSERT INTO resources (id, name, schedule_id) SELECT 1000 + i, printf('Room %04d', i), ${scheduleId} FROM n`.execute(trx);
      const { id: groupId } = await trx
        .insertInto('userGroups')
        .values({ name: 'Everyone', isDefault: 0 })
        .returning('id')
        .executeTakeFirstOrThrow();
      await trx.insertInto('groupMembers').values({ groupId, userId: groupMemberId }).execute();
      await sql`INSERT INTO group_resource_permissions (group_id, resource_id, permission_type) SELECT ${groupId}, id, 0 FROM resources`.execute(
        trx,
      );
      await sql`WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ${reservationCount - 1})
        INSERT INTO reservation_series (id, owner_id, resource_id, created_at, updated_at) SELECT i + 1, ${ownerId}, 1001 + i % ${resourceCount}, 0, 0 FROM n`.execute(
        trx,
      );
      await sql`INSERT INTO reservations (id, series_id, reference_number, start_at, end_at)
        SELECT id, id, printf('%022d', id),
          ${base} + ((id - 1) / ${resourceCount}) * 86400000 + ((id * 7) % 12) * ${hourMs},
          ${base} + ((id - 1) / ${resourceCount}) * 86400000 + ((id * 7) % 12 + 1 + id % 3) * ${hourMs}
        FROM reservation_series`.execute(trx);
      await sql`INSERT INTO reservation_bookings (resource_id, start_at, end_at, reservation_id)
        SELECT s.resource_id, r.start_at, r.end_at, r.id FROM reservations r JOIN reservation_series s ON s.id = r.series_id`.execute(trx);
      await trx
        .insertInto('settings')
        .values({ key: 'maxBookingMs', value: String(3 * hourMs) })
        .execute();
    });
    await sql`ANALYZE`.execute(store);
  }

  const links: LinkBuilder = {
    url: (operation, params) => `http://localhost/${operation}/${Object.values(params as object).join('/')}`,
    to: (operation, params, title) => ({ href: `http://localhost/${operation}/${Object.values(params as object).join('/')}`, title }),
  };

  async function contextFor(target: TestService, session: Session, isAdmin: boolean) {
    const caller = {
      user: await target.store.selectFrom('users').selectAll().where('id', '=', session.userId).executeTakeFirstOrThrow(),
      sessionToken: '',
      isAdmin,
    };
    return { store: target.store, clock: target.clock, config: {}, links, caller } as unknown as RequestContext<'getAvailability'>;
  }

  const ask = (context: RequestContext<'getAvailability'>) =>
    availabilityHandlers.getAvailability({ params: {}, query: {}, body: undefined }, context);

  /** GetAvailability through the query recorder: four queries whatever the number of resources, the bookings one a range scan. */
  async function expectFourQueries(target: TestService, session: Session, isAdmin: boolean, resourceTotal: number) {
    const context = await contextFor(target, session, isAdmin);
    const { result, queries } = await recordQueries(target.store, (store) => ask({ ...context, store }));
    expect(result.resources).toHaveLength(resourceTotal);
    // The resources, the longest booking, the bookings, and the reservations the items link to.
    expect(queries).toHaveLength(4);
    const bookings = queries.filter((query) => query.sql.includes('reservation_bookings'));
    expect(bookings).toHaveLength(1);
    expect(await queryPlan(target.store, bookings[0]!)).toEqual([
      'SEARCH reservation_bookings USING COVERING INDEX reservation_bookings_by_start (start_at>? AND start_at<?)',
    ]);
    return result;
  }

  let big: TestService;
  let many: Session;
  beforeAll(async () => {
    big = await startTestService({ now });
    many = await createNormalUser(big, 'many');
    await fill(big.store, big.admin.userId, many.userId);
  }, 60_000);
  afterAll(() => big.dispose());

  it('reads the bookings of every resource with one range scan on the start index', async () => {
    await expectFourQueries(service, user, false, 4);
    await expectFourQueries(service, service.admin, true, 6);
    for (const [session, isAdmin] of [
      [big.admin, true],
      [many, false],
    ] as const) {
      const result = await expectFourQueries(big, session, isAdmin, resourceCount);
      expect(result.resources.filter((entry) => !entry.available).length).toBeGreaterThan(50);
    }
  });
});
