/**
 * A reservation as the UI shows it: the model (reservations/reservation.ts) in the user's zone,
 * with the flags the clock decides (check-in open, may check out, may change). Pure: every
 * function takes the moment and the zone it describes.
 */
import { DateTime } from 'luxon';
import { wallClockTime, wireInstant } from '../../api/dates.js';
import type { WireReservation, WireSummary } from '../../api/wire.js';
import type { RecurrenceView, ReservationView, ResourceFace } from '../../bridge/contract.js';
import {
  awaitsCheckIn,
  autoReleaseMs,
  checkInClosesMs,
  checkInOpensMinutes,
  checkInOutstanding,
  reservationOfDetail,
  reservationOfSummary,
  roleIn,
  type Reader,
  type Reservation,
} from '../reservations.js';
import { isoIn, isoOrNull } from './bridge-time.js';
import { unknownFace } from './resource-views.js';

/** What the views are seen from: the user, their zone, the moment. */
export interface ViewContext extends Reader {
  zone: string;
  now: DateTime;
  /** The server refuses this user's changes to a reservation once it has started (see start-time-rules.ts); absent: not known to. */
  lockedOnceStarted?: boolean;
  /** Each resource's icon and colour by id, as far as the resources are known. */
  resourceFaces?: ReadonlyMap<number, ResourceFace>;
}

/**
 * What the occurrences of one series have in common: owner, resource, title, wall-clock start and
 * length. A detached occurrence (changed on its own) is no longer recurring, so it stands alone.
 */
function seriesKeyOf(reservation: Reservation, zone: string): string | null {
  if (!reservation.isRecurring) return null;
  const minutes = Math.round(reservation.end.diff(reservation.start, 'minutes').minutes);
  return [reservation.ownerId, reservation.resourceId, reservation.start.setZone(zone).toFormat('HH:mm'), minutes, reservation.title].join(
    '|',
  );
}

function viewOf(reservation: Reservation, context: ViewContext): ReservationView {
  const { zone, now } = context;
  // Check-in, check-out and the rest are the owner's.
  const mine = reservation.owned;
  const nowMs = now.toMillis();
  const startMs = reservation.start.toMillis();
  const endMs = reservation.end.toMillis();
  const awaits = awaitsCheckIn(reservation);
  const releaseMs = autoReleaseMs(reservation);
  const checkInWindow = nowMs >= startMs - checkInOpensMinutes * 60_000;
  const lockedNow = nowMs >= startMs && context.lockedOnceStarted === true;
  return {
    referenceNumber: reservation.referenceNumber,
    title: reservation.title,
    resourceId: reservation.resourceId,
    resourceName: reservation.resourceName,
    scheduleId: reservation.scheduleId,
    timezone: reservation.timezone ?? zone,
    start: isoIn(zone, reservation.start),
    end: isoIn(zone, reservation.end),
    isRecurring: reservation.isRecurring,
    isPendingApproval: reservation.isPendingApproval,
    requiresCheckIn: reservation.requiresCheckIn,
    checkedInAt: isoOrNull(zone, reservation.checkedInAt),
    checkedOutAt: isoOrNull(zone, reservation.checkedOutAt),
    originalEnd: isoOrNull(zone, reservation.originalEnd),
    autoReleaseAt: checkInOutstanding(reservation) && releaseMs !== null ? isoIn(zone, DateTime.fromMillis(releaseMs)) : null,
    awaitsCheckIn: awaits,
    checkInOpensAt: awaits ? isoIn(zone, reservation.start.minus({ minutes: checkInOpensMinutes })) : null,
    checkInOpen: awaits && nowMs < checkInClosesMs(reservation) && (reservation.checkInAvailable ?? checkInWindow),
    // Checking out before the start would be a cancellation; servers refuse it.
    canCheckOut:
      mine &&
      reservation.checkedInAt !== null &&
      reservation.checkedOutAt === null &&
      nowMs < endMs &&
      (reservation.checkOutAvailable ?? nowMs > startMs),
    canChange: mine && reservation.checkedOutAt === null && nowMs < endMs && !lockedNow,
    ownerName: reservation.ownerName,
    ownerFirstName: reservation.ownerFirstName,
    isMine: mine,
    role: roleIn(reservation, context.userId),
    seriesKey: seriesKeyOf(reservation, zone),
    resourceFace: context.resourceFaces?.get(reservation.resourceId) ?? unknownFace,
  };
}

/** A single reservation as GetReservation answers it (see `reservationOfDetail`); null when its dates are not valid. */
export function detailView(detail: WireReservation, requiresCheckIn: boolean, context: ViewContext): ReservationView | null {
  const reservation = reservationOfDetail(detail, requiresCheckIn, context);
  return reservation === null ? null : viewOf(reservation, context);
}

/** One listed reservation as the views show it; null when its dates are not valid. */
export function summaryView(summary: WireSummary, context: ViewContext): ReservationView | null {
  const reservation = reservationOfSummary(summary, context);
  return reservation === null ? null : viewOf(reservation, context);
}

/** The user's reservations that have not ended, soonest first. */
export function upcomingViews(reservations: readonly Reservation[], context: ViewContext): ReservationView[] {
  const nowMs = context.now.toMillis();
  return reservations
    .filter((reservation) => reservation.end.toMillis() > nowMs)
    .sort((a, b) => a.start.toMillis() - b.start.toMillis() || a.referenceNumber.localeCompare(b.referenceNumber))
    .map((reservation) => viewOf(reservation, context));
}

const recurrenceTypes = ['daily', 'weekly', 'monthly', 'yearly'] as const;

/**
 * A series' last day. Servers send it as the midnight starting that day in the zone of whoever
 * booked the series (real ones write it in UTC; a local service, for series it stored before it
 * kept their booker's zone, the schedule's). Read as an instant in another zone it is the day
 * before west of it, so the day is taken where the instant is a midnight (the user's own first,
 * as the user usually booked it), and given as that day's midnight for the user.
 */
function lastDay(until: DateTime | null, userZone: string, scheduleZone: string | undefined): DateTime | null {
  if (until === null) return null;
  for (const zone of [userZone, scheduleZone ?? userZone, 'UTC']) {
    const local = until.setZone(zone);
    if (local.isValid && local.hour === 0 && local.minute === 0) {
      return wallClockTime({ year: local.year, month: local.month, day: local.day }, userZone);
    }
  }
  return until.setZone(userZone);
}

/** A reservation's series rule in the user's zone; null for a one-off (or a rule Perch cannot read). */
export function recurrenceView(detail: WireReservation, zone: string, scheduleZone?: string): RecurrenceView | null {
  const rule = detail.recurrenceRule;
  const type = recurrenceTypes.find((known) => known === rule.type);
  if (!detail.isRecurring || type === undefined) return null;
  return {
    type,
    interval: rule.interval !== null && rule.interval > 0 ? rule.interval : 1,
    weekdays: type === 'weekly' ? [...new Set(rule.weekdays ?? [])].sort((a, b) => a - b) : [],
    monthlyType: type === 'monthly' ? (rule.monthlyType ?? 'dayOfMonth') : null,
    until: isoOrNull(zone, lastDay(wireInstant(rule.repeatTerminationDate), zone, scheduleZone)),
  };
}
