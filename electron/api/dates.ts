import { DateTime, IANAZone } from 'luxon';

// The wire grammar is narrower than luxon's fromISO (which also takes week dates, ordinal dates,
// basic format, hour 24 and out-of-range offset minutes); anything outside it is treated as garbage
// rather than guessed at.
const WIRE_DATE_TIME =
  /^\d{4}-\d{2}-\d{2}(?:T(?:[01]\d|2[0-3]):[0-5]\d(?::[0-5]\d(?:[.,]\d+)?)?(?<offset>[zZ]|[+-](?<offsetHours>\d{2})(?::?(?<offsetMinutes>\d{2}))?)?)?$/;

// java.time's bound; real zones stay within -12:00..+14:00.
const MAX_OFFSET_HOURS = 18;

const WIRE_FORMAT = "yyyy-MM-dd'T'HH:mm:ssZZZ";

function matchWireDateTime(text: string): RegExpExecArray | null {
  const match = WIRE_DATE_TIME.exec(text.trim());
  if (match === null) return null;
  const { offsetHours, offsetMinutes } = match.groups ?? {};
  if (offsetHours !== undefined && Number(offsetHours) > MAX_OFFSET_HOURS) return null;
  if (offsetMinutes !== undefined && Number(offsetMinutes) > 59) return null;
  return match;
}

/** True when `text` is a wire date-time that names its own offset (`Z`, `+hhmm`, `+hh:mm`, `+hh`). */
export function hasExplicitOffset(text: string): boolean {
  return matchWireDateTime(text)?.groups?.['offset'] !== undefined;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The later instant when `local`'s wall-clock time happens twice (the clocks went back soon after
 * it). luxon picks one of the two from the zone's offset at the moment the process first asked it,
 * so on its own the same text would mean a different instant depending on the season it ran in.
 */
function laterOfAmbiguous(local: DateTime): DateTime {
  const offsetAfter = local.zone.offset(local.toMillis() + DAY_MS);
  if (offsetAfter >= local.offset) return local;
  // The same wall-clock time in the offset after the change, if it happens then too.
  const later = local.plus({ minutes: local.offset - offsetAfter });
  return later.offset === offsetAfter ? later : local;
}

/** A calendar day and a time of day, as a clock on the wall shows them. */
export interface WallClockParts {
  year: number;
  month: number;
  day: number;
  hour?: number;
  minute?: number;
  second?: number;
  millisecond?: number;
}

/**
 * The instant a wall clock in `zone` shows `parts`, decided the same way whenever it runs: a time in
 * a DST gap is shifted forward by the gap, and one that happens twice is the later instant.
 */
export function wallClockTime(parts: WallClockParts, zone: string): DateTime {
  const local = DateTime.fromObject(parts, { zone });
  return local.isValid ? laterOfAmbiguous(local) : local;
}

/**
 * Reads a wire date-time. Offset-ful input keeps the offset it was written with, so a value can be
 * shown the way the server meant it; offset-less input (as allowed in query parameters) is read in
 * `zone`. Nonexistent local times (DST gap) are shifted forward by the gap (luxon's behaviour) and
 * ambiguous ones (DST overlap) resolve to the later, standard-time instant.
 * Returns null for "" (servers send it for "no date"), malformed text, impossible calendar dates
 * and an unknown `zone`.
 */
export function parseWireDateTime(text: string, zone: string): DateTime | null {
  const match = matchWireDateTime(text);
  if (match === null) return null;
  try {
    const hasOffset = match.groups?.['offset'] !== undefined;
    const parsed = DateTime.fromISO(match[0], { zone, setZone: hasOffset });
    if (!parsed.isValid) return null;
    return hasOffset ? parsed : laterOfAmbiguous(parsed);
  } catch {
    // Only reachable if someone turned on luxon's global Settings.throwOnInvalid.
    return null;
  }
}

/** A date-time of an answer, or null where there is none: answers name their offset; one without is read in UTC, as lists are. */
export function wireInstant(text: string | null | undefined): DateTime | null {
  if (text === null || text === undefined || text === '') return null;
  return parseWireDateTime(text, 'UTC');
}

/**
 * Writes the one form every server accepts: `yyyy-MM-ddTHH:mm:ss+hhmm` in the DateTime's own zone,
 * `+0000` rather than `Z`. Sub-second precision is dropped (truncated), as the wire has none.
 */
export function formatWireDateTime(dt: DateTime): string {
  if (!dt.isValid) {
    // Sending luxon's "Invalid DateTime" text to a server would fail far from the cause.
    throw new RangeError(`Cannot format an invalid DateTime (${dt.invalidReason ?? 'unknown reason'})`);
  }
  return dt.toFormat(WIRE_FORMAT);
}

/** True for time zone names the runtime's Intl knows (IANA names, plus aliases such as `UTC`). */
export function isValidTimeZone(name: string): boolean {
  return IANAZone.isValidZone(name);
}
