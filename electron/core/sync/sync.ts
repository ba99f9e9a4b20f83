/**
 * Keeping the user's reservations and availability in step with the server. What polling costs a
 * server is bounded (server-facts E): a regular poll asks for the user's own reservations in a
 * narrow window and, at most every 5 minutes, for availability — never more than two requests.
 * The 14-day list and availability are fetched when the user looks (popover opened, refresh).
 */
import type { DateTime } from 'luxon';
import { formatWireDateTime } from '../../api/dates.js';
import type { Clock } from '../clock.js';
import type { CoreState } from '../core-state.js';
import type { NotificationSchedule } from '../notifications/notification-schedule.js';
import { createPoller, type PollOutcome, type PollReason } from './poller.js';
import { fullWindow, mergeReservations, narrowWindow } from './poll-window.js';
import { bridgeErrorFromSession, type AccountSession, type SessionResult } from '../account/session.js';
import { plannerReservations, summaryUpdatedBy, type WireReservation } from '../views/state.js';

/** Availability in the background: at most this often (server-facts E). */
const availabilityBackgroundMinutes = 5;

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
}

export interface Sync {
  /** Polls at once, then on the schedule; stays paused if the system is. */
  start(): void;
  /** No more polls nor notification timers until `start`. */
  stop(): void;
  /** Polls at once, or joins the poll already running. */
  refreshNow(): Promise<void>;
  /** The 14-day list and availability, waiting for a poll that asks for them. */
  refreshReservations(): Promise<void>;
  /** One reservation changed (check-in, check-out, extension): folded into the state at once. */
  reservationChanged(detail: WireReservation): void;
  pause(reason: PauseReason): void;
  resume(reason: PauseReason): void;
}

export function createSync(options: SyncOptions): Sync {
  const { clock, state, session, notifications } = options;
  const pausedBy = new Set<PauseReason>();
  const wanted = { full: false, availability: false };
  let pollsStarted = 0;

  const availabilityStale = (now: DateTime) =>
    pausedBy.size === 0 && (state.data.availabilityAskedAt === null || now.diff(state.data.availabilityAskedAt, 'minutes').minutes >= availabilityBackgroundMinutes);

  /** Whether an error means the server cannot be reached (offline and backoff) rather than refused. */
  const unreachable = (result: SessionResult<unknown> | null) => result !== null && !result.ok && result.error.kind === 'network';

  async function poll(reason: PollReason): Promise<PollOutcome> {
    const account = session.account;
    if (account === null) return 'failed';
    pollsStarted += 1;
    const now = clock.now();
    const full = wanted.full || reason === 'start';
    const withAvailability = wanted.availability || full || availabilityStale(now);
    wanted.full = false;
    wanted.availability = false;
    const window = full ? fullWindow(now) : narrowWindow(now, account.timezone, state.settings, state.data.reservations);
    const [reservations, availability] = await Promise.all([
      session.run((client) =>
        client.getReservations({
          query: { userId: String(account.userId), startDateTime: formatWireDateTime(window.from.toUTC()), endDateTime: formatWireDateTime(window.to.toUTC()) },
        }),
      ),
      withAvailability
        ? session.run((client) => client.getAvailability({ query: { dateTime: formatWireDateTime(now.setZone(account.timezone)) } }))
        : Promise.resolve(null),
    ]);
    if (session.account !== account) return 'failed';

    if (unreachable(reservations) || unreachable(availability)) {
      // What the user asked for is still owed once the server is back.
      wanted.full ||= full;
      state.offline = true;
      options.stateChanged();
      return 'unreachable';
    }
    let outcome: PollOutcome = 'ok';
    for (const result of [reservations, availability]) {
      if (result !== null && !result.ok) {
        outcome = 'failed';
        if (result.error.kind !== 'signedOut') state.lastError = bridgeErrorFromSession(result.error);
      }
    }
    if (session.account !== account) return 'failed';
    state.offline = false;
    if (availability?.ok) {
      state.data.availability = availability.data.resources;
      state.data.availabilityAskedAt = now;
    }
    if (reservations.ok) {
      state.data.reservations = mergeReservations(state.data.reservations, reservations.data.reservations, window, now);
      state.data.fetchedAt = now;
      if (outcome === 'ok') state.lastError = null;
      const previous = state.previousPlanned;
      state.previousPlanned = plannerReservations(state.data.reservations);
      await notifications.replan(previous, window.to);
    }
    options.persist();
    options.stateChanged();
    return outcome;
  }

  const poller = createPoller({
    clock,
    intervalMs: () => state.settings.pollIntervalSeconds * 1000,
    poll(reason) {
      const work = poll(reason);
      options.track(work);
      return work;
    },
    log: (message, error) => options.log(`poller: ${message}`, error),
  });

  /** Runs a poll for what was asked; joins a running poll only if it started after the ask. */
  async function demandRefresh(): Promise<void> {
    const asked = pollsStarted;
    await poller.refreshNow('demand');
    if (pollsStarted === asked || wanted.full || wanted.availability) {
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
    refreshReservations() {
      wanted.full = true;
      wanted.availability = true;
      return demandRefresh();
    },
    reservationChanged(detail) {
      const { data } = state;
      const index = data.reservations.findIndex((summary) => summary.referenceNumber === detail.referenceNumber);
      if (index >= 0) data.reservations[index] = summaryUpdatedBy(data.reservations[index]!, detail);
      state.previousPlanned = plannerReservations(data.reservations);
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
