import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AttributeCategory } from '../../electron/api/schemas/attributes.js';
import { writeAttributeValues } from '../../electron/service/store/attribute-values.js';
import { onConnection } from '../../electron/service/store/database.js';
import { listOccurrences } from '../../electron/service/store/occurrence-lists.js';
import type { SeriesValues } from '../../electron/service/store/reservations.js';
import { invalidBody, lacksRightBody, notFoundBody, unauthenticatedBody } from '../support/answers.js';
import {
  deleteAttributes,
  insertAccessory,
  insertAttribute,
  insertSchedule,
  insertUserGroup,
  signInAdmin,
  withOwnService,
} from '../support/fixtures.js';
import { queryPlan, recordQueries } from '../support/query-plans.js';
import { insertReservation } from '../support/reservations.js';
import { createNormalUser, startTestService, type Session, type TestService } from '../support/service.js';

const now = DateTime.fromISO('2026-12-01T08:00:00Z', { zone: 'utc' });

let service: TestService;
let rita: Session;
let otto: Session;
let mia: Session;
let lara: Session;
let dora: Session;
let office: number;
let lab: number;
let roomA: number;
let roomB: number;
let bench: number;
let vault: number;
let projector: number;

const utc = (iso: string) => DateTime.fromISO(iso, { zone: 'utc' });
const reservationUrl = (referenceNumber: string) => `${service.apiRoot}/Reservations/${referenceNumber}`;
const userUrl = (userId: number) => `${service.apiRoot}/Users/${userId}`;
const resourceUrl = (resourceId: number) => `${service.apiRoot}/Resources/${resourceId}`;

/** One occurrence from `start` to `end` (ISO instants), straight into the store; its reference number. */
async function reserve(owner: Session, resourceId: number, start: string, end: string, series: Partial<SeriesValues> = {}) {
  const stored = await insertReservation(service.store, {
    ownerId: owner.userId,
    resourceId,
    occurrences: [{ start: utc(start), end: utc(end) }],
    series,
  });
  return stored.referenceNumbers[0]!;
}

async function createResource(body: Record<string, unknown>): Promise<number> {
  const answer = await service.call('POST', '/Resources/', { body, session: service.admin });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body.resourceId as number;
}

const list = (query: string, session: Session = service.admin) => service.call('GET', `/Reservations/${query}`, { session });

async function listed(query: string, session: Session = service.admin): Promise<string[]> {
  const answer = await list(query, session);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return (answer.body.reservations as { referenceNumber: string }[]).map((reservation) => reservation.referenceNumber);
}

const read = (referenceNumber: string, session: Session = service.admin) =>
  service.call('GET', `/Reservations/${referenceNumber}`, { session });

const post = (referenceNumber: string, action: 'Approval' | 'CheckIn' | 'CheckOut', session: Session) =>
  service.call('POST', `/Reservations/${referenceNumber}/${action}`, { session });

const envelope = (referenceNumber: string, message: string, isPendingApproval = false) => ({
  referenceNumber,
  isPendingApproval,
  links: [
    { href: reservationUrl(referenceNumber), title: 'get_reservation' },
    { href: reservationUrl(referenceNumber), title: 'update_reservation' },
  ],
  message,
});

const person = (session: Session, firstName: string, lastName: string, userName: string) => ({
  userId: session.userId,
  firstName,
  lastName,
  emailAddress: `${userName}@example.org`,
  links: [{ href: userUrl(session.userId), title: 'get_user' }],
  message: null,
});

beforeAll(async () => {
  service = await startTestService({ now });
  const roomAdmins = await insertUserGroup(service.store, 'Room admins');
  const labAdmins = await insertUserGroup(service.store, 'Lab admins');
  rita = await createNormalUser(service, 'rita', { firstName: 'Rita', lastName: 'Rider' });
  otto = await createNormalUser(service, 'otto', { firstName: 'Otto', lastName: 'Other', timezone: 'Europe/Berlin' });
  mia = await createNormalUser(service, 'mia', { firstName: 'Mia', lastName: 'Manager', timezone: 'UTC', groupIds: [roomAdmins] });
  lara = await createNormalUser(service, 'lara', { firstName: 'Lara', lastName: 'Lab', timezone: 'UTC', groupIds: [labAdmins] });
  dora = await createNormalUser(service, 'dora', { firstName: 'Dora', lastName: 'Default' });
  office = await insertSchedule(service.store, { name: 'Office', timezone: 'Europe/Berlin' });
  lab = await insertSchedule(service.store, { name: 'Lab', timezone: 'Europe/Berlin', isDefault: 0, adminGroupId: labAdmins });
  roomA = await createResource({
    name: 'Room A',
    scheduleId: office,
    color: '#1e90ff',
    bufferTime: '0d0h15m',
    requiresCheckIn: true,
    autoReleaseMinutes: 15,
  });
  await service.store.updateTable('resources').set({ adminGroupId: roomAdmins }).where('id', '=', roomA).execute();
  roomB = await createResource({ name: 'Room B', scheduleId: office });
  bench = await createResource({ name: 'Lab bench', scheduleId: lab, color: '#ffff00' });
  vault = await createResource({ name: 'Vault', scheduleId: office, autoAssignPermissions: false });
  projector = await insertAccessory(service.store, { name: 'Projector', quantityAvailable: 3 });
});
afterAll(() => service.dispose());

describe('GetReservations on one day (Thursday 3 December 2026)', () => {
  const day = '?startDateTime=2026-12-03T00:00:00%2B0000&endDateTime=2026-12-04T00:00:00%2B0000';
  let x: string;
  let y: string;
  let z: string;
  let w: string;
  let xSeries: number;

  beforeAll(async () => {
    const stored = await insertReservation(service.store, {
      ownerId: rita.userId,
      resourceId: roomA,
      occurrences: [{ start: utc('2026-12-03T09:00:00Z'), end: utc('2026-12-03T10:00:00Z') }],
      series: {
        resourceIds: [roomB],
        title: 'Standup',
        description: 'Daily',
        participants: [otto.userId],
        invitees: [mia.userId],
        participatingGuests: ['guest@example.org'],
        invitedGuests: ['maybe@example.org'],
        startReminderMinutes: 15,
        endReminderMinutes: 1440,
        allowParticipation: true,
        accessories: [{ accessoryId: projector, quantity: 1 }],
      },
    });
    x = stored.referenceNumbers[0]!;
    xSeries = stored.seriesId;
    y = await reserve(otto, bench, '2026-12-03T11:00:00Z', '2026-12-03T12:00:00Z', { title: 'Soldering' });
    z = await reserve(otto, vault, '2026-12-03T13:00:00Z', '2026-12-03T14:00:00Z', { title: 'Audit' });
    w = await reserve(rita, vault, '2026-12-03T15:00:00Z', '2026-12-03T16:00:00Z', { title: 'Count' });
  });

  it('answers every summary field, in UTC, with the window', async () => {
    const answer = await list(`${day}&resourceId=${roomA}`);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      reservations: [
        {
          referenceNumber: x,
          startDate: '2026-12-03T09:00:00+0000',
          endDate: '2026-12-03T10:00:00+0000',
          firstName: 'Rita',
          lastName: 'Rider',
          resourceName: 'Room A',
          title: 'Standup',
          description: 'Daily',
          requiresApproval: false,
          isRecurring: false,
          scheduleId: office,
          userId: rita.userId,
          resourceId: roomA,
          duration: '1 hours 0 minutes',
          bufferTime: '0 hours 15 minutes',
          bufferedStartDate: '2026-12-03T08:45:00+0000',
          bufferedEndDate: '2026-12-03T10:15:00+0000',
          participants: { [otto.userId]: 'Otto Other' },
          invitees: { [mia.userId]: 'Mia Manager' },
          participatingGuests: ['guest@example.org'],
          invitedGuests: ['maybe@example.org'],
          startReminder: 15,
          endReminder: 1440,
          color: '#1e90ff',
          textColor: '#ffffff',
          checkInDate: null,
          checkOutDate: null,
          originalEndDate: null,
          isCheckInEnabled: true,
          autoReleaseMinutes: 15,
          resourceStatusId: 1,
          creditsConsumed: 0,
          links: [
            { href: reservationUrl(x), title: 'get_reservation' },
            { href: reservationUrl(x), title: 'update_reservation' },
            { href: userUrl(rita.userId), title: 'get_user' },
          ],
          message: null,
        },
      ],
      startDateTime: '2026-12-03T00:00:00+0000',
      endDateTime: '2026-12-04T00:00:00+0000',
      links: [],
      message: null,
    });
  });

  it('shows a resource without buffer or color, and dark text on a light color', async () => {
    const answer = await list(`${day}&resourceId=${bench}`);
    expect(answer.body.reservations).toEqual([
      expect.objectContaining({
        referenceNumber: y,
        bufferTime: '',
        bufferedStartDate: '2026-12-03T11:00:00+0000',
        color: '#ffff00',
        textColor: '#000000',
      }),
    ]);
    const [onRoomB] = (await list(`${day}&resourceId=${roomB}`)).body.reservations;
    const [plain] = (await list(`${day}&resourceId=${vault}`)).body.reservations;
    expect(onRoomB.referenceNumber).toBe(x);
    expect(plain).toMatchObject({
      color: '',
      textColor: '',
      isCheckInEnabled: false,
      autoReleaseMinutes: null,
      startReminder: null,
      participants: {},
    });
  });

  it.each([
    ['no filter', '', () => [x, y, z, w]],
    ['an additional resource', () => `&resourceId=${roomB}`, () => [x]],
    ['the primary resource', () => `&resourceId=${vault}`, () => [z, w]],
    ['a schedule (of the primary resource)', () => `&scheduleId=${lab}`, () => [y]],
    ['the other schedule', () => `&scheduleId=${office}`, () => [x, z, w]],
    ['an owner', () => `&userId=${rita.userId}`, () => [x, w]],
    // As on real servers, a user's list holds what they own; what they take part in is listed by schedule or resource.
    ['a participant, who owns the others', () => `&userId=${otto.userId}`, () => [y, z]],
    ['an invitee', () => `&userId=${mia.userId}`, () => []],
    ['two filters at once', () => `&userId=${otto.userId}&scheduleId=${office}`, () => [z]],
    ['an unknown user', '&userId=99999', () => []],
    ['an unknown resource', '&resourceId=99999', () => []],
    ['an unknown schedule', '&scheduleId=99999', () => []],
  ])('filters by %s', async (_case, filter, expected) => {
    expect(await listed(day + (typeof filter === 'string' ? filter : filter()))).toEqual(expected());
  });

  it('shows a normal user the reservations on resources they may see, and their own', async () => {
    expect(await listed(day, rita)).toEqual([x, y, w]);
    expect(await listed(day, otto)).toEqual([x, y, z]);
  });

  it('keeps titles of others’ reservations but offers no update link', async () => {
    const answer = await list(`${day}&resourceId=${bench}`, rita);
    expect(answer.body.reservations[0]).toMatchObject({ title: 'Soldering', firstName: 'Otto', lastName: 'Other' });
    expect(answer.body.reservations[0].links).toEqual([
      { href: reservationUrl(y), title: 'get_reservation' },
      { href: userUrl(otto.userId), title: 'get_user' },
    ]);
  });

  it('reads dates without an offset in the caller’s timezone', async () => {
    const answer = await list('?startDateTime=2026-12-03&endDateTime=2026-12-04', rita);
    expect(answer.body.startDateTime).toBe('2026-12-03T05:00:00+0000');
    expect(answer.body.endDateTime).toBe('2026-12-04T05:00:00+0000');
    expect(answer.body.reservations.map((reservation: { referenceNumber: string }) => reservation.referenceNumber)).toEqual([x, y, w]);
  });

  describe('GetReservation', () => {
    it('answers the single form in the caller’s timezone, with private attributes for the owner', async () => {
      const cost = await insertAttribute(service.store, { label: 'Cost centre', categoryId: AttributeCategory.reservation, sortOrder: 1 });
      const secret = await insertAttribute(service.store, {
        label: 'Secret',
        categoryId: AttributeCategory.reservation,
        sortOrder: 2,
        isPrivate: 1,
      });
      try {
        await onConnection(service.store, (connection) =>
          writeAttributeValues(connection, AttributeCategory.reservation, xSeries, [
            { attributeId: cost, attributeValue: 'CC-7' },
            { attributeId: secret, attributeValue: '42' },
          ]),
        );
        const attribute = (id: number, label: string, value: string) => ({
          id,
          label,
          value,
          links: [{ href: `${service.apiRoot}/Attributes/${id}`, title: 'get_custom_attribute' }],
          message: null,
        });
        const answer = await read(x, rita);
        expect(answer.status).toBe(200);
        expect(answer.body).toEqual({
          referenceNumber: x,
          startDate: '2026-12-03T04:00:00-0500',
          endDate: '2026-12-03T05:00:00-0500',
          title: 'Standup',
          description: 'Daily',
          requiresApproval: false,
          isRecurring: false,
          scheduleId: office,
          resourceId: roomA,
          owner: person(rita, 'Rita', 'Rider', 'rita'),
          participants: [person(otto, 'Otto', 'Other', 'otto')],
          invitees: [person(mia, 'Mia', 'Manager', 'mia')],
          customAttributes: [attribute(cost, 'Cost centre', 'CC-7'), attribute(secret, 'Secret', '42')],
          recurrenceRule: { type: 'none', interval: null, monthlyType: null, weekdays: [], repeatTerminationDate: null },
          attachments: [],
          resources: [
            {
              id: roomA,
              name: 'Room A',
              type: null,
              groups: null,
              links: [{ href: resourceUrl(roomA), title: 'get_resource' }],
              message: null,
            },
            {
              id: roomB,
              name: 'Room B',
              type: null,
              groups: null,
              links: [{ href: resourceUrl(roomB), title: 'get_resource' }],
              message: null,
            },
          ],
          accessories: [{ id: projector, name: 'Projector', quantityAvailable: 3, quantityReserved: 1, links: [], message: null }],
          startReminder: { value: 15, interval: 'minutes' },
          endReminder: { value: 1, interval: 'days' },
          allowParticipation: true,
          checkInDate: null,
          checkOutDate: null,
          originalEndDate: null,
          isCheckInAvailable: false,
          isCheckoutAvailable: false,
          autoReleaseMinutes: 15,
          links: [{ href: reservationUrl(x), title: 'update_reservation' }],
          message: null,
        });
        const asParticipant = await read(x, otto);
        expect(asParticipant.status).toBe(200);
        expect(asParticipant.body).toMatchObject({ startDate: '2026-12-03T10:00:00+0100', endDate: '2026-12-03T11:00:00+0100', links: [] });
        expect(asParticipant.body.customAttributes).toEqual([attribute(cost, 'Cost centre', 'CC-7')]);
        expect((await read(x)).body.customAttributes).toHaveLength(2);
      } finally {
        await deleteAttributes(service.store, cost, secret);
      }
    });

    it('answers 404 for an unknown reference and for a reservation the caller may not see', async () => {
      for (const [reference, session] of [
        ['0000000000000000000000', service.admin],
        ['not-a-reference', service.admin],
        [z, rita],
        [w, otto],
      ] as const) {
        const answer = await read(reference, session);
        expect(answer.status).toBe(404);
        expect(answer.body).toEqual(notFoundBody);
      }
      expect((await read(z)).status).toBe(200);
      expect((await read(w, rita)).status).toBe(200);
    });
  });
});

describe('GetReservations defaults and window', () => {
  let running: string;
  let soon: string;
  let edge: string;
  let after: string;

  beforeAll(async () => {
    await reserve(dora, roomB, '2026-11-30T10:00:00Z', '2026-11-30T11:00:00Z');
    running = await reserve(dora, roomB, '2026-12-01T07:30:00Z', '2026-12-01T08:30:00Z');
    soon = await reserve(dora, roomB, '2026-12-05T10:00:00Z', '2026-12-05T11:00:00Z');
    edge = await reserve(dora, roomB, '2026-12-15T07:00:00Z', '2026-12-15T08:00:00Z');
    after = await reserve(dora, roomB, '2026-12-15T08:00:00Z', '2026-12-15T09:00:00Z');
  });

  it('shows now to now + 14 days without dates, including what is running now', async () => {
    service.clock.set(now);
    const answer = await list(`?userId=${dora.userId}`, dora);
    expect(answer.status).toBe(200);
    expect(answer.body.startDateTime).toBe('2026-12-01T08:00:00+0000');
    expect(answer.body.endDateTime).toBe('2026-12-15T08:00:00+0000');
    expect(answer.body.reservations.map((reservation: { referenceNumber: string }) => reservation.referenceNumber)).toEqual([
      running,
      soon,
      edge,
    ]);
  });

  it('gives a start alone 14 days, read in the caller’s timezone', async () => {
    const answer = await list(`?userId=${dora.userId}&startDateTime=2026-12-10`, dora);
    expect(answer.body).toMatchObject({ startDateTime: '2026-12-10T05:00:00+0000', endDateTime: '2026-12-24T05:00:00+0000' });
    expect(answer.body.reservations.map((reservation: { referenceNumber: string }) => reservation.referenceNumber)).toEqual([edge, after]);
  });

  it('starts an end alone now; a reservation starting at the end is outside', async () => {
    service.clock.set(now);
    const answer = await list(`?userId=${dora.userId}&endDateTime=2026-12-05T10:00:00%2B0000`, dora);
    expect(answer.body).toMatchObject({ startDateTime: '2026-12-01T08:00:00+0000', endDateTime: '2026-12-05T10:00:00+0000' });
    expect(answer.body.reservations.map((reservation: { referenceNumber: string }) => reservation.referenceNumber)).toEqual([running]);
  });

  it('answers an empty list with the window, not nulls', async () => {
    const answer = await list('?userId=99999');
    expect(answer.body).toEqual({
      reservations: [],
      startDateTime: '2026-12-01T08:00:00+0000',
      endDateTime: '2026-12-15T08:00:00+0000',
      links: [],
      message: null,
    });
  });
});

describe('GetReservations across the end of daylight saving time (America/New_York, 1 November 2026)', () => {
  let overlapsStart: string;
  let overlapsEnd: string;

  beforeAll(async () => {
    await reserve(otto, roomB, '2026-10-31T15:00:00Z', '2026-10-31T16:00:00Z');
    overlapsStart = await reserve(otto, roomB, '2026-10-31T15:30:00Z', '2026-10-31T16:30:00Z');
    overlapsEnd = await reserve(otto, roomB, '2026-11-02T16:30:00Z', '2026-11-02T17:30:00Z');
    await reserve(otto, roomB, '2026-11-02T17:00:00Z', '2026-11-02T18:00:00Z');
  });

  it.each([
    ['local times without offset (EDT, then EST)', '2026-10-31T12:00:00', '2026-11-02T12:00:00'],
    ['offsets percent-encoded', '2026-10-31T17:00:00%2B0100', '2026-11-02T18:00:00%2B0100'],
    ['a + the client did not encode', '2026-10-31T17:00:00+0100', '2026-11-02T18:00:00+0100'],
    ['Z and a colon offset', '2026-10-31T16:00:00Z', '2026-11-02T12:00:00-05:00'],
  ])('reads %s', async (_case, start, end) => {
    const answer = await list(`?resourceId=${roomB}&startDateTime=${start}&endDateTime=${end}`, rita);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.startDateTime).toBe('2026-10-31T16:00:00+0000');
    expect(answer.body.endDateTime).toBe('2026-11-02T17:00:00+0000');
    expect(answer.body.reservations.map((reservation: { referenceNumber: string }) => reservation.referenceNumber)).toEqual([
      overlapsStart,
      overlapsEnd,
    ]);
  });

  it('shows a single reservation with the offset of its own date', async () => {
    expect((await read(overlapsStart, rita)).body).toMatchObject({
      startDate: '2026-10-31T11:30:00-0400',
      endDate: '2026-10-31T12:30:00-0400',
    });
    expect((await read(overlapsEnd, rita)).body).toMatchObject({
      startDate: '2026-11-02T11:30:00-0500',
      endDate: '2026-11-02T12:30:00-0500',
    });
  });
});

describe('GetReservations refusals', () => {
  it.each([
    ['?userId=abc', ['Invalid userId: abc']],
    ['?userId=1.5', ['Invalid userId: 1.5']],
    ['?resourceId=0&scheduleId=-1', ['Invalid resourceId: 0', 'Invalid scheduleId: -1']],
    ['?scheduleId=1,2', ['Invalid scheduleId: 1,2']],
    ['?startDateTime=yesterday&endDateTime=2026-13-01', ['Invalid startDateTime: yesterday', 'Invalid endDateTime: 2026-13-01']],
  ])('%s answers 400', async (query, errors) => {
    const answer = await list(query);
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual(invalidBody(...errors));
  });

  it('needs a session', async () => {
    for (const path of ['/Reservations/', '/Reservations/0000000000000000000000']) {
      const answer = await service.call('GET', path);
      expect(answer.status).toBe(401);
      expect(answer.body).toEqual(unauthenticatedBody);
    }
  });
});

describe('recurring series', () => {
  it('shows each occurrence as recurring, and the rule with its last day starting at midnight in its booker’s zone', async () => {
    const stored = await insertReservation(service.store, {
      ownerId: rita.userId,
      resourceId: roomB,
      occurrences: [
        { start: utc('2027-02-04T12:00:00Z'), end: utc('2027-02-04T13:00:00Z') },
        { start: utc('2027-02-11T12:00:00Z'), end: utc('2027-02-11T13:00:00Z') },
      ],
      series: {
        recurrence: JSON.stringify({
          type: 'weekly',
          interval: 1,
          monthlyType: null,
          weekdays: [4],
          terminationDate: '2027-02-11',
          zone: 'America/New_York',
        }),
        startReminderMinutes: 120,
      },
    });
    const answer = await list(`?resourceId=${roomB}&startDateTime=2027-02-01T00:00:00Z&endDateTime=2027-02-28T00:00:00Z`);
    expect(
      answer.body.reservations.map((summary: { referenceNumber: string; isRecurring: boolean }) => [
        summary.referenceNumber,
        summary.isRecurring,
      ]),
    ).toEqual(stored.referenceNumbers.map((referenceNumber) => [referenceNumber, true]));
    const single = await read(stored.referenceNumbers[1]!, rita);
    expect(single.body).toMatchObject({
      isRecurring: true,
      recurrenceRule: { type: 'weekly', interval: 1, monthlyType: null, weekdays: [4], repeatTerminationDate: '2027-02-11T00:00:00-0500' },
      startReminder: { value: 2, interval: 'hours' },
      endReminder: null,
    });
  });
});

describe('ApproveReservation', () => {
  let onRoom: string;
  let onBench: string;
  let otherPending: string;
  const pending = { isPendingApproval: true };

  beforeAll(async () => {
    onRoom = await reserve(rita, roomA, '2027-03-01T09:00:00Z', '2027-03-01T10:00:00Z', pending);
    onBench = await reserve(rita, bench, '2027-03-01T11:00:00Z', '2027-03-01T12:00:00Z', pending);
    otherPending = await reserve(otto, roomB, '2027-03-01T13:00:00Z', '2027-03-01T14:00:00Z', pending);
  });

  it('shows a pending reservation as requiring approval', async () => {
    const answer = await list(`?resourceId=${roomA}&startDateTime=2027-03-01&endDateTime=2027-03-02`);
    expect(answer.body.reservations).toEqual([expect.objectContaining({ referenceNumber: onRoom, requiresApproval: true })]);
  });

  it('refuses the owner, a participant and an administrator of another resource', async () => {
    for (const session of [rita, otto, lara]) {
      const answer = await post(onRoom, 'Approval', session);
      expect(answer.status).toBe(403);
      expect(answer.body).toEqual(lacksRightBody('You are not allowed to approve this reservation.'));
    }
    expect((await read(onRoom, rita)).body.requiresApproval).toBe(true);
  });

  it('lets a member of the resource’s admin group approve, and answers the same when approved already', async () => {
    for (let attempt = 0; attempt < 2; attempt++) {
      const answer = await post(onRoom, 'Approval', mia);
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual(envelope(onRoom, 'The reservation was approved'));
    }
    expect((await read(onRoom, rita)).body.requiresApproval).toBe(false);
  });

  it('lets a member of the schedule’s admin group approve', async () => {
    expect((await post(onBench, 'Approval', mia)).status).toBe(403);
    const answer = await post(onBench, 'Approval', lara);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual(envelope(onBench, 'The reservation was approved'));
  });

  it('lets an application administrator approve anything', async () => {
    const answer = await post(otherPending, 'Approval', service.admin);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual(envelope(otherPending, 'The reservation was approved'));
    expect((await read(otherPending)).body.requiresApproval).toBe(false);
  });

  it('answers 404 for an unknown reference and 401 without a session', async () => {
    const unknown = await post('0000000000000000000000', 'Approval', service.admin);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual(notFoundBody);
    const anonymous = await service.call('POST', `/Reservations/${onRoom}/Approval`);
    expect(anonymous.status).toBe(401);
  });
});

describe('CheckinReservation and CheckoutReservation (check-in opens 5 minutes before start)', () => {
  /** Moves the clock; sessions lapse after 30 idle minutes, so everyone signs in again. */
  async function at(time: string | DateTime) {
    service.clock.set(typeof time === 'string' ? utc(time) : time);
    [rita, otto, mia, service.admin] = await Promise.all([
      service.signIn('rita', 'rita-password-1'),
      service.signIn('otto', 'otto-password-1'),
      service.signIn('mia', 'mia-password-1'),
      signInAdmin(service),
    ]);
  }

  it('refuses check-in 6 minutes before start, opens 5 minutes before, and refuses others', async () => {
    const reference = await reserve(rita, roomA, '2027-01-05T10:00:00Z', '2027-01-05T11:00:00Z');
    await at('2027-01-05T09:54:00Z');
    const early = await post(reference, 'CheckIn', rita);
    expect(early.status).toBe(400);
    expect(early.body).toEqual(invalidBody('This reservation cannot be checked in to.'));
    expect((await read(reference, rita)).body.isCheckInAvailable).toBe(false);

    await at('2027-01-05T09:55:00Z');
    expect((await read(reference, rita)).body).toMatchObject({ isCheckInAvailable: true, isCheckoutAvailable: false });
    const stranger = await post(reference, 'CheckIn', otto);
    expect(stranger.status).toBe(403);
    expect(stranger.body).toEqual(lacksRightBody('You are not allowed to change this reservation.'));

    const checkedIn = await post(reference, 'CheckIn', rita);
    expect(checkedIn.status).toBe(200);
    expect(checkedIn.body).toEqual(envelope(reference, 'The reservation was checked in'));
    expect((await read(reference, rita)).body).toMatchObject({
      checkInDate: '2027-01-05T04:55:00-0500',
      checkOutDate: null,
      isCheckInAvailable: false,
      // Before the start a check-out would end the reservation before it began.
      isCheckoutAvailable: false,
    });
    await at('2027-01-05T09:58:00Z');
    const tooEarlyOut = await post(reference, 'CheckOut', rita);
    expect(tooEarlyOut.status).toBe(400);
    expect(tooEarlyOut.body).toEqual(invalidBody('This reservation cannot be checked out from.'));

    await at('2027-01-05T10:20:00Z');
    const again = await post(reference, 'CheckIn', rita);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(envelope(reference, 'The reservation was checked in'));
    expect((await read(reference, rita)).body).toMatchObject({ checkInDate: '2027-01-05T04:55:00-0500', isCheckoutAvailable: true });

    await at(utc('2027-01-05T10:30:15Z').plus({ milliseconds: 500 }));
    const out = await post(reference, 'CheckOut', rita);
    expect(out.status).toBe(200);
    expect(out.body).toEqual(envelope(reference, 'The reservation was checked out'));
    const expectedAfter = {
      endDate: '2027-01-05T05:30:15-0500',
      checkOutDate: '2027-01-05T05:30:15-0500',
      originalEndDate: '2027-01-05T06:00:00-0500',
      isCheckInAvailable: false,
      isCheckoutAvailable: false,
    };
    expect((await read(reference, rita)).body).toMatchObject(expectedAfter);
    const [summary] = (await list(`?resourceId=${roomA}&startDateTime=2027-01-05T10:00:00Z&endDateTime=2027-01-05T10:01:00Z`)).body
      .reservations;
    expect(summary).toMatchObject({
      referenceNumber: reference,
      startDate: '2027-01-05T10:00:00+0000',
      endDate: '2027-01-05T10:30:15+0000',
      duration: '0 hours 30 minutes',
      bufferedEndDate: '2027-01-05T10:45:15+0000',
      checkInDate: '2027-01-05T09:55:00+0000',
      checkOutDate: '2027-01-05T10:30:15+0000',
      originalEndDate: '2027-01-05T11:00:00+0000',
    });
    const bookings = await service.store
      .selectFrom('reservationBookings')
      .innerJoin('reservations', 'reservations.id', 'reservationBookings.reservationId')
      .select(['reservationBookings.startAt', 'reservationBookings.endAt'])
      .where('reservations.referenceNumber', '=', reference)
      .execute();
    expect(bookings).toEqual([{ startAt: utc('2027-01-05T10:00:00Z').toMillis(), endAt: utc('2027-01-05T10:30:15Z').toMillis() }]);

    await at('2027-01-05T10:40:00Z');
    const outAgain = await post(reference, 'CheckOut', rita);
    expect(outAgain.status).toBe(200);
    expect(outAgain.body).toEqual(envelope(reference, 'The reservation was checked out'));
    expect((await read(reference, rita)).body).toMatchObject(expectedAfter);
  });

  it('refuses check-out before check-in, and checks in during the reservation', async () => {
    const reference = await reserve(rita, roomA, '2027-01-05T12:00:00Z', '2027-01-05T13:00:00Z');
    await at('2027-01-05T12:10:00Z');
    const out = await post(reference, 'CheckOut', rita);
    expect(out.status).toBe(400);
    expect(out.body).toEqual(invalidBody('This reservation cannot be checked out from.'));
    expect((await read(reference, rita)).body).toMatchObject({ isCheckInAvailable: true, isCheckoutAvailable: false });
    expect((await post(reference, 'CheckIn', rita)).status).toBe(200);
    expect((await read(reference, rita)).body).toMatchObject({ checkInDate: '2027-01-05T07:10:00-0500', isCheckoutAvailable: true });
  });

  it('closes check-in at the end', async () => {
    const reference = await reserve(rita, roomA, '2027-01-05T14:00:00Z', '2027-01-05T15:00:00Z');
    await at('2027-01-05T15:00:00Z');
    const answer = await post(reference, 'CheckIn', rita);
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual(invalidBody('This reservation cannot be checked in to.'));
  });

  it('refuses check-in on a resource without it, and on a reservation pending approval', async () => {
    const plain = await reserve(rita, roomB, '2027-01-05T16:00:00Z', '2027-01-05T17:00:00Z');
    const pending = await reserve(rita, roomA, '2027-01-05T16:00:00Z', '2027-01-05T17:00:00Z', { isPendingApproval: true });
    await at('2027-01-05T16:00:00Z');
    for (const reference of [plain, pending]) {
      const answer = await post(reference, 'CheckIn', rita);
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual(invalidBody('This reservation cannot be checked in to.'));
      expect((await read(reference, rita)).body.isCheckInAvailable).toBe(false);
    }
    expect((await post(pending, 'CheckIn', rita)).body.errors).toEqual(['This reservation cannot be checked in to.']);
  });

  it('lets an application administrator check someone in, not a resource administrator', async () => {
    const reference = await reserve(otto, roomA, '2027-01-05T20:00:00Z', '2027-01-05T21:00:00Z');
    await at('2027-01-05T20:00:00Z');
    expect((await read(reference, otto)).body.isCheckInAvailable).toBe(true);
    expect((await read(reference, mia)).body.isCheckInAvailable).toBe(false);
    const byResourceAdmin = await post(reference, 'CheckIn', mia);
    expect(byResourceAdmin.status).toBe(403);
    expect(byResourceAdmin.body).toEqual(lacksRightBody('You are not allowed to change this reservation.'));
    const byAdmin = await post(reference, 'CheckIn', service.admin);
    expect(byAdmin.status).toBe(200);
    expect(byAdmin.body).toEqual(envelope(reference, 'The reservation was checked in'));
  });

  it('answers 404 for an unknown reference and 401 without a session', async () => {
    for (const action of ['CheckIn', 'CheckOut'] as const) {
      const answer = await post('0000000000000000000000', action, rita);
      expect(answer.status).toBe(404);
      expect(answer.body).toEqual(notFoundBody);
      expect((await service.call('POST', `/Reservations/0000000000000000000000/${action}`)).status).toBe(401);
    }
  });

  it('opens check-in as early as the service is configured to', async () => {
    await withOwnService(
      async (own) => {
        const scheduleId = await insertSchedule(own.store);
        const created = await own.call('POST', '/Resources/', {
          body: { name: 'Desk', scheduleId, requiresCheckIn: true },
          session: own.admin,
        });
        const stored = await insertReservation(own.store, {
          ownerId: own.admin.userId,
          resourceId: created.body.resourceId,
          occurrences: [{ start: utc('2027-01-05T10:00:00Z'), end: utc('2027-01-05T11:00:00Z') }],
        });
        const reference = stored.referenceNumbers[0]!;
        own.clock.set(utc('2027-01-05T09:49:00Z'));
        const session = await signInAdmin(own);
        expect((await own.call('POST', `/Reservations/${reference}/CheckIn`, { session })).status).toBe(400);
        own.clock.set(utc('2027-01-05T09:50:00Z'));
        expect((await own.call('POST', `/Reservations/${reference}/CheckIn`, { session })).status).toBe(200);
      },
      { config: { checkInOpensMinutes: 10 }, now },
    );
  });
});

describe('listOccurrences queries', () => {
  const december = { from: utc('2026-10-01T00:00:00Z').toMillis(), to: utc('2027-04-01T00:00:00Z').toMillis() };
  const oneDay = { from: utc('2026-12-03T00:00:00Z').toMillis(), to: utc('2026-12-04T00:00:00Z').toMillis() };

  it('asks a constant number of queries however many reservations match', async () => {
    const small = await recordQueries(service.store, (store) => listOccurrences(store, oneDay));
    const large = await recordQueries(service.store, (store) => listOccurrences(store, december));
    expect(large.result.length).toBeGreaterThan(small.result.length);
    expect(large.queries.length).toBe(small.queries.length);
    // The longest booking, the occurrences, their people, their guests.
    expect(small.queries).toHaveLength(4);
  });

  it.each([
    ['a window alone', {}, /reservations_by_start/],
    ['a user', { userId: 2 }, /reservations_by_series \(series_id=\? AND start_at>\? AND start_at<\?\)/],
    ['a schedule', { scheduleId: 1 }, /reservations_by_start|resources_by_schedule/],
    ['a resource', { resourceId: 1 }, /reservation_bookings USING PRIMARY KEY/],
    ['a normal user as viewer', { viewer: { user: { id: 2 }, isAdmin: false } }, /reservations_by_start/],
    // "Who is busy now in this schedule": what the tray app asks for Free now.
    [
      'one schedule over one minute, as a normal user',
      { scheduleId: 1, viewer: { user: { id: 2 }, isAdmin: false }, to: oneDay.from + 60_000 },
      /reservations_by_start|resources_by_schedule/,
    ],
  ])('scans an index range, never the whole table, for %s', async (_case, filter, index) => {
    const { queries } = await recordQueries(service.store, (store) => listOccurrences(store, { ...oneDay, ...filter }));
    const main = queries.find((query) => query.sql.includes('from "reservations"'));
    const plan = await queryPlan(service.store, main!);
    expect(plan.join('\n')).toMatch(index);
    expect(
      plan.some((line) => /^SCAN (reservations|reservation_bookings)\b/.test(line)),
      plan.join('\n'),
    ).toBe(false);
  });
});
