/** What the UI is shown: the core's state as views in the user's zone at one moment. */
import { DateTime } from 'luxon';
import type { FreeResourceView, KeychainStatus, StateSnapshot } from '../../bridge/contract.js';
import type { StartTimeRules } from '../session/start-time-rules.js';
import type { Clock } from '../clock.js';
import type { CoreEvents } from '../core-events.js';
import type { CoreData, CoreState, ServerStrain } from '../core-state.js';
import type { AccountSession } from '../session/session.js';
import type { SecretStore } from '../storage/secret-store.js';
import { listedReservations, scheduleZones } from '../reservations.js';
import { resourceFaces } from './resource-kind.js';
import { acceleratorLabel } from '../desktop/global-shortcut.js';
import { bookableTest } from '../session/bookable.js';
import { accountView, type AccountIdentity } from '../session/account-identity.js';
import { freeNowClosedView, freeNowLists, freeNowViews, type BusyAnswer, type FreeNowContext } from './free-now.js';
import { groupNamesByResource } from './resource-views.js';
import { isoIn } from './bridge-time.js';
import { upcomingViews, type ViewContext } from './reservation-view.js';

function machineZone(): string {
  return DateTime.local().zoneName ?? 'UTC';
}

const strainReasons: Record<ServerStrain['reason'], string> = {
  slow: 'The server is answering slowly',
  serverError: 'The server is failing (it answered with an error)',
};

function strainMessage(strain: ServerStrain | null): string | null {
  if (strain === null) return null;
  return `${strainReasons[strain.reason]}, so Perch checks it ${2 ** strain.level} times less often until it recovers.`;
}

export function snapshotOf(
  state: CoreState,
  account: AccountIdentity | null,
  now: DateTime,
  keychain: KeychainStatus,
  lockedOnceStarted: boolean,
): StateSnapshot {
  const { data } = state;
  const userZone = account?.timezone ?? machineZone();
  const context = viewContextOf(account, now, data, lockedOnceStarted);
  return {
    phase: state.phase,
    account: account === null ? null : accountView(account),
    reservations: account === null || context === null ? [] : upcomingViews(listedReservations(data, account.userId), context),
    ...freeNowOf(state, account, now),
    freeNowLoading: account !== null && state.freeNowReading && !state.offline && data.busyNow.length === 0,
    fetchedAt: data.fetchedAt === null ? null : isoIn(userZone, data.fetchedAt),
    offline: state.offline,
    serverStrain: strainMessage(state.strain),
    lastError: state.lastError,
    keychain,
    notifierProblem: state.notifierProblem,
    globalShortcut: {
      label: acceleratorLabel(state.settings.globalShortcut, process.platform),
      problem: state.shortcutProblem,
      command: state.shortcutCommand,
    },
    now: isoIn(userZone, now),
    timeFormat: state.timeFormat,
  };
}

function freeNowContext(state: CoreState, account: AccountIdentity, start: DateTime, end?: DateTime): FreeNowContext {
  const { data } = state;
  return {
    zone: account.timezone,
    now: start,
    ...(end !== undefined && { windowEnd: end }),
    resources: data.resources,
    schedules: data.schedules,
    groupNames: groupNamesByResource(data.groups),
    own: data.reservations,
    hours: data.hours,
    reservationAttributes: data.reservationAttributes,
    favouriteResourceIds: state.settings.favouriteResourceIds,
    faces: resourceFaces(data.resources, data.resourceTypes, data.groups),
    isAdmin: account.isAdmin,
    mayBook: bookableTest(account),
  };
}

/** Free now, the rest for the filter to find, and what opens next when everything is closed. */
function freeNowOf(
  state: CoreState,
  account: AccountIdentity | null,
  now: DateTime,
): Pick<StateSnapshot, 'freeNow' | 'notFreeNow' | 'freeNowClosed'> {
  if (account === null) return { freeNow: [], notFreeNow: [], freeNowClosed: null };
  const context = freeNowContext(state, account, now);
  const { free, notFree } = freeNowLists(state.data.busyNow, context);
  return { freeNow: free, notFreeNow: notFree, freeNowClosed: freeNowClosedView(context) };
}

/** What is free over a time to come ("free at 14:00 for 1 h"), from who is busy then in the schedules asked about. */
export function freeViews(
  state: CoreState,
  account: AccountIdentity,
  answers: readonly BusyAnswer[],
  start: DateTime,
  end: DateTime,
): FreeResourceView[] {
  return freeNowViews(answers, freeNowContext(state, account, start, end));
}

/** Context for views of this moment, when someone is signed in. */
export function viewContextOf(
  account: AccountIdentity | null,
  now: DateTime,
  data: Pick<CoreData, 'schedules' | 'resources' | 'resourceTypes' | 'groups'>,
  lockedOnceStarted: boolean,
): ViewContext | null {
  if (account === null) return null;
  return {
    zone: account.timezone,
    now,
    userId: account.userId,
    scheduleZones: scheduleZones(data.schedules),
    lockedOnceStarted,
    resourceFaces: resourceFaces(data.resources, data.resourceTypes, data.groups),
  };
}

/**
 * The core's state as the UI and the commands see it: the snapshot of this moment, the context views
 * are made in, and the news that it changed, told with its snapshot to every listener.
 */
export interface CoreView {
  snapshot(): StateSnapshot;
  /** Context for views of this moment (zone, user); null when signed out. */
  viewContext(): ViewContext | null;
  /** The state changed: its snapshot is taken once and told to the listeners (the popover, the tray). */
  changed(): void;
  /** The snapshot last told, if any: the background keeps fresh what its tray's Book now shows. */
  lastShown(): StateSnapshot | null;
}

export function createCoreView(options: {
  clock: Clock;
  state: CoreState;
  session: Pick<AccountSession, 'account'>;
  secrets: Pick<SecretStore, 'status'>;
  startTimeRules: Pick<StartTimeRules, 'locksStarted'>;
  events: Pick<CoreEvents, 'emit'>;
}): CoreView {
  const { clock, state, session, secrets, startTimeRules, events } = options;
  let lastShown: StateSnapshot | null = null;
  const snapshot = () => snapshotOf(state, session.account, clock.now(), secrets.status(), startTimeRules.locksStarted(session.account));
  return {
    snapshot,
    viewContext: () => viewContextOf(session.account, clock.now(), state.data, startTimeRules.locksStarted(session.account)),
    changed() {
      lastShown = snapshot();
      events.emit('stateChanged', lastShown);
    },
    lastShown: () => lastShown,
  };
}
