import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notFoundBody, unauthenticatedBody } from '../support/answers.js';
import { insertSchedule, signInAdmin } from '../support/fixtures.js';
import { createNormalUser, startTestService, type Session, type TestService } from '../support/service.js';

let service: TestService;
let user: Session & { password: string };
let berlin: number;
let newYork: number;
let empty: number;

const period = (weekday: number | null, startTime: string, endTime: string, label = '', isReservable = 1) => ({
  weekday,
  startTime,
  endTime,
  label,
  isReservable,
});

/** Moves the service's clock and signs in again, as a session does not survive a jump in time. */
async function at(instant: string): Promise<Session> {
  service.clock.set(DateTime.fromISO(instant));
  return signInAdmin(service);
}

beforeAll(async () => {
  service = await startTestService();
  user = await createNormalUser(service, 'reader');
  berlin = await insertSchedule(
    service.store,
    {
      name: 'Berlin office',
      timezone: 'Europe/Berlin',
      isDefault: 1,
      availabilityBegin: '2026-01-01T00:00:00.000Z',
      availabilityEnd: '2026-12-31T23:00:00.000Z',
    },
    [
      period(null, '00:00', '08:00', 'Closed', 0),
      period(null, '08:00', '12:00', 'Morning'),
      period(null, '12:00', '13:00', 'Lunch', 0),
      period(null, '13:00', '24:00'),
      // Sundays have hourly night periods, so the DST jump shows.
      period(0, '00:00', '01:00'),
      period(0, '01:00', '02:00'),
      period(0, '02:00', '03:00'),
      period(0, '03:00', '24:00', 'Rest'),
    ],
  );
  newYork = await insertSchedule(service.store, { name: 'New York desk', timezone: 'America/New_York', isDefault: 0 }, [
    period(null, '00:00', '01:00'),
    period(null, '01:00', '02:00'),
    period(null, '02:00', '24:00'),
  ]);
  empty = await insertSchedule(service.store, { name: 'Annex', timezone: 'UTC', isDefault: 0 });
});
afterAll(() => service.dispose());

const link = (path: string, title: string) => ({ href: `${service.apiRoot}${path}`, title });

/** What the list and the single schedule both say of the Berlin office. */
const berlinSettings = () => ({
  daysVisible: 7,
  id: berlin,
  isDefault: true,
  name: 'Berlin office',
  timezone: 'Europe/Berlin',
  weekdayStart: 0,
  maxResourcesPerReservation: 0,
  totalConcurrentReservationsAllowed: 0,
});

describe('GetAllSchedules', () => {
  it('lists every schedule by name with its get_schedule link', async () => {
    const answer = await service.call('GET', '/Schedules/', { session: user });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      schedules: [
        {
          daysVisible: 7,
          id: empty,
          isDefault: false,
          name: 'Annex',
          timezone: 'UTC',
          weekdayStart: 0,
          availabilityBegin: null,
          availabilityEnd: null,
          maxResourcesPerReservation: 0,
          totalConcurrentReservationsAllowed: 0,
          links: [link(`/Schedules/${empty}`, 'get_schedule')],
          message: null,
        },
        {
          ...berlinSettings(),
          availabilityBegin: '2026-01-01T00:00:00+0000',
          availabilityEnd: '2026-12-31T23:00:00+0000',
          links: [link(`/Schedules/${berlin}`, 'get_schedule')],
          message: null,
        },
        expect.objectContaining({ id: newYork, name: 'New York desk', isDefault: false, availabilityBegin: null }),
      ],
      links: [],
      message: null,
    });
  });

  it('answers 401 without a session', async () => {
    const answer = await service.call('GET', '/Schedules/');
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual(unauthenticatedBody);
  });
});

describe('GetSchedule', () => {
  it('lays out the current week, Sunday first, across the spring DST jump in Berlin', async () => {
    const session = await at('2026-04-01T10:00:00Z');
    const answer = await service.call('GET', `/Schedules/${berlin}`, { session });
    expect(answer.status).toBe(200);
    const weekday = (date: string, next: string) => [
      {
        start: `${date}T00:00:00+0200`,
        end: `${date}T08:00:00+0200`,
        label: 'Closed',
        startTime: '00:00:00',
        endTime: '08:00:00',
        isReservable: false,
      },
      {
        start: `${date}T08:00:00+0200`,
        end: `${date}T12:00:00+0200`,
        label: 'Morning',
        startTime: '08:00:00',
        endTime: '12:00:00',
        isReservable: true,
      },
      {
        start: `${date}T12:00:00+0200`,
        end: `${date}T13:00:00+0200`,
        label: 'Lunch',
        startTime: '12:00:00',
        endTime: '13:00:00',
        isReservable: false,
      },
      {
        start: `${date}T13:00:00+0200`,
        end: `${next}T00:00:00+0200`,
        label: '',
        startTime: '13:00:00',
        endTime: '00:00:00',
        isReservable: true,
      },
    ];
    expect(answer.body).toEqual({
      ...berlinSettings(),
      // GetSchedule says availabilityStart where the list says availabilityBegin.
      availabilityStart: '2026-01-01T00:00:00+0000',
      availabilityEnd: '2026-12-31T23:00:00+0000',
      icsUrl: '',
      periods: [
        [
          {
            start: '2026-03-29T00:00:00+0100',
            end: '2026-03-29T01:00:00+0100',
            label: '',
            startTime: '00:00:00',
            endTime: '01:00:00',
            isReservable: true,
          },
          // 02:00 never happens: the period ends when the clocks jump, and 02:00–03:00 is gone.
          {
            start: '2026-03-29T01:00:00+0100',
            end: '2026-03-29T03:00:00+0200',
            label: '',
            startTime: '01:00:00',
            endTime: '03:00:00',
            isReservable: true,
          },
          {
            start: '2026-03-29T03:00:00+0200',
            end: '2026-03-30T00:00:00+0200',
            label: 'Rest',
            startTime: '03:00:00',
            endTime: '00:00:00',
            isReservable: true,
          },
        ],
        weekday('2026-03-30', '2026-03-31'),
        weekday('2026-03-31', '2026-04-01'),
        weekday('2026-04-01', '2026-04-02'),
        weekday('2026-04-02', '2026-04-03'),
        weekday('2026-04-03', '2026-04-04'),
        weekday('2026-04-04', '2026-04-05'),
      ],
      links: [],
      message: null,
    });
  });

  it('lays out the autumn DST week in New York, the repeated hour inside 01:00–02:00', async () => {
    const session = await at('2026-11-04T15:00:00Z');
    const answer = await service.call('GET', `/Schedules/${newYork}`, { session });
    expect(answer.status).toBe(200);
    expect(answer.body.periods).toHaveLength(7);
    expect(answer.body.periods[0]).toEqual([
      {
        start: '2026-11-01T00:00:00-0400',
        end: '2026-11-01T01:00:00-0400',
        label: '',
        startTime: '00:00:00',
        endTime: '01:00:00',
        isReservable: true,
      },
      {
        start: '2026-11-01T01:00:00-0400',
        end: '2026-11-01T02:00:00-0500',
        label: '',
        startTime: '01:00:00',
        endTime: '02:00:00',
        isReservable: true,
      },
      {
        start: '2026-11-01T02:00:00-0500',
        end: '2026-11-02T00:00:00-0500',
        label: '',
        startTime: '02:00:00',
        endTime: '00:00:00',
        isReservable: true,
      },
    ]);
    expect(answer.body.periods[6]).toEqual([
      {
        start: '2026-11-07T00:00:00-0500',
        end: '2026-11-07T01:00:00-0500',
        label: '',
        startTime: '00:00:00',
        endTime: '01:00:00',
        isReservable: true,
      },
      {
        start: '2026-11-07T01:00:00-0500',
        end: '2026-11-07T02:00:00-0500',
        label: '',
        startTime: '01:00:00',
        endTime: '02:00:00',
        isReservable: true,
      },
      {
        start: '2026-11-07T02:00:00-0500',
        end: '2026-11-08T00:00:00-0500',
        label: '',
        startTime: '02:00:00',
        endTime: '00:00:00',
        isReservable: true,
      },
    ]);
  });

  it('takes "this week" in the schedule’s zone, not in UTC or the caller’s', async () => {
    // Saturday 22:30 UTC is already Sunday in Berlin, and still Saturday in New York (the caller's zone).
    await at('2026-06-13T22:30:00Z');
    const session = await service.signIn('reader', user.password);
    const answer = await service.call('GET', `/Schedules/${berlin}`, { session });
    expect(answer.body.periods[0][0].start).toBe('2026-06-14T00:00:00+0200');
    expect(answer.body.periods[6][0].start).toBe('2026-06-20T00:00:00+0200');
  });

  it('gives seven empty days for a schedule without periods', async () => {
    const answer = await service.call('GET', `/Schedules/${empty}`, { session: await at('2026-06-10T12:00:00Z') });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      id: empty,
      availabilityStart: null,
      availabilityEnd: null,
      icsUrl: '',
      periods: [[], [], [], [], [], [], []],
    });
  });

  it.each([
    ['an unknown id', '/Schedules/9999'],
    ['a non-numeric id', '/Schedules/abc'],
    ['id 0', '/Schedules/0'],
  ])('answers 404 for %s', async (_case, path) => {
    const answer = await service.call('GET', path, { session: await at('2026-06-10T12:00:00Z') });
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual(notFoundBody);
  });

  it('answers 401 without a session', async () => {
    const answer = await service.call('GET', `/Schedules/${berlin}`);
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual(unauthenticatedBody);
  });
});
