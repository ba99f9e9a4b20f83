import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { formatWireDateTime } from '../../electron/api/dates.js';
import { readingMoments, withLuxonNow } from '../support/luxon-now.js';
import {
  NO_RECURRENCE,
  expandRecurrence,
  parseRecurrenceRule,
  readStoredRecurrenceRule,
  serializeRecurrenceRule,
  toWireRecurrenceRule,
  type RecurrenceRule,
  type RecurrenceRuleInput,
} from '../../electron/service/domain/recurrence.js';

const BERLIN = 'Europe/Berlin';
const NEW_YORK = 'America/New_York';

/** A wall-clock `yyyy-MM-ddTHH:mm` in `zone`. */
const local = (text: string, zone: string) => DateTime.fromISO(text, { zone });

/** Parses `input` against a first instance and expands it; errors come back as `{ error }`. */
function plan(input: RecurrenceRuleInput | null, start: string, end: string, zone = 'UTC', limit?: number) {
  const first = { start: local(start, zone), end: local(end, zone) };
  const parsed = parseRecurrenceRule(input, first.start, zone);
  if (!parsed.ok) return { error: parsed.error };
  const expanded = expandRecurrence(first, parsed.value, limit === undefined ? {} : { limit });
  if (!expanded.ok) return { error: expanded.error };
  return expanded.value;
}

/** Start dates of a plan, or its error. */
function startDates(input: RecurrenceRuleInput | null, start: string, zone = 'UTC') {
  const result = plan(input, `${start}T09:00`, `${start}T10:00`, zone);
  return 'error' in result ? result : result.map((instance) => instance.start.toISODate());
}

/** `start – end` pairs on the wire. */
function wirePairs(input: RecurrenceRuleInput | null, start: string, end: string, zone: string) {
  const result = plan(input, start, end, zone);
  if ('error' in result) throw new Error(result.error);
  return result.map((instance) => `${formatWireDateTime(instance.start)} – ${formatWireDateTime(instance.end)}`);
}

describe('expansion by type', () => {
  // 2026-01-05 is a Monday; weeks start on Sunday (2026-01-04).
  it.each<[string, RecurrenceRuleInput | null, string, string[]]>([
    ['no rule', null, '2026-01-05', ['2026-01-05']],
    ['type none', { type: 'none' }, '2026-01-05', ['2026-01-05']],
    [
      'daily, termination inclusive',
      { type: 'daily', interval: 1, repeatTerminationDate: '2026-01-08' },
      '2026-01-05',
      ['2026-01-05', '2026-01-06', '2026-01-07', '2026-01-08'],
    ],
    [
      'daily every 3 days',
      { type: 'daily', interval: 3, repeatTerminationDate: '2026-01-15' },
      '2026-01-05',
      ['2026-01-05', '2026-01-08', '2026-01-11', '2026-01-14'],
    ],
    ['daily ending on the first day', { type: 'daily', repeatTerminationDate: '2026-01-05T00:00:00+0000' }, '2026-01-05', ['2026-01-05']],
    [
      'weekly Mon/Wed/Fri',
      { type: 'weekly', interval: 1, weekdays: [1, 3, 5], repeatTerminationDate: '2026-01-16' },
      '2026-01-05',
      ['2026-01-05', '2026-01-07', '2026-01-09', '2026-01-12', '2026-01-14', '2026-01-16'],
    ],
    [
      'weekly from a Wednesday: that week’s Monday is not produced',
      { type: 'weekly', weekdays: [5, 1, 3, 3], repeatTerminationDate: '2026-01-19' },
      '2026-01-07',
      ['2026-01-07', '2026-01-09', '2026-01-12', '2026-01-14', '2026-01-16', '2026-01-19'],
    ],
    [
      'weekly every 2 weeks on Tue/Thu',
      { type: 'weekly', interval: 2, weekdays: [2, 4], repeatTerminationDate: '2026-02-05' },
      '2026-01-06',
      ['2026-01-06', '2026-01-08', '2026-01-20', '2026-01-22', '2026-02-03', '2026-02-05'],
    ],
    [
      'weekly without weekdays repeats the first instance’s weekday',
      { type: 'weekly', weekdays: [], repeatTerminationDate: '2026-01-29' },
      '2026-01-08',
      ['2026-01-08', '2026-01-15', '2026-01-22', '2026-01-29'],
    ],
    [
      'weekly: the first instance comes first even off its weekdays',
      { type: 'weekly', weekdays: [3], repeatTerminationDate: '2026-01-14' },
      '2026-01-05',
      ['2026-01-05', '2026-01-07', '2026-01-14'],
    ],
    [
      'weekly on Saturday and Sunday (weeks start on Sunday)',
      { type: 'weekly', weekdays: [0, 6], repeatTerminationDate: '2026-01-18' },
      '2026-01-10',
      ['2026-01-10', '2026-01-11', '2026-01-17', '2026-01-18'],
    ],
    [
      'monthly by day of month',
      { type: 'monthly', interval: 1, monthlyType: 'dayOfMonth', repeatTerminationDate: '2026-04-15' },
      '2026-01-15',
      ['2026-01-15', '2026-02-15', '2026-03-15', '2026-04-15'],
    ],
    [
      'monthly on the 31st skips shorter months',
      { type: 'monthly', repeatTerminationDate: '2026-07-31' },
      '2026-01-31',
      ['2026-01-31', '2026-03-31', '2026-05-31', '2026-07-31'],
    ],
    [
      'monthly on the 30th skips February',
      { type: 'monthly', monthlyType: null, repeatTerminationDate: '2026-04-30' },
      '2026-01-30',
      ['2026-01-30', '2026-03-30', '2026-04-30'],
    ],
    [
      'monthly on the 31st every 2 months skips September and November',
      { type: 'monthly', interval: 2, repeatTerminationDate: '2026-12-31' },
      '2026-01-31',
      ['2026-01-31', '2026-03-31', '2026-05-31', '2026-07-31'],
    ],
    [
      'monthly on the 29th in a leap year keeps February',
      { type: 'monthly', repeatTerminationDate: '2028-03-29' },
      '2028-01-29',
      ['2028-01-29', '2028-02-29', '2028-03-29'],
    ],
    [
      'monthly on the 29th in a common year skips February',
      { type: 'monthly', repeatTerminationDate: '2027-03-29' },
      '2027-01-29',
      ['2027-01-29', '2027-03-29'],
    ],
    [
      'monthly on the 2nd Tuesday',
      { type: 'monthly', monthlyType: 'dayOfWeek', repeatTerminationDate: '2026-04-14' },
      '2026-01-13',
      ['2026-01-13', '2026-02-10', '2026-03-10', '2026-04-14'],
    ],
    [
      'monthly on the 2nd Tuesday every 2 months',
      { type: 'monthly', interval: 2, monthlyType: 'dayOfWeek', repeatTerminationDate: '2026-07-31' },
      '2026-01-13',
      ['2026-01-13', '2026-03-10', '2026-05-12', '2026-07-14'],
    ],
    [
      'monthly on the 5th Thursday skips months without one',
      { type: 'monthly', monthlyType: 'dayOfWeek', repeatTerminationDate: '2026-07-31' },
      '2026-01-29',
      ['2026-01-29', '2026-04-30', '2026-07-30'],
    ],
    [
      'monthly on the 4th Saturday (always exists)',
      { type: 'monthly', monthlyType: 'dayOfWeek', repeatTerminationDate: '2026-04-30' },
      '2026-01-24',
      ['2026-01-24', '2026-02-28', '2026-03-28', '2026-04-25'],
    ],
    [
      'yearly',
      { type: 'yearly', repeatTerminationDate: '2029-03-10' },
      '2026-03-10',
      ['2026-03-10', '2027-03-10', '2028-03-10', '2029-03-10'],
    ],
    [
      'yearly every 2 years',
      { type: 'yearly', interval: 2, repeatTerminationDate: '2030-12-31' },
      '2026-03-10',
      ['2026-03-10', '2028-03-10', '2030-03-10'],
    ],
    ['yearly ending the day before an anniversary', { type: 'yearly', repeatTerminationDate: '2027-03-09' }, '2026-03-10', ['2026-03-10']],
    [
      'yearly on Feb 29 only in leap years',
      { type: 'yearly', repeatTerminationDate: '2036-12-31' },
      '2028-02-29',
      ['2028-02-29', '2032-02-29', '2036-02-29'],
    ],
    [
      'yearly on Feb 29 every 3 years',
      { type: 'yearly', interval: 3, repeatTerminationDate: '2040-02-29' },
      '2028-02-29',
      ['2028-02-29', '2040-02-29'],
    ],
  ])('%s', (_name, input, start, expected) => {
    expect(startDates(input, start)).toEqual(expected);
  });

  it('keeps the time of day and duration on every instance', () => {
    expect(wirePairs({ type: 'daily', repeatTerminationDate: '2026-01-06' }, '2026-01-05T13:15', '2026-01-05T14:45', BERLIN)).toEqual([
      '2026-01-05T13:15:00+0100 – 2026-01-05T14:45:00+0100',
      '2026-01-06T13:15:00+0100 – 2026-01-06T14:45:00+0100',
    ]);
  });

  it('keeps the day span of multi-day instances', () => {
    // Friday 17:00 to Monday 08:00, every week.
    const rule = { type: 'weekly', weekdays: [5], repeatTerminationDate: '2026-01-16' };
    expect(wirePairs(rule, '2026-01-09T17:00', '2026-01-12T08:00', BERLIN)).toEqual([
      '2026-01-09T17:00:00+0100 – 2026-01-12T08:00:00+0100',
      '2026-01-16T17:00:00+0100 – 2026-01-19T08:00:00+0100',
    ]);
  });

  it('returns instances in the rule’s zone whatever zone the first one came in', () => {
    const first = {
      start: DateTime.fromISO('2026-01-05T08:00:00Z', { setZone: true }),
      end: DateTime.fromISO('2026-01-05T09:00:00Z', { setZone: true }),
    };
    const rule = parseRecurrenceRule({ type: 'daily', repeatTerminationDate: '2026-01-06' }, first.start, BERLIN);
    if (!rule.ok) throw new Error(rule.error);
    const expanded = expandRecurrence(first, rule.value);
    if (!expanded.ok) throw new Error(expanded.error);
    expect(expanded.value.map((instance) => formatWireDateTime(instance.start))).toEqual([
      '2026-01-05T09:00:00+0100',
      '2026-01-06T09:00:00+0100',
    ]);
  });
});

describe('wall clock across DST', () => {
  it.each<[string, string, string, string, string, string[]]>([
    [
      'Berlin spring forward',
      BERLIN,
      '2026-03-28T09:00',
      '2026-03-28T10:00',
      '2026-03-30',
      [
        '2026-03-28T09:00:00+0100 – 2026-03-28T10:00:00+0100',
        '2026-03-29T09:00:00+0200 – 2026-03-29T10:00:00+0200',
        '2026-03-30T09:00:00+0200 – 2026-03-30T10:00:00+0200',
      ],
    ],
    [
      'Berlin fall back',
      BERLIN,
      '2026-10-24T09:00',
      '2026-10-24T10:00',
      '2026-10-26',
      [
        '2026-10-24T09:00:00+0200 – 2026-10-24T10:00:00+0200',
        '2026-10-25T09:00:00+0100 – 2026-10-25T10:00:00+0100',
        '2026-10-26T09:00:00+0100 – 2026-10-26T10:00:00+0100',
      ],
    ],
    [
      'New York spring forward',
      NEW_YORK,
      '2026-03-07T09:00',
      '2026-03-07T10:00',
      '2026-03-09',
      [
        '2026-03-07T09:00:00-0500 – 2026-03-07T10:00:00-0500',
        '2026-03-08T09:00:00-0400 – 2026-03-08T10:00:00-0400',
        '2026-03-09T09:00:00-0400 – 2026-03-09T10:00:00-0400',
      ],
    ],
    [
      'New York fall back',
      NEW_YORK,
      '2026-10-31T09:00',
      '2026-10-31T10:00',
      '2026-11-02',
      [
        '2026-10-31T09:00:00-0400 – 2026-10-31T10:00:00-0400',
        '2026-11-01T09:00:00-0500 – 2026-11-01T10:00:00-0500',
        '2026-11-02T09:00:00-0500 – 2026-11-02T10:00:00-0500',
      ],
    ],
    [
      // 02:30 does not exist on 2026-03-29: the start moves to 03:30 and the swallowed end keeps the hour.
      'Berlin 02:30 on the spring-forward day',
      BERLIN,
      '2026-03-28T02:30',
      '2026-03-28T03:30',
      '2026-03-30',
      [
        '2026-03-28T02:30:00+0100 – 2026-03-28T03:30:00+0100',
        '2026-03-29T03:30:00+0200 – 2026-03-29T04:30:00+0200',
        '2026-03-30T02:30:00+0200 – 2026-03-30T03:30:00+0200',
      ],
    ],
    [
      'Berlin 02:30–04:00 on the spring-forward day keeps its wall-clock end',
      BERLIN,
      '2026-03-28T02:30',
      '2026-03-28T04:00',
      '2026-03-29',
      ['2026-03-28T02:30:00+0100 – 2026-03-28T04:00:00+0100', '2026-03-29T03:30:00+0200 – 2026-03-29T04:00:00+0200'],
    ],
    [
      'New York 02:30 on the spring-forward day',
      NEW_YORK,
      '2026-03-07T02:30',
      '2026-03-07T03:00',
      '2026-03-08',
      ['2026-03-07T02:30:00-0500 – 2026-03-07T03:00:00-0500', '2026-03-08T03:30:00-0400 – 2026-03-08T04:00:00-0400'],
    ],
    [
      // 02:30 happens twice on 2026-10-25; the later (standard-time) one is taken.
      'Berlin 02:30 on the fall-back day',
      BERLIN,
      '2026-10-24T02:30',
      '2026-10-24T02:45',
      '2026-10-25',
      ['2026-10-24T02:30:00+0200 – 2026-10-24T02:45:00+0200', '2026-10-25T02:30:00+0100 – 2026-10-25T02:45:00+0100'],
    ],
    [
      'Berlin overnight instance across the change',
      BERLIN,
      '2026-03-28T22:00',
      '2026-03-29T06:00',
      '2026-03-29',
      ['2026-03-28T22:00:00+0100 – 2026-03-29T06:00:00+0200', '2026-03-29T22:00:00+0200 – 2026-03-30T06:00:00+0200'],
    ],
  ])('%s', (_name, zone, start, end, termination, expected) => {
    expect(wirePairs({ type: 'daily', repeatTerminationDate: termination }, start, end, zone)).toEqual(expected);
  });

  it.each(readingMoments)('takes the later 02:30 of the fall-back day when the series is planned in %s', (_moment, plannedAt) =>
    withLuxonNow(plannedAt, () => {
      const pairs = wirePairs({ type: 'daily', repeatTerminationDate: '2026-10-25' }, '2026-10-24T02:30', '2026-10-24T02:45', BERLIN);
      expect(pairs[1]).toBe('2026-10-25T02:30:00+0100 – 2026-10-25T02:45:00+0100');
    }),
  );

  it('keeps 09:00 on a weekly series across both changes', () => {
    const rule = { type: 'weekly', weekdays: [0], repeatTerminationDate: '2026-11-08' };
    const pairs = wirePairs(rule, '2026-03-22T09:00', '2026-03-22T10:00', BERLIN);
    expect(pairs).toHaveLength(34);
    expect(pairs.every((pair) => /T09:00:00[+]0[12]00 – \S+T10:00:00[+]0[12]00$/.test(pair))).toBe(true);
    expect(pairs.slice(0, 2)).toEqual([
      '2026-03-22T09:00:00+0100 – 2026-03-22T10:00:00+0100',
      '2026-03-29T09:00:00+0200 – 2026-03-29T10:00:00+0200',
    ]);
    expect(pairs.slice(-3)).toEqual([
      '2026-10-25T09:00:00+0100 – 2026-10-25T10:00:00+0100',
      '2026-11-01T09:00:00+0100 – 2026-11-01T10:00:00+0100',
      '2026-11-08T09:00:00+0100 – 2026-11-08T10:00:00+0100',
    ]);
  });
});

describe('parseRecurrenceRule', () => {
  const monday = local('2026-01-05T09:00', BERLIN);

  it.each<[string, RecurrenceRuleInput | null | undefined, RecurrenceRule]>([
    ['null', null, NO_RECURRENCE],
    ['undefined', undefined, NO_RECURRENCE],
    ['no type', {}, NO_RECURRENCE],
    ['type null', { type: null }, NO_RECURRENCE],
    ['none ignores the rest', { type: 'none', interval: 0, weekdays: [9], repeatTerminationDate: 'x' }, NO_RECURRENCE],
    [
      'daily with defaults',
      { type: 'daily', repeatTerminationDate: '2026-02-01' },
      { type: 'daily', interval: 1, monthlyType: null, weekdays: [], terminationDate: '2026-02-01', zone: BERLIN },
    ],
    [
      'interval null means 1; weekdays and monthlyType of other types are dropped',
      { type: 'daily', interval: null, monthlyType: 'dayOfWeek', weekdays: [2], repeatTerminationDate: '2026-02-01' },
      { type: 'daily', interval: 1, monthlyType: null, weekdays: [], terminationDate: '2026-02-01', zone: BERLIN },
    ],
    [
      'weekly weekdays sorted and unique',
      { type: 'weekly', interval: 2, weekdays: [5, 1, 1, 3], repeatTerminationDate: '2026-02-01' },
      { type: 'weekly', interval: 2, monthlyType: null, weekdays: [1, 3, 5], terminationDate: '2026-02-01', zone: BERLIN },
    ],
    [
      'weekly without weekdays takes the first instance’s weekday',
      { type: 'weekly', weekdays: null, repeatTerminationDate: '2026-02-01' },
      { type: 'weekly', interval: 1, monthlyType: null, weekdays: [1], terminationDate: '2026-02-01', zone: BERLIN },
    ],
    [
      'monthly defaults to day of month',
      { type: 'monthly', repeatTerminationDate: '2026-06-01' },
      { type: 'monthly', interval: 1, monthlyType: 'dayOfMonth', weekdays: [], terminationDate: '2026-06-01', zone: BERLIN },
    ],
    [
      'monthly by day of week',
      { type: 'monthly', monthlyType: 'dayOfWeek', repeatTerminationDate: '2026-06-01' },
      { type: 'monthly', interval: 1, monthlyType: 'dayOfWeek', weekdays: [], terminationDate: '2026-06-01', zone: BERLIN },
    ],
    [
      'termination date-time is read in the zone (23:30 UTC is the next day in Berlin)',
      { type: 'yearly', repeatTerminationDate: '2027-01-10T23:30:00+0000' },
      { type: 'yearly', interval: 1, monthlyType: null, weekdays: [], terminationDate: '2027-01-11', zone: BERLIN },
    ],
    [
      'termination date-time without offset is local',
      { type: 'daily', repeatTerminationDate: '2026-01-10T00:00:00' },
      { type: 'daily', interval: 1, monthlyType: null, weekdays: [], terminationDate: '2026-01-10', zone: BERLIN },
    ],
    [
      'termination on the first instance’s date',
      { type: 'daily', repeatTerminationDate: '2026-01-05' },
      { type: 'daily', interval: 1, monthlyType: null, weekdays: [], terminationDate: '2026-01-05', zone: BERLIN },
    ],
  ])('%s', (_name, input, expected) => {
    expect(parseRecurrenceRule(input, monday, BERLIN)).toEqual({ ok: true, value: expected });
  });

  it.each<[string, RecurrenceRuleInput, string]>([
    ['unknown type', { type: 'hourly', repeatTerminationDate: '2026-02-01' }, 'Invalid repeat type'],
    ['type in another case', { type: 'Daily', repeatTerminationDate: '2026-02-01' }, 'Invalid repeat type'],
    ['LibreBooking’s custom type', { type: 'custom', repeatTerminationDate: '2026-02-01' }, 'Invalid repeat type'],
    ['type not a string', { type: 3, repeatTerminationDate: '2026-02-01' }, 'Invalid repeat type'],
    ['interval 0', { type: 'daily', interval: 0, repeatTerminationDate: '2026-02-01' }, 'Invalid repeat interval'],
    ['negative interval', { type: 'daily', interval: -1, repeatTerminationDate: '2026-02-01' }, 'Invalid repeat interval'],
    ['fractional interval', { type: 'weekly', interval: 1.5, repeatTerminationDate: '2026-02-01' }, 'Invalid repeat interval'],
    ['interval as text', { type: 'daily', interval: '2', repeatTerminationDate: '2026-02-01' }, 'Invalid repeat interval'],
    [
      'unknown monthly type',
      { type: 'monthly', monthlyType: 'lastDay', repeatTerminationDate: '2026-06-01' },
      'Invalid repeat monthly type',
    ],
    ['weekday 7', { type: 'weekly', weekdays: [1, 7], repeatTerminationDate: '2026-02-01' }, 'Invalid repeat weekdays'],
    ['weekday -1', { type: 'weekly', weekdays: [-1], repeatTerminationDate: '2026-02-01' }, 'Invalid repeat weekdays'],
    ['weekday as text', { type: 'weekly', weekdays: ['1'], repeatTerminationDate: '2026-02-01' }, 'Invalid repeat weekdays'],
    ['weekdays not a list', { type: 'weekly', weekdays: 'monday', repeatTerminationDate: '2026-02-01' }, 'Invalid repeat weekdays'],
    ['no termination date', { type: 'daily' }, 'Invalid repeat termination date'],
    ['null termination date', { type: 'weekly', repeatTerminationDate: null }, 'Invalid repeat termination date'],
    ['empty termination date', { type: 'monthly', repeatTerminationDate: '' }, 'Invalid repeat termination date'],
    ['garbage termination date', { type: 'yearly', repeatTerminationDate: 'next year' }, 'Invalid repeat termination date'],
    ['impossible termination date', { type: 'daily', repeatTerminationDate: '2026-02-30' }, 'Invalid repeat termination date'],
    ['termination date as a number', { type: 'daily', repeatTerminationDate: 20260201 }, 'Invalid repeat termination date'],
    ['termination before the first instance', { type: 'daily', repeatTerminationDate: '2026-01-04' }, 'Invalid repeat termination date'],
    [
      'termination instant on the day before in the zone',
      { type: 'daily', repeatTerminationDate: '2026-01-04T22:59:00+0000' },
      'Invalid repeat termination date',
    ],
  ])('%s → %s', (_name, input, error) => {
    expect(parseRecurrenceRule(input, monday, BERLIN)).toEqual({ ok: false, error });
  });

  it('reads a UTC-midnight termination in the zone, so west of UTC it is the day before', () => {
    const input = { type: 'daily', repeatTerminationDate: '2026-01-10T00:00:00+0000' };
    const rule = parseRecurrenceRule(input, local('2026-01-05T09:00', NEW_YORK), NEW_YORK);
    expect(rule.ok && rule.value.terminationDate).toBe('2026-01-09');
  });
});

describe('expandRecurrence limits and bad rules', () => {
  const start = '2026-01-01T09:00';
  const end = '2026-01-01T10:00';
  const TOO_MANY = 'Too many occurrences: a series is limited to 1000';
  const dayAfter = (days: number) => local(start, 'UTC').plus({ days }).toISODate() ?? '';

  it('allows exactly 1000 occurrences', () => {
    const result = plan({ type: 'daily', repeatTerminationDate: dayAfter(999) }, start, end);
    expect('error' in result ? result.error : result.length).toBe(1000);
  });

  it.each<[string, RecurrenceRuleInput, number | undefined, string]>([
    ['1001 daily occurrences', { type: 'daily', repeatTerminationDate: dayAfter(1000) }, undefined, TOO_MANY],
    [
      'a far termination date',
      { type: 'weekly', weekdays: [0, 1, 2, 3, 4, 5, 6], repeatTerminationDate: '9999-12-31' },
      undefined,
      TOO_MANY,
    ],
    ['a custom limit', { type: 'monthly', repeatTerminationDate: '2026-04-01' }, 3, 'Too many occurrences: a series is limited to 3'],
  ])('%s', (_name, input, limit, error) => {
    expect(plan(input, start, end, 'UTC', limit)).toEqual({ error });
  });

  it('allows a rare rule up to a far termination date', () => {
    const result = plan({ type: 'yearly', interval: 100, repeatTerminationDate: '9999-12-31' }, '2000-02-29T09:00', '2000-02-29T10:00');
    if ('error' in result) throw new Error(result.error);
    // Century years are leap years only every 400 years.
    const leapCenturies = Array.from({ length: 20 }, (_, index) => `${2000 + index * 400}-02-29`);
    expect(result.map((instance) => instance.start.toISODate())).toEqual(leapCenturies);
  });

  const first = { start: local(start, 'UTC'), end: local(end, 'UTC') };
  const daily = (terminationDate: string | null, interval = 1): RecurrenceRule => ({
    type: 'daily',
    interval,
    monthlyType: null,
    weekdays: [],
    terminationDate,
    zone: 'UTC',
  });

  it.each<[string, RecurrenceRule, string]>([
    ['termination before the first instance', daily('2025-12-31'), 'Invalid repeat termination date'],
    ['no termination date', daily(null), 'Invalid repeat termination date'],
    ['malformed termination date', daily('2026-1-5'), 'Invalid repeat termination date'],
    ['interval 0', daily('2026-02-01', 0), 'Invalid repeat interval'],
  ])('a stored rule with %s is refused', (_name, rule, error) => {
    expect(expandRecurrence(first, rule)).toEqual({ ok: false, error });
  });

  it('expands a weekly rule without weekdays on the first instance’s weekday', () => {
    const rule: RecurrenceRule = {
      type: 'weekly',
      interval: 1,
      monthlyType: null,
      weekdays: [],
      terminationDate: '2026-01-15',
      zone: 'UTC',
    };
    const result = expandRecurrence(first, rule);
    expect(result.ok && result.value.map((instance) => instance.start.toISODate())).toEqual(['2026-01-01', '2026-01-08', '2026-01-15']);
  });
});

describe('stored and wire forms', () => {
  const weekly: RecurrenceRule = {
    type: 'weekly',
    interval: 2,
    monthlyType: null,
    weekdays: [1, 3],
    terminationDate: '2026-12-29',
    zone: BERLIN,
  };

  it.each<[string, string, RecurrenceRule]>([
    ['a serialized rule', serializeRecurrenceRule(weekly), weekly],
    ['the column default', '{"type":"none"}', NO_RECURRENCE],
    ['a serialized none', serializeRecurrenceRule(NO_RECURRENCE), NO_RECURRENCE],
    ['malformed JSON', '{', NO_RECURRENCE],
    ['JSON that is not a rule', '[1]', NO_RECURRENCE],
    ['a rule without termination', '{"type":"daily","interval":1,"weekdays":[],"terminationDate":null,"zone":"UTC"}', NO_RECURRENCE],
    ['a rule without a zone', '{"type":"daily","interval":1,"weekdays":[],"terminationDate":"2026-12-29"}', NO_RECURRENCE],
  ])('reads %s', (_name, json, expected) => {
    expect(readStoredRecurrenceRule(json)).toEqual(expected);
  });

  it.each<[string, RecurrenceRule, unknown]>([
    ['none', NO_RECURRENCE, { type: 'none', interval: null, monthlyType: null, weekdays: [], repeatTerminationDate: null }],
    [
      'weekly in Berlin',
      weekly,
      { type: 'weekly', interval: 2, monthlyType: null, weekdays: [1, 3], repeatTerminationDate: '2026-12-29T00:00:00+0100' },
    ],
    [
      'monthly in New York (summer)',
      { type: 'monthly', interval: 1, monthlyType: 'dayOfWeek', weekdays: [], terminationDate: '2026-07-01', zone: NEW_YORK },
      { type: 'monthly', interval: 1, monthlyType: 'dayOfWeek', weekdays: [], repeatTerminationDate: '2026-07-01T00:00:00-0400' },
    ],
  ])('shows %s on the wire, its last day starting at midnight in its zone', (_name, rule, expected) => {
    expect(toWireRecurrenceRule(rule)).toEqual(expected);
  });

  it('reads its own wire termination date back as the same date', () => {
    const inNewYork = { ...weekly, zone: NEW_YORK };
    const wire = toWireRecurrenceRule(inNewYork);
    const reparsed = parseRecurrenceRule(wire, local('2026-01-05T09:00', NEW_YORK), NEW_YORK);
    expect(reparsed).toEqual({ ok: true, value: inNewYork });
  });
});
