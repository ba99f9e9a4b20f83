/**
 * Keeping the user's reservations and "Free now" in step with the server, at a cost a real server
 * bears (server-facts E: at most 2 s of its time per user-hour, 1 s when the user does not look).
 * A poll asks for the user's own reservations in a narrow window (the 14-day list when the user
 * looks). Free now covers every schedule the user may book in, each answer with its own age: when
 * the user looks, each open schedule is asked who is busy from now to its closing time — the two
 * it ranks first (free-now-schedules.ts) at every look, the others once their answer is old, as
 * often as a fixed share of the budget allows however many there are; a closed one is not asked.
 * In the background only the schedules whose rows the tray shows are asked, rarely; every 30
 * minutes the read of the leading ones the user books in spans today and tomorrow instead, to learn
 * of the meetings of others the user is in (their own list holds only what they own). The list
 * is read every few minutes, and a reservation on its own just before each notice about it is
 * due (poll-plan.ts); slower while the server answers slowly or fails.
 */
import type { DateTime } from 'luxon';
import { formatWireDateTime } from '../../api/dates.js';
import type { Clock } from '../clock.js';
import type { BusyNow, CoreState, Meetings } from '../core-state.js';
import type { NotificationSchedule } from '../notifications/notification-schedule.js';
import { createPoller, type PollOutcome, type PollReason } from './poller.js';
import { endOfTomorrow, fullWindow, mergeReservations, narrowWindow } from './poll-window.js';
import { longestWaitMs, maxStrainLevel, nextPollStep, type PollRead } from './poll-plan.js';
import { coveredSchedules, leadingScheduleCount, meetingSchedules } from './free-now-schedules.js';
import { bridgeErrorFromSession, type AccountSession, type SessionResult } from '../session/session.js';
import { listedReservations } from '../reservations/listed-reservations.js';
import { notListed, summaryUpdatedBy } from './own-list.js';
import { noticeMoments } from '../notifications/planner.js';
import { summaryRole } from '../reservations/reservation.js';
import { wireInstant } from '../../api/dates.js';
import type { WireReservation, WireSummary } from '../../api/wire.js';
import { knownClosed, openingAt, type ScheduleHours } from '../views/opening-hours.js';
import { referenceDataHours } from './reference-data.js';

/** Who is busy, in the background: each leading schedule at most this often (and never while paused). */
const backgroundFreeNowMinutes = 30;
/**
 * The meetings the user is in, read by schedule from now to the end of the user's tomorrow:
 * each leading schedule the user books in (meetingSchedules) at most this often, when the user looks
 * or in the background. Such a read
 * also tells who is busy to the closing time, so it stands in for that schedule's Free now read.
 */
export const meetingsMinutes = 30;
/** An answer slower than this is a sign of a strained server. */
export const defaultSlowAnswerMs = 3_000;
/** A leading schedule is asked again at a look unless it was asked this recently. */
const leadingFreshMs = 60_000;
/** What one schedule's read costs a real server: GetReservations by schedule (server-facts E). */
export const scheduleReadMs = 35;
/**
 * What asking the schedules beyond the leading ones may cost a real server per user-hour, however
 * often the user looks: with 12 of them, each is asked again once its answer is 63 minutes old.
 */
export const otherSchedulesMsPerHour = 400;
/** ...and never more often than this, however few there are. */
const otherFreshMinMs = 10 * 60_000;
/** Free now reads no further than this ahead on a schedule open round the clock. */
const furthestReadMs = 12 * 3_600_000;
/** The shortest read: who is busy in the minute from now. */
const shortestReadMs = 60_000;

/** How old the answer of a schedule beyond the leading ones may grow before a look asks again. */
export function otherScheduleFreshMs(others: number): number {
  return Math.max(otherFreshMinMs, (others * scheduleReadMs * 3_600_000) / otherSchedulesMsPerHour);
}

/**
 * How far a Free now read reaches: to the schedule's closing time (round the clock, 12 hours at
 * most), or to the end of the user's day where its hours are not known; a minute at least.
 */
export function freeNowReadEnd(hours: ScheduleHours | undefined, now: DateTime, zone: string): DateTime {
  const opening = hours === undefined ? null : openingAt(hours, now);
  const wanted = opening?.open === true ? (opening.closesAt ?? now.plus({ milliseconds: furthestReadMs })) : now.setZone(zone).endOf('day');
  const capped = Math.min(wanted.toMillis(), now.toMillis() + furthestReadMs);
  return now.plus({ milliseconds: Math.max(capped - now.toMillis(), shortestReadMs) });
}

/** How many reservations gone from the list one poll asks about on their own (confirmVanished). */
const vanishedChecksPerPoll = 3;

/** Someone else's reservation that the user takes part in or is invited to. */
function isAttended(summary: WireSummary, userId: number): boolean {
  const role = summaryRole(summary, userId);
  return role === 'participant' || role === 'invitee';
}

/** What a read that reached further lists within `until`: what is under way or starts before it. */
function listedUntil(reservations: readonly WireSummary[], now: DateTime, until: DateTime): WireSummary[] {
  const fromMs = now.toMillis();
  const toMs = until.toMillis();
  return reservations.filter((summary) => {
    const start = wireInstant(summary.startDate)?.toMillis();
    const end = wireInstant(summary.endDate)?.toMillis();
    return start !== undefined && end !== undefined && start < toMs && end > fromMs;
  });
}

export type PauseReason = 'suspended' | 'locked';

interface AnswerTimer {
  timed<T>(request: Promise<SessionResult<T>>): Promise<SessionResult<T>>;
  readonly slow: boolean;
}

export interface SyncOptions {
  clock: Clock;
  state: CoreState;
  session: Pick<AccountSession, 'account' | 'run'>;
  notifications: NotificationSchedule;
  track(work: Promise<unknown>): void;
  /** The data changed and is worth caching. */
  persist(): void;
  stateChanged(): void;
  log(message: string, error?: unknown): void;
  /** The schedules of the rows the tray shows now: the background keeps only them fresh. */
  shownInTray(): readonly number[];
  /** Resources and schedules, from the cache when fresh: "Free now" is worked out with them. */
  referenceData(): Promise<void>;
  /** Monotonic milliseconds, to time the server's answers. */
  monotonicMs: () => number;
  slowAnswerMs: number;
}

export interface Sync {
  /** Polls at once, then on the schedule; stays paused if the system is. */
  start(): void;
  /** No more polls nor notification timers until `start`. */
  stop(): void;
  /** Polls at once, or joins the poll already running. */
  refreshNow(): Promise<void>;
  /**
   * Polls at once, or joins the poll already running, and resolves as soon as that poll has the
   * user's own list (or could not read it): the rest of the poll (Free now) goes on in the background.
   */
  ownListNow(): Promise<void>;
  /** The user looks: the 14-day list and who is busy now, waiting for a poll that asks for them. */
  refreshReservations(): Promise<void>;
  /** One reservation changed (check-in, check-out, extension): folded into the state at once. */
  reservationChanged(detail: WireReservation): void;
  pause(reason: PauseReason): void;
  resume(reason: PauseReason): void;
}

export function createSync(options: SyncOptions): Sync {
  const { clock, state, session, notifications } = options;
  const pausedBy = new Set<PauseReason>();
  const wanted = { full: false, look: false };
  let pollsStarted = 0;
  /** When the own list was last asked for, and each reservation on its own: what poll-plan.ts plans from. */
  let listAskedAtMs: number | null = null;
  const reservationAskedAtMs = new Map<string, number>();
  /** What the timer's poll reads: planned with its wait, the list after a failure. */
  let plannedRead: PollRead = { kind: 'list' };
  /** Waiting for the user's own list (`ownListNow`): told when a poll has it or could not read it. */
  const ownListWaiters = new Set<() => void>();
  const ownListSettled = () => {
    for (const resolve of ownListWaiters) resolve();
    ownListWaiters.clear();
  };

  /** Whether an error means the server cannot be reached (offline and backoff) rather than refused. */
  const unreachable = (result: SessionResult<unknown> | null) => result !== null && !result.ok && result.error.kind === 'network';

  const busyAskedAt = (scheduleId: number) => state.data.busyNow.find((entry) => entry.scheduleId === scheduleId)?.askedAt.toMillis() ?? Number.NEGATIVE_INFINITY;
  const meetingsAskedAt = (scheduleId: number) => state.data.meetings.find((entry) => entry.scheduleId === scheduleId)?.askedAt.toMillis() ?? Number.NEGATIVE_INFINITY;
  const meetingsDue = (scheduleId: number, now: DateTime) => now.toMillis() - meetingsAskedAt(scheduleId) >= meetingsMinutes * 60_000;
  const hoursOf = (scheduleId: number) => state.data.hours.find((hours) => hours.scheduleId === scheduleId);
  const closedNow = (scheduleId: number, now: DateTime) => knownClosed(state.data.hours, scheduleId, now);

  /**
   * The schedules to ask now, in rank order. When the user looks: each leading schedule not asked
   * within the minute, each other one whose answer is old (otherScheduleFreshMs); a closed one
   * only for the meetings read. In the background: of the schedules whose rows the tray shows
   * (the leading ones while it shows none), the one whose answer (who is busy, or the meetings)
   * is stalest, if due.
   */
  function schedulesToAsk(ranked: readonly number[], meetingsIn: readonly number[], now: DateTime, look: boolean): number[] {
    if (pausedBy.size > 0) return [];
    const leading = ranked.slice(0, leadingScheduleCount);
    const nowMs = now.toMillis();
    const meetingsDueIn = (scheduleId: number) => meetingsIn.includes(scheduleId) && meetingsDue(scheduleId, now);
    if (look) {
      const otherFreshMs = otherScheduleFreshMs(ranked.length - leading.length);
      return ranked.filter((scheduleId, rank) => {
        if (meetingsDueIn(scheduleId)) return true;
        if (closedNow(scheduleId, now)) return false;
        return nowMs - busyAskedAt(scheduleId) >= (rank < leadingScheduleCount ? leadingFreshMs : otherFreshMs);
      });
    }
    const busyDue = (scheduleId: number) =>
      nowMs - busyAskedAt(scheduleId) >= backgroundFreeNowMinutes * 60_000 && !closedNow(scheduleId, now);
    const askedAt = (scheduleId: number) => Math.min(busyAskedAt(scheduleId), meetingsIn.includes(scheduleId) ? meetingsAskedAt(scheduleId) : Number.POSITIVE_INFINITY);
    const shown = options.shownInTray().filter((scheduleId) => ranked.includes(scheduleId));
    const kept = new Set([...(shown.length > 0 ? shown : leading), ...meetingsIn]);
    const stalest = [...kept].filter((scheduleId) => busyDue(scheduleId) || meetingsDueIn(scheduleId)).sort((a, b) => askedAt(a) - askedAt(b))[0];
    return stalest === undefined ? [] : [stalest];
  }

  /** One of the user's reservations, on its own (GetReservation). */
  const askReservation = (referenceNumber: string, answers: AnswerTimer) => answers.timed(session.run((client) => client.getReservation({ params: { referenceNumber } })));

  /** Every reservation of the schedule from now to `until`. */
  const askSchedule = (scheduleId: number, now: DateTime, until: DateTime) =>
    session.run((client) =>
      client.getReservations({
        query: { scheduleId: String(scheduleId), startDateTime: formatWireDateTime(now.toUTC()), endDateTime: formatWireDateTime(until.toUTC()) },
      }),
    );

  /**
   * A schedule's layout (GetSchedule, 12–14 ms on a real server: server-facts E), fetched when the
   * user looks and kept as long as the resource list; without it Free now cannot tell a closed office.
   */
  async function refreshHours(scheduleId: number, now: DateTime): Promise<void> {
    const kept = state.data.hours.find((hours) => hours.scheduleId === scheduleId);
    if (kept !== undefined && now.diff(kept.fetchedAt, 'hours').hours < referenceDataHours) return;
    const answer = await session.run((client) => client.getSchedule({ params: { scheduleId } }));
    // Without it Free now lists as it did before; the next look asks again.
    if (!answer.ok) return;
    const hours: ScheduleHours = { scheduleId, timezone: answer.data.timezone, fetchedAt: now, periods: answer.data.periods };
    state.data.hours = [...state.data.hours.filter((entry) => entry.scheduleId !== scheduleId), hours];
  }

  /** Raises the strain on a slow or failing answer, lowers it on a good poll. */
  function judgeStrain(slow: boolean, serverError: boolean): void {
    if (slow || serverError) {
      const level = Math.min((state.strain?.level ?? 0) + 1, maxStrainLevel);
      state.strain = { level, reason: serverError ? 'serverError' : 'slow' };
    } else if (state.strain !== null) {
      state.strain = state.strain.level > 1 ? { ...state.strain, level: state.strain.level - 1 } : null;
    }
  }

  /** The poll's outcome from its answers; the last refusal is what the user is told. */
  function outcomeOf(results: readonly SessionResult<unknown>[]): PollOutcome {
    let outcome: PollOutcome = 'ok';
    for (const result of results) {
      if (!result.ok) {
        outcome = 'failed';
        if (result.error.kind !== 'signedOut') state.lastError = bridgeErrorFromSession(result.error);
      }
    }
    return outcome;
  }

  const serverFailed = (results: readonly SessionResult<unknown>[]) => results.some((result) => !result.ok && result.error.kind === 'server');

  /** Notices planned again from what was just read: a reservation gone since the reads before is news (planner.ts). */
  async function replanFromReads(readAt: DateTime, horizon: DateTime | null, userId: number): Promise<void> {
    const previous = state.previousPlanned;
    state.previousPlanned = { reservations: listedReservations(state.data, userId), readAt };
    await notifications.replan(previous, horizon);
  }

  /**
   * Reads each of the user's reservations on its own before a notice about it (GetReservation):
   * the answer replaces what was listed, a 404 says it is gone — cancelled, or released by the
   * server's job.
   */
  async function readReservations(referenceNumbers: readonly string[], account: NonNullable<AccountSession['account']>, answers: AnswerTimer, offline: () => PollOutcome): Promise<PollOutcome> {
    const now = clock.now();
    const results: SessionResult<unknown>[] = [];
    for (const referenceNumber of referenceNumbers) {
      // Asked, whatever the answer: a refusal is not asked again at once.
      reservationAskedAtMs.set(referenceNumber, now.toMillis());
      const answer = await askReservation(referenceNumber, answers);
      if (session.account !== account) return 'failed';
      if (unreachable(answer)) return offline();
      const { reservations } = state.data;
      if (answer.ok) {
        state.data.reservations = reservations.map((summary) => (summary.referenceNumber === referenceNumber ? summaryUpdatedBy(summary, answer.data) : summary));
      } else if (answer.error.kind === 'notFound') {
        state.data.reservations = reservations.filter((summary) => summary.referenceNumber !== referenceNumber);
      } else {
        results.push(answer);
      }
    }
    const outcome = outcomeOf(results);
    judgeStrain(answers.slow, serverFailed(results));
    state.offline = false;
    if (outcome === 'ok') state.lastError = null;
    await replanFromReads(now, null, account.userId);
    options.persist();
    options.stateChanged();
    return outcome;
  }

  /**
   * A reservation the list no longer holds may have moved out of its window rather than gone: each
   * (a few a poll) is asked on its own before its vanishing is news, and one still there is kept,
   * at its new time. Vanishing is rare, so this costs next to nothing.
   */
  async function confirmVanished(vanished: readonly WireSummary[], account: NonNullable<AccountSession['account']>, answers: AnswerTimer): Promise<void> {
    for (const summary of vanished.slice(0, vanishedChecksPerPoll)) {
      const answer = await askReservation(summary.referenceNumber, answers);
      if (session.account !== account) return;
      // Any other answer leaves it gone: the news of it is worded for what Perch cannot tell.
      if (answer.ok) state.data.reservations = [...state.data.reservations, summaryUpdatedBy(summary, answer.data)];
    }
  }

  /** Times the answers of one poll: one that came slowly is a sign of strain. */
  function answerTimer(): AnswerTimer {
    let slow = false;
    return {
      async timed(request) {
        const began = options.monotonicMs();
        const result = await request;
        if (options.monotonicMs() - began > options.slowAnswerMs) slow = true;
        return result;
      },
      get slow() {
        return slow;
      },
    };
  }

  async function poll(reason: PollReason): Promise<PollOutcome> {
    const account = session.account;
    if (account === null) return 'failed';
    pollsStarted += 1;
    const now = clock.now();
    const full = wanted.full || reason === 'start';
    const look = wanted.look || reason === 'start';
    wanted.full = false;
    wanted.look = false;
    const read: PollRead = reason === 'interval' && !full && !look ? plannedRead : { kind: 'list' };
    plannedRead = { kind: 'list' };
    const answers = answerTimer();
    const { timed } = answers;
    const offline = (): PollOutcome => {
      // What the user asked for is still owed once the server is back.
      wanted.full ||= full;
      wanted.look ||= look;
      state.offline = true;
      state.freeNowReading = false;
      options.stateChanged();
      return 'unreachable';
    };
    if (read.kind === 'reservations') return readReservations(read.referenceNumbers, account, answers, offline);

    listAskedAtMs = now.toMillis();
    const window = full ? fullWindow(now) : narrowWindow(now, account.timezone, state.settings, state.data.reservations, longestWaitMs(state.settings));
    const reservations = await timed(
      session.run((client) =>
        client.getReservations({
          query: { userId: String(account.userId), startDateTime: formatWireDateTime(window.from.toUTC()), endDateTime: formatWireDateTime(window.to.toUTC()) },
        }),
      ),
    );
    if (session.account !== account) return 'failed';
    if (unreachable(reservations)) return offline();
    let vanished: WireSummary[] = [];
    if (reservations.ok) {
      const listedBefore = state.data.reservations;
      state.data.reservations = mergeReservations(listedBefore, reservations.data.reservations, window, now);
      vanished = notListed(listedBefore, state.data.reservations, now);
      state.data.fetchedAt = now;
      // The user's list is shown at once; Free now fills in once the reads below are in.
      state.freeNowReading = look;
      options.stateChanged();
    }
    ownListSettled();

    // Asked after the list, so that the schedules follow what the user has just booked. The
    // resource list they are read against is refreshed (when stale) only when the user looks, and
    // so are the layouts, which say whether each is open and until when.
    if (look) await options.referenceData();
    if (session.account !== account) return 'failed';
    const ranked = coveredSchedules(state, account);
    if (look) {
      for (const scheduleId of ranked) await refreshHours(scheduleId, now);
      if (session.account !== account) return 'failed';
    }
    const results: SessionResult<unknown>[] = [reservations];
    const meetingsIn = meetingSchedules(ranked, state.data, state.settings.favouriteResourceIds);
    const toAsk = schedulesToAsk(ranked, meetingsIn, now, look);
    for (const [index, scheduleId] of toAsk.entries()) {
      const readEnd = freeNowReadEnd(hoursOf(scheduleId), now, account.timezone);
      const wide = meetingsIn.includes(scheduleId) && meetingsDue(scheduleId, now);
      const busy = await timed(askSchedule(scheduleId, now, wide ? endOfTomorrow(now, account.timezone) : readEnd));
      if (session.account !== account) return 'failed';
      if (unreachable(busy)) return offline();
      results.push(busy);
      if (busy.ok) {
        const listed = busy.data.reservations;
        const answer: BusyNow = { scheduleId, askedAt: now, until: readEnd, reservations: wide ? listedUntil(listed, now, readEnd) : listed };
        state.data.busyNow = [...state.data.busyNow.filter((entry) => entry.scheduleId !== scheduleId), answer];
        if (wide) {
          const attended: Meetings = { scheduleId, askedAt: now, reservations: listed.filter((summary) => isAttended(summary, account.userId)) };
          state.data.meetings = [...state.data.meetings.filter((entry) => entry.scheduleId !== scheduleId), attended];
        }
      }
      // The leading schedules' rows come first on screen: shown before the others are asked.
      if (index === leadingScheduleCount - 1 && index < toAsk.length - 1) options.stateChanged();
    }

    const outcome = outcomeOf(results);
    judgeStrain(answers.slow, serverFailed(results));
    state.offline = false;
    // A schedule the user can no longer book in is no longer covered.
    const covered = new Set(ranked);
    state.data.busyNow = state.data.busyNow.filter((entry) => covered.has(entry.scheduleId));
    state.data.meetings = state.data.meetings.filter((entry) => covered.has(entry.scheduleId));
    if (reservations.ok) {
      if (outcome === 'ok') state.lastError = null;
      // Each reservation listed was asked about now; those no longer listed need no record.
      const listed = new Set(state.data.reservations.map((summary) => summary.referenceNumber));
      for (const referenceNumber of reservationAskedAtMs.keys()) if (!listed.has(referenceNumber)) reservationAskedAtMs.delete(referenceNumber);
      await confirmVanished(vanished, account, answers);
      if (session.account !== account) return 'failed';
      await replanFromReads(now, window.to, account.userId);
    }
    options.persist();
    state.freeNowReading = false;
    options.stateChanged();
    return outcome;
  }

  const poller = createPoller({
    clock,
    intervalMs: () => {
      const now = clock.now();
      const reservations = session.account === null ? [] : listedReservations(state.data, session.account.userId);
      const moments = noticeMoments({ now, reservations, settings: state.settings, shown: state.shown, snoozed: state.snoozed });
      const known = {
        listAskedAtMs,
        askedAtMs: (referenceNumber: string) => Math.max(listAskedAtMs ?? Number.NEGATIVE_INFINITY, reservationAskedAtMs.get(referenceNumber) ?? Number.NEGATIVE_INFINITY),
        reservations,
        moments,
      };
      const step = nextPollStep(now, known, state.settings, state.strain?.level ?? 0);
      plannedRead = step.read;
      return step.delayMs;
    },
    poll(reason) {
      // A poll that ends early (the account changed) leaves no read under way behind it.
      const work = poll(reason).finally(() => {
        state.freeNowReading = false;
      });
      options.track(work);
      return work;
    },
    log: (message, error) => options.log(`poller: ${message}`, error),
  });

  /** Runs a poll for what was asked; joins a running poll only if it started after the ask. */
  async function demandRefresh(): Promise<void> {
    const asked = pollsStarted;
    await poller.refreshNow('demand');
    if (pollsStarted === asked || wanted.full || wanted.look) {
      if (!state.offline) await poller.refreshNow('demand');
    }
  }

  return {
    start() {
      poller.stop();
      poller.start();
      if (pausedBy.size > 0) poller.pause();
    },
    stop() {
      poller.stop();
      notifications.cancel();
    },
    refreshNow: () => poller.refreshNow('demand'),
    ownListNow() {
      return new Promise<void>((resolve) => {
        ownListWaiters.add(resolve);
        // A poll that never reaches the list (paused, offline, signed out) releases its waiter as it ends.
        void poller.refreshNow('demand').finally(() => {
          ownListWaiters.delete(resolve);
          resolve();
        });
      });
    },
    refreshReservations() {
      wanted.full = true;
      wanted.look = true;
      return demandRefresh();
    },
    reservationChanged(detail) {
      const { data } = state;
      data.reservations = data.reservations.map((summary) => (summary.referenceNumber === detail.referenceNumber ? summaryUpdatedBy(summary, detail) : summary));
      state.previousPlanned = session.account === null ? null : { reservations: listedReservations(data, session.account.userId), readAt: data.fetchedAt ?? clock.now() };
      options.track(notifications.replan(null, null));
      options.persist();
      options.stateChanged();
    },
    pause(reason) {
      pausedBy.add(reason);
      poller.pause();
    },
    resume(reason) {
      pausedBy.delete(reason);
      if (pausedBy.size > 0 || session.account === null) return;
      options.track(poller.resume(reason === 'suspended' ? 'resume' : 'unlock'));
    },
  };
}
