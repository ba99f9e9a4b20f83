import { describe, expect, test } from 'vitest';
import { calendarFile, escapeText, foldLine, utcStamp } from '../../renderer/src/lib/calendar-file.js';
import { reservationView } from '../support/snapshots.js';

const booking = reservationView({
  referenceNumber: '6717a1c2d3e4f123456789',
  title: 'Design review; budget, plans',
  resourceName: 'Thames (1.01)',
  start: '2026-12-01T14:00:00.000+00:00',
  end: '2026-12-01T15:30:00.000+00:00',
});
const nowMs = Date.parse('2026-11-30T09:15:42.123Z');

/** The file's lines, unfolded (a CRLF and a space join a folded line again). */
const unfolded = (text: string) => text.replace(/\r\n /g, '').split('\r\n');

describe('Add to calendar: one reservation as an iCalendar file', () => {
  test('one VEVENT with the UID from the reference number, times in UTC, escaped text, CRLF line ends', () => {
    const file = calendarFile(booking, { nowMs });
    expect(file.text.endsWith('\r\n')).toBe(true);
    // Every line break is a CRLF; none on its own.
    expect(file.text.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
    expect(unfolded(file.text)).toEqual([
      'BEGIN:VCALENDAR',
      'VERSION:2.0',
      'PRODID:-//Perch//Perch//EN',
      'CALSCALE:GREGORIAN',
      'METHOD:PUBLISH',
      'BEGIN:VEVENT',
      'UID:6717a1c2d3e4f123456789@perch',
      'DTSTAMP:20261130T091542Z',
      'DTSTART:20261201T140000Z',
      'DTEND:20261201T153000Z',
      'SUMMARY:Design review\\; budget\\, plans',
      'LOCATION:Thames (1.01)',
      'STATUS:CONFIRMED',
      'END:VEVENT',
      'END:VCALENDAR',
      '',
    ]);
    expect(file.fileName).toBe('Design review; budget, plans.ics');
  });

  test('times given with any offset are written as the same moment in UTC', () => {
    const tokyo = reservationView({ start: '2026-12-02T08:30:00+09:00', end: '2026-12-02T09:00:00+09:00' });
    const lines = unfolded(calendarFile(tokyo, { nowMs }).text);
    expect(lines).toContain('DTSTART:20261201T233000Z');
    expect(lines).toContain('DTEND:20261202T000000Z');
    expect(utcStamp(Date.parse('2026-06-01T00:00:00.999+02:00'))).toBe('20260531T220000Z');
  });

  test('an untitled booking goes by its resource; one awaiting approval is tentative; a description keeps its lines, escaped', () => {
    const untitled = reservationView({
      title: '  ',
      resourceName: 'Desk 7 / east',
      isPendingApproval: true,
      start: booking.start,
      end: booking.end,
    });
    const file = calendarFile(untitled, { nowMs, description: 'Bring the plans\nand C:\\notes' });
    const lines = unfolded(file.text);
    expect(lines).toContain('SUMMARY:Desk 7 / east');
    expect(lines).toContain('STATUS:TENTATIVE');
    expect(lines).toContain('DESCRIPTION:Bring the plans\\nand C:\\\\notes');
    expect(file.fileName).toBe('Desk 7 east.ics');
  });

  test('long lines are folded at 75 octets, never inside a character', () => {
    const long = `SUMMARY:${'Réunion ✓ '.repeat(20)}`;
    const folded = foldLine(long);
    const parts = folded.split('\r\n').slice(0, -1);
    expect(parts.length).toBeGreaterThan(2);
    for (const part of parts) expect(new TextEncoder().encode(part).length).toBeLessThanOrEqual(75);
    for (const part of parts.slice(1)) expect(part.startsWith(' ')).toBe(true);
    expect(folded.replace(/\r\n /g, '').replace(/\r\n$/, '')).toBe(long);
    expect(foldLine('SHORT:line')).toBe('SHORT:line\r\n');
  });

  test('escapes backslashes before the characters it escapes', () => {
    expect(escapeText('a\\b;c,d\r\ne\nf')).toBe('a\\\\b\\;c\\,d\\ne\\nf');
  });
});
