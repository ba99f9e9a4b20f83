/**
 * The notification planner: which reminders and check-in notices are due now, and when to wake
 * up next. Pure — the core feeds it the clock, the latest two polls and the ids it has already
 * shown, and sets one timer to `nextWakeAt`. Ids are stable across re-planning and restarts, so
 * feeding shown ids back in is all it takes to never show a notification twice.
 */
import { DateTime } from 'luxon';
import type { Settings, TimeFormatRules } from '../../bridge/contract.js';
import { createTimeFormat, type TimeFormat } from '../../bridge/format.js';
import { autoReleaseMs, awaitsCheckIn, checkInClosesMs, type Reservation } from '../reservations.js';
import type { NotificationAction } from './notifier.js';

export interface PlannerInput {
  now: DateTime;
  /** The user's timezone, for the texts. */
  zone: string;
  /** How the user reads times, as the popover and the tray write them. */
  timeFormat: TimeFormatRules;
  /** After the latest poll. */
  reservations: readonly Reservation[];
  /** After the poll before; null on the first poll after start (no vanish detection then). */
  previous: readonly Reservation[] | null;
  /**
   * When `previous` was read. A reservation gone since is said to be released (you did not check
   * in) only when that read saw it unchecked shortly before its auto-release moment and this one
   * finds it gone shortly after; otherwise (a sleep, a long gap) Perch cannot tell a release from a
   * cancellation and says "cancelled or released". Unknown (null): it cannot tell.
   */
  previousReadAt?: DateTime | null;
  settings: Pick<Settings, 'startReminderMinutes' | 'endReminderMinutes' | 'checkInLeadMinutes' | 'notifications'>;
  /** Ids already shown, persisted across restarts by the core. */
  shown: ReadonlySet<string>;
  /** Shown notifications the user snoozed, by id: each is due again at its moment (see `snoozedUntil`). */
  snoozed?: ReadonlyMap<string, DateTime>;
  /** How long before auto-release the warning comes; 5 by default. */
  autoReleaseWarningMinutes?: number;
  /**
   * Where the latest poll's window ends, when it is narrower than the previous poll's: a previous
   * reservation starting at or after it is out of sight, not gone (no released/declined notice).
   */
  horizon?: DateTime | null;
  /** The server refuses the user's changes to a booking once it has started (see start-time-rules.ts): the end reminder offers no Extend. */
  lockedOnceStarted?: boolean;
}

export type NotificationKind =
  'startReminder' | 'endReminder' | 'checkInOpen' | 'autoReleaseWarning' | 'released' | 'approved' | 'approvalGone';

export interface PlannedNotification {
  /** `${kind}:${referenceNumber}:${moment as UTC ISO}` — the same on every re-planning. */
  id: string;
  kind: NotificationKind;
  referenceNumber: string;
  /** When it became due. */
  at: DateTime;
  title: string;
  body: string;
  /** The buttons that fit its moment: one of `notificationActionSets`, or none. */
  actions: readonly NotificationAction[];
}

/**
 * Every set of buttons a planned notification can carry, in order. macOS knows a set by its
 * labels in this order (a notification category), and the shell registers each ahead of the
 * first notification that needs it (electron/shell/notifications.ts).
 */
export const notificationActionSets = {
  checkIn: ['checkIn', 'notComing', 'snooze'],
  lastCall: ['checkIn', 'notComing'],
  extend: ['extend', 'snooze'],
  snooze: ['snooze'],
} as const satisfies Record<string, readonly NotificationAction[]>;

export interface Plan {
  /** Due now, earliest first, snoozed ones again included. The core shows them and adds their ids to `shown`. */
  due: PlannedNotification[];
  /** The earliest future moment of a notification not yet shown; null when there is none. */
  nextWakeAt: DateTime | null;
  /**
   * Ids passed over: notices whose moments all passed unseen (a sleep, a late read) come as one
   * catch-up per reservation, its latest; the earlier ones are over and are never shown. The core
   * counts them as shown.
   */
  passedOver: string[];
}

const defaultAutoReleaseWarningMinutes = 5;

/**
 * A start reminder and check-in opening this close together are one moment to the user: they come
 * as one notification, when check-in opens (so its Check in button works), at most this much
 * after the reminder's own moment.
 */
export const mergeWithinMinutes = 5;

/**
 * A release is told as one ("you did not check in") only when the read before saw the reservation
 * unchecked at most this long before its auto-release moment, and the read that finds it gone
 * comes at most this long after it: Perch then watched it through the moment (poll-plan.ts polls
 * every interval there). Anything longer leaves room for a cancellation Perch did not see.
 */
export const releaseSeenWithinMinutes = 10;

/** How long "Snooze" puts a notification off, unless the moment it is about comes sooner. */
export const snoozeMinutes = 5;

const minuteMs = 60_000;

/** A timed notification and the last moment it still makes sense to show it. */
interface Candidate {
  kind: NotificationKind;
  reservation: Reservation;
  /** The moment the id is keyed on: the start, or the end for end reminders. */
  keyMs: number;
  atMs: number;
  untilMs: number;
  /** Zero-lead reminders fall exactly on their deadline, so the deadline itself still counts. */
  untilInclusive: boolean;
  /** A check-in notice that is the start reminder too (see `mergeWithinMinutes`). */
  withStartReminder?: boolean;
}

export function planNotifications(input: PlannerInput): Plan {
  const nowMs = input.now.toMillis();
  const zone = DateTime.fromMillis(nowMs).setZone(input.zone).isValid ? input.zone : 'UTC';
  const texts = new Texts(nowMs, zone, input.timeFormat);
  const reservations = input.reservations.filter(isUsable);
  const seen = new Set(input.shown);
  const due: PlannedNotification[] = [];
  let nextWakeMs: number | null = null;

  /** The latest timed notice due now of each reservation and subject: the earlier ones due with it are passed over. */
  const latestDue = new Map<string, { id: string; atMs: number; candidate: Candidate }>();
  const passedOver: string[] = [];
  for (const { candidate, id, atMs } of pendingCandidates(reservations, input)) {
    if (atMs <= nowMs) {
      if (!meaningfulAt(candidate, nowMs)) continue;
      const subject = `${candidate.reservation.referenceNumber}:${subjectOf[candidate.kind]}`;
      const earlier = latestDue.get(subject);
      if (earlier === undefined || atMs >= earlier.atMs) {
        if (earlier !== undefined) passedOver.push(earlier.id);
        latestDue.set(subject, { id, atMs, candidate });
      } else {
        passedOver.push(id);
      }
    } else if (nextWakeMs === null || atMs < nextWakeMs) {
      nextWakeMs = atMs;
    }
  }
  for (const { id, atMs, candidate } of latestDue.values()) {
    seen.add(id);
    due.push({
      id,
      kind: candidate.kind,
      referenceNumber: candidate.reservation.referenceNumber,
      at: DateTime.fromMillis(atMs, { zone }),
      ...texts.timed(candidate),
      actions: timedActions(candidate, nowMs, input.settings.checkInLeadMinutes, input.lockedOnceStarted === true),
    });
  }
  for (const id of passedOver) seen.add(id);

  if (input.previous !== null) {
    for (const change of changes(reservations, input.previous.filter(isUsable), input)) {
      const id = notificationId(change.kind, change.reservation.referenceNumber, change.reservation.start.toMillis());
      if (seen.has(id)) continue;
      seen.add(id);
      due.push({
        id,
        kind: change.kind,
        referenceNumber: change.reservation.referenceNumber,
        at: DateTime.fromMillis(nowMs, { zone }),
        ...texts.change(change.kind, change.reservation, change.certain),
        // News of a change asks for nothing: its click opens the reservation.
        actions: [],
      });
    }
  }

  due.sort((a, b) => a.at.toMillis() - b.at.toMillis() || kindOrder[a.kind] - kindOrder[b.kind]);
  return { due, nextWakeAt: nextWakeMs === null ? null : DateTime.fromMillis(nextWakeMs, { zone }), passedOver };
}

/** A moment at which a notice about one of the user's own reservations is due. */
export interface NoticeMoment {
  referenceNumber: string;
  atMs: number;
}

/**
 * The moments ahead at which a notice about one of the user's own reservations will be due (a
 * snoozed one at the end of its snooze): each wants the reservation read again just before it
 * (poll-plan.ts), so the notice is not about a booking that moved, was cancelled or checked in
 * to meanwhile. Someone else's meetings are the meetings read's business.
 */
export function noticeMoments(
  input: Pick<PlannerInput, 'now' | 'reservations' | 'settings' | 'shown' | 'snoozed' | 'autoReleaseWarningMinutes'>,
): NoticeMoment[] {
  const nowMs = input.now.toMillis();
  const moments: NoticeMoment[] = [];
  const owned = input.reservations.filter((reservation) => reservation.owned && isUsable(reservation));
  for (const { candidate, atMs } of pendingCandidates(owned, input)) {
    if (atMs > nowMs) moments.push({ referenceNumber: candidate.reservation.referenceNumber, atMs });
  }
  return moments;
}

/**
 * The timed notices not shown yet, each at its moment (a snoozed one, shown already, at the end of
 * its snooze), where it still makes sense then.
 */
function* pendingCandidates(
  reservations: readonly Reservation[],
  input: Pick<PlannerInput, 'settings' | 'shown' | 'snoozed' | 'autoReleaseWarningMinutes'>,
): Generator<{ candidate: Candidate; id: string; atMs: number }> {
  for (const candidate of timedCandidates(reservations, input)) {
    const id = notificationId(candidate.kind, candidate.reservation.referenceNumber, candidate.keyMs);
    const snoozedMs = input.snoozed?.get(id)?.toMillis();
    if (input.shown.has(id) && snoozedMs === undefined) continue;
    const atMs = snoozedMs ?? candidate.atMs;
    if (meaningfulAt(candidate, atMs)) yield { candidate, id, atMs };
  }
}

/**
 * Drops shown ids that can never be due again, so the persisted set stays small: ids of
 * reservations no longer listed whose moment is more than `keepDays` in the past.
 */
export function retainShown(shown: ReadonlySet<string>, reservations: readonly Reservation[], now: DateTime, keepDays = 2): Set<string> {
  const listed = new Set(reservations.map((reservation) => reservation.referenceNumber));
  const oldestMs = now.toMillis() - keepDays * 24 * 60 * minuteMs;
  const kept = new Set<string>();
  for (const id of shown) {
    const parsed = parseNotificationId(id);
    if (parsed === null) continue;
    if (listed.has(parsed.referenceNumber) || parsed.momentMs >= oldestMs) kept.add(id);
  }
  return kept;
}

/**
 * When a notification snoozed at `now` is due again: `snoozeMinutes` later, or at the moment it is
 * about (the start of a start reminder or check-in notice, the end of an end reminder) when that
 * comes sooner, so a snooze never carries a reminder past its moment. Null for an id not the planner's.
 */
export function snoozedUntil(id: string, now: DateTime): DateTime | null {
  const parsed = parseNotificationId(id);
  if (parsed === null) return null;
  const laterMs = now.toMillis() + snoozeMinutes * minuteMs;
  const momentAhead = parsed.momentMs > now.toMillis() && parsed.momentMs < laterMs;
  return DateTime.fromMillis(momentAhead ? parsed.momentMs : laterMs, { zone: now.zone });
}

export function notificationId(kind: NotificationKind, referenceNumber: string, momentMs: number): string {
  return `${kind}:${referenceNumber}:${new Date(momentMs).toISOString()}`;
}

function parseNotificationId(id: string): { referenceNumber: string; momentMs: number } | null {
  const first = id.indexOf(':');
  const second = id.indexOf(':', first + 1);
  if (first < 0 || second < 0) return null;
  const momentMs = Date.parse(id.slice(second + 1));
  return Number.isNaN(momentMs) ? null : { referenceNumber: id.slice(first + 1, second), momentMs };
}

/**
 * What a timed notice is about: getting there and checking in (the start reminder, check-in
 * opening, the release warning), or the end. Of one reservation's notices on the same subject due
 * at once (their moments passed unseen: a sleep, a late read), only the latest is shown.
 */
const subjectOf: Record<NotificationKind, 'start' | 'end' | 'news'> = {
  startReminder: 'start',
  checkInOpen: 'start',
  autoReleaseWarning: 'start',
  endReminder: 'end',
  released: 'news',
  approved: 'news',
  approvalGone: 'news',
};

const kindOrder: Record<NotificationKind, number> = {
  approved: 0,
  approvalGone: 1,
  released: 2,
  startReminder: 3,
  checkInOpen: 4,
  autoReleaseWarning: 5,
  endReminder: 6,
};

/**
 * The buttons of a timed notification shown at `nowMs`: check in where check-in is awaited and
 * open (by the lead the settings assume), with "I'm not coming" beside it (the room given back
 * rather than left to be released), extend at the end, snooze on what can sensibly come back (not
 * the auto-release warning: its moment is the release itself). The first button is the one
 * macOS shows; the others come on hover.
 */
function timedActions(
  candidate: Candidate,
  nowMs: number,
  checkInLeadMinutes: number,
  lockedOnceStarted: boolean,
): readonly NotificationAction[] {
  const { reservation } = candidate;
  if (!reservation.owned) return notificationActionSets.snooze;
  const checkInOpen = awaitsCheckIn(reservation) && nowMs >= reservation.start.toMillis() - checkInLeadMinutes * minuteMs;
  switch (candidate.kind) {
    case 'startReminder':
      return checkInOpen ? notificationActionSets.checkIn : notificationActionSets.snooze;
    case 'checkInOpen':
      return notificationActionSets.checkIn;
    case 'autoReleaseWarning':
      return notificationActionSets.lastCall;
    case 'endReminder':
      // Near its end a booking has started: where the server refuses changes then, Extend would fail.
      return lockedOnceStarted ? notificationActionSets.snooze : notificationActionSets.extend;
    default:
      return [];
  }
}

function meaningfulAt(candidate: Candidate, ms: number): boolean {
  return candidate.untilInclusive ? ms <= candidate.untilMs : ms < candidate.untilMs;
}

function isUsable(reservation: Reservation): boolean {
  return reservation.start.isValid && reservation.end.isValid;
}

/** Someone else's, which the user only attends: a start reminder, and nothing to act on. */
function* attendedCandidates(reservation: Reservation, input: Pick<PlannerInput, 'settings'>): Generator<Candidate> {
  if (!input.settings.notifications.startReminder) return;
  const startMs = reservation.start.toMillis();
  const lead = reservation.startReminderMinutes ?? input.settings.startReminderMinutes;
  yield { kind: 'startReminder', reservation, keyMs: startMs, atMs: startMs - lead * minuteMs, untilMs: startMs, untilInclusive: true };
}

function* timedCandidates(
  reservations: readonly Reservation[],
  input: Pick<PlannerInput, 'settings' | 'autoReleaseWarningMinutes'>,
): Generator<Candidate> {
  const { settings } = input;
  const switches = settings.notifications;
  const warningMinutes = input.autoReleaseWarningMinutes ?? defaultAutoReleaseWarningMinutes;
  for (const reservation of reservations) {
    if (!reservation.owned) {
      yield* attendedCandidates(reservation, input);
      continue;
    }
    const startMs = reservation.start.toMillis();
    const endMs = reservation.end.toMillis();
    const releaseMs = autoReleaseMs(reservation);
    const checkIn: Candidate | null =
      switches.checkInOpen && awaitsCheckIn(reservation)
        ? {
            kind: 'checkInOpen',
            reservation,
            keyMs: startMs,
            atMs: startMs - settings.checkInLeadMinutes * minuteMs,
            untilMs: checkInClosesMs(reservation),
            untilInclusive: false,
          }
        : null;
    let withStartReminder = false;
    if (switches.startReminder && reservation.checkedInAt === null && reservation.checkedOutAt === null) {
      const lead = reservation.startReminderMinutes ?? settings.startReminderMinutes;
      const atMs = startMs - lead * minuteMs;
      withStartReminder = checkIn !== null && Math.abs(checkIn.atMs - atMs) <= mergeWithinMinutes * minuteMs;
      if (!withStartReminder) yield { kind: 'startReminder', reservation, keyMs: startMs, atMs, untilMs: startMs, untilInclusive: true };
    }
    if (checkIn !== null) yield { ...checkIn, withStartReminder };
    if (switches.endReminder && reservation.checkedOutAt === null) {
      const lead = reservation.endReminderMinutes ?? settings.endReminderMinutes;
      yield { kind: 'endReminder', reservation, keyMs: endMs, atMs: endMs - lead * minuteMs, untilMs: endMs, untilInclusive: true };
    }
    if (!awaitsCheckIn(reservation)) continue;
    if (switches.autoReleaseWarning && releaseMs !== null && releaseMs < endMs) {
      yield {
        kind: 'autoReleaseWarning',
        reservation,
        keyMs: startMs,
        atMs: releaseMs - warningMinutes * minuteMs,
        untilMs: releaseMs,
        untilInclusive: false,
      };
    }
  }
}

interface Change {
  kind: 'released' | 'approved' | 'approvalGone';
  reservation: Reservation;
  /** For `released`: Perch watched it through its auto-release moment (see `releaseSeenWithinMinutes`). */
  certain: boolean;
}

/** What the step from the previous poll to the latest one tells: approvals and releases. */
function* changes(reservations: readonly Reservation[], previous: readonly Reservation[], input: PlannerInput): Generator<Change> {
  const switches = input.settings.notifications;
  const nowMs = input.now.toMillis();
  const horizonMs = input.horizon?.isValid ? input.horizon.toMillis() : null;
  const previousReadMs = input.previousReadAt?.isValid ? input.previousReadAt.toMillis() : null;
  const latest = new Map(reservations.map((reservation) => [reservation.referenceNumber, reservation]));
  // Approval and release are news for the owner; someone else's meeting may also just drop out of sight.
  for (const before of previous.filter((reservation) => reservation.owned)) {
    const after = latest.get(before.referenceNumber);
    // A reservation that ended drops out of the list by itself; one beyond the window is unseen.
    const mayVanish = nowMs < before.end.toMillis() && (horizonMs === null || before.start.toMillis() < horizonMs);
    if (before.isPendingApproval) {
      if (!switches.approvalOutcome) continue;
      if (after !== undefined && !after.isPendingApproval) yield { kind: 'approved', reservation: after, certain: true };
      else if (after === undefined && mayVanish) yield { kind: 'approvalGone', reservation: before, certain: true };
      continue;
    }
    if (
      switches.released &&
      after === undefined &&
      mayVanish &&
      before.start.toMillis() <= nowMs &&
      before.autoReleaseMinutes !== null &&
      awaitsCheckIn(before)
    ) {
      // Only a resource that auto-releases deletes on its own; anything else vanishing was cancelled.
      yield { kind: 'released', reservation: before, certain: watchedThroughRelease(before, previousReadMs, nowMs) };
    }
  }
}

/**
 * Whether the read before saw `before` unchecked shortly before its auto-release moment and this
 * read (at `nowMs`) comes shortly after it: then its vanishing is the server's release.
 */
function watchedThroughRelease(before: Reservation, previousReadMs: number | null, nowMs: number): boolean {
  const releaseMs = autoReleaseMs(before);
  if (previousReadMs === null || releaseMs === null) return false;
  const within = releaseSeenWithinMinutes * minuteMs;
  return previousReadMs >= releaseMs - within && nowMs >= releaseMs && nowMs <= releaseMs + within;
}

/**
 * Titles say what happened or what to do, bodies when: in the user's zone and clock (the popover's
 * rules), a resource's own zone named where its clock differs, durations in the popover's words.
 */
class Texts {
  private readonly today: string;
  private readonly format: TimeFormat;

  constructor(
    private readonly nowMs: number,
    private readonly zone: string,
    rules: TimeFormatRules,
  ) {
    this.today = this.local(nowMs).toISODate() ?? '';
    this.format = createTimeFormat(rules, zone);
  }

  timed(candidate: Candidate): { title: string; body: string } {
    const { reservation } = candidate;
    const resource = reservation.resourceName;
    const title = reservation.title.trim();
    switch (candidate.kind) {
      case 'startReminder':
        return { title: this.headline(reservation, `starts ${this.countdown(candidate.keyMs)}`), body: this.summary(reservation, false) };
      case 'endReminder':
        return { title: this.headline(reservation, `ends ${this.countdown(candidate.keyMs)}`), body: this.summary(reservation, false) };
      case 'checkInOpen': {
        const keeps = reservation.autoReleaseMinutes !== null;
        const deadline = keeps ? `Released at ${this.time(candidate.untilMs, reservation)} unless you check in.` : 'Check-in is open.';
        // Once it has started (a late timer, a wake from sleep), it is about checking in alone.
        if (!candidate.withStartReminder || candidate.keyMs <= this.nowMs) {
          return {
            title: `${keeps ? 'Check in to keep' : 'Check in to'} ${resource}`,
            body: `${deadline} ${this.summary(reservation, true)}`,
          };
        }
        const starts = `starts ${this.countdown(candidate.keyMs)}`;
        const checkIn = keeps ? `check in to keep ${title === '' ? 'it' : resource}` : `check in to ${title === '' ? 'it' : resource}`;
        return {
          title: `${title === '' ? resource : title} ${starts} — ${checkIn}`,
          body: `${deadline} ${this.summary(reservation, false)}`,
        };
      }
      case 'autoReleaseWarning': {
        const left = Math.max(1, Math.ceil((candidate.untilMs - this.nowMs) / minuteMs));
        return {
          title: `Check in to keep ${resource} — ${this.format.duration(left)} left`,
          body: `Released at ${this.time(candidate.untilMs, reservation)} unless you check in. ${this.summary(reservation, true)}`,
        };
      }
      default:
        return this.change(candidate.kind, reservation, true);
    }
  }

  change(kind: NotificationKind, reservation: Reservation, certain: boolean): { title: string; body: string } {
    const name = reservation.resourceName;
    switch (kind) {
      case 'released': {
        // Gone while Perch was not looking: it cannot tell who removed it.
        if (!certain)
          return { title: `${name} cancelled or released`, body: `No longer in your reservations. ${this.summary(reservation, true)}` };
        const within =
          reservation.autoReleaseMinutes === null ? '' : ` within ${this.format.duration(reservation.autoReleaseMinutes)} of its start`;
        return { title: `${name} released: you did not check in`, body: `Not checked in${within}. ${this.summary(reservation, true)}` };
      }
      case 'approved':
        return { title: `Approved: ${name}`, body: this.summary(reservation, true) };
      default:
        return { title: `Declined or removed: ${name}`, body: this.summary(reservation, true) };
    }
  }

  /** `Design review starts in 10 min — Thames (1.01)`; `Thames (1.01) starts in 10 min` when untitled. */
  private headline(reservation: Reservation, what: string): string {
    const title = reservation.title.trim();
    return title === '' ? `${reservation.resourceName} ${what}` : `${title} ${what} — ${reservation.resourceName}`;
  }

  /** `Planning · 10:00–11:00` (the title only where the notification's title lacks it), with dates where a day is not today. */
  private summary(reservation: Reservation, withTitle: boolean): string {
    const startMs = reservation.start.toMillis();
    const endMs = reservation.end.toMillis();
    const start = this.local(startMs);
    const end = this.local(endMs);
    let when: string;
    if (start.offset !== end.offset) {
      // Across a DST change the same wall time can occur twice (02:30–02:30): name both offsets.
      when = `${this.time(startMs)} ${utcOffset(start.offset)}–${this.time(endMs, undefined, startMs)} ${utcOffset(end.offset)}`;
    } else if (start.toISODate() === end.toISODate()) {
      when = `${this.dayPrefix(startMs)}${this.format.timeRange(startMs, endMs, reservation.timezone)}`;
    } else {
      when = `${this.time(startMs, reservation)}–${this.time(endMs, reservation, startMs)}`;
    }
    const parts = [withTitle ? reservation.title.trim() : '', when];
    if (reservation.isPendingApproval) parts.push('awaiting approval');
    return parts.filter((part) => part !== '').join(' · ');
  }

  /** `in 10 min`, measured from now so a late timer still tells the truth. */
  private countdown(targetMs: number): string {
    return this.format.countdown(Math.max(targetMs, this.nowMs), this.nowMs);
  }

  /** A time of day, with its day in front when that is not the day of `referenceMs` (today by default). */
  private time(ms: number, reservation?: Reservation, referenceMs = this.nowMs): string {
    const sameDay = this.local(ms).toISODate() === (referenceMs === this.nowMs ? this.today : this.local(referenceMs).toISODate());
    return `${sameDay ? '' : this.dayName(ms)}${this.format.time(ms, reservation?.timezone)}`;
  }

  private dayPrefix(ms: number): string {
    return this.local(ms).toISODate() === this.today ? '' : this.dayName(ms);
  }

  /** `Wed 17 Jun `: English day and month names, like every other word of the texts. */
  private dayName(ms: number): string {
    return `${this.local(ms).toFormat('ccc d LLL')} `;
  }

  private local(ms: number): DateTime {
    return DateTime.fromMillis(ms, { zone: this.zone, locale: 'en-GB' });
  }
}

/** `UTC+2`, `UTC-4`, `UTC+5:30`: the same in every locale, unlike zone abbreviations. */
function utcOffset(offsetMinutes: number): string {
  const sign = offsetMinutes < 0 ? '-' : '+';
  const hours = Math.floor(Math.abs(offsetMinutes) / 60);
  const minutes = Math.abs(offsetMinutes) % 60;
  return `UTC${sign}${hours}${minutes === 0 ? '' : `:${String(minutes).padStart(2, '0')}`}`;
}
