/**
 * Whether a schedule is open for booking now, and until when, from its layout (GetSchedule's
 * periods, one list per weekday). Servers write the periods' instants in different zones (real
 * servers in the caller's, the local service in the schedule's), but the instants are right for
 * their dates either way: seen in the schedule's own zone they give its weekly wall-clock layout,
 * which holds for any date.
 */
import { DateTime } from 'luxon';
import type { WirePeriod } from '../../api/wire.js';
import type { ScheduleHours } from '../core-state.js';

/**
 * Open now and closing at `closesAt` (the end of the reservable stretch, which may run past
 * midnight into the next days; null when it runs beyond the look-ahead), closed now, or not known.
 */
export type Opening = { open: true; closesAt: DateTime | null } | { open: false } | null;

/** How far ahead opening hours are followed: a layout open this long is open-ended. */
const lookAheadDays = 7;

interface WallPeriod {
  /** Luxon's weekday, 1 Monday … 7 Sunday. */
  weekday: number;
  startMinute: number;
  endMinute: number;
  reservable: boolean;
}

function wallPeriod(period: WirePeriod, zone: string): WallPeriod | null {
  const start = DateTime.fromISO(period.start, { setZone: true }).setZone(zone);
  const end = DateTime.fromISO(period.end, { setZone: true }).setZone(zone);
  if (!start.isValid || !end.isValid || end <= start) return null;
  const startMinute = start.hour * 60 + start.minute;
  // A period that ends at midnight (or past it) ends with its day.
  const endMinute = end.hasSame(start, 'day') ? end.hour * 60 + end.minute : 24 * 60;
  return { weekday: start.weekday, startMinute, endMinute, reservable: period.isReservable };
}

/**
 * The week's wall-clock periods of a layout by weekday (index 1 Monday … 7 Sunday), in time order,
 * worked out once per fetched layout: every snapshot asks, and reading a week of periods through
 * luxon is the dear part.
 */
const weeks = new WeakMap<ScheduleHours, WallPeriod[][]>();

function weekOf(hours: ScheduleHours): WallPeriod[][] {
  let week = weeks.get(hours);
  if (week === undefined) {
    const periods = hours.periods
      .flat()
      .flatMap((period) => wallPeriod(period, hours.timezone) ?? [])
      .sort((a, b) => a.startMinute - b.startMinute);
    week = Array.from({ length: 8 }, (_, weekday) => periods.filter((period) => period.weekday === weekday));
    weeks.set(hours, week);
  }
  return week;
}

const dayMinutes = 24 * 60;

/** A period of the days from the one asked about on, in minutes from that day's midnight. */
interface AheadPeriod {
  start: number;
  end: number;
  reservable: boolean;
}

/** The layout's periods from the day of `local` on, day by day through the look-ahead. */
function* periodsFrom(hours: ScheduleHours, local: DateTime): Generator<AheadPeriod> {
  const week = weekOf(hours);
  for (let offset = 0; offset <= lookAheadDays; offset += 1) {
    const weekday = ((local.weekday - 1 + offset) % 7) + 1;
    for (const period of week[weekday] ?? []) {
      yield { start: offset * dayMinutes + period.startMinute, end: offset * dayMinutes + period.endMinute, reservable: period.reservable };
    }
  }
}

/** The moment `minutes` past the midnight that began the day of `local`, on the schedule's wall clock. */
function wallInstant(local: DateTime, minutes: number): DateTime {
  const day = local.startOf('day').plus({ days: Math.floor(minutes / dayMinutes) });
  const minute = minutes % dayMinutes;
  return day.set({ hour: Math.floor(minute / 60), minute: minute % 60 });
}

/**
 * Whether the schedule is open at `now`, and until when: the reservable periods that follow one
 * another without a gap, across midnight into the next days' periods where the layout stays open
 * (a round-the-clock layout: server-facts C), up to the look-ahead.
 */
export function openingAt(hours: ScheduleHours, now: DateTime): Opening {
  const local = now.setZone(hours.timezone);
  if (!local.isValid) return null;
  const minute = local.hour * 60 + local.minute;
  let closes: number | null = null;
  for (const period of periodsFrom(hours, local)) {
    if (closes === null) {
      // Still looking for the period under way; a time the layout says nothing of is not known.
      if (period.start > minute) return null;
      if (period.end <= minute) continue;
      if (!period.reservable) return { open: false };
      closes = period.end;
    } else if (period.end > closes) {
      if (!period.reservable || period.start > closes) return { open: true, closesAt: wallInstant(local, closes) };
      closes = period.end;
    }
  }
  if (closes === null) return null;
  // Open to the end of the look-ahead: a round-the-clock layout, open-ended.
  return { open: true, closesAt: closes >= (lookAheadDays + 1) * dayMinutes ? null : wallInstant(local, closes) };
}

/** When the schedule next opens after `now` (the start of its next reservable period) within the look-ahead; null when it does not, or the layout does not say. */
export function nextOpening(hours: ScheduleHours, now: DateTime): DateTime | null {
  const local = now.setZone(hours.timezone);
  if (!local.isValid) return null;
  const minute = local.hour * 60 + local.minute;
  for (const period of periodsFrom(hours, local)) {
    if (period.reservable && period.start > minute) return wallInstant(local, period.start);
  }
  return null;
}

/** Whether the kept layout of a schedule says it is closed at `at` (unknown hours say nothing). */
export function knownClosed(kept: readonly ScheduleHours[], scheduleId: number, at: DateTime): boolean {
  const hours = kept.find((entry) => entry.scheduleId === scheduleId);
  return hours !== undefined && openingAt(hours, at)?.open === false;
}
