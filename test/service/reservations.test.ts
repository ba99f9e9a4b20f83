import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AttributeCategory, AttributeType } from '../../electron/api/schemas/attributes.js';
import { insertAccessory, insertAttribute, insertResource, insertSchedule } from '../support/fixtures.js';
import { lacksRightBody } from '../support/answers.js';
import { createNormalUser, startTestService, type Session, type TestService } from '../support/service.js';

const zone = 'Europe/Berlin';
/** Tuesday 1 December 2026, 09:00 in Berlin. */
const now = DateTime.fromISO('2026-12-01T09:00:00', { zone });
const at = (text: string) => DateTime.fromISO(text, { zone }).toFormat("yyyy-MM-dd'T'HH:mm:ssZZZ");
const invalid = (...errors: string[]) => ({ links: [], message: 'There were errors processing your request', errors });

let service: TestService;
let user: Session;
let colleague: Session;
const rooms: Record<'plain' | 'buffered' | 'approval' | 'shared' | 'other', number> = {
  plain: 0,
  buffered: 0,
  approval: 0,
  shared: 0,
  other: 0,
};
let projector: number;
let costCentre: number;

beforeAll(async () => {
  service = await startTestService({ now: now.toUTC() });
  user = await createNormalUser(service, 'uma', { timezone: zone });
  colleague = await createNormalUser(service, 'carl', { timezone: zone });
  const everyHalfHour = [{ weekday: null, startTime: '00:00', endTime: '24:00', label: '', isReservable: 1 }];
  const halfHours = Array.from({ length: 48 }, (_, index) => {
    const minutes = index * 30;
    const time = (m: number) => `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
    return { ...everyHalfHour[0]!, startTime: time(minutes), endTime: index === 47 ? '24:00' : time(minutes + 30) };
  });
  const scheduleId = await insertSchedule(service.store, { timezone: zone }, halfHours);
  rooms.plain = await insertResource(service.store, { name: 'Plain room', scheduleId });
  rooms.buffered = await insertResource(service.store, {
    name: 'Buffered room',
    scheduleId,
    bufferTime: 15,
    minLength: 30,
    maxLength: 240,
  });
  rooms.approval = await insertResource(service.store, { name: 'Boardroom', scheduleId, requiresApproval: 1 });
  rooms.shared = await insertResource(service.store, { name: 'Open space', scheduleId, maxConcurrentReservations: 2 });
  rooms.other = await insertResource(service.store, { name: 'Forbidden room', scheduleId });
  const bookable = [rooms.plain, rooms.buffered, rooms.approval, rooms.shared];
  await service.store
    .insertInto('userResourcePermissions')
    .values(
      [user, colleague].flatMap((session) => bookable.map((resourceId) => ({ userId: session.userId, resourceId, permissionType: 0 }))),
    )
    .execute();
  projector = await insertAccessory(service.store, { name: 'Projector', quantityAvailable: 1 });
  costCentre = await insertAttribute(service.store, {
    label: 'Cost centre',
    type: AttributeType.singleLine,
    categoryId: AttributeCategory.reservation,
    required: 1,
    regex: '/^[0-9]{4}$/',
    secondaryCategoryId: AttributeCategory.resource,
    secondaryEntityIds: JSON.stringify([rooms.approval]),
  });
});
afterAll(() => service.dispose());

function body(resourceId: number, start: string, end: string, extra: Record<string, unknown> = {}) {
  return { resourceId, startDateTime: at(start), endDateTime: at(end), title: 'Planning', ...extra };
}

const create = (session: Session, payload: object) => service.call('POST', '/Reservations/', { session, body: payload });

async function occurrences(referenceNumber: string) {
  const { seriesId } = await service.store
    .selectFrom('reservations')
    .select('seriesId')
    .where('referenceNumber', '=', referenceNumber)
    .executeTakeFirstOrThrow();
  const rows = await service.store
    .selectFrom('reservations')
    .select(['referenceNumber', 'startAt', 'endAt'])
    .where('seriesId', '=', seriesId)
    .orderBy('startAt')
    .execute();
  return rows.map((row) => ({
    referenceNumber: row.referenceNumber,
    start: DateTime.fromMillis(row.startAt, { zone }).toFormat("yyyy-MM-dd'T'HH:mm:ssZZZ"),
    end: DateTime.fromMillis(row.endAt, { zone }).toFormat("yyyy-MM-dd'T'HH:mm:ssZZZ"),
  }));
}

async function recurrenceOf(referenceNumber: string) {
  const row = await service.store
    .selectFrom('reservations')
    .innerJoin('reservationSeries', 'reservationSeries.id', 'reservations.seriesId')
    .select('reservationSeries.recurrence')
    .where('reservations.referenceNumber', '=', referenceNumber)
    .executeTakeFirstOrThrow();
  return row.recurrence;
}

describe('CreateReservation', () => {
  it('answers 201 with the reference envelope', async () => {
    const answer = await create(user, body(rooms.plain, '2026-12-02T10:00', '2026-12-02T11:00'));
    expect(answer.status).toBe(201);
    expect(answer.body).toEqual({
      referenceNumber: expect.stringMatching(/^[0-9a-f]{13}[0-9]{9}$/),
      isPendingApproval: false,
      links: [
        { href: `${service.apiRoot}/Reservations/${answer.body.referenceNumber}`, title: 'get_reservation' },
        { href: `${service.apiRoot}/Reservations/${answer.body.referenceNumber}`, title: 'update_reservation' },
      ],
      message: 'The reservation was created',
    });
  });

  it('refuses an overlapping reservation with the conflicting dates, and allows an adjacent one', async () => {
    await create(user, body(rooms.plain, '2026-12-03T10:00', '2026-12-03T11:00'));
    const overlapping = await create(colleague, body(rooms.plain, '2026-12-03T10:30', '2026-12-03T11:30'));
    expect(overlapping.status).toBe(400);
    expect(overlapping.body).toEqual(invalid('There are conflicting reservations on the following dates:\n12/03/2026 - Plain room\n'));
    expect((await create(colleague, body(rooms.plain, '2026-12-03T11:00', '2026-12-03T12:00'))).status).toBe(201);
    expect((await create(colleague, body(rooms.plain, '2026-12-03T09:30', '2026-12-03T10:00'))).status).toBe(201);
  });

  it('widens the conflict window by the buffer time for normal users only', async () => {
    await create(user, body(rooms.buffered, '2026-12-04T10:00', '2026-12-04T11:00'));
    const tooClose = await create(colleague, body(rooms.buffered, '2026-12-04T11:00', '2026-12-04T12:00'));
    expect(tooClose.body).toEqual(invalid('There are conflicting reservations on the following dates:\n12/04/2026 - Buffered room\n'));
    expect((await create(colleague, body(rooms.buffered, '2026-12-04T11:30', '2026-12-04T12:30'))).status).toBe(201);
    expect((await create(service.admin, body(rooms.buffered, '2026-12-04T09:00', '2026-12-04T10:00'))).status).toBe(201);
  });

  it('lets as many overlap as maxConcurrentReservations allows', async () => {
    expect((await create(user, body(rooms.shared, '2026-12-04T10:00', '2026-12-04T11:00'))).status).toBe(201);
    expect((await create(colleague, body(rooms.shared, '2026-12-04T10:00', '2026-12-04T11:00'))).status).toBe(201);
    expect((await create(colleague, body(rooms.shared, '2026-12-04T10:30', '2026-12-04T11:00'))).status).toBe(400);
  });

  it.each([
    [
      'an end before the start',
      () => body(rooms.plain, '2026-12-05T11:00', '2026-12-05T10:00'),
      ['The start date and time must be before the end date and time.'],
    ],
    [
      'a start in the past',
      () => body(rooms.plain, '2026-12-01T08:00', '2026-12-01T08:30'),
      ['The start date and time cannot be in the past.'],
    ],
    [
      'a start off the slot grid',
      () => body(rooms.plain, '2026-12-05T10:10', '2026-12-05T11:00'),
      ['The start date and time requested is not valid.'],
    ],
    [
      'an end off the slot grid',
      () => body(rooms.plain, '2026-12-05T10:00', '2026-12-05T10:45'),
      ['The end date and time requested is not valid.'],
    ],
    [
      'a reservation shorter than the minimum',
      () => body(rooms.buffered, '2026-12-05T10:00', '2026-12-05T10:00'),
      ['The start date and time must be before the end date and time.'],
    ],
    [
      'a reservation longer than the maximum',
      () => body(rooms.buffered, '2026-12-05T08:00', '2026-12-05T12:30'),
      ['This reservation cannot last longer than 4 hours.'],
    ],
    [
      'a reservation over two days',
      () => body(rooms.plain, '2026-12-05T23:00', '2026-12-06T01:00'),
      ['This reservation cannot span more than one day.'],
    ],
    [
      'a missing resource',
      () => ({ startDateTime: at('2026-12-05T10:00'), endDateTime: at('2026-12-05T11:00') }),
      ['Missing or invalid resourceId'],
    ],
    ['an unknown resource', () => body(987654, '2026-12-05T10:00', '2026-12-05T11:00'), ['Missing or invalid resourceId']],
    ['missing times', () => ({ resourceId: rooms.plain }), ['startDateTime is missing or empty', 'endDateTime is missing or empty']],
    [
      'unreadable times',
      () => body(rooms.plain, 'x', 'y', { startDateTime: 'soon', endDateTime: 'later' }),
      ['Invalid startDateTime: soon', 'Invalid endDateTime: later'],
    ],
    [
      'an unknown repeat type',
      () => body(rooms.plain, '2026-12-05T10:00', '2026-12-05T11:00', { recurrenceRule: { type: 'hourly' } }),
      ['Invalid repeat type'],
    ],
    [
      'an unknown participant',
      () => body(rooms.plain, '2026-12-05T10:00', '2026-12-05T11:00', { participants: [987654] }),
      ['Invalid participant or invitee ids: 987654'],
    ],
  ])('refuses %s with the real servers’ message and stores nothing', async (_case, payload, errors) => {
    const before = await service.store.selectFrom('reservations').select('id').execute();
    const answer = await create(user, payload());
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual(invalid(...errors));
    expect(await service.store.selectFrom('reservations').select('id').execute()).toEqual(before);
  });

  it('refuses a resource the user may not book, and booking for someone else, as a right the user lacks (403), storing nothing', async () => {
    const before = await service.store.selectFrom('reservations').select('id').execute();
    expect(await create(user, body(rooms.other, '2026-12-05T10:00', '2026-12-05T11:00'))).toMatchObject({
      status: 403,
      body: lacksRightBody('You do not have permission to book Forbidden room.'),
    });
    expect(await create(user, body(rooms.plain, '2026-12-05T10:00', '2026-12-05T11:00', { userId: colleague.userId }))).toMatchObject({
      status: 403,
      body: lacksRightBody('You are not allowed to make reservations for other users.'),
    });
    expect(await service.store.selectFrom('reservations').select('id').execute()).toEqual(before);
  });

  it('refuses a 30-minute booking where 30 minutes is the minimum only when shorter', async () => {
    expect((await create(user, body(rooms.buffered, '2026-12-05T14:00', '2026-12-05T14:30'))).status).toBe(201);
  });

  it('lets an administrator book in the past and over several days', async () => {
    expect((await create(service.admin, body(rooms.plain, '2026-12-01T07:00', '2026-12-01T08:00'))).status).toBe(201);
    expect((await create(service.admin, body(rooms.plain, '2026-12-06T23:00', '2026-12-07T01:00'))).status).toBe(201);
  });

  it('refuses a booking that reaches past the ten-year bound, for an administrator too, however far', async () => {
    for (const session of [user, service.admin]) {
      for (const end of ['2036-12-01T10:00', '2400-12-07T09:00']) {
        expect(await create(session, body(rooms.plain, '2026-12-07T09:00', end))).toMatchObject({
          status: 400,
          body: invalid('A reservation must start and end within 10 years of today.'),
        });
      }
    }
    expect((await create(service.admin, body(rooms.plain, '2016-11-01T09:00', '2016-11-01T10:00'))).body).toEqual(
      invalid('A reservation must start and end within 10 years of today.'),
    );
    expect((await create(service.admin, body(rooms.plain, '2016-12-02T09:00', '2016-12-02T10:00'))).status).toBe(201);
  });

  it('reads an offset-less time in the caller’s timezone', async () => {
    const answer = await create(user, {
      resourceId: rooms.plain,
      startDateTime: '2026-12-08T10:00:00',
      endDateTime: '2026-12-08T10:30:00',
    });
    expect(answer.status).toBe(201);
    expect(await occurrences(answer.body.referenceNumber)).toMatchObject([
      { start: '2026-12-08T10:00:00+0100', end: '2026-12-08T10:30:00+0100' },
    ]);
  });
});

describe('approval', () => {
  it('leaves a normal user’s booking of an approval resource pending, and an administrator’s approved', async () => {
    const attributes = [{ attributeId: costCentre, attributeValue: '4711' }];
    const mine = await create(user, body(rooms.approval, '2026-12-09T10:00', '2026-12-09T11:00', { customAttributes: attributes }));
    expect(mine.body).toMatchObject({ isPendingApproval: true, message: 'The reservation was created' });
    const admins = await create(service.admin, body(rooms.approval, '2026-12-09T12:00', '2026-12-09T13:00'));
    expect(admins.body).toMatchObject({ isPendingApproval: false });
  });
});

describe('custom attributes', () => {
  it('requires an attribute limited to a resource only for that resource, and checks its pattern', async () => {
    const missing = await create(user, body(rooms.approval, '2026-12-10T10:00', '2026-12-10T11:00'));
    expect(missing.body).toEqual(invalid('Cost centre is required'));
    const malformed = await create(
      user,
      body(rooms.approval, '2026-12-10T10:00', '2026-12-10T11:00', {
        customAttributes: [{ attributeId: costCentre, attributeValue: 'abc' }],
      }),
    );
    expect(malformed.body).toEqual(invalid('Cost centre is not valid'));
    expect((await create(user, body(rooms.plain, '2026-12-10T10:00', '2026-12-10T11:00'))).status).toBe(201);
  });

  it('reads "" as no value for every attribute sent, as clients send them all for release 2.8.6.1, yet requires a required one', async () => {
    const seating = await insertAttribute(service.store, { label: 'Seating', categoryId: AttributeCategory.reservation });
    const badge = await insertAttribute(service.store, { label: 'Badge office', categoryId: AttributeCategory.reservation, adminOnly: 1 });
    try {
      const every = [costCentre, seating, badge, 99999].map((attributeId) => ({ attributeId, attributeValue: '' }));
      // Not required, limited to another resource, admin-only, unknown: "" is no value for each.
      const plain = await create(user, body(rooms.plain, '2026-12-10T12:00', '2026-12-10T13:00', { customAttributes: every }));
      expect(plain.status).toBe(201);
      const blank = await create(user, body(rooms.approval, '2026-12-10T12:00', '2026-12-10T13:00', { customAttributes: every }));
      expect(blank.body).toEqual(invalid('Cost centre is required'));
      const given = every.map((attribute) => (attribute.attributeId === costCentre ? { ...attribute, attributeValue: '4711' } : attribute));
      expect((await create(user, body(rooms.approval, '2026-12-10T12:00', '2026-12-10T13:00', { customAttributes: given }))).status).toBe(
        201,
      );
      // A value is still refused where "" is not.
      const adminOnly = await create(
        user,
        body(rooms.plain, '2026-12-10T14:00', '2026-12-10T15:00', { customAttributes: [{ attributeId: badge, attributeValue: 'x' }] }),
      );
      expect(adminOnly.body).toEqual(invalid('Badge office can only be set by an administrator'));
    } finally {
      await service.store.deleteFrom('customAttributes').where('id', 'in', [seating, badge]).execute();
    }
  });
});

describe('accessories', () => {
  it('refuses more than the quantity available over overlapping reservations', async () => {
    const withProjector = { accessories: [{ accessoryId: projector, quantityRequested: 1 }] };
    expect((await create(user, body(rooms.plain, '2026-12-11T10:00', '2026-12-11T11:00', withProjector))).status).toBe(201);
    const short = await create(colleague, body(rooms.shared, '2026-12-11T10:30', '2026-12-11T11:30', withProjector));
    expect(short.body).toEqual(invalid('There are not enough of the following accessories:\n(12/11/2026) Projector limited to 1\n'));
    expect((await create(colleague, body(rooms.shared, '2026-12-11T11:00', '2026-12-11T12:00', withProjector))).status).toBe(201);
  });
});

describe('recurring reservations', () => {
  const daily = (until: string) => ({ recurrenceRule: { type: 'daily', interval: 1, repeatTerminationDate: at(until) } });

  it('creates one occurrence per day up to and including the termination date, each with its own reference', async () => {
    const answer = await create(user, body(rooms.plain, '2026-12-14T08:00', '2026-12-14T09:00', daily('2026-12-18T00:00')));
    expect(answer.status).toBe(201);
    const series = await occurrences(answer.body.referenceNumber);
    expect(series.map((occurrence) => occurrence.start)).toEqual(
      ['14', '15', '16', '17', '18'].map((day) => `2026-12-${day}T08:00:00+0100`),
    );
    expect(new Set(series.map((occurrence) => occurrence.referenceNumber)).size).toBe(5);
    expect(series[0]!.referenceNumber).toBe(answer.body.referenceNumber);
  });

  it('fails as a whole on a conflicting occurrence, skips it with skipconflicts, but never skips the first', async () => {
    await create(colleague, body(rooms.plain, '2026-12-23T08:00', '2026-12-23T09:00'));
    const payload = body(rooms.plain, '2026-12-21T08:00', '2026-12-21T09:00', daily('2026-12-24T00:00'));
    const refused = await create(user, payload);
    expect(refused.body).toEqual(invalid('There are conflicting reservations on the following dates:\n12/23/2026 - Plain room\n'));
    const skipping = await create(user, { ...payload, retryParameters: [{ name: 'skipconflicts', value: 'true' }] });
    expect(skipping.status).toBe(201);
    expect((await occurrences(skipping.body.referenceNumber)).map((occurrence) => occurrence.start.slice(0, 10))).toEqual([
      '2026-12-21',
      '2026-12-22',
      '2026-12-24',
    ]);
    const firstTaken = await create(user, {
      ...body(rooms.plain, '2026-12-23T08:00', '2026-12-23T09:00', daily('2026-12-26T00:00')),
      retryParameters: [{ name: 'skipconflicts', value: 'true' }],
    });
    expect(firstTaken.status).toBe(400);
  });

  it('keeps the wall-clock time across the DST change in the schedule’s timezone', async () => {
    const answer = await create(user, body(rooms.plain, '2027-03-26T09:00', '2027-03-26T10:00', daily('2027-03-29T00:00')));
    expect(answer.status).toBe(201);
    expect((await occurrences(answer.body.referenceNumber)).map((occurrence) => occurrence.start)).toEqual([
      '2027-03-26T09:00:00+0100',
      '2027-03-27T09:00:00+0100',
      '2027-03-28T09:00:00+0200',
      '2027-03-29T09:00:00+0200',
    ]);
  });
});

describe('UpdateReservation and DeleteReservation', () => {
  const weekly = { recurrenceRule: { type: 'weekly', interval: 1, weekdays: [1], repeatTerminationDate: at('2027-01-25T00:00') } };
  const mondays = ['2027-01-04', '2027-01-11', '2027-01-18', '2027-01-25'];

  async function newSeries(hour = '10') {
    const answer = await create(user, body(rooms.plain, `2027-01-04T${hour}:00`, `2027-01-04T${hour}:30`, weekly));
    expect(answer.status).toBe(201);
    return occurrences(answer.body.referenceNumber);
  }

  const update = (session: Session, reference: string, payload: object, scope?: string) =>
    service.call('POST', `/Reservations/${reference}${scope ? `?updateScope=${scope}` : ''}`, { session, body: payload });

  it('updates one occurrence alone with scope this, detaching it', async () => {
    const series = await newSeries('10');
    const second = series[1]!;
    const answer = await update(
      user,
      second.referenceNumber,
      body(rooms.plain, '2027-01-11T14:00', '2027-01-11T14:30', { title: 'Moved' }),
      'this',
    );
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ referenceNumber: second.referenceNumber, message: 'The reservation was updated' });
    expect(await occurrences(second.referenceNumber)).toEqual([
      { referenceNumber: second.referenceNumber, start: '2027-01-11T14:00:00+0100', end: '2027-01-11T14:30:00+0100' },
    ]);
    expect((await occurrences(series[0]!.referenceNumber)).map((occurrence) => occurrence.start.slice(0, 10))).toEqual([
      mondays[0],
      mondays[2],
      mondays[3],
    ]);
    expect(JSON.parse(await recurrenceOf(second.referenceNumber)).type).toBe('none');
    expect(JSON.parse(await recurrenceOf(series[0]!.referenceNumber)).type).toBe('weekly');
  });

  it('re-plans this and later occurrences with scope future', async () => {
    const series = await newSeries('11');
    const answer = await update(
      user,
      series[2]!.referenceNumber,
      body(rooms.plain, '2027-01-18T15:00', '2027-01-18T15:30', weekly),
      'future',
    );
    expect(answer.status).toBe(200);
    expect((await occurrences(series[0]!.referenceNumber)).map((occurrence) => occurrence.start)).toEqual([
      '2027-01-04T11:00:00+0100',
      '2027-01-11T11:00:00+0100',
    ]);
    expect((await occurrences(series[2]!.referenceNumber)).map((occurrence) => occurrence.start)).toEqual([
      '2027-01-18T15:00:00+0100',
      '2027-01-25T15:00:00+0100',
    ]);
    expect(JSON.parse(await recurrenceOf(series[0]!.referenceNumber)).terminationDate).toBe('2027-01-17');
  });

  it('moves the whole series by as much as the edited occurrence moved with scope full (the default)', async () => {
    const series = await newSeries('12');
    const answer = await update(user, series[1]!.referenceNumber, body(rooms.plain, '2027-01-11T16:00', '2027-01-11T16:30', weekly));
    expect(answer.status).toBe(200);
    const moved = await occurrences(series[1]!.referenceNumber);
    expect(moved.map((occurrence) => occurrence.start)).toEqual(mondays.map((day) => `${day}T16:00:00+0100`));
    expect(moved.map((occurrence) => occurrence.referenceNumber)).toEqual(series.map((occurrence) => occurrence.referenceNumber));
  });

  it('changes a single reservation in place: new times and resources, the same reference number, the old slots free again', async () => {
    const created = await create(user, body(rooms.plain, '2027-01-05T09:00', '2027-01-05T10:00', { resources: [rooms.shared] }));
    expect(created.status).toBe(201);
    const reference = created.body.referenceNumber as string;
    const answer = await update(
      user,
      reference,
      body(rooms.plain, '2027-01-05T14:00', '2027-01-05T15:30', { resources: [rooms.buffered] }),
    );
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ referenceNumber: reference });
    expect(await occurrences(reference)).toEqual([
      { referenceNumber: reference, start: '2027-01-05T14:00:00+0100', end: '2027-01-05T15:30:00+0100' },
    ]);
    const read = await service.call('GET', `/Reservations/${reference}`, { session: user });
    expect(read.body.resources.map((resource: { id: number }) => resource.id).sort()).toEqual([rooms.plain, rooms.buffered].sort());
    // The bookings moved with it: the old hour is free on every old resource, the new one is taken.
    expect((await create(colleague, body(rooms.shared, '2027-01-05T09:00', '2027-01-05T10:00'))).status).toBe(201);
    expect((await create(colleague, body(rooms.plain, '2027-01-05T09:00', '2027-01-05T10:00'))).status).toBe(201);
    expect((await create(colleague, body(rooms.buffered, '2027-01-05T14:30', '2027-01-05T15:00'))).status).toBe(400);
  });

  it('refuses a user who does not own the reservation, an unknown scope, and an unknown reference', async () => {
    const series = await newSeries('13');
    const reference = series[0]!.referenceNumber;
    expect(await update(colleague, reference, body(rooms.plain, '2027-01-04T13:00', '2027-01-04T13:30'))).toMatchObject({
      status: 403,
      body: lacksRightBody('You are not allowed to change this reservation.'),
    });
    expect((await update(user, reference, body(rooms.plain, '2027-01-04T13:00', '2027-01-04T13:30'), 'bogus')).body).toEqual(
      invalid('Missing or invalid updateScope: bogus'),
    );
    const unknown = await update(user, '0000000000000000000000', body(rooms.plain, '2027-01-04T13:00', '2027-01-04T13:30'));
    expect(unknown.status).toBe(404);
    expect(await service.call('DELETE', `/Reservations/${reference}`, { session: colleague })).toMatchObject({
      status: 403,
      body: lacksRightBody('You are not allowed to change this reservation.'),
    });
  });

  it('deletes only this occurrence without a scope, later ones with future, all with full', async () => {
    const series = await newSeries('17');
    const remove = (reference: string, scope?: string) =>
      service.call('DELETE', `/Reservations/${reference}${scope ? `?updateScope=${scope}` : ''}`, { session: user });
    const deleted = await remove(series[1]!.referenceNumber);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ links: [], message: 'The item was deleted' });
    expect((await occurrences(series[0]!.referenceNumber)).length).toBe(3);
    await remove(series[2]!.referenceNumber, 'future');
    expect((await occurrences(series[0]!.referenceNumber)).map((occurrence) => occurrence.start.slice(0, 10))).toEqual([mondays[0]]);
    await remove(series[0]!.referenceNumber, 'full');
    expect(
      await service.store
        .selectFrom('reservations')
        .select('id')
        .where(
          'referenceNumber',
          'in',
          series.map((o) => o.referenceNumber),
        )
        .execute(),
    ).toEqual([]);
    expect((await remove(series[0]!.referenceNumber)).status).toBe(404);
  });
});

describe('atomicity', () => {
  it('lets exactly one of 100 simultaneous creates of the same slot succeed', async () => {
    const payload = body(rooms.plain, '2027-02-01T10:00', '2027-02-01T11:00');
    const answers = await Promise.all(Array.from({ length: 100 }, (_, index) => create(index % 2 ? user : colleague, payload)));
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(1);
    expect(answers.filter((answer) => answer.status === 400)).toHaveLength(99);
  });
});
