import type { DateTime } from 'luxon';
import type { Clock, TimerHandle } from '../clock.js';

export type PollReason = 'interval' | 'demand' | 'resume' | 'unlock' | 'start';

/** `failed`: the server answered, but with an error — the normal interval applies, not the backoff. */
export type PollOutcome = 'ok' | 'unreachable' | 'failed';

export interface PollerState {
  running: boolean;
  paused: boolean;
  /** Consecutive `unreachable` outcomes: the backoff exponent. Any answer from the server resets it. */
  consecutiveFailures: number;
  nextPollAt: DateTime | null;
}

export interface Poller {
  /** Polls at once (reason `start`), then on the schedule. */
  start(): void;
  /** Clears the timer; the outcome of a poll still in flight is ignored. */
  stop(): void;
  /** Polls at once, or joins the poll already running; re-arms the timer after it. Does nothing while paused or stopped. */
  refreshNow(reason?: PollReason): Promise<void>;
  /** Screen locked or system asleep: no timer, no polls, until `resume`. */
  pause(): void;
  /** Polls at once, then back to the normal schedule. */
  resume(reason: 'resume' | 'unlock'): Promise<void>;
  readonly state: PollerState;
}

export interface PollerOptions {
  clock: Clock;
  /** Read at every scheduling, so a settings change applies from the next tick on. */
  intervalMs: () => number;
  /** Must settle: the caller's request timeout is what bounds a poll. */
  poll: (reason: PollReason) => Promise<PollOutcome>;
  /** Uniform in [0, 1); injectable so tests can pin the jitter. */
  random?: () => number;
  backoff?: { firstMs?: number; maxMs?: number };
  log?: (message: string, error: unknown) => void;
}

const defaultFirstBackoffMs = 5_000;
const defaultMaxBackoffMs = 5 * 60_000;
const fallbackIntervalMs = 60_000;
// A zero or nonsense interval from a bad setting must not turn the poller into a busy loop.
const minimumDelayMs = 1_000;
const jitterFraction = 0.25;

/**
 * The wait before retry number `failures` (1-based) while the server is unreachable.
 *
 * Nominal delay: firstMs · 2^(failures−1), capped at maxMs. Jitter is ±25% of the nominal delay
 * (not full jitter), uniform: a retry never comes sooner than ¾ of the nominal wait, yet a fleet of
 * clients that lost the server at the same moment spreads out instead of retrying in lockstep.
 * The upper end of the range is trimmed to maxMs, so the wait never exceeds the cap and, at the
 * cap, stays spread over [¾·maxMs, maxMs] rather than piling up on maxMs.
 */
export function backoffDelayMs(failures: number, random: number, firstMs = defaultFirstBackoffMs, maxMs = defaultMaxBackoffMs): number {
  const exponent = Math.max(0, failures - 1);
  const nominal = Math.min(firstMs * 2 ** exponent, maxMs);
  const low = nominal * (1 - jitterFraction);
  const high = Math.min(nominal * (1 + jitterFraction), maxMs);
  const draw = Number.isFinite(random) ? Math.min(Math.max(random, 0), 1) : 0.5;
  return low + draw * (high - low);
}

/**
 * One timer at most, one poll at a time. A poll started before a pause or a stop is never joined
 * by a later one (its outcome is stale); the next poll waits for it to settle rather than overlap it.
 */
export function createPoller(options: PollerOptions): Poller {
  const { clock } = options;
  const random = options.random ?? Math.random;
  const firstMs = options.backoff?.firstMs ?? defaultFirstBackoffMs;
  const maxMs = options.backoff?.maxMs ?? defaultMaxBackoffMs;
  const log = options.log ?? ((message: string, error: unknown) => console.error(`[poller] ${message}`, error));

  let running = false;
  let paused = false;
  let consecutiveFailures = 0;
  let nextPollAt: DateTime | null = null;
  let timer: TimerHandle | null = null;
  // Bumped by stop and pause: a poll from an older generation no longer decides anything.
  let generation = 0;
  let inFlight: { promise: Promise<void>; generation: number } | null = null;

  const clearTimer = () => {
    if (timer) clock.clearTimeout(timer);
    timer = null;
    nextPollAt = null;
  };

  const intervalMs = (): number => {
    try {
      const value = options.intervalMs();
      if (Number.isFinite(value)) return Math.max(value, minimumDelayMs);
      log('interval is not a number; using the default', value);
    } catch (error) {
      log('reading the interval failed; using the default', error);
    }
    return fallbackIntervalMs;
  };

  const arm = () => {
    clearTimer();
    if (!running || paused) return;
    const delay =
      consecutiveFailures > 0 ? Math.max(backoffDelayMs(consecutiveFailures, random(), firstMs, maxMs), minimumDelayMs) : intervalMs();
    nextPollAt = clock.now().plus({ milliseconds: delay });
    timer = clock.setTimeout(() => {
      timer = null;
      nextPollAt = null;
      void refreshNow('interval');
    }, delay);
  };

  const attempt = async (reason: PollReason): Promise<PollOutcome> => {
    try {
      return await options.poll(reason);
    } catch (error) {
      log(`poll (${reason}) threw; counted as failed`, error);
      return 'failed';
    }
  };

  const beginPoll = (reason: PollReason): Promise<void> => {
    clearTimer();
    const ownGeneration = generation;
    const run = async () => {
      if (generation !== ownGeneration) return;
      const outcome = await attempt(reason);
      if (generation !== ownGeneration) return;
      consecutiveFailures = outcome === 'unreachable' ? consecutiveFailures + 1 : 0;
      arm();
    };
    // With nothing stale to wait for, the poll starts synchronously: "now" really is now.
    const promise: Promise<void> = (inFlight ? inFlight.promise.then(run) : run())
      .catch((error: unknown) => log('scheduling after a poll failed', error))
      .finally(() => {
        if (inFlight?.promise === promise) inFlight = null;
      });
    inFlight = { promise, generation: ownGeneration };
    return promise;
  };

  const refreshNow = (reason: PollReason = 'demand'): Promise<void> => {
    if (!running || paused) return Promise.resolve();
    if (inFlight && inFlight.generation === generation) return inFlight.promise;
    return beginPoll(reason);
  };

  return {
    start() {
      if (running) return;
      running = true;
      void refreshNow('start');
    },
    stop() {
      running = false;
      generation += 1;
      clearTimer();
    },
    refreshNow,
    pause() {
      if (paused) return;
      paused = true;
      generation += 1;
      clearTimer();
    },
    resume(reason) {
      paused = false;
      return refreshNow(reason);
    },
    get state(): PollerState {
      return { running, paused, consecutiveFailures, nextPollAt };
    },
  };
}
