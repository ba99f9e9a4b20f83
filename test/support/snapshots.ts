/**
 * Builders for what the core hands its views (bridge types), shared by the renderer's fake
 * `window.perch` and the shell's fake core; each test overrides only the fields it looks at.
 */
import type { ReservationView, StateSnapshot } from '../../electron/bridge.js';

/** One of the viewer's own, plain reservations: no check-in, not recurring, not pending. */
export function reservationView(fields: Pick<ReservationView, 'start' | 'end'> & Partial<ReservationView>): ReservationView {
  return {
    referenceNumber: 'ref-1',
    title: '',
    resourceId: 1,
    resourceName: 'Room A',
    scheduleId: 1,
    isRecurring: false,
    isPendingApproval: false,
    requiresCheckIn: false,
    checkedInAt: null,
    checkedOutAt: null,
    originalEnd: null,
    autoReleaseAt: null,
    checkInOpen: false,
    canCheckOut: false,
    ownerName: 'Ada Lovelace',
    isMine: true,
    seriesKey: null,
    ...fields,
  };
}

/** Signed out, online, with a working keychain and notifier, as of `now`. */
export function signedOutState(now: string, overrides: Partial<StateSnapshot> = {}): StateSnapshot {
  return {
    phase: 'signedOut',
    account: null,
    reservations: [],
    freeNow: [],
    fetchedAt: null,
    offline: false,
    serverStrain: null,
    lastError: null,
    keychain: { available: true, reason: null },
    notifierProblem: null,
    globalShortcut: { label: 'Ctrl+Alt+P', problem: null },
    now,
    ...overrides,
  };
}
