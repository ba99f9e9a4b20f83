/**
 * Checking in by itself when the computer is unlocked or woken (an opt-in setting): which of the
 * user's own reservations, if any, to check in to at this moment. Pure: the core reads the list
 * after the wake, asks this, and checks in once.
 */
import type { DateTime } from 'luxon';
import type { PlannerReservation } from './notifications/planner.js';
import { checkInOpensMinutes } from './views/state.js';

const minuteMs = 60_000;

/** Names one reservation's one chance: a booking moved to another time is another chance. */
export function autoCheckInKey(reservation: Pick<PlannerReservation, 'referenceNumber' | 'start'>): string {
  return `${reservation.referenceNumber}@${reservation.start.toMillis()}`;
}

/**
 * When check-in by itself may happen, as epoch ms [opens, closes): from the later of the user's
 * check-in moment (`checkInLeadMinutes` before the start) and the server's (5 minutes before it:
 * server-facts C), to the auto-release moment or the end, whichever is first (servers refuse a
 * check-in after the release moment: server-facts D). Null for a reservation that awaits no
 * check-in of the user's: someone else's, one that needs none, is checked in or out already, or
 * is not approved yet.
 */
export function autoCheckInWindow(reservation: PlannerReservation, checkInLeadMinutes: number): [number, number] | null {
  const awaits = reservation.owned && reservation.requiresCheckIn && !reservation.checkedIn && !reservation.checkedOut && !reservation.isPendingApproval;
  if (!awaits) return null;
  const startMs = reservation.start.toMillis();
  const endMs = reservation.end.toMillis();
  const opensMs = startMs - Math.min(checkInLeadMinutes, checkInOpensMinutes) * minuteMs;
  const releaseMs = reservation.autoReleaseMinutes === null ? endMs : startMs + reservation.autoReleaseMinutes * minuteMs;
  return [opensMs, Math.min(endMs, releaseMs)];
}

/**
 * The reservation to check in to now, if any: of those whose window is open and that were not
 * tried before (`tried`, by `autoCheckInKey`), the one starting nearest to now — back to back, the
 * booking the user has just come for.
 */
export function autoCheckInTarget(
  reservations: readonly PlannerReservation[],
  now: DateTime,
  checkInLeadMinutes: number,
  tried: ReadonlySet<string>,
): PlannerReservation | null {
  const nowMs = now.toMillis();
  const open = reservations.filter((reservation) => {
    const window = autoCheckInWindow(reservation, checkInLeadMinutes);
    return window !== null && nowMs >= window[0] && nowMs < window[1] && !tried.has(autoCheckInKey(reservation));
  });
  const distance = (reservation: PlannerReservation) => Math.abs(reservation.start.toMillis() - nowMs);
  return open.sort((a, b) => distance(a) - distance(b))[0] ?? null;
}
