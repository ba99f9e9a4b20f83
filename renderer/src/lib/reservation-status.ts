/** What the popover says about a reservation's state, always as words (never colour alone). */
import type { BridgeError, ReservationView } from '../../../electron/bridge.js';
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

/** Actions are per reservation; these are the store's busy/error keys for them. */
const actionKeys = (referenceNumber: string) =>
  ['checkIn', 'checkOut', 'extend', 'cancel'].map((action) => `${action}:${referenceNumber}`);

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
