import { DateTime, FixedOffsetZone, IANAZone } from 'luxon';
import { formatWireDateTime, isValidTimeZone, parseWireDateTime } from '../../api/dates.js';

// Query strings decode `+` as a space, so a client that did not percent-encode its offset sends
// `2026-12-01T10:00:00 0100`. After a time of day a space can only have been that plus.
const SPACE_FOR_PLUS = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?) (\d{2}(?::?\d{2})?)$/;

/**
 * A date-time from a query parameter: offset-less text is read in `zone` (the caller's), and an
 * offset whose `+` arrived as a space is read as the `+` it was. Null when it is not a date-time.
 */
export function readQueryDateTime(text: string, zone: string): DateTime | null {
  const instant = readFullWireDateTime(text) ?? parseWireDateTime(text.trim().replace(SPACE_FOR_PLUS, '$1+$2'), zone);
  // Four-digit years only, in every zone: 9999-12-31T23:59 in one zone is the year 10000 in another,
  // which neither the wire form nor calendar arithmetic can hold.
  return instant !== null && instant.toUTC().year >= 1000 && instant.toUTC().year <= 9998 ? instant : null;
}

const FULL_WIRE_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})([+-])(\d{2}):?(\d{2})$/;

/**
 * The form the app and real servers write (`yyyy-MM-ddTHH:mm:ss+hhmm`), read without luxon's
 * ISO parser, which costs a twentieth of a booking: the same instant in the same fixed-offset
 * zone as `parseWireDateTime` gives. Undefined for anything else, and for out-of-range fields,
 * which are left to `parseWireDateTime` to judge.
 */
function readFullWireDateTime(text: string): DateTime | undefined {
  const fields = FULL_WIRE_DATE_TIME.exec(text);
  if (!fields) return undefined;
  const [year, month, day, hour, minute, second, , offsetHours, offsetMinutes] = fields.slice(1).map(Number) as number[];
  if (year! < 1000 || hour! > 23 || minute! > 59 || second! > 59 || offsetHours! > 18 || offsetMinutes! > 59) return undefined;
  const local = Date.UTC(year!, month! - 1, day!, hour!, minute!, second!);
  const date = new Date(local);
  if (date.getUTCMonth() !== month! - 1 || date.getUTCDate() !== day!) return undefined;
  const offset = (fields[7] === '-' ? -1 : 1) * (offsetHours! * 60 + offsetMinutes!);
  return DateTime.fromMillis(local - offset * 60_000, { zone: FixedOffsetZone.instance(offset) });
}

const zoneValidity = new Map<string, boolean>();

/**
 * A stored zone name, or UTC when the name is unknown, so one bad row cannot break every answer.
 * Answers are remembered: asking Intl costs a formatter per call, and the names are few.
 */
export function usableZone(zone: string): string {
  let valid = zoneValidity.get(zone);
  if (valid === undefined) {
    valid = isValidTimeZone(zone);
    zoneValidity.set(zone, valid);
  }
  return valid ? zone : 'UTC';
}

const DAY = 86_400_000;
const QUARTER_HOUR = 15 * 60_000;
const two = (value: number) => (value < 10 ? `0${value}` : String(value));

/**
 * `formatWireDateTime` for many epoch-millisecond instants in one zone, with the same output.
 * luxon's toFormat costs some 20 µs a call, which over a thousand resources is most of an answer's
 * time. Asking the zone for an offset costs a few µs too, so it is asked at both ends of the UTC
 * day an instant falls in and, when they agree, that offset serves the whole day (no zone changes
 * its offset and back within a day); on a day of change the same is done per quarter hour (offsets
 * change on quarter hours), and a quarter whose ends still disagree is resolved per instant.
 * Each distinct instant is written once.
 */
export function wireFormatter(zone: string): (instant: number) => string {
  const ianaZone = IANAZone.create(zone);
  const texts = new Map<number, string>();
  const steadyDays = new Map<number, number | null>();
  const steadyQuarters = new Map<number, number | null>();
  // The offset all through the block of `length` that holds `instant`, or null when it changes inside.
  const steadyOffset = (instant: number, length: number, known: Map<number, number | null>) => {
    const start = Math.floor(instant / length) * length;
    let offset = known.get(start);
    if (offset === undefined) {
      const first = ianaZone.offset(start);
      offset = first === ianaZone.offset(start + length - 1) ? first : null;
      known.set(start, offset);
    }
    return offset;
  };
  const offsetAt = (instant: number) =>
    steadyOffset(instant, DAY, steadyDays) ?? steadyOffset(instant, QUARTER_HOUR, steadyQuarters) ?? ianaZone.offset(instant);
  const write = (instant: number) => {
    const offset = offsetAt(instant);
    const local = new Date(instant + offset * 60_000);
    const year = local.getUTCFullYear();
    if (!Number.isFinite(year) || year < 1000 || year > 9999) return formatWireDateTime(DateTime.fromMillis(instant, { zone }));
    // As luxon writes `ZZZ`: hours and minutes truncated, so historical second offsets read alike.
    const sign = offset >= 0 ? '+' : '-';
    const offsetText = `${sign}${two(Math.trunc(Math.abs(offset / 60)))}${two(Math.trunc(Math.abs(offset % 60)))}`;
    return `${year}-${two(local.getUTCMonth() + 1)}-${two(local.getUTCDate())}T${two(local.getUTCHours())}:${two(local.getUTCMinutes())}:${two(local.getUTCSeconds())}${offsetText}`;
  };
  return (instant) => {
    let text = texts.get(instant);
    if (text === undefined) {
      text = ianaZone.isValid ? write(instant) : formatWireDateTime(DateTime.fromMillis(instant, { zone }));
      texts.set(instant, text);
    }
    return text;
  };
}

/**
 * `formatWireDateTime` of an instant in UTC, without luxon: answers write several per
 * reservation, and luxon's formatting (and the garbage it leaves) dominated long lists.
 */
export function formatWireUtc(instant: number): string {
  const date = new Date(instant);
  const year = date.getUTCFullYear();
  if (!Number.isFinite(year) || year < 1000 || year > 9999) return formatWireDateTime(DateTime.fromMillis(instant, { zone: 'utc' }));
  return `${year}-${two(date.getUTCMonth() + 1)}-${two(date.getUTCDate())}T${two(date.getUTCHours())}:${two(date.getUTCMinutes())}:${two(date.getUTCSeconds())}+0000`;
}
