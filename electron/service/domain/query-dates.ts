import type { DateTime } from 'luxon';
import { isValidTimeZone, parseWireDateTime } from '../../api/dates.js';

// Query strings decode `+` as a space, so a client that did not percent-encode its offset sends
// `2026-12-01T10:00:00 0100`. After a time of day a space can only have been that plus.
const SPACE_FOR_PLUS = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?) (\d{2}(?::?\d{2})?)$/;

const PLAIN_DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * A date-time from a query parameter: offset-less text is read in `zone` (the caller's), and an
 * offset whose `+` arrived as a space is read as the `+` it was. Null when it is not a date-time.
 */
export function readQueryDateTime(text: string, zone: string): DateTime | null {
  return parseWireDateTime(text.trim().replace(SPACE_FOR_PLUS, '$1+$2'), zone);
}

/** True for a bare `yyyy-MM-dd`, which names a calendar day rather than an instant. */
export const isPlainDate = (text: string): boolean => PLAIN_DATE.test(text.trim());

/** A stored zone name, or UTC when the name is unknown, so one bad row cannot break every answer. */
export const usableZone = (zone: string): string => (isValidTimeZone(zone) ? zone : 'UTC');
