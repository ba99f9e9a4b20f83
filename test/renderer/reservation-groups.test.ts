import { DateTime } from 'luxon';
import { describe, expect, test } from 'vitest';
import type { ReservationView } from '$bridge/contract.js';
import { createDateFormat } from '../../renderer/src/lib/format.js';
import { reservationDays } from '../../renderer/src/lib/reservation-groups.js';
import { reservationView } from '../support/snapshots.js';

const britain = { locale: 'en-GB', hourCycle: 'h23' } as const;

/** A daily series at `time` in `zone` for `days` days from the day of `from`, as the core lists it. */
function dailySeries(from: DateTime, time: string, days: number, zone: string): ReservationView[] {
  const [hour, minute] = time.split(':').map(Number) as [number, number];
  return Array.from({ length: days }, (_, index) => {
    const start = from.setZone(zone).startOf('day').plus({ days: index }).set({ hour, minute });
    return reservationView({
      referenceNumber: `standup-${index}`,
      title: 'Stand-up',
      start: start.toISO()!,
      end: start.plus({ minutes: 15 }).toISO()!,
      isRecurring: true,
      seriesKey: 'standup',
    });
  });
}

const shape = (days: ReturnType<typeof reservationDays>) =>
  days.map((day) => [day.heading, day.reservations.map((reservation) => reservation.referenceNumber)]);

describe('My reservations by day', () => {
  // Every hour of a day, in zones either side of UTC and one a half hour off: the groups follow the user's zone, never the machine's.
  const zones = ['Europe/London', 'America/Los_Angeles', 'Asia/Tokyo', 'Asia/Kolkata', 'Pacific/Auckland'];
  const moments = zones.flatMap((zone) => Array.from({ length: 24 }, (_, hour) => [zone, hour] as const));

  test.each(moments)('a daily series is listed under each day it has a date on (%s, %i:10)', (zone, hour) => {
    const format = createDateFormat(zone, britain);
    const now = DateTime.fromISO('2026-03-27T00:10:00', { zone }).set({ hour });
    // Late in the evening, so a zone near midnight in UTC tells the user's day from UTC's.
    const series = dailySeries(now, '23:30', 3, zone);
    const oneOff = reservationView({
      referenceNumber: 'lunch',
      title: 'Lunch',
      start: now.startOf('day').plus({ days: 1, hours: 12 }).toISO()!,
      end: now.startOf('day').plus({ days: 1, hours: 13 }).toISO()!,
    });
    const days = reservationDays([series[0]!, series[1]!, oneOff, series[2]!], format, now.toMillis());
    const third = format.dayHeading(series[2]!.start, now.toMillis());
    expect(third).toBe(now.startOf('day').plus({ days: 2 }).setLocale('en-GB').toFormat('cccc d LLLL'));
    expect(shape(days)).toEqual([
      ['Today', ['standup-0']],
      ['Tomorrow', ['lunch', 'standup-1']],
      [third, ['standup-2']],
    ]);
  });

  test('days and reservations come soonest first whatever order they are given in, across a change of the clocks', () => {
    const zone = 'Europe/London';
    const format = createDateFormat(zone, britain);
    // Saturday 28 March 2026 at 22:00; the clocks go forward that night.
    const now = DateTime.fromISO('2026-03-28T22:00:00', { zone });
    const series = dailySeries(now, '09:00', 3, zone);
    const early = reservationView({
      referenceNumber: 'early',
      title: 'Early',
      start: '2026-03-29T08:00:00+01:00',
      end: '2026-03-29T08:30:00+01:00',
    });
    const days = reservationDays([series[2]!, early, series[1]!, series[0]!], format, now.toMillis());
    expect(shape(days)).toEqual([
      ['Today', ['standup-0']],
      ['Tomorrow', ['early', 'standup-1']],
      ['Monday 30 March', ['standup-2']],
    ]);
    // The series keeps its wall-clock time over the change: 09:00 each day.
    expect(days.map((day) => format.time(day.reservations.at(-1)!.start))).toEqual(['09:00', '09:00', '09:00']);
  });

  test('nothing listed, no days', () => {
    expect(reservationDays([], createDateFormat('Europe/Berlin', britain), Date.parse('2026-03-27T10:00:00Z'))).toEqual([]);
  });
});
