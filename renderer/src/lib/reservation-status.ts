/** What the popover says about a reservation's state, always as words (never colour alone). */
import type { BridgeResult, ReservationView } from '$bridge/contract.js';

/** The store's record of the last action that failed, and at which control. */
export interface ActionFailure {
  control: string;
  message: string;
}

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

/**
 * "I'm not coming" is on offer: the user's own booking awaits a check-in, before its start or while
 * check-in is open, so giving it back (cancelled before the start, checked out after) frees the
 * room early. Once check-in has closed unanswered, the server releases it anyway.
 */
export function canRelease(reservation: ReservationView, nowMs: number): boolean {
  return reservation.awaitsCheckIn && (reservation.checkInOpen || Date.parse(reservation.start) > nowMs);
}

/** Actions are per reservation; these are the store's busy keys for them. */
const actionKeys = (referenceNumber: string) =>
  ['checkIn', 'checkOut', 'extend', 'cancel', 'release', 'retitle', 'move'].map((action) => `${action}:${referenceNumber}`);

export const isActionBusy = (perch: { isBusy(key: string): boolean }, referenceNumber: string) =>
  actionKeys(referenceNumber).some((key) => perch.isBusy(key));

interface FailureState {
  actionFailure: ActionFailure | null;
}

/** The next action begins: the last one's failure goes, wherever it is shown. */
export function actionBegins(perch: FailureState): void {
  perch.actionFailure = null;
}

/**
 * Runs an action from one control (`control` names it, unique in the popover): a failure is kept
 * for that control alone, as the one line the core wrote, so it shows beside what caused it.
 */
export async function runAction(perch: FailureState, control: string, action: () => Promise<BridgeResult<unknown>>): Promise<void> {
  actionBegins(perch);
  const result = await action();
  if (!result.ok) perch.actionFailure = { control, message: result.error.message };
}

/** The ids of a My reservations row's controls: its one button, and its menu (⋯). */
export const rowControl = (referenceNumber: string, which: 'primary' | 'menu') => `row-${which}-${referenceNumber}`;

/** The failure to show beside `control`, if it caused the last one. */
export const failureOf = (perch: FailureState, control: string): string | null =>
  perch.actionFailure?.control === control ? perch.actionFailure.message : null;

/** "I'm not coming", asked before the booking is given back: the same words on the Now card and in My reservations. */
export function releaseQuestion(reservation: ReservationView, underWay: boolean) {
  const name = nameOf(reservation);
  return {
    label: 'Confirm giving the booking back',
    question: underWay ? `End it now and free ${reservation.resourceName}?` : `Cancel it and free ${reservation.resourceName}?`,
    yes: { text: 'Yes, free it', label: `Yes, free it: give ${name} back` },
    no: { text: 'No', label: `No, keep ${name}` },
  };
}
