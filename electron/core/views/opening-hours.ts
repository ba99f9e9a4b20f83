/**
 * Whether a schedule is open for booking now, and until when, from its layout (GetSchedule's
 * periods, one list per weekday). Servers write the periods' instants in different zones (real
 * servers in the caller's, the local service in the schedule's), but the instants are right for
 * their dates either way: seen in the schedule's own zone they give its weekly wall-clock layout,
 * which holds for any date.
 */
import { DateTime } from 'luxon';
import type { Static } from '@sinclair/typebox';
import type { Period } from '../../api/schemas/schedules.js';

export type WirePeriod = Static<typeof Period>;

/** A schedule's layout as last fetched; kept for hours, like the resource list. */
export interface ScheduleHours {
  scheduleId: number;
  timezone: string;
  fetchedAt: DateTime;
  /** One list per weekday, as GetSchedule gives them. */
  periods: WirePeriod[][];
}

/** Open now and closing at `closesAt` (the end of the reservable stretch, today), closed now, or not known. */
export type Opening = { open: true; closesAt: DateTime } | { open: false } | null;

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
 * The week's wall-clock periods of a layout, worked out once per fetched layout: every snapshot
 * asks, and reading a week of periods through luxon is the dear part.
 */
const weeks = new WeakMap<ScheduleHours, WallPeriod[]>();

function weekOf(hours: ScheduleHours): WallPeriod[] {
  let week = weeks.get(hours);
  if (week === undefined) {
    week = hours.periods
      .flat()
      .flatMap((period) => wallPeriod(period, hours.timezone) ?? [])
      .sort((a, b) => a.startMinute - b.startMinute);
    weeks.set(hours, week);
  }
  return week;
}

export function openingAt(hours: ScheduleHours, now: DateTime): Opening {
  const local = now.setZone(hours.timezone);
  if (!local.isValid) return null;
  const minute = local.hour * 60 + local.minute;
  const today = weekOf(hours).filter((period) => period.weekday === local.weekday);
  const index = today.findIndex((period) => period.startMinute <= minute && minute < period.endMinute);
  const current = today[index];
  if (current === undefined) return null;
  if (!current.reservable) return { open: false };
  let endMinute = current.endMinute;
  for (const next of today.slice(index + 1)) {
    if (!next.reservable || next.startMinute !== endMinute) break;
    endMinute = next.endMinute;
  }
  return { open: true, closesAt: local.startOf('day').plus({ minutes: endMinute }) };
}
