/**
 * Users east and west of their schedules' zone (London), at moments when their date is not
 * London's: every day Perch works out (a query's date, the Book form's day, Extend's next slot,
 * My reservations, a series' last day, opening hours for Free now and its When) is the user's.
 */
import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatWireDateTime } from '../../electron/api/dates.js';
import type { BridgeResult } from '../../electron/bridge/contract.js';
import type { PerchCore } from '../../electron/core/perch-core.js';
import { PermissionType } from '../../electron/service/tables.js';
import { insertResource } from '../support/fixtures.js';
import { demoSignIn, startCoreHarness, type CoreHarness } from '../support/core-harness.js';

function value<T>(result: BridgeResult<T>): T {
  if (!result.ok) throw new Error(`${result.error.kind}: ${result.error.message}`);
  return result.value;
}

interface World {
  harness: CoreHarness;
  core: PerchCore;
  /** A round-the-clock resource (the lab's half hours, on London time here). */
  booth: number;
  userName: string;
  zone: string;
}

/**
 * The demo organisation with every schedule on London time (the head office open 08:00–18:00
 * on weekdays, the lab round the clock), a booth in the lab, and a demo user moved to `zone`.
 */
async function worldOf(userName: 'sam' | 'sofia', zone: string, now: DateTime): Promise<World> {
  const harness = await startCoreHarness(now);
  const { store } = harness.service;
  await store.updateTable('schedules').set({ timezone: 'Europe/London' }).execute();
  await store.updateTable('users').set({ timezone: zone }).where('userName', '=', userName).execute();
  const booth = await insertResource(store, { name: 'Night booth', scheduleId: harness.org.schedules.lab });
  await store
    .insertInto('userResourcePermissions')
    .values({ userId: harness.org.users[userName], resourceId: booth, permissionType: PermissionType.full })
    .execute();
  const { core } = harness.newCore();
  await core.start();
  value(await core.handlers.signIn(demoSignIn(userName)));
  await harness.idle();
  return { harness, core, booth, userName, zone };
}

const slotQueries = (world: World) =>
  world.harness.requests
    .filter((request) => request.method === 'GET' && request.path.endsWith('/Slots'))
    .map((request) => [request.query.get('startDateTime'), request.query.get('endDateTime')]);

/** A wall-clock time of the user's, as the popover sends it (ISO with the user's offset). */
const userTime = (world: World, iso: string) => DateTime.fromISO(iso, { zone: world.zone }).toISO({ suppressMilliseconds: true })!;

async function book(world: World, start: string, minutes: number, title: string): Promise<string> {
  world.harness.requests.length = 0;
  const outcome = value(
    await world.core.handlers.book({ resourceId: world.booth, start: userTime(world, start), durationMinutes: minutes, title }),
  );
  return outcome.referenceNumber;
}

/**
 * A daily series the user books (through the API, as the web app would) from `start` until
 * `lastDay`, both the user's: its occurrences and its rule's last day.
 */
async function expectSeriesUntil(world: World, start: string, lastDay: string, occurrences: string[]): Promise<void> {
  const client = await world.harness.clientFor(world.userName);
  const first = DateTime.fromISO(start, { zone: world.zone });
  const title = `Daily from ${start}`;
  const created = await client.createReservation({
    body: {
      resourceId: world.booth,
      title,
      startDateTime: formatWireDateTime(first),
      endDateTime: formatWireDateTime(first.plus({ minutes: 30 })),
      recurrenceRule: { type: 'daily', interval: 1, repeatTerminationDate: lastDay },
    },
  });
  if (!created.ok) throw new Error(created.error.message);
  await world.core.handlers.refresh();
  const series = world.core.snapshot().reservations.filter((reservation) => reservation.title === title);
  expect(series.map((reservation) => reservation.start)).toEqual(occurrences.map((time) => userTime(world, time)));
  const rule = value(await world.core.handlers.getRecurrence({ referenceNumber: series[0]!.referenceNumber }));
  expect(rule?.until).toBe(userTime(world, `${lastDay}T00:00`));
}

const freeNames = (world: World) => world.core.snapshot().freeNow.map((resource) => resource.name);
const freeAtNames = async (world: World, start: string) =>
  value(await world.core.handlers.freeAt({ start: userTime(world, start), durationMinutes: 30 })).map((resource) => resource.name);

describe('a user in Tokyo, with schedules in London, at 06:00 on Thursday (21:00 on London’s Wednesday)', () => {
  let world: World;
  beforeAll(async () => {
    world = await worldOf('sam', 'Asia/Tokyo', DateTime.fromISO('2026-11-26T06:00:00', { zone: 'Asia/Tokyo' }));
  });
  afterAll(() => world.harness.dispose());

  it('sees the office closed for London’s evening, and open at times that are London’s office hours', async () => {
    expect(freeNames(world)).toContain('Night booth');
    expect(freeNames(world)).not.toContain('Thames (1.01)');
    // 01:00 on Friday is 16:00 on London's Thursday; 02:00 on Saturday is London's Friday, 17:00.
    expect(await freeAtNames(world, '2026-11-27T01:00')).toContain('Thames (1.01)');
    expect(await freeAtNames(world, '2026-11-28T02:00')).toContain('Thames (1.01)');
    // 17:30 on Friday is 08:30 on London's Friday; 06:00 on Monday is London's Sunday evening.
    expect(await freeAtNames(world, '2026-11-27T17:30')).toContain('Thames (1.01)');
    expect(await freeAtNames(world, '2026-11-30T06:00')).not.toContain('Thames (1.01)');
  });

  it('offers the Book form the slots of its own day, asked for by its own date', async () => {
    world.harness.requests.length = 0;
    const slots = value(await world.core.handlers.listSlots({ resourceId: world.booth, date: '2026-11-26' }));
    expect(slotQueries(world)).toEqual([['2026-11-26', '2026-11-26']]);
    expect(slots).toHaveLength(48);
    expect(slots[0]).toEqual({ start: userTime(world, '2026-11-26T00:00'), end: userTime(world, '2026-11-26T00:30'), isReservable: true });
    expect(slots.at(-1)!.end).toBe(userTime(world, '2026-11-27T00:00'));
  });

  it('books its early morning (London’s evening before), checking the slots of its own date', async () => {
    const reference = await book(world, '2026-11-26T06:30', 30, 'Early call');
    expect(slotQueries(world)).toEqual([['2026-11-26', '2026-11-26']]);
    // My reservations: today's, at the user's 06:30.
    expect(world.core.snapshot().reservations.find((reservation) => reservation.referenceNumber === reference)).toMatchObject({
      start: userTime(world, '2026-11-26T06:30'),
    });
    expect(value(await world.core.handlers.offerExtension({ referenceNumber: reference }))).toEqual({
      minutes: 30,
      end: userTime(world, '2026-11-26T07:30'),
    });
  });

  it('extends across London’s midnight (09:00 here)', async () => {
    const reference = await book(world, '2026-11-26T08:30', 30, 'Before London’s midnight');
    expect(value(await world.core.handlers.offerExtension({ referenceNumber: reference }))).toEqual({
      minutes: 30,
      end: userTime(world, '2026-11-26T09:30'),
    });
  });

  it('reads a series’ last day as its own date', async () => {
    await expectSeriesUntil(world, '2026-11-26T17:00', '2026-11-28', ['2026-11-26T17:00', '2026-11-27T17:00', '2026-11-28T17:00']);
  });

  it('books a morning series (London’s evening before) that repeats on its own days and ends on its own last day', async () => {
    // 07:00 on the 28th is 22:00 on London's 27th: the series ends there, not on London's 28th.
    await expectSeriesUntil(world, '2026-11-26T07:00', '2026-11-28', ['2026-11-26T07:00', '2026-11-27T07:00', '2026-11-28T07:00']);
  });
});

describe('a user in Los Angeles, with schedules in London, at 17:00 on Wednesday (01:00 on London’s Thursday)', () => {
  let world: World;
  beforeAll(async () => {
    world = await worldOf('sofia', 'America/Los_Angeles', DateTime.fromISO('2026-11-25T17:00:00', { zone: 'America/Los_Angeles' }));
  });
  afterAll(() => world.harness.dispose());

  it('sees the office closed at London’s night, though its own clock reads office hours', async () => {
    expect(freeNames(world)).toContain('Night booth');
    expect(freeNames(world)).not.toContain('Thames (1.01)');
    // 00:30 on Thursday is 08:30 on London's Thursday; 10:30 on Friday is London's Friday, 18:30.
    expect(await freeAtNames(world, '2026-11-26T00:30')).toContain('Thames (1.01)');
    expect(await freeAtNames(world, '2026-11-27T10:30')).not.toContain('Thames (1.01)');
  });

  it('offers the Book form the slots of its own day, asked for by its own date', async () => {
    world.harness.requests.length = 0;
    const slots = value(await world.core.handlers.listSlots({ resourceId: world.booth, date: '2026-11-25' }));
    expect(slotQueries(world)).toEqual([['2026-11-25', '2026-11-25']]);
    expect(slots).toHaveLength(48);
    expect(slots[0]!.start).toBe(userTime(world, '2026-11-25T00:00'));
    expect(slots.at(-1)!.end).toBe(userTime(world, '2026-11-26T00:00'));
  });

  it('books its evening (London’s next morning), checking the slots of its own date', async () => {
    const reference = await book(world, '2026-11-25T17:30', 30, 'Late call');
    expect(slotQueries(world)).toEqual([['2026-11-25', '2026-11-25']]);
    expect(world.core.snapshot().reservations.find((reservation) => reservation.referenceNumber === reference)).toMatchObject({
      start: userTime(world, '2026-11-25T17:30'),
    });
    expect(world.core.snapshot().freeNow.find((resource) => resource.name === 'Night booth')?.freeUntil).toBe(
      userTime(world, '2026-11-25T17:30'),
    );
  });

  it('books up to its own midnight and extends past it', async () => {
    const reference = await book(world, '2026-11-25T23:30', 30, 'Before midnight');
    expect(slotQueries(world)).toEqual([['2026-11-25', '2026-11-26']]);
    expect(value(await world.core.handlers.offerExtension({ referenceNumber: reference }))).toEqual({
      minutes: 30,
      end: userTime(world, '2026-11-26T00:30'),
    });
  });

  it('reads a series’ last day as its own date, not the day before', async () => {
    await expectSeriesUntil(world, '2026-11-26T09:00', '2026-11-28', ['2026-11-26T09:00', '2026-11-27T09:00', '2026-11-28T09:00']);
  });

  it('books an evening series (London’s next morning) that repeats on its own days up to its own last day', async () => {
    // 17:00 on the 28th is 01:00 on London's 29th, past London's 28th but within the user's.
    await expectSeriesUntil(world, '2026-11-26T17:00', '2026-11-28', ['2026-11-26T17:00', '2026-11-27T17:00', '2026-11-28T17:00']);
  });
});
