/**
 * What the core knows between events, in one record its parts share: each reads the member it
 * needs at the moment it needs it, so a sign-out or a poll that replaced the data is seen at once.
 */
import type { DateTime } from 'luxon';
import type { BridgeError, Settings, StateSnapshot, TimeFormatRules } from '../bridge/contract.js';
import { defaultTimeFormatRules } from '../bridge/format.js';
import type { Reservation } from './reservations.js';
import { defaultSettings } from './storage/settings-store.js';
import type { WireAttribute, WireGroupTree, WirePeriod, WireResource, WireResourceType, WireSchedule, WireSummary } from '../api/wire.js';

/** A schedule's layout as last fetched; kept for hours, like the resource list. */
export interface ScheduleHours {
  scheduleId: number;
  timezone: string;
  fetchedAt: DateTime;
  /** One list per weekday, as GetSchedule gives them. */
  periods: WirePeriod[][];
}

/**
 * Who is busy in one schedule from the moment it was asked to `until` (its closing time, or the
 * end of the user's day where its hours are not known): GetReservations by schedule over that
 * time, which costs a real server what one minute costs (server-facts E).
 */
export interface BusyNow {
  scheduleId: number;
  askedAt: DateTime;
  until: DateTime;
  reservations: WireSummary[];
}

/**
 * The reservations of others in one schedule that the user takes part in or is invited to, from
 * now to the end of the user's tomorrow: GetReservations by user lists only what the user owns
 * (server-facts C), so they are read by schedule, rarely (sync.ts).
 */
export interface Meetings {
  scheduleId: number;
  askedAt: DateTime;
  reservations: WireSummary[];
}

/** Why polls come slower than usual: the server answered slowly or failed. */
export interface ServerStrain {
  /** Each strained poll raises it by one, each good poll lowers it; the poll periods are stretched by 2^level. */
  level: number;
  reason: 'slow' | 'serverError';
}

export interface CoreData {
  reservations: WireSummary[];
  /** The latest answer for each schedule "Free now" covers, each with its own age. */
  busyNow: BusyNow[];
  /** Meetings the user is in, for each schedule they book in; not cached on disk. */
  meetings: Meetings[];
  resources: WireResource[];
  /** The server's resource types, which tell a room from a desk (resource-kind.ts); none on a 2.9 server. */
  resourceTypes: WireResourceType[];
  schedules: WireSchedule[];
  groups: WireGroupTree | null;
  /** Reservation attributes: a required one that applies to a resource means one click cannot book it. */
  reservationAttributes: WireAttribute[];
  referenceFetchedAt: DateTime | null;
  fetchedAt: DateTime | null;
  /** The layouts of the schedules "Free now" covers, fetched when the user looks; not cached on disk. */
  hours: ScheduleHours[];
}

export const emptyData = (): CoreData => ({
  reservations: [],
  busyNow: [],
  meetings: [],
  resources: [],
  resourceTypes: [],
  schedules: [],
  groups: null,
  reservationAttributes: [],
  referenceFetchedAt: null,
  fetchedAt: null,
  hours: [],
});

export interface CoreState {
  settings: Settings;
  /** How the user reads times: the OS's, as the shell said at start. */
  timeFormat: TimeFormatRules;
  phase: StateSnapshot['phase'];
  data: CoreData;
  offline: boolean;
  /**
   * A look's reads for Free now (the resource list when stale, who is busy) are under way, the
   * user's own list already in: with no answer about who is busy yet, Free now is loading, not empty.
   */
  freeNowReading: boolean;
  /** Null while the server answers well. */
  strain: ServerStrain | null;
  lastError: BridgeError | null;
  /** What Settings says of the last notification not shown or not confirmed (notifierProblemOf). */
  notifierProblem: string | null;
  /** Why the OS would not give Perch its shortcut, or why it never fires on this desktop. */
  shortcutProblem: string | null;
  /** The command a shortcut of the desktop's own runs to open Perch (Linux), which the shortcut's problems offer. */
  shortcutCommand: string | null;
  /** Ids of the notifications already shown. */
  shown: Set<string>;
  /** Shown notifications the user snoozed, and when each is due again; kept in memory only. */
  snoozed: Map<string, DateTime>;
  /** The planner's view after the previous poll; null until a poll of this run has been seen. */
  previousPlanned: PlannedList | null;
}

/** The planner's view of the user's list, and when the list was read. */
export interface PlannedList {
  reservations: readonly Reservation[];
  readAt: DateTime;
}

export function createCoreState(timeFormat: TimeFormatRules = defaultTimeFormatRules()): CoreState {
  return {
    settings: structuredClone(defaultSettings),
    timeFormat,
    phase: 'signedOut',
    data: emptyData(),
    offline: false,
    freeNowReading: false,
    strain: null,
    lastError: null,
    notifierProblem: null,
    shortcutProblem: null,
    shortcutCommand: null,
    shown: new Set(),
    snoozed: new Map(),
    previousPlanned: null,
  };
}

/** Nothing of an account left in memory: before another is adopted, and after sign-out. */
export function clearAccountData(state: CoreState): void {
  state.data = emptyData();
  state.shown = new Set();
  state.snoozed = new Map();
  state.previousPlanned = null;
  state.offline = false;
  state.freeNowReading = false;
  state.strain = null;
}
