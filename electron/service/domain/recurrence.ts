import type { Static } from '@sinclair/typebox';
import { DateTime } from 'luxon';
import { formatWireDateTime, parseWireDateTime, wallClockTime } from '../../api/dates.js';
import type { Result } from '../../api/result.js';
import type { RecurrenceRule as WireRecurrenceRuleSchema } from '../../api/schemas/reservations.js';
import { usableZone } from './query-dates.js';

export type RecurrenceType = 'none' | 'daily' | 'weekly' | 'monthly' | 'yearly';
export type MonthlyType = 'dayOfMonth' | 'dayOfWeek';

/** A resolved rule: defaults applied, so expansion never has to guess. */
export interface RecurrenceRule {
  readonly type: RecurrenceType;
  readonly interval: number;
  /** Set for monthly rules only. */
  readonly monthlyType: MonthlyType | null;
  /** 0 = Sunday … 6 = Saturday, sorted and unique; weekly rules only (never empty there). */
  readonly weekdays: readonly number[];
  /** Inclusive, a calendar date (`yyyy-MM-dd`) in `zone`; null for `none` only. */
  readonly terminationDate: string | null;
  /**
   * The zone the series repeats in and counts its days in: its booker's, as on real servers,
   * which lay a series out on the booking session's clock (not the schedule's); null for `none` only.
   */
  readonly zone: string | null;
}

/** The `recurrenceRule` member of a reservation body, before validation. */
export interface RecurrenceRuleInput {
  readonly type?: unknown;
  readonly interval?: unknown;
  readonly monthlyType?: unknown;
  readonly weekdays?: unknown;
  readonly repeatTerminationDate?: unknown;
}

export interface Instance {
  readonly start: DateTime;
  readonly end: DateTime;
}

export type RecurrenceResult<T> = Result<T, string>;

export const NO_RECURRENCE: RecurrenceRule = {
  type: 'none',
  interval: 1,
  monthlyType: null,
  weekdays: [],
  terminationDate: null,
  zone: null,
};

export const DEFAULT_OCCURRENCE_LIMIT = 1000;

// Real servers' texts where they have one; people recognise them.
export const RecurrenceError = {
  type: 'Invalid repeat type',
  interval: 'Invalid repeat interval',
  monthlyType: 'Invalid repeat monthly type',
  weekdays: 'Invalid repeat weekdays',
  terminationDate: 'Invalid repeat termination date',
  tooMany: (limit: number) => `Too many occurrences: a series is limited to ${limit}`,
} as const;

const REPEATING_TYPES: readonly RecurrenceType[] = ['daily', 'weekly', 'monthly', 'yearly'];
const CALENDAR_DATE = /^\d{4}-\d{2}-\d{2}$/;

const fail = (error: string): { ok: false; error: string } => ({ ok: false, error });

/** Sunday-based weekday (0–6) of a luxon DateTime (whose weekday is 1 = Monday … 7 = Sunday). */
const sundayWeekday = (date: DateTime): number => date.weekday % 7;

const isWeekday = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= 6;

const isInterval = (value: unknown): value is number => typeof value === 'number' && Number.isSafeInteger(value) && value >= 1;

/**
 * Validates a reservation body's recurrence rule against its first instance. Defaults: no rule or
 * type `none` → a single instance; interval 1; monthly by day of month; a weekly rule without
 * weekdays repeats on the first instance's weekday (as LibreBooking does). The rule repeats in
 * `zone`, the caller's: weekdays, days of the month and the termination date are the caller's.
 * The termination date may be a wire date-time or date; only its calendar date in `zone` counts.
 */
export function parseRecurrenceRule(
  input: RecurrenceRuleInput | null | undefined,
  firstStart: DateTime,
  zone: string,
): RecurrenceResult<RecurrenceRule> {
  if (input === null || input === undefined) return { ok: true, value: NO_RECURRENCE };
  if (typeof input !== 'object') return fail(RecurrenceError.type);
  const { type } = input;
  if (type === undefined || type === null || type === 'none') return { ok: true, value: NO_RECURRENCE };
  const repeating = REPEATING_TYPES.find((candidate) => candidate === type);
  if (repeating === undefined) return fail(RecurrenceError.type);

  const interval = input.interval ?? 1;
  if (!isInterval(interval)) return fail(RecurrenceError.interval);

  let monthlyType: MonthlyType | null = null;
  if (repeating === 'monthly') {
    const given = input.monthlyType ?? 'dayOfMonth';
    if (given !== 'dayOfMonth' && given !== 'dayOfWeek') return fail(RecurrenceError.monthlyType);
    monthlyType = given;
  }

  const localStart = firstStart.setZone(zone);
  let weekdays: number[] = [];
  if (repeating === 'weekly') {
    const given = input.weekdays ?? [];
    if (!Array.isArray(given) || !given.every(isWeekday)) return fail(RecurrenceError.weekdays);
    weekdays = given.length > 0 ? [...new Set(given)].sort((a, b) => a - b) : [sundayWeekday(localStart)];
  }

  const { repeatTerminationDate } = input;
  const termination = typeof repeatTerminationDate === 'string' ? parseWireDateTime(repeatTerminationDate, zone)?.setZone(zone) : null;
  const terminationDate = termination?.toISODate() ?? null;
  const firstDate = localStart.toISODate();
  // ISO calendar dates compare correctly as text.
  if (terminationDate === null || firstDate === null || terminationDate < firstDate) {
    return fail(RecurrenceError.terminationDate);
  }

  return { ok: true, value: { type: repeating, interval, monthlyType, weekdays, terminationDate, zone } };
}

/**
 * Every instance of a series, the first one included and first, sorted by start. Instances repeat
 * the first one's wall clock in the rule's zone (its booker's): same local start time and the same
 * local end time the same number of days later, so 09:00–10:00 stays 09:00–10:00 across DST while
 * its UTC offset changes. A start inside a DST gap moves forward by the gap (luxon), an ambiguous one takes
 * the later, standard-time instant. Days a rule cannot hit (the 31st in a short month, Feb 29 in a
 * common year, a 5th Tuesday that does not exist) are skipped, as LibreBooking skips them.
 * More than `limit` instances is an error rather than a silently shortened series.
 */
export function expandRecurrence(first: Instance, rule: RecurrenceRule, options: { limit?: number } = {}): RecurrenceResult<Instance[]> {
  if (rule.type === 'none') return { ok: true, value: [first] };
  const { zone } = rule;
  const start = zone === null ? null : first.start.setZone(zone);
  const end = zone === null ? null : first.end.setZone(zone);
  if (!start?.isValid || !end?.isValid) {
    // Zones and instants are checked before a rule is expanded; reaching this is a bug, not bad input.
    throw new RangeError(`Cannot expand a recurrence in zone ${zone}`);
  }
  const limit = options.limit ?? DEFAULT_OCCURRENCE_LIMIT;
  const instances: Instance[] = [{ start, end }];
  if (!isInterval(rule.interval)) return fail(RecurrenceError.interval);

  const firstDate = calendarDate(start);
  const termination =
    rule.terminationDate !== null && CALENDAR_DATE.test(rule.terminationDate)
      ? DateTime.fromISO(rule.terminationDate, { zone: 'utc' })
      : null;
  if (termination === null || !termination.isValid || termination < firstDate) {
    return fail(RecurrenceError.terminationDate);
  }

  const daySpan = calendarDate(end).diff(firstDate, 'days').days;
  const absoluteDuration = end.toMillis() - start.toMillis();
  for (const date of repeatDates(firstDate, rule, termination)) {
    if (instances.length >= limit) return fail(RecurrenceError.tooMany(limit));
    const instanceStart = atWallClock(date, start);
    let instanceEnd = atWallClock(date.plus({ days: daySpan }), end);
    // A DST gap can swallow the whole wall-clock span (02:00–03:00 on a spring-forward day becomes
    // 03:00–03:00); keeping the first instance's real length is the only non-empty answer.
    if (instanceEnd <= instanceStart) instanceEnd = instanceStart.plus({ milliseconds: absoluteDuration });
    instances.push({ start: instanceStart, end: instanceEnd });
  }
  return { ok: true, value: instances };
}

/** The calendar date of a zoned DateTime, as UTC midnight so date arithmetic never meets DST. */
function calendarDate(dt: DateTime): DateTime {
  return DateTime.utc(dt.year, dt.month, dt.day);
}

/** `date` at the wall-clock time of `timeOf`, in `timeOf`'s zone. */
function atWallClock(date: DateTime, timeOf: DateTime): DateTime {
  const { hour, minute, second, millisecond } = timeOf;
  return wallClockTime({ year: date.year, month: date.month, day: date.day, hour, minute, second, millisecond }, timeOf.zone.name);
}

/**
 * Calendar dates after the first one, ascending, up to the termination date. Each loop ends on its
 * period start passing the termination date, so a rule that rarely hits (Feb 29, 5th weekdays)
 * still terminates.
 */
function* repeatDates(first: DateTime, rule: RecurrenceRule, termination: DateTime): Generator<DateTime> {
  const { interval } = rule;
  switch (rule.type) {
    case 'none':
      return;
    case 'daily':
      for (let step = 1; ; step += 1) {
        const date = first.plus({ days: step * interval });
        if (!date.isValid || date > termination) return;
        yield date;
      }
    case 'weekly': {
      // Weeks start on Sunday and count from the first instance's week; days of that week before
      // the first instance are not part of the series.
      const firstWeek = first.minus({ days: sundayWeekday(first) });
      const weekdays = rule.weekdays.length > 0 ? rule.weekdays : [sundayWeekday(first)];
      for (let step = 0; ; step += 1) {
        const week = firstWeek.plus({ weeks: step * interval });
        if (!week.isValid || week > termination) return;
        for (const weekday of weekdays) {
          const date = week.plus({ days: weekday });
          if (date <= first) continue;
          if (date > termination) return;
          yield date;
        }
      }
    }
    case 'monthly': {
      const firstMonth = first.startOf('month');
      const ordinal = Math.ceil(first.day / 7);
      const weekday = sundayWeekday(first);
      for (let step = 1; ; step += 1) {
        const month = firstMonth.plus({ months: step * interval });
        if (!month.isValid || month > termination) return;
        const day = rule.monthlyType === 'dayOfWeek' ? 1 + ((weekday - sundayWeekday(month) + 7) % 7) + (ordinal - 1) * 7 : first.day;
        if (day > (month.daysInMonth ?? 0)) continue;
        const date = month.set({ day });
        if (date > termination) return;
        yield date;
      }
    }
    case 'yearly':
      for (let step = 1; ; step += 1) {
        const month = DateTime.utc(first.year + step * interval, first.month, 1);
        if (!month.isValid || month > termination) return;
        if (first.day > (month.daysInMonth ?? 0)) continue;
        const date = month.set({ day: first.day });
        if (date > termination) return;
        yield date;
      }
  }
}

type StoredRule = Partial<Record<keyof RecurrenceRule, unknown>>;

/** The JSON kept in `reservation_series.recurrence`. */
export function serializeRecurrenceRule(rule: RecurrenceRule): string {
  return JSON.stringify(rule);
}

/**
 * Reads `reservation_series.recurrence`. The column's default `{"type":"none"}` and anything that
 * is not a whole rule read as no recurrence: a damaged row should show a single reservation rather
 * than fail every read of it.
 */
export function readStoredRecurrenceRule(json: string): RecurrenceRule {
  let stored: StoredRule;
  try {
    const parsed: unknown = JSON.parse(json);
    if (typeof parsed !== 'object' || parsed === null) return NO_RECURRENCE;
    stored = parsed as StoredRule;
  } catch {
    return NO_RECURRENCE;
  }
  const type = REPEATING_TYPES.find((candidate) => candidate === stored.type);
  const { interval, monthlyType, weekdays, terminationDate, zone } = stored;
  if (
    type === undefined ||
    typeof zone !== 'string' ||
    !isInterval(interval) ||
    typeof terminationDate !== 'string' ||
    !CALENDAR_DATE.test(terminationDate) ||
    !Array.isArray(weekdays) ||
    !weekdays.every(isWeekday)
  ) {
    return NO_RECURRENCE;
  }
  return {
    type,
    interval,
    monthlyType: type === 'monthly' ? (monthlyType === 'dayOfWeek' ? 'dayOfWeek' : 'dayOfMonth') : null,
    weekdays: type === 'weekly' ? weekdays : [],
    terminationDate,
    zone,
  };
}

export type WireRecurrenceRule = Static<typeof WireRecurrenceRuleSchema>;

/**
 * The rule as GetReservation shows it. The termination date is sent as the midnight starting that
 * day in the rule's zone (its booker's), with that zone's offset: the instant real servers send
 * (they write it in UTC). Echoed back by its booker in an update it names the same date again.
 */
export function toWireRecurrenceRule(rule: RecurrenceRule): WireRecurrenceRule {
  if (rule.type === 'none' || rule.terminationDate === null || rule.zone === null) {
    return { type: 'none', interval: null, monthlyType: null, weekdays: [], repeatTerminationDate: null };
  }
  return {
    type: rule.type,
    interval: rule.interval,
    monthlyType: rule.monthlyType,
    weekdays: [...rule.weekdays],
    repeatTerminationDate: formatWireDateTime(DateTime.fromISO(rule.terminationDate, { zone: usableZone(rule.zone) })),
  };
}
