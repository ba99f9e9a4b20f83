/**
 * Which of a snapshot's reservations is the next: asked alike by the tray (the core) and the
 * popover (the renderer), each at its own moment, since the popover's clock moves on between
 * snapshots and a reservation that ends hands the card to the one after it at once.
 */
import type { ReservationView } from './contract.js';

/** The one in progress, else the next to start: the soonest that has not ended and is not checked out of. */
export function nextReservation(reservations: readonly ReservationView[], nowMs: number): ReservationView | null {
  return reservations.find((reservation) => reservation.checkedOutAt === null && Date.parse(reservation.end) > nowMs) ?? null;
}
