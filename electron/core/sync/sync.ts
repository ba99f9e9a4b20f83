/**
 * Keeping the user's reservations and "Free now" in step with the server, at a cost a real server
 * bears (server-facts E: at most 2 s of its time per user-hour). A poll asks for the user's own
 * reservations in a narrow window (the 14-day list when the user looks) and, when the user looks
 * or rarely in the background, who is busy in the schedules the user books in; every 30 minutes
 * that read spans today and tomorrow instead, to learn of the meetings of others the user is in
 * (their own list holds only what they own). Never more than two requests in the background. Polls come every poll interval near the user's own events and
 * every few minutes otherwise (poll-plan.ts); slower while the server answers slowly or fails.
 */
import type { DateTime } from 'luxon';
import { formatWireDateTime } from '../../api/dates.js';
import type { Clock } from '../clock.js';
import type { BusyNow, CoreState, Meetings } from '../core-state.js';
import type { NotificationSchedule } from '../notifications/notification-schedule.js';
import { createPoller, type PollOutcome, type PollReason } from './poller.js';
import { endOfTomorrow, fullWindow, mergeReservations, narrowWindow } from './poll-window.js';
import { longestWaitMs, maxStrainLevel, nextPollDelay } from './poll-plan.js';
import { freeNowSchedules } from './free-now-schedules.js';
import { bridgeErrorFromSession, type AccountSession, type SessionResult } from '../session/session.js';
import { plannerReservations } from '../notifications/planner-input.js';
import { summaryRole, summaryUpdatedBy, wireInstant, type WireReservation, type WireSummary } from '../views/state.js';
import type { ScheduleHours } from '../views/opening-hours.js';
import { referenceDataHours } from './reference-data.js';

/** Who is busy, in the background: each schedule at most this often (and never while paused). */
const backgroundFreeNowMinutes = 30;
/** "Who is busy now in this schedule": the one-minute window server-facts E prices at 35 ms. */
const busyWindowMs = 60_000;
/**
 * The meetings the user is in, read by schedule from now to the end of the user's tomorrow:
 * each schedule at most this often, when the user looks or in the background. Such a read also
 * tells who is busy now, so it stands in for that schedule's one-minute read.
 */
export const meetingsMinutes = 30;
/** An answer slower than this is a sign of a strained server. */
export const defaultSlowAnswerMs = 3_000;

/** Someone else's reservation that the user takes part in or is invited to. */
function isAttended(summary: WireSummary, userId: number): boolean {
  const role = summaryRole(summary, userId);
  return role === 'participant' || role === 'invitee';
}

export type PauseReason = 'suspended' | 'locked';

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

  /**
   * The schedules to ask who is busy in: all of the user's when they look, else the one whose
   * answer (who is busy, or the meetings) is stalest, if due.
   */
  function schedulesToAsk(now: DateTime, look: boolean): number[] {
    if (pausedBy.size > 0) return [];
    const chosen = freeNowSchedules(state.data, state.settings.favouriteResourceIds);
    if (look) return chosen;
    const askedAt = (scheduleId: number) => Math.min(busyAskedAt(scheduleId), meetingsAskedAt(scheduleId));
    const stalest = [...chosen].sort((a, b) => askedAt(a) - askedAt(b))[0];
    if (stalest === undefined) return [];
    const busyDue = now.toMillis() - busyAskedAt(stalest) >= backgroundFreeNowMinutes * 60_000;
    return busyDue || meetingsDue(stalest, now) ? [stalest] : [];
  }

  /** The meetings read: every reservation of the schedule from now to the end of the user's tomorrow. */
  const askSchedule = (scheduleId: number, now: DateTime, zone: string) =>
    session.run((client) =>
      client.getReservations({
        query: { scheduleId: String(scheduleId), startDateTime: formatWireDateTime(now.toUTC()), endDateTime: formatWireDateTime(endOfTomorrow(now, zone).toUTC()) },
      }),
    );

  /** What the one-minute read would have listed: what is under way in the minute from now, or starts within it. */
  function busyWithin(reservations: readonly WireSummary[], now: DateTime): WireSummary[] {
    const fromMs = now.toMillis();
    const toMs = fromMs + busyWindowMs;
    return reservations.filter((summary) => {
      const start = wireInstant(summary.startDate)?.toMillis();
      const end = wireInstant(summary.endDate)?.toMillis();
      return start !== undefined && end !== undefined && start < toMs && end > fromMs;
    });
  }

  /** The cheapest request that tells who is busy now in a schedule (server-facts E). */
  const askWhoIsBusy = (scheduleId: number, now: DateTime) =>
    session.run((client) =>
      client.getReservations({
        query: { scheduleId: String(scheduleId), startDateTime: formatWireDateTime(now.toUTC()), endDateTime: formatWireDateTime(now.toUTC().plus({ milliseconds: busyWindowMs })) },
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

  async function poll(reason: PollReason): Promise<PollOutcome> {
    const account = session.account;
    if (account === null) return 'failed';
    pollsStarted += 1;
    const now = clock.now();
    const full = wanted.full || reason === 'start';
    const look = wanted.look || reason === 'start';
    wanted.full = false;
    wanted.look = false;
    let slow = false;
    const timed = async <T>(request: Promise<SessionResult<T>>): Promise<SessionResult<T>> => {
      const began = options.monotonicMs();
      const result = await request;
      if (options.monotonicMs() - began > options.slowAnswerMs) slow = true;
      return result;
    };
    const offline = (): PollOutcome => {
      // What the user asked for is still owed once the server is back.
      wanted.full ||= full;
      wanted.look ||= look;
      state.offline = true;
      state.freeNowReading = false;
      options.stateChanged();
      return 'unreachable';
    };

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
    if (reservations.ok) {
      state.data.reservations = mergeReservations(state.data.reservations, reservations.data.reservations, window, now);
      state.data.fetchedAt = now;
      // The user's list is shown at once; Free now fills in once the reads below are in.
      state.freeNowReading = look;
      options.stateChanged();
    }
    ownListSettled();

    // Asked after the list, so that the schedules follow what the user has just booked. The
    // resource list they are read against is refreshed (when stale) only when the user looks.
    if (look) await options.referenceData();
    if (session.account !== account) return 'failed';
    const results: SessionResult<unknown>[] = [reservations];
    const busyNow: BusyNow[] = [];
    const meetings: Meetings[] = [];
    for (const scheduleId of schedulesToAsk(now, look)) {
      const wide = meetingsDue(scheduleId, now);
      const busy = await timed(wide ? askSchedule(scheduleId, now, account.timezone) : askWhoIsBusy(scheduleId, now));
      if (session.account !== account) return 'failed';
      if (unreachable(busy)) return offline();
      results.push(busy);
      if (busy.ok) {
        const listed = busy.data.reservations;
        busyNow.push({ scheduleId, askedAt: now, reservations: wide ? busyWithin(listed, now) : listed });
        if (wide) meetings.push({ scheduleId, askedAt: now, reservations: listed.filter((summary) => isAttended(summary, account.userId)) });
      }
      if (look) await refreshHours(scheduleId, now);
    }

    // A read above may have ended the session (a refused re-authentication): nothing of it is kept.
    if (session.account !== account) return 'failed';
    let outcome: PollOutcome = 'ok';
    for (const result of results) {
      if (!result.ok) {
        outcome = 'failed';
        if (result.error.kind !== 'signedOut') state.lastError = bridgeErrorFromSession(result.error);
      }
    }
    judgeStrain(slow, results.some((result) => !result.ok && result.error.kind === 'server'));
    state.offline = false;
    const chosen = new Set(freeNowSchedules(state.data, state.settings.favouriteResourceIds));
    const fresh = new Set(busyNow.map((entry) => entry.scheduleId));
    state.data.busyNow = [...state.data.busyNow.filter((entry) => chosen.has(entry.scheduleId) && !fresh.has(entry.scheduleId)), ...busyNow];
    const freshMeetings = new Set(meetings.map((entry) => entry.scheduleId));
    state.data.meetings = [...state.data.meetings.filter((entry) => chosen.has(entry.scheduleId) && !freshMeetings.has(entry.scheduleId)), ...meetings];
    if (reservations.ok) {
      if (outcome === 'ok') state.lastError = null;
      const previous = state.previousPlanned;
      state.previousPlanned = plannerReservations(state.data);
      await notifications.replan(previous, window.to);
    }
    options.persist();
    state.freeNowReading = false;
    options.stateChanged();
    return outcome;
  }

  const poller = createPoller({
    clock,
    intervalMs: () => nextPollDelay(clock.now(), plannerReservations(state.data), state.settings, state.strain?.level ?? 0).delayMs,
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
      const index = data.reservations.findIndex((summary) => summary.referenceNumber === detail.referenceNumber);
      if (index >= 0) data.reservations[index] = summaryUpdatedBy(data.reservations[index]!, detail);
      state.previousPlanned = plannerReservations(data);
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
