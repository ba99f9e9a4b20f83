import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { ResourceStatus } from '../../electron/api/schemas/resources.js';
import { freeNowSchedules } from '../../electron/core/sync/free-now-schedules.js';
import type { ScheduleHours } from '../../electron/core/core-state.js';
import { nextOpening, openingAt } from '../../electron/core/views/opening-hours.js';
import { freeResourceView } from '../support/snapshots.js';
import { freeNowClosedView, freeNowLists, freeNowViews, type BusyAnswer, type FreeNowContext } from '../../electron/core/views/free-now.js';
import type { WireResource, WireSchedule, WireSummary } from '../../electron/api/wire.js';

const at = (time: string, date = '2030-03-12') => DateTime.fromISO(`${date}T${time.length === 5 ? `${time}:00` : time}Z`, { zone: 'utc' });

// Only the members these functions read; the rest of the wire objects does not matter here.
const resource = (
  resourceId: number,
  name: string,
  scheduleId: number,
  statusId: number = ResourceStatus.available,
  patch: Partial<WireResource> = {},
) =>
  ({
    resourceId,
    name,
    scheduleId,
    statusId,
    location: '',
    maxParticipants: null,
    customAttributes: [],
    minLength: '',
    maxLength: '',
    requiresApproval: false,
    ...patch,
  }) as WireResource;
const schedule = (id: number, name: string, isDefault = false) => ({ id, name, isDefault }) as WireSchedule;
const booking = (resourceId: number, scheduleId: number, start: string, end: string) =>
  ({
    referenceNumber: `${resourceId}-${start}`,
    resourceId,
    scheduleId,
    startDate: at(start).toISO(),
    endDate: at(end).toISO(),
  }) as WireSummary;

const resources = [
  resource(1, 'Thames', 1),
  resource(2, 'Severn', 1),
  resource(3, 'Avon', 1),
  resource(4, 'Broken desk', 1, ResourceStatus.unavailable),
  resource(5, 'Lab bench', 2),
];
const schedules = [schedule(1, 'Head office', true), schedule(2, 'Lab')];

function context(time: string, own: WireSummary[] = [], patch: Partial<FreeNowContext> = {}): FreeNowContext {
  return {
    zone: 'UTC',
    now: at(time),
    resources,
    schedules,
    groupNames: new Map(),
    own,
    hours: [],
    reservationAttributes: [],
    favouriteResourceIds: [],
    faces: new Map(),
    isAdmin: false,
    mayBook: () => true,
    ...patch,
  };
}

type DayLayout = [from: string, to: string, isReservable: boolean][];

/**
 * A London schedule's layout as a server writes it: the week of 10 March 2030, Sunday first, one
 * list of periods per day (`days(index)`, 0 Sunday), the instants in `writtenIn` (real servers the
 * caller's zone, the local service the schedule's).
 */
function londonHours(writtenIn: string, days: (index: number) => DayLayout, scheduleId = 1): ScheduleHours {
  const london = (date: string, time: string) => DateTime.fromISO(`${date}T${time}`, { zone: 'Europe/London' }).setZone(writtenIn);
  const period = (date: string, [from, to, isReservable]: DayLayout[number]) => {
    const start = london(date, from);
    const end = to === '24:00' ? london(date, '00:00').plus({ days: 1 }) : london(date, to);
    return {
      start: start.toISO()!,
      end: end.toISO()!,
      label: null,
      startTime: start.toFormat('HH:mm:ss'),
      endTime: end.toFormat('HH:mm:ss'),
      isReservable,
    };
  };
  const dates = ['2030-03-10', '2030-03-11', '2030-03-12', '2030-03-13', '2030-03-14', '2030-03-15', '2030-03-16'];
  return {
    scheduleId,
    timezone: 'Europe/London',
    fetchedAt: at('08:00'),
    periods: dates.map((date, index) => days(index).map((entry) => period(date, entry))),
  };
}

/**
 * The head office's layout as a real server writes it for a caller in New York: the office keeps
 * London hours (08:00–18:00 on weekdays, closed at weekends), written in the caller's zone.
 */
function headOfficeHours(): ScheduleHours {
  return londonHours('America/New_York', (index) =>
    index === 0 || index === 6
      ? [['00:00', '24:00', false]]
      : [
          ['00:00', '08:00', false],
          ['08:00', '12:00', true],
          ['12:00', '18:00', true],
          ['18:00', '24:00', false],
        ],
  );
}

/** Reservable round the clock in 30-minute slots, as the demo's hub. */
const aroundTheClock = (): DayLayout =>
  Array.from({ length: 48 }, (_, slot) => {
    const time = (index: number) =>
      index === 48 ? '24:00' : `${String(Math.floor(index / 2)).padStart(2, '0')}:${index % 2 ? '30' : '00'}`;
    return [time(slot), time(slot + 1), true];
  });

/** A schedule's answer: its reservations from the moment asked to `until` (by default the end of the day, where its hours are not known). */
const busy = (scheduleId: number, reservations: WireSummary[], until = at('23:59:59.999')): BusyAnswer => ({
  scheduleId,
  until,
  reservations,
});

describe('free now from who is busy', () => {
  const answer = busy(1, [booking(1, 1, '09:30', '10:00'), booking(2, 1, '10:00:30', '11:00')]);

  it('leaves out the busy and the unavailable, and schedules not asked about', () => {
    const views = freeNowViews([answer], context('09:45'));
    expect(views.map((view) => [view.name, view.freeUntil])).toEqual([
      ['Avon', null],
      ['Severn', '2030-03-12T10:00:30Z'],
    ]);
    // A plain resource: nothing said about size, place or limits, and one click can book it.
    expect(views[0]).toEqual(freeResourceView({ resourceId: 3, name: 'Avon', scheduleName: 'Head office' }));
  });

  it('leaves out a resource the user may only view', () => {
    expect(freeNowViews([answer], context('09:45')).map((view) => view.name)).toEqual(['Avon', 'Severn']);
    const severnViewOnly = context('09:45', [], { mayBook: (resourceId) => resourceId !== 2 });
    expect(freeNowViews([answer], severnViewOnly).map((view) => view.name)).toEqual(['Avon']);
  });

  it('counts a listed booking that has ended since as over, and one that has begun as busy', () => {
    expect(freeNowViews([answer], context('10:05')).map((view) => view.name)).toEqual(['Avon', 'Thames']);
  });

  it('knows until when a resource is free from the user’s own later booking that day, not from one tomorrow', () => {
    const own = [booking(3, 1, '14:00', '15:00'), booking(1, 1, '09:00', '09:30')];
    expect(freeNowViews([answer], context('09:45', own)).map((view) => [view.name, view.freeUntil, view.standing])).toEqual([
      ['Avon', '2030-03-12T14:00:00Z', 'recent'],
      ['Severn', '2030-03-12T10:00:30Z', null],
    ]);
    const tomorrow = [
      { ...booking(3, 1, '14:00', '15:00'), startDate: at('14:00', '2030-03-13').toISO()!, endDate: at('15:00', '2030-03-13').toISO()! },
    ];
    expect(freeNowViews([answer], context('09:45', tomorrow)).find((view) => view.name === 'Avon')?.freeUntil).toBeNull();
  });

  it('over a time to come: busy when a booking overlaps it, not when one ends as it starts or starts as it ends', () => {
    const later = busy(1, [booking(1, 1, '13:00', '14:00'), booking(2, 1, '14:30', '15:00'), booking(3, 1, '13:30', '14:30')], at('14:30'));
    const views = freeNowViews([later], context('14:00', [], { windowEnd: at('14:30') }));
    // Thames's booking ends as the time begins; Severn's starts as it ends, so Severn is free until then.
    expect(views.map((view) => [view.name, view.freeUntil])).toEqual([
      ['Thames', null],
      ['Severn', '2030-03-12T14:30:00Z'],
    ]);
  });

  it('lists nothing of a schedule that is closed now, and an open one as free until it closes', () => {
    const hours = [headOfficeHours()];
    // 12 March 2030 is a Tuesday; London is on GMT then. At 07:30 the office is closed.
    expect(freeNowViews([answer], context('07:30', [], { hours }))).toEqual([]);
    expect(freeNowViews([answer], context('09:45', [], { hours })).map((view) => [view.name, view.freeUntil])).toEqual([
      ['Avon', '2030-03-12T18:00:00Z'],
      ['Severn', '2030-03-12T10:00:30Z'],
    ]);
    expect(freeNowViews([answer], context('18:00', [], { hours }))).toEqual([]);
    // A week later, on the Saturday, the same layout says closed.
    const saturday = { ...context('10:00', [], { hours }), now: at('10:00', '2030-03-23') };
    expect(freeNowViews([answer], saturday)).toEqual([]);
    // In summer time (London on BST), the same wall-clock hours, an hour earlier in UTC.
    const summer = { ...context('07:30', [], { hours }), now: at('07:30', '2030-06-11') };
    expect(freeNowViews([answer], summer).map((view) => [view.name, view.freeUntil])).toEqual([
      ['Avon', '2030-06-11T17:00:00Z'],
      ['Severn', '2030-06-11T17:00:00Z'],
      ['Thames', '2030-06-11T17:00:00Z'],
    ]);
  });

  it('runs free-until past the schedule’s midnight on a round-the-clock layout, for a user east of the schedule too', () => {
    const tokyo = (time: string, date = '2030-03-13') => DateTime.fromISO(`${date}T${time}`, { zone: 'Asia/Tokyo' });
    // Wednesday 08:00 in Tokyo is Tuesday 23:00 in London (GMT); the user's own booking of Thames begins at 10:00 Tokyo.
    const own = [{ ...booking(1, 1, '09:00', '10:00'), startDate: tokyo('10:00').toISO()!, endDate: tokyo('11:00').toISO()! }];
    // Written in the caller's zone by a real server, in the schedule's by the local service: the same hours either way.
    for (const writtenIn of ['Asia/Tokyo', 'Europe/London']) {
      const hours = [londonHours(writtenIn, aroundTheClock)];
      // Round the clock, a read reaches 12 hours ahead.
      const views = freeNowViews(
        [{ ...answer, until: tokyo('20:00') }],
        context('09:45', own, { zone: 'Asia/Tokyo', now: tokyo('08:00'), hours }),
      );
      expect(views.map((view) => [view.name, view.freeUntil, view.freeAllDay])).toEqual([
        ['Thames', '2030-03-13T10:00:00+09:00', false],
        ['Avon', null, true],
        ['Severn', null, true],
      ]);
      expect(openingAt(hours[0]!, tokyo('08:00'))).toEqual({ open: true, closesAt: null });
    }
  });

  it('closes a layout open past midnight when its next day’s periods close', () => {
    // Open 08:00 to midnight, and on into the small hours to 02:00 on weekdays; closed at weekends.
    const lateOpening = londonHours('Asia/Tokyo', (index) =>
      index === 0 || index === 6
        ? [['00:00', '24:00', false]]
        : [
            ['00:00', '02:00', index > 1],
            ['02:00', '08:00', false],
            ['08:00', '24:00', true],
          ],
    );
    // Tuesday 22:00 in London: open until Wednesday 02:00.
    expect(openingAt(lateOpening, at('22:00'))).toEqual({
      open: true,
      closesAt: DateTime.fromISO('2030-03-13T02:00', { zone: 'Europe/London' }),
    });
    const views = freeNowViews([answer], context('22:00', [], { hours: [lateOpening] }));
    expect(views.map((view) => view.freeUntil)).toEqual(['2030-03-13T02:00:00Z', '2030-03-13T02:00:00Z', '2030-03-13T02:00:00Z']);
    // Friday 23:00: open to Saturday 00:00 only, then closed until Monday 08:00.
    const friday = at('23:00', '2030-03-15');
    expect(openingAt(lateOpening, friday)).toEqual({
      open: true,
      closesAt: DateTime.fromISO('2030-03-16T00:00', { zone: 'Europe/London' }),
    });
    expect(openingAt(lateOpening, at('03:00', '2030-03-16'))).toEqual({ open: false });
    expect(nextOpening(lateOpening, at('03:00', '2030-03-16'))?.toISO()).toBe('2030-03-18T08:00:00.000+00:00');
  });

  it('knows from a read to the closing time that someone booked a free resource for later today', () => {
    const hours = [headOfficeHours()];
    const toClosing = busy(1, [booking(3, 1, '15:00', '16:00'), booking(2, 1, '09:00', '09:30')], at('18:00'));
    expect(freeNowViews([toClosing], context('09:45', [], { hours })).map((view) => [view.name, view.freeUntil, view.freeAllDay])).toEqual([
      ['Severn', '2030-03-12T18:00:00Z', true],
      ['Thames', '2030-03-12T18:00:00Z', true],
      ['Avon', '2030-03-12T15:00:00Z', false],
    ]);
  });

  it('does not call a resource free all day from an answer that did not reach the closing time', () => {
    const oneMinute = busy(1, [booking(2, 1, '10:00:30', '11:00')], at('09:46'));
    const views = freeNowViews([oneMinute], context('09:45', [], { hours: [headOfficeHours()] }));
    expect(views.map((view) => [view.name, view.freeUntil, view.freeAllDay])).toEqual([
      ['Avon', '2030-03-12T18:00:00Z', false],
      ['Severn', '2030-03-12T18:00:00Z', false],
      ['Thames', '2030-03-12T18:00:00Z', false],
    ]);
  });

  it('shows nothing before any schedule was asked about', () => {
    expect(freeNowViews([], context('09:45'))).toEqual([]);
  });
});

describe('what is not free now, for the filter to find', () => {
  const hours = [headOfficeHours()];
  const notFree = (answers: BusyAnswer[], time: string, patch: Partial<FreeNowContext> = {}) =>
    freeNowLists(answers, context(time, [], { hours, ...patch })).notFree.map((view) => [view.name, view.reason, view.freeFrom]);

  it('says when a booked resource is free again, following bookings that meet end to start', () => {
    const answer = busy(
      1,
      [booking(1, 1, '09:30', '10:00'), booking(1, 1, '10:00', '11:00'), booking(2, 1, '09:00', '18:00')],
      at('18:00'),
    );
    expect(notFree([answer], '09:45')).toEqual([
      ['Thames', 'busy', '2030-03-12T11:00:00Z'],
      // Booked to the closing time: when it is free again is not known from today's answer.
      ['Severn', 'busy', null],
      ['Lab bench', 'notAsked', null],
    ]);
  });

  it('says when a closed schedule opens, and leaves out what is unavailable or may only be viewed', () => {
    expect(notFree([busy(1, [], at('18:00'))], '07:30', { mayBook: (resourceId) => resourceId !== 3 })).toEqual([
      ['Severn', 'closed', '2030-03-12T08:00:00Z'],
      ['Thames', 'closed', '2030-03-12T08:00:00Z'],
      ['Lab bench', 'notAsked', null],
    ]);
  });

  it('puts favourites and what the user booked lately first', () => {
    const answer = busy(1, [booking(1, 1, '09:30', '10:00'), booking(2, 1, '09:00', '12:00')], at('18:00'));
    expect(notFree([answer], '09:45', { favouriteResourceIds: [5] }).map(([name]) => name)).toEqual(['Lab bench', 'Thames', 'Severn']);
  });
});

describe('when everything free now shows is closed', () => {
  const answers = [busy(1, [])];
  const closedContext = (now: DateTime, zone = 'UTC', hours = [headOfficeHours()]) => ({ ...context('10:00', [], { hours, zone }), now });

  it('names the schedule that opens first and when, in the user’s zone', () => {
    // Saturday 16 March 2030, 23:00 in London: the head office opens on Monday at 08:00 (GMT).
    const saturdayNight = at('23:00', '2030-03-16');
    expect(freeNowViews(answers, closedContext(saturdayNight))).toEqual([]);
    const onlyHeadOffice = (base: FreeNowContext) => ({ ...base, resources: resources.filter((entry) => entry.scheduleId === 1) });
    expect(freeNowClosedView(onlyHeadOffice(closedContext(saturdayNight)))).toEqual({
      scheduleId: 1,
      scheduleName: 'Head office',
      opensAt: '2030-03-18T08:00:00Z',
    });
    expect(freeNowClosedView(onlyHeadOffice(closedContext(saturdayNight, 'Asia/Tokyo')))?.opensAt).toBe('2030-03-18T17:00:00+09:00');
    // Weekday evening: tomorrow morning.
    expect(freeNowClosedView(onlyHeadOffice(closedContext(at('18:30'))))?.opensAt).toBe('2030-03-13T08:00:00Z');
  });

  it('says nothing while the schedule is open, or while its hours are not known', () => {
    expect(freeNowClosedView(closedContext(at('09:45')))).toBeNull();
    expect(freeNowClosedView(closedContext(at('23:00', '2030-03-16'), 'UTC', []))).toBeNull();
    // The lab's hours are not known: it may be open.
    expect(freeNowClosedView(closedContext(at('23:00', '2030-03-16')))).toBeNull();
  });

  it('says nothing while another schedule it shows is open (round the clock), and counts only schedules holding the user’s resources', () => {
    const saturdayNight = at('23:00', '2030-03-16');
    const hub = londonHours('Europe/London', aroundTheClock, 2);
    const both = [...answers, busy(2, [], saturdayNight.plus({ hours: 12 }))];
    expect(freeNowClosedView(closedContext(saturdayNight, 'UTC', [headOfficeHours(), hub]))).toBeNull();
    expect(
      freeNowViews(both, closedContext(saturdayNight, 'UTC', [headOfficeHours(), hub])).map((view) => [view.name, view.freeUntil]),
    ).toEqual([['Lab bench', null]]);
    // A schedule without any resource the user sees does not keep the others from being closed.
    const withoutLab = {
      ...closedContext(saturdayNight, 'UTC', [headOfficeHours(), hub]),
      resources: resources.filter((entry) => entry.scheduleId === 1),
    };
    expect(freeNowClosedView(withoutLab)?.scheduleName).toBe('Head office');
    // Nor does one whose only resource the user may merely view.
    const labViewOnly = {
      ...closedContext(saturdayNight, 'UTC', [headOfficeHours(), hub]),
      mayBook: (resourceId: number) => resourceId !== 5,
    };
    expect(freeNowClosedView(labViewOnly)?.scheduleName).toBe('Head office');
  });
});

describe('free now, ranked for the user', () => {
  // Ten free, as in the demo: rooms of several sizes, a desk and equipment, none with a booking ahead.
  const office = [
    resource(1, 'Boardroom', 1, ResourceStatus.available, { maxParticipants: 14, requiresApproval: true, location: 'Floor 2' }),
    resource(2, 'Camera kit', 1),
    resource(3, 'Loan laptop', 1),
    resource(4, 'Avon (2.01)', 1, ResourceStatus.available, { maxParticipants: 8 }),
    resource(5, 'Severn (1.02)', 1, ResourceStatus.available, {
      maxParticipants: 4,
      customAttributes: [
        { id: 9, label: 'Floor', value: '1', message: null, links: [] },
        { id: 10, label: 'Screen', value: null, message: null, links: [] },
      ],
    }),
    resource(6, 'Hot desk D1', 1),
    resource(7, 'Thames (1.01)', 1, ResourceStatus.available, { maxParticipants: 6 }),
  ];
  const answer = busy(1, []);
  const names = (patch: Partial<FreeNowContext> = {}, own: WireSummary[] = []) =>
    freeNowViews([answer], context('09:45', own, { resources: office, ...patch })).map((view) => view.name);

  it('puts rooms first, smallest first, then desks and equipment; what one click cannot book goes after its peers', () => {
    expect(names()).toEqual(['Severn (1.02)', 'Thames (1.01)', 'Avon (2.01)', 'Camera kit', 'Hot desk D1', 'Loan laptop', 'Boardroom']);
  });

  it('puts a favourite first, then what the user booked lately', () => {
    const lately = [booking(4, 1, '08:00', '09:00')];
    expect(names({ favouriteResourceIds: [3] }, lately).slice(0, 3)).toEqual(['Loan laptop', 'Avon (2.01)', 'Severn (1.02)']);
  });

  it('says why one click cannot book: approval, and a required attribute that applies to the resource', () => {
    const costCentre = {
      id: 2,
      label: 'Cost centre',
      required: true,
      adminOnly: false,
      secondaryCategoryId: 4,
      secondaryEntityIds: [1, 4],
    };
    const views = freeNowViews([answer], context('09:45', [], { resources: office, reservationAttributes: [costCentre as never] }));
    const needs = Object.fromEntries(views.map((view) => [view.name, view.needsForm]));
    expect(needs['Boardroom']).toBe('needs approval and a cost centre');
    expect(needs['Avon (2.01)']).toBe('needs a cost centre');
    expect(needs['Thames (1.01)']).toBeNull();
  });

  it('carries capacity, location and the features that have a value', () => {
    const severn = freeNowViews([answer], context('09:45', [], { resources: office })).find((view) => view.resourceId === 5);
    expect(severn).toMatchObject({ capacity: 4, features: [{ label: 'Floor', value: '1' }] });
    const boardroom = freeNowViews([answer], context('09:45', [], { resources: office })).find((view) => view.resourceId === 1);
    expect(boardroom).toMatchObject({ capacity: 14, location: 'Floor 2' });
  });
});

describe('the schedules free now covers', () => {
  const data = (reservations: WireSummary[]) => ({ reservations, resources, schedules });
  const anyone = () => true;

  it('is every schedule holding a resource the user may book, default first, while the user has booked nothing', () => {
    const withAnnex = [schedule(3, 'Annex'), ...schedules.slice().reverse()];
    expect(freeNowSchedules({ ...data([]), schedules: withAnnex }, [], anyone)).toEqual([1, 2]);
    expect(
      freeNowSchedules(
        { ...data([]), resources: resources.filter((resource) => resource.scheduleId === 2), schedules: withAnnex },
        [],
        anyone,
      ),
    ).toEqual([2]);
    // The lab's only resource may merely be viewed: nothing there to book.
    expect(freeNowSchedules(data([]), [], (resourceId) => resourceId !== 5)).toEqual([1]);
  });

  it('puts the schedules the user books in first, most used first, then every other one by name', () => {
    const many = [...schedules, schedule(3, 'Annex'), schedule(4, 'Floor 10'), schedule(5, 'Floor 9')];
    const spread = [...resources, resource(6, 'Annex desk', 3), resource(7, 'Desk 10.1', 4), resource(8, 'Desk 9.1', 5)];
    const lately = [booking(5, 2, '09:00', '10:00'), booking(5, 2, '11:00', '12:00'), booking(7, 4, '13:00', '14:00')];
    expect(freeNowSchedules({ reservations: lately, resources: spread, schedules: many }, [], anyone)).toEqual([2, 4, 1, 3, 5]);
  });

  it('puts the schedules of favourites first', () => {
    const lately = [booking(5, 2, '09:00', '10:00'), booking(5, 2, '11:00', '12:00')];
    expect(freeNowSchedules(data(lately), [1], anyone)).toEqual([1, 2]);
  });

  it('ignores schedules it does not know (the user can no longer see them)', () => {
    expect(freeNowSchedules(data([booking(9, 9, '09:00', '10:00'), booking(5, 2, '11:00', '12:00')]), [], anyone)).toEqual([2, 1]);
  });
});
