import { describe, expect, it } from 'vitest';
import { formatHumanDuration, formatResourceInterval, parseHumanDuration, parseResourceInterval } from '../../electron/api/durations.js';

const HOUR = 60;
const DAY = 24 * HOUR;

describe('formatHumanDuration', () => {
  it.each([
    [0, '0 minutes'],
    [1, '1 minutes'],
    [30, '30 minutes'],
    [HOUR, '1 hours'],
    [HOUR + 30, '1 hours 30 minutes'],
    [2 * HOUR, '2 hours'],
    [23 * HOUR + 59, '23 hours 59 minutes'],
    [DAY, '1 days'],
    [DAY + 30, '1 days 30 minutes'],
    [DAY + 2 * HOUR, '1 days 2 hours'],
    [DAY + 2 * HOUR + 30, '1 days 2 hours 30 minutes'],
    [400 * DAY, '400 days'],
  ])('%i min → %j', (minutes, text) => {
    expect(formatHumanDuration(minutes)).toBe(text);
  });

  it.each([-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY])('refuses %d minutes', (minutes) => {
    expect(() => formatHumanDuration(minutes)).toThrow(RangeError);
  });
});

describe('parseHumanDuration', () => {
  it.each([
    ['0 minutes', 0],
    ['30 minutes', 30],
    ['1 minute', 1],
    ['1 hours', HOUR],
    ['1 hour', HOUR],
    ['1 hours 30 minutes', HOUR + 30],
    ['1 hour 1 minute', HOUR + 1],
    ['1 days', DAY],
    ['1 day', DAY],
    ['2 days 30 minutes', 2 * DAY + 30],
    ['1 days 2 hours', DAY + 2 * HOUR],
    ['1 days 2 hours 30 minutes', DAY + 2 * HOUR + 30],
    // Units beyond their natural range are summed, not refused.
    ['90 minutes', 90],
    ['36 hours', 36 * HOUR],
    ['0 days 0 hours 0 minutes', 0],
    // Liberal about spacing, case and order.
    ['  1   hours    30 minutes  ', HOUR + 30],
    ['1 hours\t30 minutes', HOUR + 30],
    ['1hours 30minutes', HOUR + 30],
    ['1 Hours 30 MINUTES', HOUR + 30],
    ['30 minutes 1 hours', HOUR + 30],
    ['007 minutes', 7],
  ])('%j → %i', (text, minutes) => {
    expect(parseHumanDuration(text)).toBe(minutes);
  });

  it.each([
    ['empty', ''],
    ['blank', '   '],
    ['number without unit', '30'],
    ['unit without number', 'minutes'],
    ['negative', '-5 minutes'],
    ['fraction', '1.5 hours'],
    ['unknown unit', '2 weeks'],
    ['seconds', '30 seconds'],
    ['abbreviated unit', '30 mins'],
    ['unit glued to the next part', '1 hours30 minutes'],
    ['misspelt unit', '1 hourss'],
    ['repeated unit', '1 hours 2 hours'],
    ['repeated unit in another spelling', '1 hour 2 hours'],
    ['separator', '1 hours, 30 minutes'],
    ['conjunction', '1 hours and 30 minutes'],
    ['interval form', '0d1h30m'],
    ['trailing junk', '30 minutes!'],
    ['too big to be exact', `${Number.MAX_SAFE_INTEGER} days`],
  ])('%s: %j → null', (_label, text) => {
    expect(parseHumanDuration(text)).toBeNull();
  });

  it.each([0, 1, 59, 60, 61, DAY - 1, DAY, DAY + 1, 3 * DAY + 7 * HOUR + 5])('round trips %i min', (minutes) => {
    expect(parseHumanDuration(formatHumanDuration(minutes))).toBe(minutes);
  });
});

describe('parseResourceInterval', () => {
  it.each<[string | number, number]>([
    ['0d0h30m', 30],
    ['0d0h0m', 0],
    ['0d1h0m', HOUR],
    ['1d2h30m', DAY + 2 * HOUR + 30],
    ['30m', 30],
    ['1h', HOUR],
    ['2d', 2 * DAY],
    ['1h30m', HOUR + 30],
    ['1d30m', DAY + 30],
    ['1d1h', DAY + HOUR],
    ['0d25h0m', 25 * HOUR],
    ['0d0h90m', 90],
    ['1D2H3M', DAY + 2 * HOUR + 3],
    ['1d 2h 3m', DAY + 2 * HOUR + 3],
    ['  0d0h30m  ', 30],
    // A plain number is seconds.
    ['1800', 30],
    ['0', 0],
    ['60', 1],
    ['86400', DAY],
    [' 3600 ', HOUR],
    [1800, 30],
    [0, 0],
    [86400, DAY],
  ])('%j → %i min', (value, minutes) => {
    expect(parseResourceInterval(value)).toEqual({ ok: true, value: minutes });
  });

  it.each<[string, string | null | undefined]>([
    ['empty string', ''],
    ['blank string', '   '],
    ['null', null],
    ['undefined', undefined],
  ])('%s → empty (no value)', (_label, value) => {
    expect(parseResourceInterval(value)).toEqual({ ok: true, value: null });
  });

  it.each<[string, string | number]>([
    ['letters', 'abc'],
    ['negative seconds', '-5'],
    ['negative number', -5],
    ['unknown unit', '1x'],
    ['seconds unit', '30s'],
    ['wrong order', '30m1h'],
    ['repeated part', '1h1h'],
    ['number without unit after a part', '1h30'],
    ['unit without number', 'd'],
    ['fractional part', '1.5h'],
    ['fractional seconds', '1800.5'],
    ['fractional number', 1800.5],
    // Minutes are the finest unit anywhere else, so a remainder is treated as a bad value.
    ['seconds not a whole minute', '90'],
    ['number not a whole minute', 90],
    ['NaN', Number.NaN],
    ['Infinity', Number.POSITIVE_INFINITY],
    ['human form', '30 minutes'],
    ['too big to be exact', `${Number.MAX_SAFE_INTEGER}d`],
  ])('%s: %j → invalid', (_label, value) => {
    expect(parseResourceInterval(value)).toEqual({ ok: false });
  });
});

describe('formatResourceInterval', () => {
  it.each<[number | null, string]>([
    [null, ''],
    [0, '0d0h0m'],
    [30, '0d0h30m'],
    [HOUR, '0d1h0m'],
    [HOUR + 30, '0d1h30m'],
    [DAY, '1d0h0m'],
    [DAY + 2 * HOUR + 30, '1d2h30m'],
    [400 * DAY + 59, '400d0h59m'],
  ])('%j → %j', (minutes, text) => {
    expect(formatResourceInterval(minutes)).toBe(text);
  });

  it.each([-1, 0.5, Number.NaN])('refuses %d minutes', (minutes) => {
    expect(() => formatResourceInterval(minutes)).toThrow(RangeError);
  });

  it.each([null, 0, 1, 59, 60, DAY - 1, DAY, 3 * DAY + 7 * HOUR + 5])('round trips %j', (minutes) => {
    expect(parseResourceInterval(formatResourceInterval(minutes))).toEqual({ ok: true, value: minutes });
  });
});
