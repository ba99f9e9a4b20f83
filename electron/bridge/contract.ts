/**
 * The contract between the popover (renderer) and the main process: every command with its
 * request and answer, every event with its payload. The preload exposes exactly these as
 * `window.perch`; main registers one handler per command and validates each request against
 * the schemas here. The renderer imports this file's types only.
 */
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import type { Result } from '../api/result.js';

export type { Result };

/** One member of a request that was refused, named by its key; the UI names it as the user sees it. */
export interface FieldProblem {
  /** The member's path, dot-separated: `pollIntervalSeconds`, `notifications.released`. */
  field: string;
  /** What it must be, to follow the field's name: `must be a whole number from 15 to 3600`. */
  problem: string;
}

/** A time to book instead of one that was just taken, ISO 8601 with the user's offset. */
export interface FreeTime {
  start: string;
  end: string;
}

/** How a failed command reads in the UI; `errors` carries a server's own lines verbatim. */
export interface BridgeError {
  kind:
    | 'conflict'
    | 'network'
    | 'unauthorized'
    | 'forbidden'
    | 'notFound'
    | 'validation'
    | 'server'
    | 'unexpected'
    | 'invalidInput'
    | 'signedOut';
  message: string;
  errors?: string[];
  /** Members of the request that were refused (settings, say), for the UI to name as it labels them. */
  fields?: FieldProblem[];
  /** A booking clashed: the same booking at the next free time that day, when there is one. */
  nextFree?: FreeTime;
}

export type BridgeResult<T> = Result<T, BridgeError>;

export type ThemeSetting = 'system' | 'light' | 'dark';

/**
 * How the user reads times, decided once from the OS (the shell passes it to the core) and carried
 * in every snapshot, so the popover writes times by the same rules as the tray and the
 * notifications (electron/bridge/format.ts applies them on both sides).
 */
export interface TimeFormatRules {
  /** BCP 47 locale of the OS's regional format, e.g. `en-GB`. */
  locale: string;
  /** 12- or 24-hour clock, as Intl names it. */
  hourCycle: 'h11' | 'h12' | 'h23' | 'h24';
}

const NotificationKinds = Type.Object({
  startReminder: Type.Boolean(),
  endReminder: Type.Boolean(),
  checkInOpen: Type.Boolean(),
  autoReleaseWarning: Type.Boolean(),
  released: Type.Boolean(),
  approvalOutcome: Type.Boolean(),
});

/** Non-secret preferences, kept in a JSON file in the app's data folder. */
export const SettingsSchema = Type.Object({
  pollIntervalSeconds: Type.Integer({ minimum: 15, maximum: 3600 }),
  /** Lead times used when a reservation carries no reminder of its own. */
  startReminderMinutes: Type.Integer({ minimum: 0, maximum: 1440 }),
  endReminderMinutes: Type.Integer({ minimum: 0, maximum: 1440 }),
  /** When the "check-in open" notification fires, before start. */
  checkInLeadMinutes: Type.Integer({ minimum: 0, maximum: 60 }),
  notifications: NotificationKinds,
  /**
   * Opt-in: on unlocking or waking the computer while one of the user's bookings has its check-in
   * window open, Perch checks in to it by itself, once. Nothing but the check-in leaves the computer.
   */
  autoCheckIn: Type.Boolean(),
  launchAtLogin: Type.Boolean(),
  theme: Type.Union([Type.Literal('system'), Type.Literal('light'), Type.Literal('dark')]),
  favouriteResourceIds: Type.Array(Type.Integer({ minimum: 1 }), { maxItems: 500 }),
  /** The keys that open Perch from any app, as an Electron accelerator ("CommandOrControl+Alt+P"); '' for none. */
  globalShortcut: Type.String({ maxLength: 100 }),
});
export type Settings = Static<typeof SettingsSchema>;

/** Where the account lives: the embedded local service, or an organisation's server. */
export const ServerChoiceSchema = Type.Union([
  Type.Object({ kind: Type.Literal('local') }),
  Type.Object({ kind: Type.Literal('remote'), url: Type.String({ minLength: 1, maxLength: 2048 }) }),
]);
export type ServerChoice = Static<typeof ServerChoiceSchema>;

const ReferenceNumber = Type.String({ minLength: 1, maxLength: 64 });
const Instant = Type.String({ minLength: 1, maxLength: 64, description: 'ISO 8601 with offset' });

export const SignInRequestSchema = Type.Object({
  server: ServerChoiceSchema,
  username: Type.String({ minLength: 1, maxLength: 255 }),
  password: Type.String({ minLength: 1, maxLength: 1024 }),
  staySignedIn: Type.Boolean(),
});

export const BookRequestSchema = Type.Object({
  resourceId: Type.Integer({ minimum: 1 }),
  start: Instant,
  /** Either an end or a duration. */
  end: Type.Optional(Instant),
  durationMinutes: Type.Optional(Type.Integer({ minimum: 1, maximum: 60 * 24 * 31 })),
  title: Type.String({ maxLength: 300 }),
  description: Type.Optional(Type.String({ maxLength: 4000 })),
  customAttributes: Type.Optional(
    Type.Array(Type.Object({ attributeId: Type.Integer({ minimum: 1 }), value: Type.String({ maxLength: 4000 }) }), { maxItems: 100 }),
  ),
});

/** A booking to finish in the Book form: its resource, start and length chosen, the rest to fill in. */
export const BookDraftSchema = Type.Object({
  resourceId: Type.Integer({ minimum: 1 }),
  start: Instant,
  durationMinutes: Type.Integer({ minimum: 1, maximum: 60 * 24 * 31 }),
});

/** "Free at 14:00 for 1 h": what is free over a time to come. */
export const FreeAtRequestSchema = Type.Object({
  start: Instant,
  durationMinutes: Type.Integer({ minimum: 1, maximum: 24 * 60 }),
});

/** A line typed in the popover's field, to read as a booking ("desk tomorrow 14:00 for 90 min"). */
export const PhraseRequestSchema = Type.Object({ text: Type.String({ maxLength: 500 }) });

/** Book what a typed line says, as its preview showed it. */
export const BookPhraseRequestSchema = Type.Object({
  text: Type.String({ minLength: 1, maxLength: 500 }),
  title: Type.String({ maxLength: 300 }),
});

export const ReferenceRequestSchema = Type.Object({ referenceNumber: ReferenceNumber });

export const CancelRequestSchema = Type.Object({
  referenceNumber: ReferenceNumber,
  scope: Type.Union([Type.Literal('this'), Type.Literal('future'), Type.Literal('full')]),
});

export const ExtendRequestSchema = Type.Object({
  referenceNumber: ReferenceNumber,
  minutes: Type.Integer({ minimum: 1, maximum: 24 * 60 }),
});

export const RetitleRequestSchema = Type.Object({
  referenceNumber: ReferenceNumber,
  title: Type.String({ maxLength: 300 }),
});

/**
 * Another time or another resource for one reservation (one occurrence of a series): the whole
 * new start, end and resource, as the inline forms of My reservations send them.
 */
export const MoveRequestSchema = Type.Object({
  referenceNumber: ReferenceNumber,
  start: Instant,
  end: Instant,
  resourceId: Type.Integer({ minimum: 1 }),
});

/** Text for the system clipboard (a booking's details, as the popover wrote them). */
export const CopyTextRequestSchema = Type.Object({ text: Type.String({ minLength: 1, maxLength: 10_000 }) });

export const SettingsPatchSchema = Type.Partial(SettingsSchema);

export type ReservationRole = 'owner' | 'participant' | 'invitee';

/** What the UI shows of one reservation; dates are ISO 8601 with the user's offset. */
export interface ReservationView {
  referenceNumber: string;
  title: string;
  resourceId: number;
  resourceName: string;
  scheduleId: number;
  /** The IANA zone of the resource's schedule; the user's when the schedule is not known. */
  timezone: string;
  start: string;
  end: string;
  isRecurring: boolean;
  isPendingApproval: boolean;
  requiresCheckIn: boolean;
  checkedInAt: string | null;
  checkedOutAt: string | null;
  /** Set once checked out early: the end the reservation had. */
  originalEnd: string | null;
  /** When an unchecked reservation is released, if its resource releases. */
  autoReleaseAt: string | null;
  /**
   * The user's own booking waits for a check-in that the server would take: its resource asks for
   * one, it is approved, and it is neither checked in nor out. Decided here once, for every view.
   */
  awaitsCheckIn: boolean;
  /** When check-in opens, for a reservation that awaits one (whether or not it is open yet). */
  checkInOpensAt: string | null;
  /** Derived at snapshot time from the clock and the check-in lead. */
  checkInOpen: boolean;
  canCheckOut: boolean;
  /**
   * The server would accept a change of it now (extend, another time) or its cancellation: the
   * user's own, not over, and not under way on a server that refuses changes once a reservation
   * has started (learned from its first refusal). Decided here once, for every view.
   */
  canChange: boolean;
  ownerName: string;
  /** For saying whose booking it is ("Alex's booking"); empty when the server does not say. */
  ownerFirstName: string;
  /** The user owns it; only the owner checks in, out, extends or cancels. */
  isMine: boolean;
  /** What the user is to it: its owner, someone taking part, someone invited; null when none of these. */
  role: ReservationRole | null;
  /**
   * Occurrences of one series share this key; null for a one-off. The wire names no series, so
   * occurrences with the same owner, resource, title, time of day and length are taken as one.
   */
  seriesKey: string | null;
  /** Its resource's icon and colour; kind 'other' and no colour while the resource is not known. */
  resourceFace: ResourceFace;
}

/** What the reservation list does not carry of one reservation, read when its details are opened. */
export interface ReservationDetailsView {
  referenceNumber: string;
  /** As the owner wrote it; '' for none. */
  description: string;
  /** Every resource it holds, its main one first. */
  resourceNames: string[];
  /** The people taking part and those invited, by name. */
  participants: string[];
  invitees: string[];
}

/** A series' rule, as the server keeps it, for saying in words. */
export interface RecurrenceView {
  type: 'daily' | 'weekly' | 'monthly' | 'yearly';
  /** Every `interval` days, weeks, months or years. */
  interval: number;
  /** Weekly series: the days, 0 Sunday to 6 Saturday. */
  weekdays: number[];
  /** Monthly series: on the same date, or on the same weekday of the month (the 2nd Tuesday). */
  monthlyType: 'dayOfMonth' | 'dayOfWeek' | null;
  /** The last day it may occur (inclusive), ISO 8601 with the user's offset; null when open-ended. */
  until: string | null;
}

/** What a resource is, for its icon: from its resource type's name, else its own name and size; 'other' when nothing tells. */
export type ResourceKind = 'room' | 'desk' | 'equipment' | 'other';

/** How a resource is shown wherever it is named: its icon's kind and the server's colour for it. */
export interface ResourceFace {
  kind: ResourceKind;
  /** The server's colour for it, `#rrggbb` or `#rgb`; null when it set none. Never carries text. */
  color: string | null;
}

/** What Free now and its filter say of any resource the user may book: what it is and where. */
export interface ResourceCardView {
  resourceId: number;
  name: string;
  face: ResourceFace;
  scheduleId: number;
  scheduleName: string;
  groupNames: string[];
  /** Where it is, in the server's words; '' when it does not say. */
  location: string;
  /** How many people it holds (its maximum participants); null for a desk or equipment, or when the server does not say. */
  capacity: number | null;
  /** The resource's own custom attributes that have a value ("Floor: 2"), to read and to filter by. */
  features: { label: string; value: string }[];
  /** Why it leads the list: the user's favourite, or booked by them lately; null for neither. */
  standing: 'favourite' | 'recent' | null;
}

export interface FreeResourceView extends ResourceCardView {
  /** The length limits of one booking, in minutes; null for none. */
  minLengthMinutes: number | null;
  maxLengthMinutes: number | null;
  /**
   * Why one click cannot book it, so the Book form must ("needs approval", "needs a Cost centre");
   * null when one click can.
   */
  needsForm: string | null;
  /**
   * When the next booking starts or the schedule closes, whichever comes first (the closing may be
   * another day's: opening hours run past midnight); null when neither is known.
   */
  freeUntil: string | null;
  /** Nothing is booked on it until its schedule closes (or, where the hours are not known, until the day ends). */
  freeAllDay: boolean;
}

/**
 * A resource the user may book that is not free now, for the filter to find rather than answer
 * "nothing free": booked now, its schedule closed now, or its schedule not asked yet.
 */
export interface UnavailableResourceView extends ResourceCardView {
  reason: 'busy' | 'closed' | 'notAsked';
  /**
   * When it is free again, ISO 8601 with the user's offset: the end of the bookings under way, or
   * when its schedule opens; null when that is not known (booked to the end of what was asked).
   */
  freeFrom: string | null;
}

/** Free now when every schedule it shows is closed: the one that opens first, and when. */
export interface FreeNowClosedView {
  scheduleId: number;
  scheduleName: string;
  /** When it opens, ISO 8601 with the user's offset; null when not within a week (or its layout does not say). */
  opensAt: string | null;
}

export interface ResourceView {
  resourceId: number;
  name: string;
  location: string;
  scheduleId: number;
  groupIds: number[];
  statusId: number;
  requiresApproval: boolean;
  requiresCheckIn: boolean;
  autoReleaseMinutes: number | null;
  minLengthMinutes: number | null;
  maxLengthMinutes: number | null;
  maxParticipants: number | null;
  color: string;
  face: ResourceFace;
}

export interface SlotView {
  start: string;
  end: string;
  isReservable: boolean;
}

export interface ScheduleView {
  id: number;
  name: string;
  timezone: string;
  isDefault: boolean;
}

export interface AttributeView {
  id: number;
  label: string;
  /** 1 single line, 2 multi line, 3 select list, 4 checkbox, 5 date-time. */
  type: number;
  required: boolean;
  regex: string | null;
  possibleValues: string[];
  /** Resource ids the attribute is limited to; empty means every reservation. */
  resourceIds: number[];
}

export interface AccountView {
  server: ServerChoice;
  userId: number;
  userName: string;
  displayName: string;
  /** The zone Perch shows times in and writes query dates in: the account's, as the server gives it. */
  timezone: string;
  /**
   * Set when the server gave the account no usable zone, saying once which zone Perch uses
   * instead ("…; Perch shows times in Europe/London, the server's default."); null otherwise.
   */
  timezoneNote: string | null;
  isAdmin: boolean;
}

/** Why secrets are held in memory only, when they are. */
export interface KeychainStatus {
  available: boolean;
  reason: string | null;
}

export interface StateSnapshot {
  phase: 'signedOut' | 'signingIn' | 'ready';
  account: AccountView | null;
  /** The user's upcoming reservations, soonest first. */
  reservations: ReservationView[];
  /** Resources free now in every schedule the user books in, ranked (favourites, booked lately, one click, rooms, longest free, smallest). */
  freeNow: FreeResourceView[];
  /**
   * Free now is not known yet (right after signing in on an empty cache): the resource list or
   * who is busy is still on its way. Not "nothing free".
   */
  freeNowLoading: boolean;
  /** Every other resource the user may book, so the filter finds it: favourites and booked lately first, then soonest free. */
  notFreeNow: UnavailableResourceView[];
  /** Set when Free now is empty because everything it shows is closed now: when it opens next. */
  freeNowClosed: FreeNowClosedView | null;
  /** When the data above was last fetched successfully. */
  fetchedAt: string | null;
  offline: boolean;
  /** Why Perch checks the server less often than usual (it answered slowly or failed); null while it answers well. */
  serverStrain: string | null;
  lastError: BridgeError | null;
  keychain: KeychainStatus;
  /**
   * Why the last notification was not shown, or may not have been (the OS never confirmed it), as
   * a sentence Settings shows as it is; null once one was shown.
   */
  notifierProblem: string | null;
  /**
   * The shortcut that opens Perch, as the platform writes it ("Ctrl+Alt+P", "⌘⌥P"; '' for none);
   * why the OS would not give it to Perch or why it never fires on this desktop; and on Linux the
   * command a shortcut made in the desktop's own keyboard settings runs, which the problems offer.
   */
  globalShortcut: { label: string; problem: string | null; command: string | null };
  /** The moment this snapshot describes, ISO 8601. */
  now: string;
  /** How times are written, in the popover as in the tray and notifications. */
  timeFormat: TimeFormatRules;
}

/** How far Extend would take a reservation now: the next slot the resource accepts, or why not. */
export type ExtensionOffer = { minutes: number; end: string } | { minutes: null; reason: string };

/** A typed line read as a booking, against what is free: what Enter would book, in words. */
export interface PhrasePreview {
  /** What Enter books, in words: "Thames (1.01), tomorrow 14:00–15:30"; what it cannot, as far as it is known. */
  words: string;
  /** The resource chosen: the first free one the line fits, ranked as Free now; null when none is. */
  resourceId: number | null;
  /** ISO 8601 with the user's offset; null when the line gives no time. */
  start: string | null;
  end: string | null;
  /** Each part of the line and what it was read as, in the order typed: `tmrw` → `Thu 27 Nov`. */
  understood: { text: string; meaning: string }[];
  /** What the line left open and how it was decided ("“at 3” read as 15:00, not 03:00"). */
  ambiguities: string[];
  /** Why Enter cannot book it as it stands ("Thames (1.01) is not free then"); null when it can. */
  problem: string | null;
  /** The Book form filled in, where one line cannot finish the booking (approval, a required attribute). */
  draft: BookDraft | null;
}

export interface BookingOutcome {
  referenceNumber: string;
  isPendingApproval: boolean;
}

export type SignInRequest = Static<typeof SignInRequestSchema>;
export type BookRequest = Static<typeof BookRequestSchema>;
export type BookDraft = Static<typeof BookDraftSchema>;
export type FreeAtRequest = Static<typeof FreeAtRequestSchema>;
export type ReferenceRequest = Static<typeof ReferenceRequestSchema>;
export type PhraseRequest = Static<typeof PhraseRequestSchema>;
export type BookPhraseRequest = Static<typeof BookPhraseRequestSchema>;
export type CancelRequest = Static<typeof CancelRequestSchema>;
export type ExtendRequest = Static<typeof ExtendRequestSchema>;
export type RetitleRequest = Static<typeof RetitleRequestSchema>;
export type MoveRequest = Static<typeof MoveRequestSchema>;
export type CopyTextRequest = Static<typeof CopyTextRequestSchema>;
export type SettingsPatch = Static<typeof SettingsPatchSchema>;

export const SlotsRequestSchema = Type.Object({
  resourceId: Type.Integer({ minimum: 1 }),
  date: Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' }),
});
export type SlotsRequest = Static<typeof SlotsRequestSchema>;

/** What each command takes; `void` for none. */
export interface CommandRequests {
  getState: void;
  /** The user's list and what is free, read again; the reference data is kept while fresh (12 hours). */
  refresh: void;
  /** Everything read again: the refresh, and the resources, schedules, groups, attributes and permissions too. */
  reloadEverything: void;
  signIn: SignInRequest;
  /** "Try it on this computer": starts the local service and signs in to the person's own account there. */
  tryThisComputer: void;
  signOut: void;
  book: BookRequest;
  checkIn: ReferenceRequest;
  checkOut: ReferenceRequest;
  cancel: CancelRequest;
  /**
   * "I'm not coming": gives a booking back, early. Before its start it is cancelled (that occurrence
   * only); once started it is checked out, which ends it now (checked in first where it awaits a
   * check-in: servers check out only what was checked in to).
   */
  release: ReferenceRequest;
  extend: ExtendRequest;
  /** What Extend would offer for one reservation now (its next slot, within the resource's limits). */
  offerExtension: ReferenceRequest;
  /** A new title for one reservation (one occurrence of a series). */
  retitle: RetitleRequest;
  /** Another time or resource for one reservation (one occurrence of a series); answers the list read again. */
  move: MoveRequest;
  /** The rule of the series a reservation belongs to; null when it is a one-off. */
  getRecurrence: ReferenceRequest;
  /** What the list does not say of one reservation: its description, resources and people. */
  getReservationDetails: ReferenceRequest;
  /**
   * Opens the reservation's page on the signed-in server's website in the user's browser; refused
   * for the local service, which has no website.
   */
  openOnServer: ReferenceRequest;
  /** Puts text on the system clipboard (the page may not: it is granted no permissions). */
  copyText: CopyTextRequest;
  listSchedules: void;
  listResources: void;
  listSlots: SlotsRequest;
  listReservationAttributes: void;
  getSettings: void;
  setSettings: SettingsPatch;
  /** Escape in the popover: hide it, as a click elsewhere does. */
  hidePopover: void;
  /** The tray's "Book…": open the popover on the Book form, filled in with this draft. */
  openBookForm: BookDraft;
  /** What is free over a time to come, ranked as Free now is: one GetReservations per Free now schedule over that time. */
  freeAt: FreeAtRequest;
  /** Type to book: the line read as a booking against the current data, or null when it is not one (it stays a filter). */
  readPhrase: PhraseRequest;
  /** Type to book, Enter: books what `readPhrase` shows for the same line, read again at this moment. */
  bookPhrase: BookPhraseRequest;
}

export type CommandName = keyof CommandRequests;
export type CommandRequest<C extends CommandName> = CommandRequests[C];

/** The schema each command's request must satisfy in main (null: the command takes nothing). */
export const commandRequests: { [C in CommandName]: CommandRequests[C] extends void ? null : TSchema } = {
  getState: null,
  refresh: null,
  reloadEverything: null,
  signIn: SignInRequestSchema,
  tryThisComputer: null,
  signOut: null,
  book: BookRequestSchema,
  checkIn: ReferenceRequestSchema,
  checkOut: ReferenceRequestSchema,
  cancel: CancelRequestSchema,
  release: ReferenceRequestSchema,
  extend: ExtendRequestSchema,
  offerExtension: ReferenceRequestSchema,
  retitle: RetitleRequestSchema,
  move: MoveRequestSchema,
  getRecurrence: ReferenceRequestSchema,
  getReservationDetails: ReferenceRequestSchema,
  openOnServer: ReferenceRequestSchema,
  copyText: CopyTextRequestSchema,
  listSchedules: null,
  listResources: null,
  listSlots: SlotsRequestSchema,
  listReservationAttributes: null,
  getSettings: null,
  setSettings: SettingsPatchSchema,
  hidePopover: null,
  openBookForm: BookDraftSchema,
  freeAt: FreeAtRequestSchema,
  readPhrase: PhraseRequestSchema,
  bookPhrase: BookPhraseRequestSchema,
};

export interface CommandResponses {
  getState: StateSnapshot;
  refresh: StateSnapshot;
  reloadEverything: StateSnapshot;
  signIn: BridgeResult<StateSnapshot>;
  tryThisComputer: BridgeResult<StateSnapshot>;
  signOut: BridgeResult<StateSnapshot>;
  book: BridgeResult<BookingOutcome>;
  checkIn: BridgeResult<ReservationView>;
  checkOut: BridgeResult<ReservationView>;
  cancel: BridgeResult<StateSnapshot>;
  release: BridgeResult<StateSnapshot>;
  extend: BridgeResult<ReservationView>;
  offerExtension: BridgeResult<ExtensionOffer>;
  retitle: BridgeResult<ReservationView>;
  move: BridgeResult<StateSnapshot>;
  getRecurrence: BridgeResult<RecurrenceView | null>;
  getReservationDetails: BridgeResult<ReservationDetailsView>;
  openOnServer: BridgeResult<null>;
  copyText: BridgeResult<null>;
  listSchedules: BridgeResult<ScheduleView[]>;
  listResources: BridgeResult<ResourceView[]>;
  listSlots: BridgeResult<SlotView[]>;
  listReservationAttributes: BridgeResult<AttributeView[]>;
  getSettings: Settings;
  setSettings: BridgeResult<Settings>;
  hidePopover: null;
  openBookForm: null;
  freeAt: BridgeResult<FreeResourceView[]>;
  readPhrase: BridgeResult<PhrasePreview | null>;
  bookPhrase: BridgeResult<BookingOutcome>;
}

export interface EventPayloads {
  stateChanged: StateSnapshot;
  /**
   * A notification was clicked, or its button's action failed: open the popover on this
   * reservation, with the failure where the reservation's own button would show it. `confirm`:
   * its "I'm not coming" was pressed, which a notification cannot ask about itself: the popover asks.
   */
  navigate:
    | { referenceNumber: string; failed?: { command: 'checkIn' | 'extend'; error: BridgeError }; confirm?: 'release' }
    /** The tray's "Book…": open the Book form filled in. */
    | { book: BookDraft };
}

export type EventName = keyof EventPayloads;
export const eventNames = ['stateChanged', 'navigate'] as const satisfies readonly EventName[];

export const commandNames = Object.keys(commandRequests) as CommandName[];

/** The IPC channel of a command or event: the one place channel strings are made. */
export const channelOf = (name: CommandName | EventName) => `perch:${name}`;

/** `window.perch`: one function per command, one subscription per event. */
export type PerchApi = {
  [C in CommandName]: CommandRequest<C> extends void
    ? () => Promise<CommandResponses[C]>
    : (request: CommandRequest<C>) => Promise<CommandResponses[C]>;
} & {
  on<E extends EventName>(event: E, listener: (payload: EventPayloads[E]) => void): () => void;
};

/** Implemented by the core; main wires each to its channel. */
export type CommandHandlers = {
  [C in CommandName]: (request: CommandRequest<C>) => Promise<CommandResponses[C]>;
};
