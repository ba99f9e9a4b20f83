/**
 * A scripted stand-in for `window.perch` for component tests only: each command answers from a
 * handler the test may replace, every call is recorded, and events can be emitted by hand.
 * (End-to-end tests bind the real core instead.)
 */
import {
  commandNames,
  type AccountView,
  type CommandHandlers,
  type CommandName,
  type EventName,
  type EventPayloads,
  type PerchApi,
  type ReservationView,
  type Settings,
  type StateSnapshot,
} from '$bridge/contract.js';
import { freeResourceView, reservationView, signedOutState } from '../support/snapshots.js';

export const now = '2025-11-26T10:00:00.000+01:00';

export const account: AccountView = {
  server: { kind: 'local' },
  userId: 2,
  userName: 'ada',
  displayName: 'Ada Lovelace',
  timezone: 'Europe/Berlin',
  timezoneNote: null,
  isAdmin: false,
};

export function reservation(overrides: Partial<ReservationView> = {}): ReservationView {
  return reservationView({
    title: 'Design review',
    resourceName: 'Room Ada',
    start: '2025-11-26T10:12:00.000+01:00',
    end: '2025-11-26T11:00:00.000+01:00',
    ...overrides,
  });
}

export function signedOutSnapshot(overrides: Partial<StateSnapshot> = {}): StateSnapshot {
  return signedOutState(now, overrides);
}

export function readySnapshot(overrides: Partial<StateSnapshot> = {}): StateSnapshot {
  return signedOutSnapshot({
    phase: 'ready',
    account,
    reservations: [reservation()],
    freeNow: [freeResourceView({ resourceId: 3, name: 'Room Babbage', scheduleName: 'Rooms', freeUntil: '2025-11-26T12:00:00.000+01:00' })],
    fetchedAt: now,
    ...overrides,
  });
}

export function defaultSettings(): Settings {
  return {
    pollIntervalSeconds: 60,
    startReminderMinutes: 10,
    endReminderMinutes: 5,
    checkInLeadMinutes: 5,
    notifications: {
      startReminder: true,
      endReminder: true,
      checkInOpen: true,
      autoReleaseWarning: true,
      released: true,
      approvalOutcome: true,
    },
    autoCheckIn: false,
    launchAtLogin: false,
    theme: 'system',
    favouriteResourceIds: [7],
    globalShortcut: 'CommandOrControl+Alt+P',
  };
}

export interface FakePerch {
  api: PerchApi;
  /** Replaceable answers, one per command. */
  handlers: CommandHandlers;
  calls: { command: CommandName; request: unknown }[];
  emit<E extends EventName>(event: E, payload: EventPayloads[E]): void;
  requestsOf(command: CommandName): unknown[];
}

export function createFakePerch(initial: StateSnapshot = signedOutSnapshot(), overrides: Partial<CommandHandlers> = {}): FakePerch {
  let state = initial;
  let settings = defaultSettings();
  const notImplemented = async () => ({
    ok: false as const,
    error: { kind: 'unexpected' as const, message: 'Not scripted in this test.' },
  });
  const startSession = async () => {
    state = readySnapshot();
    return { ok: true as const, value: state };
  };
  const handlers: CommandHandlers = {
    getState: async () => state,
    refresh: async () => state,
    reloadEverything: async () => state,
    signIn: startSession,
    tryThisComputer: startSession,
    signOut: async () => {
      state = signedOutSnapshot();
      return { ok: true, value: state };
    },
    book: notImplemented,
    checkIn: notImplemented,
    checkOut: notImplemented,
    cancel: notImplemented,
    release: notImplemented,
    extend: notImplemented,
    offerExtension: notImplemented,
    retitle: notImplemented,
    move: notImplemented,
    getRecurrence: async () => ({ ok: true, value: null }),
    getReservationDetails: notImplemented,
    openOnServer: notImplemented,
    copyText: async () => ({ ok: true, value: null }),
    listSchedules: async () => ({ ok: true, value: [] }),
    listResources: async () => ({ ok: true, value: [] }),
    listSlots: async () => ({ ok: true, value: [] }),
    listReservationAttributes: async () => ({ ok: true, value: [] }),
    getSettings: async () => structuredClone(settings),
    setSettings: async (patch) => {
      settings = { ...settings, ...patch };
      return { ok: true, value: structuredClone(settings) };
    },
    hidePopover: async () => null,
    openBookForm: async () => null,
    freeAt: async () => ({ ok: true, value: [] }),
    readPhrase: async () => ({ ok: true, value: null }),
    bookPhrase: notImplemented,
    ...overrides,
  };
  const calls: FakePerch['calls'] = [];
  const listeners = new Map<EventName, Set<(payload: never) => void>>();

  const commands = Object.fromEntries(
    commandNames.map((command) => [
      command,
      (request?: unknown) => {
        calls.push({ command, request });
        return (handlers[command] as (request: unknown) => Promise<unknown>)(request);
      },
    ]),
  ) as { [C in CommandName]: PerchApi[C] };

  const api: PerchApi = {
    ...commands,
    on(event, listener) {
      const set = listeners.get(event) ?? new Set();
      listeners.set(event, set);
      set.add(listener as (payload: never) => void);
      return () => set.delete(listener as (payload: never) => void);
    },
  };

  return {
    api,
    handlers,
    calls,
    emit(event, payload) {
      for (const listener of listeners.get(event) ?? []) (listener as (payload: EventPayloads[typeof event]) => void)(payload);
    },
    requestsOf: (command) => calls.filter((call) => call.command === command).map((call) => call.request),
  };
}

/** A promise the test settles by hand, for observing busy states. */
export function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((settle) => {
    resolve = settle;
  });
  return { promise, resolve };
}
