/** What the popover says about a reservation's state, always as words (never colour alone). */
import type { BridgeError, ReservationView, StateSnapshot } from '../../../electron/bridge.js';
import type { PerchStore } from './perch.svelte.js';

type ReservationStatus = 'pending approval' | 'checked out' | 'checked in' | 'check-in open';

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

/** Whose booking someone else's is, and what the user is to it: "Alex's booking · you are invited". Null for the user's own. */
export function attendanceOf(reservation: ReservationView): string | null {
  if (reservation.role !== 'participant' && reservation.role !== 'invitee') return null;
  const owner = reservation.ownerFirstName || reservation.ownerName;
  const whose = owner === '' ? "Someone else's booking" : `${owner}'s booking`;
  return `${whose} · ${reservation.role === 'invitee' ? 'you are invited' : 'you take part'}`;
}

/** The Next card's reservation: the soonest that is still ahead or under way. */
export function nextReservation(snapshot: StateSnapshot | null, nowMs: number): ReservationView | null {
  return snapshot?.reservations.find((reservation) => reservation.checkedOutAt === null && Date.parse(reservation.end) > nowMs) ?? null;
}

/**
 * "I'm not coming" is on offer: the user's own booking awaits a check-in, before its start or while
 * check-in is open, so giving it back (cancelled before the start, checked out after) frees the
 * room early. Once check-in has closed unanswered, the server releases it anyway.
 */
export function canRelease(reservation: ReservationView, nowMs: number): boolean {
  const awaitsCheckIn = reservation.isMine && reservation.requiresCheckIn && reservation.checkedInAt === null && reservation.checkedOutAt === null && !reservation.isPendingApproval;
  return awaitsCheckIn && (reservation.checkInOpen || Date.parse(reservation.start) > nowMs);
}

/** Actions are per reservation; these are the store's busy/error keys for them. */
const actionKeys = (referenceNumber: string) =>
  ['checkIn', 'checkOut', 'extend', 'cancel', 'release'].map((action) => `${action}:${referenceNumber}`);

type ActionState = Pick<PerchStore, 'isBusy' | 'errorOf' | 'clearError'>;

export const isActionBusy = (perch: ActionState, referenceNumber: string) =>
  actionKeys(referenceNumber).some((key) => perch.isBusy(key));

export const actionError = (perch: ActionState, referenceNumber: string): BridgeError | null =>
  actionKeys(referenceNumber).map((key) => perch.errorOf(key)).find((found) => found !== null) ?? null;

/** One message per reservation: a new action hides the failure of the previous one. */
export function clearActionErrors(perch: ActionState, referenceNumber: string): void {
  for (const key of actionKeys(referenceNumber)) perch.clearError(key);
}

export function runAction(perch: ActionState, referenceNumber: string, action: () => Promise<unknown>): void {
  clearActionErrors(perch, referenceNumber);
  void action();
}
