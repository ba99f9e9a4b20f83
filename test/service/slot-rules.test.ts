import { describe, expect, it } from 'vitest';
import type { HeldTime } from '../../electron/service/domain/availability.js';
import { planSlots, slotWindow, type SlotPeriod, type SlotWindow } from '../../electron/service/domain/slots.js';

// Periods and bookings in hours of one day.
const hour = 3_600_000;
const period = (from: number, to: number): SlotPeriod & { name: string } => ({
  startAt: from * hour,
  endAt: to * hour,
  name: `${from}-${to}`,
});
const held = (from: number, to: number, reservationId: number): HeldTime => ({ startAt: from * hour, endAt: to * hour, reservationId });
/** Hourly periods 8–12. */
const morning = [period(8, 9), period(9, 10), period(10, 11), period(11, 12)];

/** A slot as `first-last×span` plus the reservation, e.g. `9-10..10-11 ×2 #1`. */
const describeSlots = (periods: ReturnType<typeof period>[], bookings: HeldTime[]) =>
  planSlots(periods, bookings).map(
    (slot) =>
      `${slot.first.name}${slot.first === slot.last ? '' : `..${slot.last.name}`} ×${slot.slotSpan}${slot.reservationId === null ? '' : ` #${slot.reservationId}`}`,
  );

describe('planSlots', () => {
  it.each<[string, ReturnType<typeof period>[], HeldTime[], string[]]>([
    ['no bookings: one free slot per period', morning, [], ['8-9 ×1', '9-10 ×1', '10-11 ×1', '11-12 ×1']],
    ['a booking over two periods is one slot spanning both', morning, [held(9, 11, 1)], ['8-9 ×1', '9-10..10-11 ×2 #1', '11-12 ×1']],
    ['a booking touching part of a period holds all of it', morning, [held(9.5, 10.25, 1)], ['8-9 ×1', '9-10..10-11 ×2 #1', '11-12 ×1']],
    [
      'back-to-back bookings stay separate slots',
      morning,
      [held(8, 9, 1), held(9, 11, 2), held(11, 12, 3)],
      ['8-9 ×1 #1', '9-10..10-11 ×2 #2', '11-12 ×1 #3'],
    ],
    [
      'a booking ending as a period starts leaves it free',
      morning,
      [held(7, 8, 1), held(12, 13, 2)],
      ['8-9 ×1', '9-10 ×1', '10-11 ×1', '11-12 ×1'],
    ],
    ['a booking longer than the day spans every period', morning, [held(-20, 40, 1)], ['8-9..11-12 ×4 #1']],
    [
      'of concurrent bookings the earlier holds; the later takes the periods after',
      morning,
      [held(8, 10, 1), held(9, 12, 2)],
      ['8-9..9-10 ×2 #1', '10-11..11-12 ×2 #2'],
    ],
    ['a booking ending inside a long one does not split it', morning, [held(8, 12, 1), held(9, 10, 2)], ['8-9..11-12 ×4 #1']],
    ['consecutive periods with a gap between still join', [period(8, 12), period(13, 17)], [held(11, 14, 1)], ['8-12..13-17 ×2 #1']],
    ['a booking in the gap between periods holds none', [period(8, 12), period(13, 17)], [held(12, 13, 1)], ['8-12 ×1', '13-17 ×1']],
    ['no periods, no slots', [], [held(8, 9, 1)], []],
  ])('%s', (_name, periods, bookings, expected) => {
    expect(describeSlots(periods, bookings)).toEqual(expected);
  });
});

describe('slotWindow', () => {
  const dates = (first: string, count: number): SlotWindow => ({
    ok: true,
    value: Array.from({ length: count }, (_, index) =>
      new Date(Date.parse(`${first}T00:00:00Z`) + index * 86_400_000).toISOString().slice(0, 10),
    ),
  });

  it.each<[string, string | null, string | null, number, SlotWindow]>([
    ['no dates: daysVisible days from today', null, null, 7, dates('2026-12-30', 7)],
    ['no dates, 3 days visible', null, null, 3, dates('2026-12-30', 3)],
    ['no dates, an unset daysVisible reads as 7', null, null, 0, dates('2026-12-30', 7)],
    ['no dates, daysVisible beyond the cap is capped', null, null, 90, dates('2026-12-30', 31)],
    ['a start only: daysVisible days from it', '2027-02-27', null, 5, dates('2027-02-27', 5)],
    ['an end only: daysVisible days up to it', null, '2026-03-01', 3, dates('2026-02-27', 3)],
    ['one day', '2026-03-29', '2026-03-29', 7, dates('2026-03-29', 1)],
    ['both ends count', '2026-03-29', '2026-04-04', 7, dates('2026-03-29', 7)],
    ['31 days is the most', '2026-01-01', '2026-01-31', 7, dates('2026-01-01', 31)],
    ['32 days are too many', '2026-01-01', '2026-02-01', 7, { ok: false, error: 'tooLong' }],
    ['an end before the start', '2026-01-02', '2026-01-01', 7, { ok: false, error: 'endBeforeStart' }],
  ])('%s', (_name, start, end, daysVisible, expected) => {
    expect(slotWindow(start, end, '2026-12-30', daysVisible)).toEqual(expected);
  });
});
