/**
 * Builders for what the core hands its views (bridge types), shared by the renderer's fake
 * `window.perch` and the shell's fake core; each test overrides only the fields it looks at.
 */
import type {
  FreeResourceView,
  ReservationView,
  ResourceCardView,
  StateSnapshot,
  UnavailableResourceView,
} from '../../electron/bridge/contract.js';

/** How the core's tests read times, whatever the machine's locale: a 24-hour British clock. */
export const testTimeFormat: StateSnapshot['timeFormat'] = { locale: 'en-GB', hourCycle: 'h23' };

/** What the popover's tests see: an American 12-hour clock, as jsdom's `navigator.language` gives. */
export const popoverTestTimeFormat: StateSnapshot['timeFormat'] = { locale: 'en-US', hourCycle: 'h12' };

/** One of the viewer's own, plain reservations: no check-in, not recurring, not pending. */
export function reservationView(fields: Pick<ReservationView, 'start' | 'end'> & Partial<ReservationView>): ReservationView {
  return {
    referenceNumber: 'ref-1',
    title: '',
    resourceId: 1,
    resourceName: 'Room A',
    scheduleId: 1,
    timezone: 'Europe/Berlin',
    isRecurring: false,
    isPendingApproval: false,
    requiresCheckIn: false,
    checkedInAt: null,
    checkedOutAt: null,
    originalEnd: null,
    autoReleaseAt: null,
    awaitsCheckIn: false,
    checkInOpensAt: null,
    checkInOpen: false,
    canCheckOut: false,
    canChange: true,
    ownerName: 'Ada Lovelace',
    ownerFirstName: 'Ada',
    isMine: true,
    role: 'owner',
    seriesKey: null,
    resourceFace: { kind: 'other', color: null },
    ...fields,
  };
}

/** What any row says of a resource that says nothing of itself, in the one schedule "Main". */
const plainCard: Omit<ResourceCardView, 'resourceId' | 'name'> = {
  face: { kind: 'other', color: null },
  scheduleId: 1,
  scheduleName: 'Main',
  groupNames: [],
  location: '',
  capacity: null,
  features: [],
  standing: null,
};

/** A resource free now that one click can book: no limits, no approval, nothing known ahead unless given. */
export function freeResourceView(fields: Pick<FreeResourceView, 'resourceId' | 'name'> & Partial<FreeResourceView>): FreeResourceView {
  return {
    ...plainCard,
    minLengthMinutes: null,
    maxLengthMinutes: null,
    needsForm: null,
    freeUntil: null,
    freeAllDay: fields.freeUntil === undefined || fields.freeUntil === null,
    ...fields,
  };
}

/** A resource the user may book that is booked now, free again at `freeFrom` unless another reason and time are given. */
export function unavailableResourceView(
  fields: Pick<UnavailableResourceView, 'resourceId' | 'name' | 'freeFrom'> & Partial<UnavailableResourceView>,
): UnavailableResourceView {
  return {
    ...plainCard,
    reason: 'busy',
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
    freeNowLoading: false,
    notFreeNow: [],
    freeNowClosed: null,
    fetchedAt: null,
    offline: false,
    serverStrain: null,
    lastError: null,
    keychain: { available: true, reason: null },
    notifierProblem: null,
    globalShortcut: { label: 'Ctrl+Alt+P', problem: null, command: null },
    now,
    timeFormat: popoverTestTimeFormat,
    ...overrides,
  };
}
