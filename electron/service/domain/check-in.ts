/** What the check-in rules need to know about one occurrence. Instants are epoch milliseconds. */
export interface CheckInState {
  startAt: number;
  endAt: number;
  checkInAt: number | null;
  checkOutAt: number | null;
  /** The primary resource requires check-in. */
  requiresCheckIn: boolean;
  isPendingApproval: boolean;
}

export const checkInMessages = {
  checkedIn: 'The reservation was checked in',
  checkedOut: 'The reservation was checked out',
  cannotCheckIn: 'This reservation cannot be checked in to.',
  cannotCheckOut: 'This reservation cannot be checked out from.',
} as const;

const minuteMs = 60_000;

/** The wire carries whole seconds; storing finer instants would show times no client can send back. */
export const toWholeSecond = (ms: number) => Math.floor(ms / 1000) * 1000;

const checkInOpensAt = (startAt: number, opensMinutes: number) => startAt - opensMinutes * minuteMs;

/**
 * Check-in opens `opensMinutes` before the start and closes at the end, on a resource that asks
 * for it, once the reservation is approved (an unapproved booking holds nothing to claim yet).
 */
export function isCheckInOpen(state: CheckInState, nowMs: number, opensMinutes: number): boolean {
  return (
    state.requiresCheckIn &&
    !state.isPendingApproval &&
    state.checkInAt === null &&
    nowMs >= checkInOpensAt(state.startAt, opensMinutes) &&
    nowMs < state.endAt
  );
}

/**
 * Check-out cuts the end to the check-out time, so it needs a start already passed (the end must
 * stay after the start); leaving before the start is a cancellation, not a check-out.
 */
export function isCheckOutAllowed(state: CheckInState, nowMs: number): boolean {
  return state.checkInAt !== null && state.checkOutAt === null && nowMs > state.startAt && nowMs < state.endAt;
}

export type CheckInOutcome = 'perform' | 'alreadyDone' | 'refused';

/** Checking in twice answers success again, as real servers do, and changes nothing. */
export function checkInOutcome(state: CheckInState, nowMs: number, opensMinutes: number): CheckInOutcome {
  if (state.checkInAt !== null) return 'alreadyDone';
  return isCheckInOpen(state, nowMs, opensMinutes) ? 'perform' : 'refused';
}

export function checkOutOutcome(state: CheckInState, nowMs: number): CheckInOutcome {
  if (state.checkOutAt !== null) return 'alreadyDone';
  return isCheckOutAllowed(state, nowMs) ? 'perform' : 'refused';
}
