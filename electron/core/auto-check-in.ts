/**
 * Checking in by itself when the computer is unlocked or woken (an opt-in setting): which of the
 * user's own reservations, if any, to check in to at this moment. Pure: the core reads the list
 * after the wake, asks this, and checks in once.
 */
import type { DateTime } from 'luxon';
import { awaitsCheckIn, checkInClosesMs, checkInOpensMinutes, type Reservation } from './reservations.js';

const minuteMs = 60_000;

/** Names one reservation's one chance: a booking moved to another time is another chance. */
export function autoCheckInKey(reservation: Pick<Reservation, 'referenceNumber' | 'start'>): string {
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
export function autoCheckInWindow(reservation: Reservation, checkInLeadMinutes: number): [number, number] | null {
  if (!awaitsCheckIn(reservation)) return null;
  const opensMs = reservation.start.toMillis() - Math.min(checkInLeadMinutes, checkInOpensMinutes) * minuteMs;
  return [opensMs, checkInClosesMs(reservation)];
}

/**
 * The reservation to check in to now, if any: of those whose window is open and that were not
 * tried before (`tried`, by `autoCheckInKey`), the one starting nearest to now — back to back, the
 * booking the user has just come for.
 */
export function autoCheckInTarget(
  reservations: readonly Reservation[],
  now: DateTime,
  checkInLeadMinutes: number,
  tried: ReadonlySet<string>,
): Reservation | null {
  const nowMs = now.toMillis();
  const open = reservations.filter((reservation) => {
    const window = autoCheckInWindow(reservation, checkInLeadMinutes);
    return window !== null && nowMs >= window[0] && nowMs < window[1] && !tried.has(autoCheckInKey(reservation));
  });
  const distance = (reservation: Reservation) => Math.abs(reservation.start.toMillis() - nowMs);
  return open.sort((a, b) => distance(a) - distance(b))[0] ?? null;
}
