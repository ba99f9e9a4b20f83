import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { formatWireDateTime, hasExplicitOffset, isValidTimeZone, parseWireDateTime, wallClockTime } from '../../electron/api/dates.js';
import { readingMoments, withLuxonNow } from '../support/luxon-now.js';

const BERLIN = 'Europe/Berlin';

/** ISO text with the DateTime's own offset, so assertions see both the instant and the offset kept. */
function isoOf(dt: DateTime | null): string | null {
  return dt === null ? null : dt.toISO();
}

describe('parseWireDateTime', () => {
  describe('offset-ful input keeps the written offset', () => {
    it.each([
      ['2026-12-01T15:00:00+0000', '2026-12-01T15:00:00.000Z', 0],
      ['2026-12-01T15:00:00-0000', '2026-12-01T15:00:00.000Z', 0],
      ['2026-12-01T15:00:00+00:00', '2026-12-01T15:00:00.000Z', 0],
      ['2026-12-01T15:00:00Z', '2026-12-01T15:00:00.000Z', 0],
      ['2026-12-01T15:00:00z', '2026-12-01T15:00:00.000Z', 0],
      ['2026-12-01T15:00:00+0100', '2026-12-01T15:00:00.000+01:00', 60],
      ['2026-12-01T15:00:00+01:00', '2026-12-01T15:00:00.000+01:00', 60],
      ['2026-12-01T15:00:00+01', '2026-12-01T15:00:00.000+01:00', 60],
      ['2026-12-01T15:00:00-0500', '2026-12-01T15:00:00.000-05:00', -300],
      ['2026-12-01T15:00:00+0530', '2026-12-01T15:00:00.000+05:30', 330],
      ['2026-12-01T15:00:00-09:30', '2026-12-01T15:00:00.000-09:30', -570],
      ['2026-12-01T15:00:00+1400', '2026-12-01T15:00:00.000+14:00', 840],
      ['2026-12-01T15:00+0100', '2026-12-01T15:00:00.000+01:00', 60],
      // Fractional seconds: luxon keeps milliseconds and truncates finer digits.
      ['2026-12-01T15:00:00.5Z', '2026-12-01T15:00:00.500Z', 0],
      ['2026-12-01T15:00:00.123+0000', '2026-12-01T15:00:00.123Z', 0],
      ['2026-12-01T15:00:00.123456789+05:30', '2026-12-01T15:00:00.123+05:30', 330],
      ['2026-12-01T15:00:00,25Z', '2026-12-01T15:00:00.250Z', 0],
      ['  2026-12-01T15:00:00+0000\n', '2026-12-01T15:00:00.000Z', 0],
    ])('%j → %s (offset %i min), whatever the fallback zone', (text, iso, offset) => {
      const parsed = parseWireDateTime(text, BERLIN);
      expect(isoOf(parsed)).toBe(iso);
      expect(parsed?.offset).toBe(offset);
    });
  });

  describe('offset-less input is read in the given zone', () => {
    it.each([
      ['2026-12-01T15:00:00', BERLIN, '2026-12-01T15:00:00.000+01:00'],
      ['2026-12-01T15:00', BERLIN, '2026-12-01T15:00:00.000+01:00'],
      ['2026-12-01T15:00:00.250', BERLIN, '2026-12-01T15:00:00.250+01:00'],
      ['2026-07-01T15:00:00', BERLIN, '2026-07-01T15:00:00.000+02:00'],
      ['2026-12-01', BERLIN, '2026-12-01T00:00:00.000+01:00'],
      ['2026-12-01T15:00:00', 'UTC', '2026-12-01T15:00:00.000Z'],
      ['2026-12-01T15:00:00', 'America/New_York', '2026-12-01T15:00:00.000-05:00'],
      ['2026-12-01T15:00:00', 'Asia/Kolkata', '2026-12-01T15:00:00.000+05:30'],
      ['2026-12-01', 'Asia/Kolkata', '2026-12-01T00:00:00.000+05:30'],
      ['2028-02-29', 'UTC', '2028-02-29T00:00:00.000Z'],
    ])('%j in %s → %s', (text, zone, iso) => {
      const parsed = parseWireDateTime(text, zone);
      expect(isoOf(parsed)).toBe(iso);
      expect(parsed?.zoneName).toBe(zone);
    });
  });

  describe('offset-less times around DST changes in Europe/Berlin', () => {
    it.each([
      // Spring forward 2026-03-29: 02:00 CET jumps to 03:00 CEST, so 02:00–02:59 never happen.
      // luxon moves a nonexistent local time forward by the size of the gap (one hour).
      ['just before the gap', '2026-03-29T01:59:00', '2026-03-29T01:59:00.000+01:00'],
      ['nonexistent 02:00', '2026-03-29T02:00:00', '2026-03-29T03:00:00.000+02:00'],
      ['nonexistent 02:30', '2026-03-29T02:30:00', '2026-03-29T03:30:00.000+02:00'],
      ['just after the gap', '2026-03-29T03:00:00', '2026-03-29T03:00:00.000+02:00'],
      // Fall back 2026-10-25: 03:00 CEST returns to 02:00 CET, so 02:00–02:59 happen twice.
      // An ambiguous local time is the later instant (standard time, +01:00), in any season.
      ['before the overlap', '2026-10-25T01:59:00', '2026-10-25T01:59:00.000+02:00'],
      ['ambiguous 02:00', '2026-10-25T02:00:00', '2026-10-25T02:00:00.000+01:00'],
      ['ambiguous 02:30', '2026-10-25T02:30:00', '2026-10-25T02:30:00.000+01:00'],
      ['after the overlap', '2026-10-25T03:00:00', '2026-10-25T03:00:00.000+01:00'],
      ['day of spring forward', '2026-03-29', '2026-03-29T00:00:00.000+01:00'],
      ['day of fall back', '2026-10-25', '2026-10-25T00:00:00.000+02:00'],
    ])('%s: %s → %s', (_label, text, iso) => {
      expect(isoOf(parseWireDateTime(text, BERLIN))).toBe(iso);
    });

    it('the ambiguous 02:30 is the second of the two 02:30s', () => {
      const parsed = parseWireDateTime('2026-10-25T02:30:00', BERLIN);
      const first = parseWireDateTime('2026-10-25T02:30:00+0200', BERLIN);
      expect(parsed?.toMillis()).toBe((first?.toMillis() ?? Number.NaN) + 60 * 60 * 1000);
    });

    it.each(readingMoments)('an ambiguous or nonexistent time means the same instant when read in %s', (_moment, readAt) =>
      withLuxonNow(readAt, () => {
        expect(isoOf(parseWireDateTime('2026-10-25T02:30:00', BERLIN))).toBe('2026-10-25T02:30:00.000+01:00');
        expect(isoOf(parseWireDateTime('2026-10-25T02:00:00', BERLIN))).toBe('2026-10-25T02:00:00.000+01:00');
        expect(isoOf(parseWireDateTime('2026-10-25T01:59:00', BERLIN))).toBe('2026-10-25T01:59:00.000+02:00');
        expect(isoOf(parseWireDateTime('2026-03-29T02:30:00', BERLIN))).toBe('2026-03-29T03:30:00.000+02:00');
        expect(isoOf(parseWireDateTime('2026-04-05T01:45:00', 'Australia/Lord_Howe'))).toBe('2026-04-05T01:45:00.000+10:30');
        expect(isoOf(wallClockTime({ year: 2026, month: 10, day: 25, hour: 2, minute: 30 }, BERLIN))).toBe('2026-10-25T02:30:00.000+01:00');
        expect(isoOf(wallClockTime({ year: 2026, month: 3, day: 29, hour: 2, minute: 30 }, BERLIN))).toBe('2026-03-29T03:30:00.000+02:00');
        expect(isoOf(wallClockTime({ year: 2026, month: 11, day: 1, hour: 1, minute: 30 }, 'America/New_York'))).toBe(
          '2026-11-01T01:30:00.000-05:00',
        );
        expect(isoOf(wallClockTime({ year: 2026, month: 7, day: 1 }, BERLIN))).toBe('2026-07-01T00:00:00.000+02:00');
      }),
    );
  });

  describe('rejects', () => {
    it.each([
      ['empty', ''],
      ['blank', '   '],
      ['garbage', 'tomorrow'],
      ['date with slashes', '2026/12/01'],
      ['space separator', '2026-12-01 15:00:00'],
      ['time only', 'T15:00:00'],
      ['hour only', '2026-12-01T15'],
      ['basic format', '20261201T150000Z'],
      ['week date', '2026-W49-2'],
      ['ordinal date', '2026-335'],
      ['two-digit year', '26-12-01T15:00:00Z'],
      ['offset on a bare date', '2026-12-01+0000'],
      ['Feb 30', '2026-02-30T15:00:00Z'],
      ['Feb 29 in a common year', '2026-02-29'],
      ['month 13', '2026-13-01'],
      ['day 00', '2026-12-00'],
      ['hour 24', '2026-12-01T24:00:00Z'],
      ['minute 60', '2026-12-01T15:60:00Z'],
      ['leap second', '2026-12-01T15:00:60Z'],
      ['offset minutes 60', '2026-12-01T15:00:00+0060'],
      ['offset +19:00', '2026-12-01T15:00:00+1900'],
      ['three-digit offset', '2026-12-01T15:00:00+010'],
      ['offset without sign', '2026-12-01T15:00:00 0100'],
      ['named zone suffix', '2026-12-01T15:00:00 UTC'],
      ['bracketed zone', '2026-12-01T15:00:00+01:00[Europe/Berlin]'],
      ['trailing dot', '2026-12-01T15:00:00.Z'],
      ['trailing junk', '2026-12-01T15:00:00+0000x'],
    ])('%s: %j', (_label, text) => {
      expect(parseWireDateTime(text, BERLIN)).toBeNull();
    });

    it.each(['Nowhere/Special', '', 'not a zone'])('offset-less input with unknown zone %j', (zone) => {
      expect(parseWireDateTime('2026-12-01T15:00:00', zone)).toBeNull();
    });

    it('an unknown zone does not matter when the text has an offset', () => {
      expect(isoOf(parseWireDateTime('2026-12-01T15:00:00+0100', 'Nowhere/Special'))).toBe('2026-12-01T15:00:00.000+01:00');
    });
  });
});

describe('hasExplicitOffset', () => {
  it.each([
    ['2026-12-01T15:00:00+0000', true],
    ['2026-12-01T15:00:00+00:00', true],
    ['2026-12-01T15:00:00Z', true],
    ['2026-12-01T15:00:00-05', true],
    ['2026-12-01T15:00:00.123-0500', true],
    ['2026-12-01T15:00:00', false],
    ['2026-12-01T15:00', false],
    // A bare date ends in "-01", which must not be mistaken for an offset.
    ['2026-12-01', false],
    ['', false],
    ['garbage+0000', false],
  ])('%j → %s', (text, expected) => {
    expect(hasExplicitOffset(text)).toBe(expected);
  });
});

describe('formatWireDateTime', () => {
  it.each([
    ['UTC', '2026-12-01T15:00:00+0000'],
    ['utc', '2026-12-01T15:00:00+0000'],
    ['Europe/Berlin', '2026-12-01T15:00:00+0100'],
    ['America/New_York', '2026-12-01T15:00:00-0500'],
    ['America/St_Johns', '2026-12-01T15:00:00-0330'],
    ['Asia/Kolkata', '2026-12-01T15:00:00+0530'],
    ['Asia/Kathmandu', '2026-12-01T15:00:00+0545'],
    ['Pacific/Kiritimati', '2026-12-01T15:00:00+1400'],
    ['UTC+3', '2026-12-01T15:00:00+0300'],
    ['UTC-9:30', '2026-12-01T15:00:00-0930'],
  ])('wall clock 15:00 in %s → %s', (zone, expected) => {
    const dt = DateTime.fromObject({ year: 2026, month: 12, day: 1, hour: 15 }, { zone });
    expect(formatWireDateTime(dt)).toBe(expected);
  });

  it('uses the DST offset in summer', () => {
    const dt = DateTime.fromObject({ year: 2026, month: 7, day: 1, hour: 9 }, { zone: 'America/New_York' });
    expect(formatWireDateTime(dt)).toBe('2026-07-01T09:00:00-0400');
  });

  it('drops milliseconds without rounding', () => {
    const dt = DateTime.fromObject({ year: 2026, month: 12, day: 31, hour: 23, minute: 59, second: 59, millisecond: 999 }, { zone: 'UTC' });
    expect(formatWireDateTime(dt)).toBe('2026-12-31T23:59:59+0000');
  });

  it('never writes Z', () => {
    expect(formatWireDateTime(DateTime.fromMillis(0, { zone: 'UTC' }))).toBe('1970-01-01T00:00:00+0000');
  });

  it('refuses an invalid DateTime instead of sending "Invalid DateTime"', () => {
    expect(() => formatWireDateTime(DateTime.invalid('test'))).toThrow(RangeError);
  });
});

describe('round trips', () => {
  it.each([
    '2026-12-01T15:00:00+0000',
    '2026-12-01T15:00:00+0100',
    '2026-12-01T15:00:00-0500',
    '2026-12-01T15:00:00+0530',
    '2026-12-01T00:00:00-0930',
    '2026-03-29T03:00:00+0200',
    '2026-10-25T02:30:00+0200',
    '2026-10-25T02:30:00+0100',
    '2028-02-29T23:59:59+1400',
  ])('canonical %s survives parse → format unchanged', (text) => {
    const parsed = parseWireDateTime(text, 'Asia/Tokyo');
    expect(parsed).not.toBeNull();
    expect(formatWireDateTime(parsed as DateTime)).toBe(text);
  });

  it.each([
    ['2026-12-01T15:00:00Z', '2026-12-01T15:00:00+0000'],
    ['2026-12-01T15:00:00+00:00', '2026-12-01T15:00:00+0000'],
    ['2026-12-01T15:00:00-00:00', '2026-12-01T15:00:00+0000'],
    ['2026-12-01T15:00:00+05:30', '2026-12-01T15:00:00+0530'],
    ['2026-12-01T15:00:00.999-05', '2026-12-01T15:00:00-0500'],
    ['2026-12-01T15:00', '2026-12-01T15:00:00+0100'],
    ['2026-12-01', '2026-12-01T00:00:00+0100'],
    ['2026-03-29T02:30:00', '2026-03-29T03:30:00+0200'],
    ['2026-10-25T02:30:00', '2026-10-25T02:30:00+0100'],
  ])('tolerated %j is written back canonically as %s (Berlin for offset-less)', (text, canonical) => {
    const parsed = parseWireDateTime(text, BERLIN);
    expect(parsed).not.toBeNull();
    expect(formatWireDateTime(parsed as DateTime)).toBe(canonical);
  });

  it.each(['UTC', 'Europe/Berlin', 'America/New_York', 'Asia/Kolkata', 'Australia/Lord_Howe'])(
    'format → parse keeps the instant and the offset in %s',
    (zone) => {
      let dt = DateTime.fromObject({ year: 2026, month: 1, day: 1 }, { zone });
      for (let step = 0; step < 365 * 4; step += 1) {
        dt = dt.plus({ hours: 6 });
        const back = parseWireDateTime(formatWireDateTime(dt), 'UTC');
        expect(back?.toMillis()).toBe(dt.toMillis());
        expect(back?.offset).toBe(dt.offset);
      }
    },
  );
});

describe('isValidTimeZone', () => {
  it.each([
    ['Europe/Berlin', true],
    ['America/New_York', true],
    ['Asia/Kolkata', true],
    ['UTC', true],
    ['Etc/GMT+5', true],
    ['', false],
    ['Nowhere/Special', false],
    ['not a zone', false],
    // luxon-only names are not zone names a server would store.
    ['local', false],
    ['system', false],
  ])('%j → %s', (name, expected) => {
    expect(isValidTimeZone(name)).toBe(expected);
  });
});
