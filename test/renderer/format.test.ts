import { describe, expect, test } from 'vitest';
import { createDateFormat } from '../../renderer/src/lib/format.js';

const berlin = createDateFormat('Europe/Berlin', 'en-GB');
const now = Date.parse('2025-11-26T23:30:00+01:00');

describe('format', () => {
  test('times are written in the account timezone, not the machine one', () => {
    expect(berlin.time('2025-11-26T13:05:00Z')).toBe('14:05');
    expect(createDateFormat('America/New_York', 'en-US').time('2025-11-26T13:05:00Z')).toBe('8:05 AM');
    expect(berlin.timeRange('2025-11-26T13:00:00Z', '2025-11-26T14:30:00Z')).toMatch(/^14:00\s*–\s*15:30$/);
  });

  test('day headings are relative near today, by calendar day in the timezone', () => {
    expect(berlin.dayHeading('2025-11-26T08:00:00+01:00', now)).toBe('Today');
    // 00:30 in Berlin is already tomorrow although it is still the 26th in UTC.
    expect(berlin.dayHeading('2025-11-26T23:30:00Z', now)).toBe('Tomorrow');
    expect(berlin.dayHeading('2025-11-25T10:00:00+01:00', now)).toBe('Yesterday');
    expect(berlin.dayHeading('2025-11-29T10:00:00+01:00', now)).toBe('Saturday 29 November');
    expect(createDateFormat('Europe/Berlin', 'de').dayHeading('2025-11-27T10:00:00+01:00', now)).toBe('Morgen');
    expect(berlin.dayKey('2025-11-26T23:30:00Z')).toBe('2025-11-27');
  });

  test('countdowns read "in 12 min" and "5 min ago"', () => {
    const base = Date.parse('2025-11-26T10:00:00Z');
    expect(berlin.countdown('2025-11-26T10:12:00Z', base)).toBe('in 12 min');
    expect(berlin.countdown('2025-11-26T09:55:00Z', base)).toBe('5 min ago');
    expect(berlin.countdown('2025-11-26T10:00:20Z', base)).toBe('this minute');
    expect(berlin.countdown('2025-11-26T13:00:00Z', base)).toBe('in 3 hr');
    expect(berlin.countdown('2025-11-29T10:00:00Z', base)).toBe('in 3 days');
  });

  test("durations in the locale's own short units", () => {
    const us = createDateFormat('Europe/Berlin', 'en-US');
    expect(us.duration(30)).toBe('30 min');
    expect(us.duration(60)).toBe('1 hr');
    expect(us.duration(90)).toBe('1 hr 30 min');
    expect(createDateFormat('Europe/Berlin', 'de').duration(90)).toBe('1 Std. 30 Min.');
  });
});
