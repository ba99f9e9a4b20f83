import { describe, expect, test } from 'vitest';
import { defaultTimeFormatRules, durationWords, usableLocale, zoneWords } from '$bridge/format.js';
import { createDateFormat, zoneNote } from '../../renderer/src/lib/format.js';

const britain = { locale: 'en-GB', hourCycle: 'h23' } as const;
const berlin = createDateFormat('Europe/Berlin', britain);
const now = Date.parse('2025-11-26T23:30:00+01:00');
/** Intl keeps AM/PM and range dashes to their times with narrow and thin spaces; compared as plain ones. */
const plain = (text: string) => text.replace(/[\u202f\u2009]/g, ' ');

describe('format', () => {
  test('times are written in the account timezone, not the machine one, by the rules of the snapshot', () => {
    expect(berlin.time('2025-11-26T13:05:00Z')).toBe('14:05');
    expect(berlin.time('2025-11-26T08:05:00Z')).toBe('09:05');
    expect(plain(createDateFormat('America/New_York', { locale: 'en-US', hourCycle: 'h12' }).time('2025-11-26T13:05:00Z'))).toBe('8:05 AM');
    expect(berlin.timeRange('2025-11-26T13:00:00Z', '2025-11-26T14:30:00Z')).toMatch(/^14:00\s*–\s*15:30$/);
    // Across midnight, two times, not two dates.
    expect(berlin.timeRange('2025-11-26T22:30:00Z', '2025-11-26T23:30:00Z')).toBe('23:30–00:30');
    expect(
      plain(
        createDateFormat('America/New_York', { locale: 'en-US', hourCycle: 'h12' }).timeRange(
          '2025-11-27T04:30:00Z',
          '2025-11-27T05:00:00Z',
        ),
      ),
    ).toBe('11:30 PM – 12:00 AM');
  });

  test('the clock follows the OS, not the locale: a 12-hour British clock, a 24-hour American one', () => {
    expect(plain(createDateFormat('Europe/Berlin', { locale: 'en-GB', hourCycle: 'h12' }).time('2025-11-26T13:05:00Z'))).toMatch(
      /^0?2:05 pm$/i,
    );
    expect(createDateFormat('Europe/Berlin', { locale: 'en-US', hourCycle: 'h23' }).time('2025-11-26T13:05:00Z')).toBe('14:05');
  });

  test("a resource's zone is named where its clock differs from the user's, and only then", () => {
    expect(berlin.time('2025-11-26T11:30:00Z', 'Europe/London')).toBe('11:30 London time');
    expect(berlin.timeRange('2025-11-26T11:30:00Z', '2025-11-26T12:30:00Z', 'Europe/London')).toMatch(/^11:30\s*–\s*12:30 London time$/);
    expect(berlin.time('2025-11-26T11:30:00Z', 'America/New_York')).toBe('06:30 New York time');
    // Rome and Berlin keep the same clock: nothing to name.
    expect(berlin.time('2025-11-26T11:30:00Z', 'Europe/Rome')).toBe('12:30');
    expect(berlin.time('2025-11-26T11:30:00Z', 'Europe/Berlin')).toBe('12:30');
    // A zone Intl does not know is not guessed at.
    expect(berlin.time('2025-11-26T11:30:00Z', 'Not/AZone')).toBe('12:30');
  });

  test('day headings are relative near today, by calendar day in the timezone', () => {
    expect(berlin.dayHeading('2025-11-26T08:00:00+01:00', now)).toBe('Today');
    // 00:30 in Berlin is already tomorrow although it is still the 26th in UTC.
    expect(berlin.dayHeading('2025-11-26T23:30:00Z', now)).toBe('Tomorrow');
    expect(berlin.dayHeading('2025-11-25T10:00:00+01:00', now)).toBe('Yesterday');
    expect(berlin.dayHeading('2025-11-29T10:00:00+01:00', now)).toBe('Saturday 29 November');
    expect(createDateFormat('Europe/Berlin', { locale: 'de', hourCycle: 'h23' }).dayHeading('2025-11-27T10:00:00+01:00', now)).toBe(
      'Morgen',
    );
    expect(berlin.dayKey('2025-11-26T23:30:00Z')).toBe('2025-11-27');
  });

  test('short dates and weekday names, for sentences', () => {
    expect(berlin.shortDate('2025-11-26T23:30:00Z')).toBe('Thu 27 Nov');
    expect(createDateFormat('Europe/Berlin', { locale: 'en-US', hourCycle: 'h12' }).shortDate('2025-11-26T10:00:00Z')).toBe('Wed Nov 26');
    expect([0, 1, 6].map((day) => berlin.weekday(day))).toEqual(['Sun', 'Mon', 'Sat']);
  });

  test('countdowns read "in 12 min", "5 min ago", "now", in the same words as durations', () => {
    const base = Date.parse('2025-11-26T10:00:00Z');
    expect(berlin.countdown('2025-11-26T10:12:00Z', base)).toBe('in 12 min');
    expect(berlin.countdown('2025-11-26T09:55:00Z', base)).toBe('5 min ago');
    expect(berlin.countdown('2025-11-26T10:00:20Z', base)).toBe('now');
    expect(berlin.countdown('2025-11-26T11:30:00Z', base)).toBe('in 1 h 30 min');
    expect(berlin.countdown('2025-11-26T13:00:00Z', base)).toBe('in 3 h');
    expect(berlin.countdown('2025-11-29T10:00:00Z', base)).toBe('in 3 days');
  });

  test('durations are the same words everywhere: "30 min", "1 h", "1 h 30 min"', () => {
    expect([30, 60, 90, 0, 240, 59.6, -5].map(durationWords)).toEqual(['30 min', '1 h', '1 h 30 min', '0 min', '4 h', '1 h', '0 min']);
    expect(createDateFormat('Europe/Berlin', { locale: 'de', hourCycle: 'h23' }).duration(90)).toBe('1 h 30 min');
  });
});

describe('the rules from the OS', () => {
  test.each([
    ['en_GB', 'en-GB'],
    ['de_DE@rg=chzzzz', 'de-DE'],
    ['en-US.UTF-8', 'en-US'],
    ['', undefined],
    ['not a locale!', undefined],
  ])('locale %j reads as %j', (given, expected) => {
    expect(usableLocale(given)).toBe(expected);
  });

  test("the hour cycle is the locale's own", () => {
    expect(defaultTimeFormatRules('en-GB')).toEqual({ locale: 'en-GB', hourCycle: 'h23' });
    expect(defaultTimeFormatRules('en-US')).toEqual({ locale: 'en-US', hourCycle: 'h12' });
    expect(defaultTimeFormatRules('not a locale!').locale).toBe(new Intl.DateTimeFormat().resolvedOptions().locale);
  });

  test.each([
    ['Europe/London', 'London time'],
    ['America/Argentina/Buenos_Aires', 'Buenos Aires time'],
    ['UTC', 'UTC time'],
    ['Etc/GMT+2', 'GMT+2 time'],
  ])('zone %s is named %j', (zone, words) => {
    expect(zoneWords(zone)).toBe(words);
  });
});

describe('the one zone label of a screen', () => {
  const rules = defaultTimeFormatRules('en-GB');
  const winter = Date.parse('2025-11-26T10:00:00Z');

  test("is said when the account's clock is not the device's, and not when it shows the same time", () => {
    expect(zoneNote(createDateFormat('Europe/London', rules), winter, 'Europe/Berlin')).toBe('Times in London time');
    expect(zoneNote(createDateFormat('Europe/Berlin', rules), winter, 'Europe/Berlin')).toBeNull();
    // Another zone name, the same clock that day.
    expect(zoneNote(createDateFormat('Europe/Paris', rules), winter, 'Europe/Berlin')).toBeNull();
  });
});
