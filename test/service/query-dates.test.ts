import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { formatWireDateTime, parseWireDateTime } from '../../electron/api/dates.js';
import { readQueryDateTime, usableZone, wireFormatter } from '../../electron/service/domain/query-dates.js';

describe('readQueryDateTime', () => {
  it.each([
    ['2026-12-01T10:00:00+0100', '2026-12-01T10:00:00+0100'],
    ['2026-12-01T10:00:00 0100', '2026-12-01T10:00:00+0100'],
    ['2026-12-01T10:00 01:00', '2026-12-01T10:00:00+0100'],
    [' 2026-12-01T10:00:00 0530 ', '2026-12-01T10:00:00+0530'],
    ['2026-12-01T10:00:00-0500', '2026-12-01T10:00:00-0500'],
    ['2026-12-01T10:00:00Z', '2026-12-01T10:00:00+0000'],
    ['2026-12-01T10:00:00', '2026-12-01T10:00:00-0500'],
    ['2026-12-01', '2026-12-01T00:00:00-0500'],
  ])('reads %j as %s (offset-less in New York)', (text, expected) => {
    const read = readQueryDateTime(text, 'America/New_York');
    expect(read && formatWireDateTime(read)).toBe(expected);
  });

  it.each(['', 'now', '2026-12-01 10:00:00', '2026-12-01T10:00:00 99', '2026-12-01T10:00:00  0100', '2026-02-30', '2026-12-01 0100'])(
    'refuses %j',
    (text) => {
      expect(readQueryDateTime(text, 'UTC')).toBeNull();
    },
  );
});

describe('readQueryDateTime on the full wire form', () => {
  it.each([
    '2026-12-01T10:00:00+0100',
    '2026-12-01T10:00:00+01:00',
    '2026-03-29T02:30:00+0200',
    '2026-12-01T23:59:59-1130',
    '2026-12-01T00:00:00+0000',
    '2026-12-01T00:00:00-0000',
    '2024-02-29T12:00:00+1800',
    '2025-02-29T12:00:00+0100',
    '2026-12-01T24:00:00+0100',
    '2026-12-01T10:00:00+1900',
    '2026-12-01T10:00:00+0160',
  ])('reads %j exactly as the wire parser does', (text) => {
    const read = readQueryDateTime(text, 'America/New_York');
    const expected = parseWireDateTime(text, 'America/New_York');
    if (expected === null) return expect(read).toBeNull();
    expect(read!.toMillis()).toBe(expected.toMillis());
    expect(read!.zone.equals(expected.zone)).toBe(true);
    expect(formatWireDateTime(read!)).toBe(formatWireDateTime(expected));
  });

  it.each(['0999-12-01T10:00:00+0100', '9999-12-31T23:00:00-0200', '0000-01-01T00:00:00+0000', '9999-06-01'])(
    'refuses %j: its year, in UTC, has not four digits or is the last one',
    (text) => expect(readQueryDateTime(text, 'America/New_York')).toBeNull(),
  );
});

describe('usableZone', () => {
  it.each([
    ['Europe/Berlin', 'Europe/Berlin'],
    ['UTC', 'UTC'],
    ['Mars/Olympus', 'UTC'],
    ['', 'UTC'],
  ])('usableZone(%j) is %s', (zone, expected) => {
    expect(usableZone(zone)).toBe(expected);
    expect(usableZone(zone)).toBe(expected);
  });
});

describe('wireFormatter', () => {
  /** Instants every `stepMinutes` (plus a few odd seconds) from `from` for `hours`. */
  const instants = (from: string, hours: number, stepMinutes: number) =>
    Array.from(
      { length: Math.floor((hours * 60) / stepMinutes) },
      (_, index) => DateTime.fromISO(from, { setZone: true }).toMillis() + index * stepMinutes * 60_000 + (index % 7) * 1_001,
    );

  it.each([
    ['Europe/Berlin', '2026-03-28T00:00:00Z'],
    ['Europe/Berlin', '2026-10-24T00:00:00Z'],
    ['America/New_York', '2026-03-07T00:00:00Z'],
    ['America/New_York', '2026-10-31T00:00:00Z'],
    ['Australia/Lord_Howe', '2026-04-04T00:00:00Z'],
    ['Asia/Kathmandu', '2026-06-01T00:00:00Z'],
    ['America/St_Johns', '2026-11-01T00:00:00Z'],
    ['Europe/Amsterdam', '1937-06-30T00:00:00Z'],
    ['UTC', '2026-12-31T12:00:00Z'],
  ])('writes what formatWireDateTime writes in %s around %s', (zone, from) => {
    const format = wireFormatter(zone);
    for (const instant of instants(from, 72, 7)) {
      expect(format(instant)).toBe(formatWireDateTime(DateTime.fromMillis(instant, { zone })));
    }
  });

  it('agrees over many years, and answers the same text for the same instant again', () => {
    const format = wireFormatter('Europe/Berlin');
    let instant = Date.UTC(1960, 0, 1);
    while (instant < Date.UTC(2100, 0, 1)) {
      const expected = formatWireDateTime(DateTime.fromMillis(instant, { zone: 'Europe/Berlin' }));
      expect(format(instant)).toBe(expected);
      expect(format(instant)).toBe(expected);
      instant += 37 * 86_400_000 + 3_599_000;
    }
  });
});
