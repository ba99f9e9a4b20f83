/**
 * Keeping the user's reservations and "Free now" in step with the server, at a cost a real server
 * bears (server-facts E: at most 2 s of its time per user-hour, 1 s when the user does not look).
 * A poll asks for the user's own reservations in a narrow window (the 14-day list when the user
 * looks), then who is busy in the schedules Free now covers (free-now-reads.ts). The list is read
 * every few minutes, and a reservation on its own just before each notice about it is due
 * (poll-plan.ts); slower while the server answers slowly or fails (poll-answers.ts).
 */
import type { DateTime } from 'luxon';
import type { WireReservation } from '../../api/wire.js';
import type { Clock } from '../clock.js';
import type { CoreState } from '../core-state.js';
import { bookNowScheduleIds } from '../desktop/tray-menu.js';
import type { NotificationSchedule } from '../notifications/notification-schedule.js';
import { noticeMoments } from '../notifications/planner.js';
import { listedReservations } from '../reservations.js';
import type { SessionResult } from '../session/session-errors.js';
import type { CoreView } from '../views/snapshot.js';
import { askSchedules, refreshHours, schedulesToAsk } from './free-now-reads.js';
import { coveredSchedules, meetingSchedules } from './free-now-schedules.js';
import { confirmVanished, fullWindow, narrowWindow, readListedReservations, readOwnList, summaryUpdatedBy } from './own-list.js';
import {
  answerTimer,
  judgeStrain,
  outcomeOf,
  serverFailed,
  unreachable,
  type AnswerTimer,
  type PollReads,
  type PollSession,
} from './poll-answers.js';
import { longestWaitMs, nextPollStep, type PollRead } from './poll-plan.js';
import { createPoller, type PollOutcome, type PollReason } from './poller.js';
import type { ReferenceData } from './reference-data.js';

export type PauseReason = 'suspended' | 'locked';

export interface SyncOptions {
  clock: Clock;
  state: CoreState;
  session: PollSession;
  notifications: NotificationSchedule;
  track(work: Promise<unknown>): void;
  /** The data changed and is worth caching. */
  persist(): void;
  log(message: string, error?: unknown): void;
  /** Told of each change the reads make; its snapshot last shown says which schedules the background keeps fresh (the rows its tray shows). */
  view: Pick<CoreView, 'changed' | 'lastShown'>;
  /** Resources and schedules, from the cache when fresh: "Free now" is worked out with them. */
  reference: Pick<ReferenceData, 'refresh'>;
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

  /** Notices planned again from what was just read: a reservation gone since the reads before is news (planner.ts). */
  async function replanFromReads(readAt: DateTime, horizon: DateTime | null, userId: number): Promise<void> {
    const previous = state.previousPlanned;
    state.previousPlanned = { reservations: listedReservations(state.data, userId), readAt };
    await notifications.replan(previous, horizon);
  }

  /** What a poll's answers say: its outcome and how strained the server is; it answered, so Perch is online. */
  function judged(results: readonly SessionResult<unknown>[], answers: AnswerTimer): PollOutcome {
    const outcome = outcomeOf(state, results);
    judgeStrain(state, answers.slow, serverFailed(results));
    state.offline = false;
    return outcome;
  }

  /** The schedules of the rows the tray's Book now shows. */
  function shownInTray(): readonly number[] {
    const shown = options.view.lastShown();
    return shown === null ? [] : bookNowScheduleIds(shown, clock.now());
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
    const answers = answerTimer(options.monotonicMs, options.slowAnswerMs);
    const offline = (): PollOutcome => {
      // What the user asked for is still owed once the server is back.
      wanted.full ||= full;
      wanted.look ||= look;
      state.offline = true;
      state.freeNowReading = false;
      options.view.changed();
      return 'unreachable';
    };
    const reads: PollReads = { state, session, account, now, answers };
    if (read.kind === 'reservations') {
      const results = await readListedReservations(read.referenceNumbers, reads, reservationAskedAtMs);
      if (results === 'accountChanged') return 'failed';
      if (results === 'unreachable') return offline();
      const outcome = judged(results, answers);
      if (outcome === 'ok') state.lastError = null;
      await replanFromReads(now, null, account.userId);
      options.persist();
      options.view.changed();
      return outcome;
    }

    listAskedAtMs = now.toMillis();
    const window = full
      ? fullWindow(now)
      : narrowWindow(now, account.timezone, state.settings, state.data.reservations, longestWaitMs(state.settings));
    const ownList = await readOwnList(window, reads);
    if (session.account !== account) return 'failed';
    if (unreachable(ownList.answer)) return offline();
    if (ownList.answer.ok) {
      // The user's list is shown at once; Free now fills in once the reads below are in.
      state.freeNowReading = look;
      options.view.changed();
    }
    ownListSettled();

    // Asked after the list, so that the schedules follow what the user has just booked. The
    // resource list they are read against is refreshed (when stale) only when the user looks, and
    // so are the layouts, which say whether each is open and until when.
    if (look) await options.reference.refresh(false);
    if (session.account !== account) return 'failed';
    const ranked = coveredSchedules(state, account);
    if (look) {
      for (const scheduleId of ranked) await refreshHours(state, session, scheduleId, now);
      if (session.account !== account) return 'failed';
    }
    const meetingsIn = meetingSchedules(ranked, state.data, state.settings.favouriteResourceIds);
    const toAsk = pausedBy.size > 0 ? [] : schedulesToAsk(state.data, ranked, meetingsIn, now, look, shownInTray);
    const busy = await askSchedules(toAsk, meetingsIn, { ...reads, leadingRead: options.view.changed });
    if (busy === 'accountChanged') return 'failed';
    if (busy === 'unreachable') return offline();
    const results: SessionResult<unknown>[] = [ownList.answer, ...busy];

    const outcome = judged(results, answers);
    // A schedule the user can no longer book in is no longer covered.
    const covered = new Set(ranked);
    state.data.busyNow = state.data.busyNow.filter((entry) => covered.has(entry.scheduleId));
    state.data.meetings = state.data.meetings.filter((entry) => covered.has(entry.scheduleId));
    if (ownList.answer.ok) {
      if (outcome === 'ok') state.lastError = null;
      // Each reservation listed was asked about now; those no longer listed need no record.
      const listed = new Set(state.data.reservations.map((summary) => summary.referenceNumber));
      for (const referenceNumber of reservationAskedAtMs.keys())
        if (!listed.has(referenceNumber)) reservationAskedAtMs.delete(referenceNumber);
      await confirmVanished(ownList.vanished, reads);
      if (session.account !== account) return 'failed';
      await replanFromReads(now, window.to, account.userId);
    }
    options.persist();
    state.freeNowReading = false;
    options.view.changed();
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
        askedAtMs: (referenceNumber: string) =>
          Math.max(listAskedAtMs ?? Number.NEGATIVE_INFINITY, reservationAskedAtMs.get(referenceNumber) ?? Number.NEGATIVE_INFINITY),
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
      data.reservations = data.reservations.map((summary) =>
        summary.referenceNumber === detail.referenceNumber ? summaryUpdatedBy(summary, detail) : summary,
      );
      state.previousPlanned =
        session.account === null
          ? null
          : { reservations: listedReservations(data, session.account.userId), readAt: data.fetchedAt ?? clock.now() };
      options.track(notifications.replan(null, null));
      options.persist();
      options.view.changed();
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
