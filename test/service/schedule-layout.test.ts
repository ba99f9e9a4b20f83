import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { formatWireDateTime } from '../../electron/api/dates.js';
import {
  buildLayout,
  includesBlockedPeriod,
  instantOf,
  isOnSlotBoundary,
  parseTimeOfDay,
  periodsBetween,
  periodsOn,
  reservablePeriodCount,
  weekContaining,
  type PeriodRule,
  type ScheduleLayout,
} from '../../electron/service/domain/schedule-layout.js';

const rule = (startTime: string, endTime: string, extra: Partial<PeriodRule> = {}): PeriodRule => ({
  weekday: null,
  startTime,
  endTime,
  label: '',
  isReservable: 1,
  ...extra,
});

const pad = (hour: number) => `${String(hour).padStart(2, '0')}:00`;
/** Every hour of the day, 00:00–01:00 … 23:00–24:00. */
const hourly = buildLayout(Array.from({ length: 24 }, (_, hour) => rule(pad(hour), pad(hour + 1))));
const halfHourly = buildLayout(
  Array.from({ length: 48 }, (_, index) => {
    const time = (minutes: number) => `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
    return rule(time(index * 30), time(index * 30 + 30));
  }),
);

/** `[start, end]` wire pairs, the way the API shows them. */
const wire = (layout: ScheduleLayout, date: string | DateTime, zone: string) =>
  periodsOn(layout, date, zone).map((period) => [formatWireDateTime(period.start), formatWireDateTime(period.end)]);

describe('parseTimeOfDay', () => {
  it.each([
    ['00:00', 0],
    ['08:30', 8 * 3600 + 30 * 60],
    ['8:30', 8 * 3600 + 30 * 60],
    ['23:59:30', 86_370],
    ['24:00', 86_400],
    ['24:01', null],
    ['25:00', null],
    ['12:60', null],
    ['noon', null],
    ['', null],
  ])('%s → %s', (text, seconds) => {
    expect(parseTimeOfDay(text)).toBe(seconds);
  });
});

describe('buildLayout', () => {
  it('uses a weekday’s own rules over the every-day ones, sorted by start', () => {
    const layout = buildLayout([
      rule('12:00', '13:00', { label: 'Lunch', isReservable: 0 }),
      rule('08:00', '12:00'),
      rule('10:00', '14:00', { weekday: 0, label: 'Sunday' }),
    ]);
    expect(layout.days[0]).toEqual([{ startSecond: 36_000, endSecond: 50_400, label: 'Sunday', isReservable: true }]);
    for (const weekday of [1, 2, 3, 4, 5, 6]) {
      expect(layout.days[weekday]).toEqual([
        { startSecond: 28_800, endSecond: 43_200, label: null, isReservable: true },
        { startSecond: 43_200, endSecond: 46_800, label: 'Lunch', isReservable: false },
      ]);
    }
  });

  it.each([
    ['an end before the start', rule('10:00', '09:00')],
    ['an empty period', rule('10:00', '10:00')],
    ['a malformed time', rule('10:00', 'late')],
    ['24:00 as a start', rule('24:00', '24:00')],
  ])('leaves out %s', (_case, bad) => {
    expect(buildLayout([bad, rule('08:00', '09:00')]).days[3]).toHaveLength(1);
  });

  it('gives an empty layout without rules', () => {
    expect(buildLayout([]).days).toEqual([[], [], [], [], [], [], []]);
  });
});

describe('periodsOn', () => {
  it('lays out an ordinary summer day in Berlin, 24:00 ending at the next midnight', () => {
    const layout = buildLayout([
      rule('00:00', '08:00', { isReservable: 0, label: 'Closed' }),
      rule('08:00', '18:00'),
      rule('18:00', '24:00', { isReservable: 0 }),
    ]);
    const periods = periodsOn(layout, '2026-06-15', 'Europe/Berlin');
    expect(periods.map((period) => ({ ...period, start: formatWireDateTime(period.start), end: formatWireDateTime(period.end) }))).toEqual([
      { start: '2026-06-15T00:00:00+0200', end: '2026-06-15T08:00:00+0200', label: 'Closed', isReservable: false },
      { start: '2026-06-15T08:00:00+0200', end: '2026-06-15T18:00:00+0200', label: null, isReservable: true },
      { start: '2026-06-15T18:00:00+0200', end: '2026-06-16T00:00:00+0200', label: null, isReservable: false },
    ]);
    expect(periods[0]!.start.zoneName).toBe('Europe/Berlin');
  });

  it('takes the date an instant falls on in the schedule’s zone', () => {
    // 23:30 UTC on the 14th is already the 15th in Berlin.
    const instant = DateTime.fromISO('2026-06-14T23:30:00Z');
    expect(wire(hourly, instant, 'Europe/Berlin')).toEqual(wire(hourly, '2026-06-15', 'Europe/Berlin'));
  });

  it('picks the rules of the date’s weekday', () => {
    const layout = buildLayout([rule('09:00', '10:00', { weekday: 1 }), rule('11:00', '12:00', { weekday: 2 })]);
    expect(wire(layout, '2026-06-15', 'UTC')).toEqual([['2026-06-15T09:00:00+0000', '2026-06-15T10:00:00+0000']]);
    expect(wire(layout, '2026-06-16', 'UTC')).toEqual([['2026-06-16T11:00:00+0000', '2026-06-16T12:00:00+0000']]);
    expect(wire(layout, '2026-06-17', 'UTC')).toEqual([]);
  });

  // Each case: zone, date, layout, the periods expected around the transition (by index), count.
  it.each([
    {
      name: 'Berlin, clocks forward: 02:00–03:00 does not happen, 01:00–02:00 ends when the clocks jump',
      zone: 'Europe/Berlin',
      date: '2026-03-29',
      layout: hourly,
      count: 23,
      around: [
        ['2026-03-29T01:00:00+0100', '2026-03-29T03:00:00+0200'],
        ['2026-03-29T03:00:00+0200', '2026-03-29T04:00:00+0200'],
      ],
      from: 1,
    },
    {
      name: 'Berlin, clocks forward, half hours: 02:00–02:30 and 02:30–03:00 vanish, nothing overlaps',
      zone: 'Europe/Berlin',
      date: '2026-03-29',
      layout: halfHourly,
      count: 46,
      around: [
        ['2026-03-29T01:30:00+0100', '2026-03-29T03:00:00+0200'],
        ['2026-03-29T03:00:00+0200', '2026-03-29T03:30:00+0200'],
      ],
      from: 3,
    },
    {
      name: 'Berlin, clocks back: 02:00–03:00 holds the repeated hour and lasts two hours',
      zone: 'Europe/Berlin',
      date: '2026-10-25',
      layout: hourly,
      count: 24,
      around: [
        ['2026-10-25T01:00:00+0200', '2026-10-25T02:00:00+0200'],
        ['2026-10-25T02:00:00+0200', '2026-10-25T03:00:00+0100'],
        ['2026-10-25T03:00:00+0100', '2026-10-25T04:00:00+0100'],
      ],
      from: 1,
    },
    {
      name: 'New York, clocks forward',
      zone: 'America/New_York',
      date: '2026-03-08',
      layout: hourly,
      count: 23,
      around: [
        ['2026-03-08T01:00:00-0500', '2026-03-08T03:00:00-0400'],
        ['2026-03-08T03:00:00-0400', '2026-03-08T04:00:00-0400'],
      ],
      from: 1,
    },
    {
      name: 'New York, clocks back: 01:00–02:00 holds the repeated hour',
      zone: 'America/New_York',
      date: '2026-11-01',
      layout: hourly,
      count: 24,
      around: [
        ['2026-11-01T00:00:00-0400', '2026-11-01T01:00:00-0400'],
        ['2026-11-01T01:00:00-0400', '2026-11-01T02:00:00-0500'],
        ['2026-11-01T02:00:00-0500', '2026-11-01T03:00:00-0500'],
      ],
      from: 0,
    },
    {
      name: 'Santiago, clocks forward at midnight: the day starts at 01:00',
      zone: 'America/Santiago',
      date: '2026-09-06',
      layout: hourly,
      count: 23,
      around: [
        ['2026-09-06T01:00:00-0300', '2026-09-06T02:00:00-0300'],
        ['2026-09-06T02:00:00-0300', '2026-09-06T03:00:00-0300'],
      ],
      from: 0,
    },
  ])('$name', ({ zone, date, layout, count, around, from }) => {
    const periods = wire(layout, date, zone);
    expect(periods).toHaveLength(count);
    expect(periods.slice(from, from + around.length)).toEqual(around);
    const instants = periodsOn(layout, date, zone);
    for (const [index, period] of instants.entries()) {
      expect(period.end > period.start).toBe(true);
      if (index > 0) expect(period.start.toMillis()).toBe(instants[index - 1]!.end.toMillis());
    }
  });

  it('covers a whole DST day without gaps: 23, 24 and 25 hours', () => {
    const span = (date: string, zone: string) => {
      const periods = periodsOn(hourly, date, zone);
      return periods.at(-1)!.end.diff(periods[0]!.start, 'hours').hours;
    };
    expect(span('2026-03-29', 'Europe/Berlin')).toBe(23);
    expect(span('2026-06-15', 'Europe/Berlin')).toBe(24);
    expect(span('2026-10-25', 'Europe/Berlin')).toBe(25);
  });

  it('refuses an unknown zone', () => {
    expect(() => periodsOn(hourly, '2026-06-15', 'Mars/Olympus')).toThrow(RangeError);
  });
});

describe('instantOf', () => {
  it.each([
    ['an ordinary time', '2026-06-15', 9 * 3600, 'Europe/Berlin', '2026-06-15T09:00:00+0200'],
    ['a skipped time (the moment clocks jump)', '2026-03-29', 2.5 * 3600, 'Europe/Berlin', '2026-03-29T03:00:00+0200'],
    ['a repeated time (its first occurrence)', '2026-10-25', 2.5 * 3600, 'Europe/Berlin', '2026-10-25T02:30:00+0200'],
    ['24:00 (the next midnight)', '2026-12-31', 86_400, 'America/New_York', '2027-01-01T00:00:00-0500'],
  ])('%s', (_case, date, second, zone, expected) => {
    const [year, month, day] = date.split('-').map(Number) as [number, number, number];
    expect(formatWireDateTime(instantOf({ year, month, day }, second, zone))).toBe(expected);
  });
});

describe('weekContaining', () => {
  it.each([
    ['a Sunday', '2026-03-29T12:00:00Z', 'Europe/Berlin', '2026-03-29'],
    ['a Wednesday', '2026-04-01T12:00:00Z', 'Europe/Berlin', '2026-03-29'],
    ['a Saturday', '2026-04-04T12:00:00Z', 'Europe/Berlin', '2026-03-29'],
    ['Saturday night in UTC, already Sunday in Berlin', '2026-04-04T22:30:00Z', 'Europe/Berlin', '2026-04-05'],
    ['Sunday early in UTC, still Saturday in New York', '2026-11-01T03:00:00Z', 'America/New_York', '2026-10-25'],
    ['across a year end', '2026-12-31T12:00:00Z', 'UTC', '2026-12-27'],
  ])('%s', (_case, now, zone, sunday) => {
    const week = weekContaining(DateTime.fromISO(now), zone);
    expect(week).toHaveLength(7);
    expect(week[0]).toBe(sunday);
    expect(week.map((date) => DateTime.fromISO(date).weekday % 7)).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });
});

describe('periodsBetween', () => {
  it('returns the periods overlapping a window across midnight, in order', () => {
    const layout = buildLayout([rule('08:00', '12:00'), rule('22:00', '24:00')]);
    const periods = periodsBetween(
      layout,
      DateTime.fromISO('2026-06-15T21:00:00Z'),
      DateTime.fromISO('2026-06-16T07:00:00Z'),
      'Europe/Berlin',
    );
    expect(periods.map((period) => formatWireDateTime(period.start))).toEqual(['2026-06-15T22:00:00+0200', '2026-06-16T08:00:00+0200']);
  });

  it('leaves out periods that only touch the window', () => {
    const periods = periodsBetween(hourly, DateTime.fromISO('2026-06-15T10:00:00Z'), DateTime.fromISO('2026-06-15T11:00:00Z'), 'UTC');
    expect(periods.map((period) => formatWireDateTime(period.start))).toEqual(['2026-06-15T10:00:00+0000']);
  });
});

describe('isOnSlotBoundary', () => {
  const layout = buildLayout([
    rule('00:00', '08:00', { isReservable: 0 }),
    rule('08:00', '08:30'),
    rule('08:30', '09:00'),
    rule('09:00', '10:00', { isReservable: 0 }),
    rule('10:00', '24:00'),
  ]);
  it.each([
    ['start', '2026-06-15T08:00:00+02:00', true],
    ['start', '2026-06-15T08:30:00+02:00', true],
    ['start', '2026-06-15T08:15:00+02:00', false],
    ['start', '2026-06-15T00:00:00+02:00', false],
    ['start', '2026-06-15T09:00:00+02:00', false],
    ['end', '2026-06-15T09:00:00+02:00', true],
    ['end', '2026-06-15T10:00:00+02:00', false],
    ['end', '2026-06-15T08:00:00+02:00', false],
    ['end', '2026-06-16T00:00:00+02:00', true],
    ['end', '2026-06-15T22:00:00Z', true],
    ['start', '2026-06-15T06:00:00Z', true],
  ] as const)('%s at %s → %s', (edge, at, expected) => {
    expect(isOnSlotBoundary(layout, DateTime.fromISO(at, { setZone: true }), 'Europe/Berlin', edge)).toBe(expected);
  });

  it('knows the boundary where the clocks jump', () => {
    const at = (text: string) => DateTime.fromISO(text, { setZone: true });
    expect(isOnSlotBoundary(hourly, at('2026-03-29T03:00:00+02:00'), 'Europe/Berlin', 'end')).toBe(true);
    expect(isOnSlotBoundary(hourly, at('2026-03-29T03:00:00+02:00'), 'Europe/Berlin', 'start')).toBe(true);
    expect(isOnSlotBoundary(hourly, at('2026-10-25T02:00:00+01:00'), 'Europe/Berlin', 'start')).toBe(false);
    expect(isOnSlotBoundary(hourly, at('2026-10-25T03:00:00+01:00'), 'Europe/Berlin', 'end')).toBe(true);
  });
});

describe('checks whose cost does not grow with the span', () => {
  // Office hours on weekdays with a blocked lunch, nothing at weekends: every kind of day there is.
  const office = buildLayout([
    ...[1, 2, 3, 4, 5].flatMap((weekday) => [
      rule('08:00', '12:00', { weekday }),
      rule('12:00', '13:00', { weekday, isReservable: 0 }),
      rule('13:00', '18:00', { weekday }),
    ]),
    rule('00:00', '24:00', { weekday: 0, isReservable: 0 }),
    rule('00:00', '24:00', { weekday: 6, isReservable: 0 }),
  ]);
  const zone = 'Europe/London';
  // Spans across both DST changes of 2027, short and long, starting on slot boundaries.
  const spans = [
    ['2027-03-01T08:00', '2027-03-01T12:00'],
    ['2027-03-22T13:00', '2027-04-12T18:00'],
    ['2027-03-01T08:00', '2027-11-30T18:00'],
    ['2027-01-04T08:00', '2029-07-02T12:00'],
  ].map(([from, to]) => [DateTime.fromISO(from!, { zone }), DateTime.fromISO(to!, { zone })] as const);

  it.each(spans)('counts the reservable periods from %s as laying each one out does', (from, to) => {
    const laidOut = periodsBetween(office, from, to, zone).filter((period) => period.isReservable).length;
    expect(reservablePeriodCount(office, from, to, zone)).toBe(laidOut);
  });

  it.each(spans)('finds a blocked period from %s as laying each one out does', (from, to) => {
    expect(includesBlockedPeriod(office, from, to, zone)).toBe(
      periodsBetween(office, from, to, zone).some((period) => !period.isReservable),
    );
    expect(includesBlockedPeriod(halfHourly, from, to, zone)).toBe(false);
  });
});
