/** What the popover says about a reservation's state, always as words (never colour alone). */
import type { ReservationView } from '../../../electron/bridge.js';

export type ReservationStatus = 'pending approval' | 'checked out' | 'checked in' | 'check-in open';

export function statusOf(reservation: ReservationView): ReservationStatus | null {
  if (reservation.checkedOutAt !== null) return 'checked out';
  if (reservation.checkedInAt !== null) return 'checked in';
  if (reservation.isPendingApproval) return 'pending approval';
  if (reservation.checkInOpen) return 'check-in open';
  return null;
}

/** The reservation's name in sentences and button names: its title, or its resource when untitled. */
export function nameOf(reservation: ReservationView): string {
  return reservation.title.trim() || reservation.resourceName;
}

/** Actions are per reservation; these are the store's busy/error keys for them. */
export const actionKeys = (referenceNumber: string) =>
  ['checkIn', 'checkOut', 'extend', 'cancel'].map((action) => `${action}:${referenceNumber}`);
