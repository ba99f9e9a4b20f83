import type { Result } from './result.js';

const MINUTES_PER_HOUR = 60;
const MINUTES_PER_DAY = 24 * MINUTES_PER_HOUR;
const SECONDS_PER_MINUTE = 60;

type DurationUnit = 'day' | 'hour' | 'minute';

const MINUTES_PER_UNIT: Record<DurationUnit, number> = {
  day: MINUTES_PER_DAY,
  hour: MINUTES_PER_HOUR,
  minute: 1,
};

interface DayHourMinute {
  days: number;
  hours: number;
  minutes: number;
}

function assertWholeMinutes(minutes: number): void {
  if (!Number.isSafeInteger(minutes) || minutes < 0) {
    // Both wire forms only carry whole, non-negative minutes; anything else is a caller bug.
    throw new RangeError(`Expected a whole, non-negative number of minutes, got ${minutes}`);
  }
}

function splitMinutes(total: number): DayHourMinute {
  return {
    days: Math.floor(total / MINUTES_PER_DAY),
    hours: Math.floor((total % MINUTES_PER_DAY) / MINUTES_PER_HOUR),
    minutes: total % MINUTES_PER_HOUR,
  };
}

/** Writes a duration as servers do: `1 days 2 hours 30 minutes`, always plural, zero units left out. */
export function formatHumanDuration(minutes: number): string {
  assertWholeMinutes(minutes);
  const parts = splitMinutes(minutes);
  const words: string[] = [];
  if (parts.days > 0) words.push(`${parts.days} days`);
  if (parts.hours > 0) words.push(`${parts.hours} hours`);
  if (parts.minutes > 0) words.push(`${parts.minutes} minutes`);
  return words.length > 0 ? words.join(' ') : '0 minutes';
}

/** The spec's form for a reservation's duration and buffers: `<n> hours <n> minutes`, both units always. */
export function formatHoursAndMinutes(minutes: number): string {
  assertWholeMinutes(minutes);
  return `${Math.floor(minutes / MINUTES_PER_HOUR)} hours ${minutes % MINUTES_PER_HOUR} minutes`;
}

/** The spec's form for a resource's length limits: `<n> minutes`. */
export function formatMinutes(minutes: number): string {
  assertWholeMinutes(minutes);
  return `${minutes} minutes`;
}

const HUMAN_DURATION_PART = /\s*(\d+)\s*(day|hour|minute)s?(?=\s|$)/iy;

/**
 * Reads a human duration into minutes. Tolerant of singular units, any order, case and spacing,
 * because server versions and locales differ in what they emit; each unit may appear once.
 * Returns null for "" and for anything that is not such a duration.
 */
export function parseHumanDuration(text: string): number | null {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  const seen = new Set<DurationUnit>();
  let total = 0;
  HUMAN_DURATION_PART.lastIndex = 0;
  while (HUMAN_DURATION_PART.lastIndex < trimmed.length) {
    const match = HUMAN_DURATION_PART.exec(trimmed);
    if (match === null) return null;
    const unit = match[2]?.toLowerCase() as DurationUnit;
    if (seen.has(unit)) return null;
    seen.add(unit);
    total += Number(match[1]) * MINUTES_PER_UNIT[unit];
  }
  return Number.isSafeInteger(total) ? total : null;
}

/** The minutes, null when the field was empty (no limit); `ok: false` means it was unreadable. */
export type ResourceIntervalParse = Result<number | null, undefined>;

const INVALID: ResourceIntervalParse = { ok: false, error: undefined };
const EMPTY: ResourceIntervalParse = { ok: true, value: null };

const DAY_HOUR_MINUTE = /^(?:(\d+)d)?\s*(?:(\d+)h)?\s*(?:(\d+)m)?$/i;
const PLAIN_SECONDS = /^\d+$/;

function fromSeconds(seconds: number): ResourceIntervalParse {
  // Minutes are the finest unit anywhere else in the API, so a remainder means a bad value, not
  // something to round silently.
  if (!Number.isSafeInteger(seconds) || seconds < 0 || seconds % SECONDS_PER_MINUTE !== 0) {
    return INVALID;
  }
  return { ok: true, value: seconds / SECONDS_PER_MINUTE };
}

/**
 * Reads a resource interval (minLength, maxLength, bufferTime, minNotice…, maxNotice): either
 * `<d>d<h>h<m>m` with any part omitted, or a plain number of seconds (as string or number).
 * Seconds must be whole minutes.
 */
export function parseResourceInterval(value: string | number | null | undefined): ResourceIntervalParse {
  if (value === null || value === undefined) return EMPTY;
  if (typeof value === 'number') return fromSeconds(value);
  const trimmed = value.trim();
  if (trimmed === '') return EMPTY;
  if (PLAIN_SECONDS.test(trimmed)) return fromSeconds(Number(trimmed));
  const match = DAY_HOUR_MINUTE.exec(trimmed);
  if (match === null) return INVALID;
  const [, days = '0', hours = '0', minutes = '0'] = match;
  const total = Number(days) * MINUTES_PER_DAY + Number(hours) * MINUTES_PER_HOUR + Number(minutes);
  return Number.isSafeInteger(total) ? { ok: true, value: total } : INVALID;
}

/** Writes the full `0d0h30m` form servers emit; null (no limit) becomes "". */
export function formatResourceInterval(minutes: number | null): string {
  if (minutes === null) return '';
  assertWholeMinutes(minutes);
  const parts = splitMinutes(minutes);
  return `${parts.days}d${parts.hours}h${parts.minutes}m`;
}
