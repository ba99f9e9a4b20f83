/**
 * Add to calendar: one reservation as an iCalendar file (RFC 5545) that calendar apps import as
 * one event. Built from what the popover has, so it needs nothing from the server: the reference
 * number makes the UID (importing it again updates the same event), times are written in UTC
 * (no VTIMEZONE needed), text is escaped and long lines folded, every line ends with CRLF.
 * An occurrence of a series is exported as itself: the server's rule is not Perch's to copy.
 */
import type { ReservationView } from '$bridge/contract.js';
import { nameOf } from './reservation-status.js';

export interface CalendarFile {
  /** A file name for the download: the reservation's name, safe on every OS. */
  fileName: string;
  text: string;
}

/** `20261201T140000Z`. */
export function utcStamp(ms: number): string {
  return new Date(ms)
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z')
    .replace(/[-:]/g, '');
}

/** TEXT values (RFC 5545 3.3.11): backslash, semicolon, comma and line breaks escaped. */
export function escapeText(text: string): string {
  return text
    .replace(/\\/g, '\\\\')
    .replace(/;/g, '\\;')
    .replace(/,/g, '\\,')
    .replace(/\r\n|\r|\n/g, '\\n');
}

const encoder = new TextEncoder();

/** A content line folded at 75 octets (RFC 5545 3.1), never inside a character; CRLF after each part. */
export function foldLine(line: string): string {
  const parts: string[] = [];
  let part = '';
  let octets = 0;
  for (const character of line) {
    const size = encoder.encode(character).length;
    // Continuation lines begin with a space, which counts toward their 75.
    if (octets + size > 75) {
      parts.push(part);
      part = ' ';
      octets = 1;
    }
    part += character;
    octets += size;
  }
  parts.push(part);
  return parts.map((folded) => `${folded}\r\n`).join('');
}

export function calendarFile(reservation: ReservationView, options: { nowMs: number; description?: string }): CalendarFile {
  const name = nameOf(reservation);
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Perch//Perch//EN',
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    'BEGIN:VEVENT',
    `UID:${escapeText(reservation.referenceNumber)}@perch`,
    `DTSTAMP:${utcStamp(options.nowMs)}`,
    `DTSTART:${utcStamp(Date.parse(reservation.start))}`,
    `DTEND:${utcStamp(Date.parse(reservation.end))}`,
    `SUMMARY:${escapeText(name)}`,
    `LOCATION:${escapeText(reservation.resourceName)}`,
    ...(options.description ? [`DESCRIPTION:${escapeText(options.description)}`] : []),
    `STATUS:${reservation.isPendingApproval ? 'TENTATIVE' : 'CONFIRMED'}`,
    'END:VEVENT',
    'END:VCALENDAR',
  ];
  const safeName =
    name
      .replace(/[\\/:*?"<>|\u0000-\u001f]+/g, ' ')
      .replace(/\s+/g, ' ')
      .trim()
      .slice(0, 80) || 'Reservation';
  return { fileName: `${safeName}.ics`, text: lines.map(foldLine).join('') };
}
