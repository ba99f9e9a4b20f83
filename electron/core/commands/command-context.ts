import type { DateTime } from 'luxon';
import type { BookDraft, BridgeResult, FreeResourceView, ResourceFace, Settings, SignInRequest, StateSnapshot } from '../../bridge/contract.js';
import type { StartTimeRules } from '../account/start-time-rules.js';
import type { AccountSession, SessionResult } from '../session/session.js';
import type { BusyAnswer } from '../views/free-now.js';
import type { ViewContext } from '../views/reservation-view.js';
import type { WireAttribute, WireReservation, WireResource, WireSchedule, WireSummary } from '../../api/wire.js';

/** What the commands need from the core around them. */
export interface CommandContext {
  session: AccountSession;
  snapshot(): StateSnapshot;
  /** Context for views of this moment (zone, user). */
  viewContext(): ViewContext | null;
  /** What each server lets a normal user change once a reservation has started, learned from its answers. */
  startTimeRules: StartTimeRules;
  signIn(request: SignInRequest): Promise<BridgeResult<StateSnapshot>>;
  /** Starts the local service and signs in to the person's own account there. */
  tryThisComputer(): Promise<BridgeResult<StateSnapshot>>;
  signOut(): Promise<BridgeResult<StateSnapshot>>;
  /** The 14-day list and who is busy now; the reference data only when stale (12 hours). */
  refresh(): Promise<StateSnapshot>;
  /** The refresh, and the reference data (resources, schedules, groups, attributes, permissions) read again. */
  reloadEverything(): Promise<StateSnapshot>;
  /** The settings as last read. */
  settings(): Settings;
  /** The settings as they are now: launch at login as the OS has it, which the user may have changed there. */
  readSettings(): Promise<Settings>;
  /** Refused (the OS would not give Perch the shortcut) with the setting's name in the error's lines. */
  saveSettings(settings: Settings): Promise<BridgeResult<null>>;
  /** Resources and schedules, from the cache when it is less than an hour old. */
  resources(): Promise<SessionResult<WireResource[]>>;
  schedules(): Promise<SessionResult<WireSchedule[]>>;
  /** Each resource's icon and colour by id, from the resources, their types and groups as last read. */
  resourceFaces(): ReadonlyMap<number, ResourceFace>;
  /** The server's reservation attributes, which every reservation body carries; as last known when they cannot be read now. */
  reservationAttributes(): Promise<WireAttribute[]>;
  /** The listed summary of a reservation, if the last polls saw it. */
  knownSummary(referenceNumber: string): WireSummary | undefined;
  /** One reservation changed (check-in, check-out, extension): fold it into the state at once. */
  reservationChanged(detail: WireReservation): void;
  /** Reservations were created or deleted: fetch the user's list and availability again. */
  reservationsChanged(): Promise<void>;
  /** Asks the shell to hide the popover. */
  hidePopover(): void;
  /** Asks the shell to open a page of the signed-in server's website in the user's browser. */
  openExternal(url: string): void;
  /** Asks the shell to put text on the clipboard. */
  copyText(text: string): void;
  /** The schedules Free now covers, ranked, leaving out those whose hours say they are closed at `at`. */
  freeNowScheduleIds(at: DateTime): number[];
  /** What is free over `start`–`end`, ranked for the user, from who was busy in those schedules then. */
  freeViews(answers: readonly BusyAnswer[], start: DateTime, end: DateTime): FreeResourceView[];
  /** Opens the popover on the Book form, filled in with the draft (through the navigate event, which shows the popover). */
  openBookForm(draft: BookDraft): void;
}
