import type { DateTime } from 'luxon';
import { formatHumanDuration } from '../../api/durations.js';
import type { ScheduleLayout } from './schedule-layout.js';
import { calendarDateAt, includesBlockedPeriod, isOnSlotBoundary, reservablePeriodCount } from './schedule-layout.js';
import type { ResourceRow } from '../tables.js';

export interface Occurrence {
  start: DateTime;
  end: DateTime;
}

/** What the rules need to know about the request beyond its occurrences. */
export interface TimingContext {
  now: DateTime;
  /** Administrators bypass what real servers let them bypass: past start, length, notice, multi-day. */
  isAdmin: boolean;
  /** The schedule's timezone and layout: slots and calendar days are the schedule's. */
  zone: string;
  layout: ScheduleLayout;
  /** Which minimum notice applies. */
  action: 'add' | 'update';
}

/**
 * However a resource is set up, no occurrence reaches further than this from now, either way:
 * a hard bound on what one request can make the service lay out and store.
 */
export const farthestReachYears = 10;

export const bookingMessages = {
  startAfterEnd: 'The start date and time must be before the end date and time.',
  inThePast: 'The start date and time cannot be in the past.',
  startNotValid: 'The start date and time requested is not valid.',
  endNotValid: 'The end date and time requested is not valid.',
  blockedPeriod: 'The requested time includes a period that cannot be reserved.',
  multiday: 'This reservation cannot span more than one day.',
  tooShort: (minutes: number) => `This reservation must last at least ${formatHumanDuration(minutes)}.`,
  tooLong: (minutes: number) => `This reservation cannot last longer than ${formatHumanDuration(minutes)}.`,
  tooSoon: (minutes: number) => `This reservation must be made at least ${formatHumanDuration(minutes)} in advance.`,
  tooSoonToChange: (minutes: number) => `This reservation cannot be changed less than ${formatHumanDuration(minutes)} before it starts.`,
  tooSoonToDelete: (minutes: number) => `This reservation cannot be deleted less than ${formatHumanDuration(minutes)} before it starts.`,
  tooFar: (latest: string) => `This reservation cannot be made this far in the future. The latest start is ${latest}.`,
  notAllowed: 'You are not allowed to change this reservation.',
  outOfReach: `A reservation must start and end within ${farthestReachYears} years of today.`,
} as const;

/** Dates in messages read as real servers write them (US form, the schedule's calendar). */
export const messageDate = (instant: DateTime, zone: string) => instant.setZone(zone).toFormat('MM/dd/yyyy');

/** Whether two instants fall on the same date in `zone`, without building DateTimes for them. */
function isSameCalendarDay(first: number, second: number, zone: string) {
  const a = calendarDateAt(first, zone);
  const b = calendarDateAt(second, zone);
  return a.year === b.year && a.month === b.month && a.day === b.day;
}

const minutesBetween = (from: DateTime, to: DateTime) => (to.toMillis() - from.toMillis()) / 60_000;

/** The strictest of the resources' limits: the smallest maximum, the largest minimum. */
function strictest(resources: readonly ResourceRow[], pick: (resource: ResourceRow) => number | null, want: 'min' | 'max') {
  const values = resources.map(pick).filter((value): value is number => value !== null && value > 0);
  if (values.length === 0) return null;
  return want === 'max' ? Math.max(...values) : Math.min(...values);
}

/**
 * The time rules of one request, every occurrence checked, each message once. Pure: the caller
 * loads the resources, the schedule's layout and the clock.
 */
export function timingViolations(occurrences: readonly Occurrence[], resources: readonly ResourceRow[], context: TimingContext): string[] {
  const found = new Set<string>();
  const { now, isAdmin, zone, layout } = context;
  const minLength = strictest(resources, (resource) => resource.minLength, 'max');
  const maxLength = strictest(resources, (resource) => resource.maxLength, 'min');
  const notice = strictest(resources, (resource) => (context.action === 'add' ? resource.minNoticeAdd : resource.minNoticeUpdate), 'max');
  const maxNotice = strictest(resources, (resource) => resource.maxNotice, 'min');
  const multidayAllowed = resources.every((resource) => resource.allowMultiday === 1);

  const earliest = now.minus({ years: farthestReachYears });
  const latest = now.plus({ years: farthestReachYears });
  for (const { start, end } of occurrences) {
    if (end <= start) {
      found.add(bookingMessages.startAfterEnd);
      continue;
    }
    if (start < earliest || end > latest) {
      found.add(bookingMessages.outOfReach);
      continue;
    }
    if (!isOnSlotBoundary(layout, start, zone, 'start')) found.add(bookingMessages.startNotValid);
    if (!isOnSlotBoundary(layout, end, zone, 'end')) found.add(bookingMessages.endNotValid);
    if (includesBlockedPeriod(layout, start, end, zone)) found.add(bookingMessages.blockedPeriod);
    if (isAdmin) continue;
    if (start < now) found.add(bookingMessages.inThePast);
    const length = minutesBetween(start, end);
    if (minLength !== null && length < minLength) found.add(bookingMessages.tooShort(minLength));
    if (maxLength !== null && length > maxLength) found.add(bookingMessages.tooLong(maxLength));
    if (notice !== null && start >= now && minutesBetween(now, start) < notice) {
      found.add(context.action === 'add' ? bookingMessages.tooSoon(notice) : bookingMessages.tooSoonToChange(notice));
    }
    if (maxNotice !== null && minutesBetween(now, start) > maxNotice) {
      found.add(bookingMessages.tooFar(messageDate(now.plus({ minutes: maxNotice }), zone)));
    }
    if (!multidayAllowed && !isSameCalendarDay(start.toMillis(), end.toMillis() - 1, zone)) found.add(bookingMessages.multiday);
  }
  return [...found];
}

/** Minimum notice before a reservation may be deleted, for non-administrators. */
export function deletionViolation(start: DateTime, resources: readonly ResourceRow[], now: DateTime, isAdmin: boolean): string | null {
  const notice = strictest(resources, (resource) => resource.minNoticeDelete, 'max');
  if (isAdmin || notice === null || start < now) return null;
  return minutesBetween(now, start) < notice ? bookingMessages.tooSoonToDelete(notice) : null;
}

/** Credits an occurrence consumes: per reservable slot it covers, or once per reservation. */
export function creditsFor(occurrence: Occurrence, resources: readonly ResourceRow[], layout: ScheduleLayout, zone: string): number {
  let slots: number | null = null;
  let total = 0;
  for (const resource of resources) {
    if (!resource.credits) continue;
    if (resource.creditApplicability === 2) {
      total += resource.credits;
    } else {
      slots ??= reservablePeriodCount(layout, occurrence.start, occurrence.end, zone);
      total += resource.credits * slots;
    }
  }
  return total;
}
