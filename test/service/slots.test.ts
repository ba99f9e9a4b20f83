import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { slotHandlers } from '../../electron/service/handlers/slots.js';
import type { LinkBuilder, RequestContext } from '../../electron/service/handlers/types.js';
import { PermissionType } from '../../electron/service/tables.js';
import { invalidBody, notFoundBody, unauthenticatedBody } from '../support/answers.js';
import { insertResource, insertSchedule, type PeriodSeed } from '../support/fixtures.js';
import { queryPlan, recordQueries } from '../support/query-plans.js';
import { insertReservation } from '../support/reservations.js';
import { createNormalUser, startTestService, type Session, type TestService } from '../support/service.js';

// Wednesday 25 March 2026, 10:00 in Berlin; the clocks go forward on Sunday the 29th.
const now = DateTime.fromISO('2026-03-25T09:00:00Z');

let service: TestService;
let user: Session;
let office: number;
let roundTheClock: number;
let room1: number;
let room2: number;
let secret: number;
let desk: number;
const reference: Record<string, string> = {};

const link = (path: string, title: string) => ({ href: `${service.apiRoot}${path}`, title });
const time = (minutes: number) => `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
const halfHours = (from: number, to: number, label = '') =>
  Array.from({ length: (to - from) * 2 }, (_, index): PeriodSeed => ({
    weekday: null,
    startTime: time(from * 60 + index * 30),
    endTime: time(from * 60 + index * 30 + 30),
    label,
    isReservable: 1,
  }));

/** The office's day: closed at night and in the evening, half hours from 08:00 to 18:00. */
const officeBoundaries = ['00:00', ...halfHours(8, 18).map((period) => period.startTime), '18:00', '24:00'];
const officeLabels = (start: string) => (start === '00:00' ? 'Night' : start === '18:00' ? 'Evening' : '');

interface Held {
  start: string;
  end: string;
  name: string;
  color: string;
}

/**
 * The office's slots of one day in Berlin, as GetSlots answers them to a Berlin caller, with
 * `held` reservations joined over the periods they cover.
 */
function officeDay(date: string, next: string, offset: string, held: Held[], summaries: Record<string, unknown>) {
  const at = (clock: string) => (clock === '24:00' ? `${next}T00:00:00${offset}` : `${date}T${clock}:00${offset}`);
  const slots = [];
  for (let index = 0; index < officeBoundaries.length - 1; index += 1) {
    const start = officeBoundaries[index]!;
    const reservation = held.find((entry) => entry.start === start);
    if (reservation) {
      const last = officeBoundaries.indexOf(reservation.end);
      slots.push({
        slotSpan: last - index,
        isReserved: true,
        label: 'Test reservation',
        isReservable: false,
        color: reservation.color,
        startDateTime: at(start),
        endDateTime: at(reservation.end),
        reservation: summaries[reservation.name],
        links: [],
        message: null,
      });
      index = last - 1;
      continue;
    }
    slots.push({
      slotSpan: 1,
      isReserved: false,
      label: officeLabels(start),
      isReservable: start !== '00:00' && start !== '18:00',
      color: '',
      startDateTime: at(start),
      endDateTime: at(officeBoundaries[index + 1]!),
      reservation: null,
      links: [],
      message: null,
    });
  }
  return slots;
}

const row = (resourceId: number, resourceName: string, slots: unknown[]) => ({
  slots,
  resourceId,
  resourceName,
  links: [link(`/Resources/${resourceId}`, 'get_resource')],
  message: null,
});

const day = (date: string, resources: unknown[]) => ({ date, resources, links: [], message: null });
const answer = (dates: unknown[]) => ({ dates, links: [], message: null });

/** The summaries GetReservations answers this caller for the 26th, by reference number. */
async function summariesOfThe26th(session: Session): Promise<Record<string, unknown>> {
  const list = await service.call('GET', '/Reservations/?startDateTime=2026-03-26T00:00:00%2B0100&endDateTime=2026-03-27T00:00:00%2B0100', {
    session,
  });
  expect(list.status).toBe(200);
  const byReference = new Map(
    (list.body.reservations as { referenceNumber: string }[]).map((summary) => [summary.referenceNumber, summary]),
  );
  return Object.fromEntries(Object.entries(reference).map(([name, number]) => [name, byReference.get(number)]));
}

async function reserve(name: string, resourceId: number, start: string, end: string): Promise<void> {
  const { referenceNumbers } = await insertReservation(service.store, {
    ownerId: service.admin.userId,
    resourceId,
    occurrences: [{ start: DateTime.fromISO(start), end: DateTime.fromISO(end) }],
  });
  reference[name] = referenceNumbers[0]!;
}

beforeAll(async () => {
  service = await startTestService({ now });
  user = await createNormalUser(service, 'nils');
  office = await insertSchedule(service.store, { name: 'Office', timezone: 'Europe/Berlin', daysVisible: 3 }, [
    { weekday: null, startTime: '00:00', endTime: '08:00', label: 'Night', isReservable: 0 },
    ...halfHours(8, 18),
    { weekday: null, startTime: '18:00', endTime: '24:00', label: 'Evening', isReservable: 0 },
  ]);
  roundTheClock = await insertSchedule(
    service.store,
    { name: 'Round the clock', timezone: 'Europe/Berlin', isDefault: 0 },
    halfHours(0, 24),
  );
  room1 = await insertResource(service.store, { name: 'Room 1', scheduleId: office, color: '#336699' });
  room2 = await insertResource(service.store, { name: 'Room 2', scheduleId: office, color: '#aa0000' });
  secret = await insertResource(service.store, { name: 'Room 3 (hidden)', scheduleId: office, statusId: 0 });
  desk = await insertResource(service.store, { name: 'Desk', scheduleId: roundTheClock });
  await service.store
    .insertInto('userResourcePermissions')
    .values([room1, room2, secret, desk].map((resourceId) => ({ userId: user.userId, resourceId, permissionType: PermissionType.full })))
    .execute();

  await reserve('meeting', room1, '2026-03-26T09:00:00+01:00', '2026-03-26T10:30:00+01:00');
  await reserve('into the evening', room2, '2026-03-26T17:00:00+01:00', '2026-03-26T19:00:00+01:00');
  await reserve('across midnight', room2, '2026-03-27T23:00:00+01:00', '2026-03-28T09:00:00+01:00');
});
afterAll(() => service.dispose());

describe('GetSlots', () => {
  it('joins the periods a reservation covers into one slot, with its summary and the resource’s colour', async () => {
    const summaries = await summariesOfThe26th(service.admin);
    expect(summaries['meeting']).toMatchObject({ referenceNumber: reference['meeting'], resourceId: room1 });
    const got = await service.call('GET', `/Schedules/${office}/Slots?startDateTime=2026-03-26&endDateTime=2026-03-26`, {
      session: service.admin,
    });
    expect(got.status).toBe(200);
    // Written as bytes (http/answer-bytes.ts), typed as the JSON Fastify serialises.
    expect(got.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const slotsOf = (held: Held[]) => officeDay('2026-03-26', '2026-03-27', '+0100', held, summaries);
    expect(got.body).toEqual(
      answer([
        day('2026-03-26T00:00:00+0100', [
          row(room1, 'Room 1', slotsOf([{ name: 'meeting', start: '09:00', end: '10:30', color: '#336699' }])),
          row(room2, 'Room 2', slotsOf([{ name: 'into the evening', start: '17:00', end: '24:00', color: '#aa0000' }])),
          row(secret, 'Room 3 (hidden)', slotsOf([])),
        ]),
      ]),
    );
    const meeting = got.body.dates[0].resources[0].slots[3];
    expect(meeting).toMatchObject({
      slotSpan: 3,
      isReserved: true,
      startDateTime: '2026-03-26T09:00:00+0100',
      endDateTime: '2026-03-26T10:30:00+0100',
    });
  });

  it('cuts a reservation across midnight into one slot per day', async () => {
    const got = await service.call(
      'GET',
      `/Schedules/${office}/Slots?resourceId=${room2}&startDateTime=2026-03-27&endDateTime=2026-03-28`,
      { session: service.admin },
    );
    expect(got.status).toBe(200);
    const [friday, saturday] = got.body.dates.map((entry: { resources: { slots: unknown[] }[] }) => entry.resources[0]!.slots);
    expect(friday.at(-1)).toMatchObject({
      slotSpan: 1,
      isReserved: true,
      label: 'Test reservation',
      startDateTime: '2026-03-27T18:00:00+0100',
      endDateTime: '2026-03-28T00:00:00+0100',
    });
    expect(saturday.slice(0, 4)).toMatchObject([
      { slotSpan: 3, isReserved: true, startDateTime: '2026-03-28T00:00:00+0100', endDateTime: '2026-03-28T09:00:00+0100' },
      { slotSpan: 1, isReserved: false, startDateTime: '2026-03-28T09:00:00+0100' },
      { slotSpan: 1, isReserved: false, startDateTime: '2026-03-28T09:30:00+0100' },
      { slotSpan: 1, isReserved: false, startDateTime: '2026-03-28T10:00:00+0100' },
    ]);
    expect(saturday[0].reservation.referenceNumber).toBe(reference['across midnight']);
  });

  it('lays out the schedule’s daysVisible days from today when no dates are given', async () => {
    const got = await service.call('GET', `/Schedules/${office}/Slots?resourceId=${room1}`, { session: service.admin });
    expect(got.status).toBe(200);
    expect(got.body.dates.map((entry: { date: string }) => entry.date)).toEqual([
      '2026-03-25T00:00:00+0100',
      '2026-03-26T00:00:00+0100',
      '2026-03-27T00:00:00+0100',
    ]);
    expect(got.body.dates[0].resources).toEqual([row(room1, 'Room 1', officeDay('2026-03-25', '2026-03-26', '+0100', [], {}))]);
    const empty = await service.call('GET', `/Schedules/${office}/Slots?resourceId=${room1}&startDateTime=&endDateTime=`, {
      session: service.admin,
    });
    expect(empty.body).toEqual(got.body);
  });

  it('takes a date-time’s date in the caller’s zone, and an offset whose + arrived as a space', async () => {
    for (const query of [
      'startDateTime=2026-03-26T23:30:00%2B0000&endDateTime=2026-03-27T12:00:00',
      'startDateTime=2026-03-27T09:00:00+0100&endDateTime=2026-03-27T09:00:00 0100',
    ]) {
      const got = await service.call('GET', `/Schedules/${office}/Slots?resourceId=${room1}&${query}`, { session: service.admin });
      expect(got.status).toBe(200);
      expect(got.body.dates.map((entry: { date: string }) => entry.date)).toEqual(['2026-03-27T00:00:00+0100']);
    }
  });

  it('answers in the caller’s timezone and leaves hidden resources out for a normal user', async () => {
    const got = await service.call('GET', `/Schedules/${office}/Slots?startDateTime=2026-03-26&endDateTime=2026-03-26`, { session: user });
    expect(got.status).toBe(200);
    const summaries = await summariesOfThe26th(user);
    // New York is on summer time already (-0400): its 26th runs from 05:00 on Berlin's 26th to
    // 05:00 on the 27th, so it holds the slots that start then, Berlin's night before excluded.
    expect(got.body.dates).toHaveLength(1);
    expect(got.body.dates[0].date).toBe('2026-03-26T00:00:00-0400');
    expect(got.body.dates[0].resources.map((entry: { resourceName: string }) => entry.resourceName)).toEqual(['Room 1', 'Room 2']);
    const slots = got.body.dates[0].resources[0].slots;
    expect(slots.slice(0, 3)).toEqual([
      expect.objectContaining({ label: '', startDateTime: '2026-03-26T03:00:00-0400', endDateTime: '2026-03-26T03:30:00-0400' }),
      expect.objectContaining({ startDateTime: '2026-03-26T03:30:00-0400', endDateTime: '2026-03-26T04:00:00-0400' }),
      expect.objectContaining({
        slotSpan: 3,
        isReserved: true,
        startDateTime: '2026-03-26T04:00:00-0400',
        endDateTime: '2026-03-26T05:30:00-0400',
        reservation: summaries['meeting'],
      }),
    ]);
    expect(slots.slice(-2)).toEqual([
      expect.objectContaining({ label: 'Evening', startDateTime: '2026-03-26T13:00:00-0400', endDateTime: '2026-03-26T19:00:00-0400' }),
      expect.objectContaining({ label: 'Night', startDateTime: '2026-03-26T19:00:00-0400', endDateTime: '2026-03-27T03:00:00-0400' }),
    ]);
  });

  it('lays out the DST week in Berlin: 46 half hours on the 23-hour day, 48 wall-clock half hours on the 25-hour one', async () => {
    const spring = await service.call('GET', `/Schedules/${roundTheClock}/Slots?startDateTime=2026-03-28&endDateTime=2026-04-03`, {
      session: service.admin,
    });
    expect(spring.status).toBe(200);
    const springDays = spring.body.dates as {
      date: string;
      resources: { slots: { startDateTime: string; endDateTime: string; slotSpan: number }[] }[];
    }[];
    expect(springDays.map((entry) => [entry.date, entry.resources[0]!.slots.length])).toEqual([
      ['2026-03-28T00:00:00+0100', 48],
      ['2026-03-29T00:00:00+0100', 46],
      ['2026-03-30T00:00:00+0200', 48],
      ['2026-03-31T00:00:00+0200', 48],
      ['2026-04-01T00:00:00+0200', 48],
      ['2026-04-02T00:00:00+0200', 48],
      ['2026-04-03T00:00:00+0200', 48],
    ]);
    const sunday = springDays[1]!.resources[0]!.slots;
    expect(sunday.slice(2, 5).map((slot) => [slot.startDateTime, slot.endDateTime])).toEqual([
      ['2026-03-29T01:00:00+0100', '2026-03-29T01:30:00+0100'],
      ['2026-03-29T01:30:00+0100', '2026-03-29T03:00:00+0200'],
      ['2026-03-29T03:00:00+0200', '2026-03-29T03:30:00+0200'],
    ]);
    // Every slot of the 23-hour day lasts half an hour of real time, and they tile the day.
    const minutes = sunday.map((slot) => DateTime.fromISO(slot.endDateTime).diff(DateTime.fromISO(slot.startDateTime), 'minutes').minutes);
    expect(minutes.every((length) => length === 30)).toBe(true);
    expect(sunday.at(-1)!.endDateTime).toBe('2026-03-30T00:00:00+0200');

    const autumn = await service.call('GET', `/Schedules/${roundTheClock}/Slots?startDateTime=2026-10-25&endDateTime=2026-10-25`, {
      session: service.admin,
    });
    const autumnSlots = autumn.body.dates[0].resources[0].slots as { startDateTime: string; endDateTime: string }[];
    expect(autumn.body.dates[0].date).toBe('2026-10-25T00:00:00+0200');
    expect(autumnSlots).toHaveLength(48);
    // The repeated hour stays inside the period that starts at its first 02:30.
    expect(autumnSlots.slice(4, 7).map((slot) => [slot.startDateTime, slot.endDateTime])).toEqual([
      ['2026-10-25T02:00:00+0200', '2026-10-25T02:30:00+0200'],
      ['2026-10-25T02:30:00+0200', '2026-10-25T03:00:00+0100'],
      ['2026-10-25T03:00:00+0100', '2026-10-25T03:30:00+0100'],
    ]);
    expect(DateTime.fromISO(autumnSlots.at(-1)!.endDateTime).diff(DateTime.fromISO(autumnSlots[0]!.startDateTime), 'hours').hours).toBe(25);
  });

  it('answers a schedule without periods with empty rows', async () => {
    const bare = await insertSchedule(service.store, { name: 'Bare', timezone: 'UTC', isDefault: 0 });
    const lamp = await insertResource(service.store, { name: 'Lamp', scheduleId: bare });
    const got = await service.call('GET', `/Schedules/${bare}/Slots?startDateTime=2026-03-26&endDateTime=2026-03-26`, {
      session: service.admin,
    });
    expect(got.status).toBe(200);
    expect(got.body).toEqual(answer([day('2026-03-26T00:00:00+0100', [row(lamp, 'Lamp', [])])]));
  });

  it('reads a bare query date in the caller’s zone: a Tokyo caller’s day on a London schedule', async () => {
    const london = await insertSchedule(
      service.store,
      { name: 'London, round the clock', timezone: 'Europe/London', isDefault: 0 },
      halfHours(0, 24),
    );
    const booth = await insertResource(service.store, { name: 'Booth', scheduleId: london });
    const tokyo = await createNormalUser(service, 'kaito', { timezone: 'Asia/Tokyo' });
    await service.store
      .insertInto('userResourcePermissions')
      .values({ userId: tokyo.userId, resourceId: booth, permissionType: PermissionType.full })
      .execute();
    const got = await service.call(
      'GET',
      `/Schedules/${london}/Slots?resourceId=${booth}&startDateTime=2026-03-26&endDateTime=2026-03-26`,
      { session: tokyo },
    );
    expect(got.status).toBe(200);
    // Tokyo's 26th runs from 15:00 on London's 25th to 15:00 on its 26th: every half hour of it,
    // the early morning (London's evening before) included, and nothing else.
    expect(got.body.dates.map((entry: { date: string }) => entry.date)).toEqual(['2026-03-26T00:00:00+0900']);
    const starts = (got.body.dates[0].resources[0].slots as { startDateTime: string }[]).map((slot) => slot.startDateTime);
    expect(starts).toHaveLength(48);
    expect(starts.slice(0, 2)).toEqual(['2026-03-26T00:00:00+0900', '2026-03-26T00:30:00+0900']);
    expect(starts).toContain('2026-03-26T06:00:00+0900');
    expect(starts.at(-1)).toBe('2026-03-26T23:30:00+0900');
  });

  it.each([
    ['resourceId=abc', ['Invalid resourceId: abc']],
    ['resourceId=0', ['Invalid resourceId: 0']],
    ['resourceId=99999', ['Invalid resourceId: 99999']],
    ['startDateTime=soon', ['Invalid startDateTime: soon']],
    ['startDateTime=2026-02-30&endDateTime=2026-13-01', ['Invalid startDateTime: 2026-02-30', 'Invalid endDateTime: 2026-13-01']],
    ['startDateTime=2026-03-27&endDateTime=2026-03-26', ['endDateTime must not be before startDateTime']],
    ['startDateTime=2026-03-01&endDateTime=2026-04-01', ['The date range cannot be longer than 31 days']],
  ])('answers 400 for %s', async (query, errors) => {
    const got = await service.call('GET', `/Schedules/${office}/Slots?${query}`, { session: service.admin });
    expect(got.status).toBe(400);
    expect(got.body).toEqual(invalidBody(...errors));
  });

  it('answers 400 for a resource of another schedule, or one the caller may not see', async () => {
    const other = await service.call('GET', `/Schedules/${office}/Slots?resourceId=${desk}`, { session: service.admin });
    expect(other.status).toBe(400);
    expect(other.body).toEqual(invalidBody(`Invalid resourceId: ${desk}`));
    const hidden = await service.call('GET', `/Schedules/${office}/Slots?resourceId=${secret}`, { session: user });
    expect(hidden.status).toBe(400);
    expect(hidden.body).toEqual(invalidBody(`Invalid resourceId: ${secret}`));
  });

  it('answers 404 for an unknown schedule and 401 without a session', async () => {
    const unknown = await service.call('GET', '/Schedules/9999/Slots', { session: user });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual(notFoundBody);
    const anonymous = await service.call('GET', `/Schedules/${office}/Slots`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual(unauthenticatedBody);
  });

  it('asks the same number of queries for one day and for a month, the bookings by resource and start', async () => {
    const links: LinkBuilder = {
      url: (operation) => `http://localhost/${operation}`,
      to: (operation, _params, title) => ({ href: `http://localhost/${operation}`, title }),
    };
    const caller = {
      user: await service.store.selectFrom('users').selectAll().where('id', '=', service.admin.userId).executeTakeFirstOrThrow(),
      sessionToken: '',
      isAdmin: true,
    };
    const slotsOf = (startDateTime: string, endDateTime: string) =>
      recordQueries(service.store, (store) =>
        slotHandlers.getSlots({ params: { scheduleId: office }, query: { startDateTime, endDateTime }, body: undefined }, {
          store,
          clock: service.clock,
          config: {},
          links,
          caller,
        } as unknown as RequestContext<'getSlots'>),
      );
    const oneDay = await slotsOf('2026-03-26', '2026-03-26');
    const month = await slotsOf('2026-03-01', '2026-03-31');
    expect(month.result.dates).toHaveLength(31);
    expect(month.queries.length).toBe(oneDay.queries.length);
    const bookings = month.queries.filter((query) => /\breservation_bookings\b/.test(query.sql));
    expect(bookings).toHaveLength(1);
    expect(await queryPlan(service.store, bookings[0]!)).toEqual([
      expect.stringMatching(/^SEARCH reservation_bookings USING PRIMARY KEY \(resource_id=\? AND start_at>\? AND start_at<\?\)$/),
    ]);
  });
});
