import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import type { TimerHandle } from '../../electron/core/clock.js';
import { backoffDelayMs, createPoller, type Poller, type PollOutcome, type PollReason } from '../../electron/core/sync/poller.js';
import { flushMicrotasks, ManualCoreClock } from '../support/manual-clock.js';

const start = DateTime.fromISO('2025-03-10T09:00:00', { zone: 'Europe/Berlin' });

/** Counts timers so a test can assert there was never more than one pending. */
class CountingClock extends ManualCoreClock {
  maxPending = 0;
  override setTimeout(callback: () => void, delayMs: number): TimerHandle {
    const handle = super.setTimeout(callback, delayMs);
    this.maxPending = Math.max(this.maxPending, this.pendingTimers);
    return handle;
  }
}

interface Call {
  reason: PollReason;
  atSeconds: number;
}

/**
 * A poll that records its calls and answers from a script (then `fallback`). `hold()` makes the
 * next call wait until the test settles it, to observe a poll in flight.
 */
function fakePoll(clock: ManualCoreClock, script: Array<PollOutcome | Error> = [], fallback: PollOutcome = 'ok') {
  const calls: Call[] = [];
  let active = 0;
  let maxActive = 0;
  let held: ((outcome: PollOutcome) => void) | null = null;
  let holdNext = false;
  const poll = async (reason: PollReason): Promise<PollOutcome> => {
    calls.push({ reason, atSeconds: clock.now().diff(start).as('seconds') });
    active += 1;
    maxActive = Math.max(maxActive, active);
    try {
      if (holdNext) {
        holdNext = false;
        return await new Promise<PollOutcome>((resolve) => (held = resolve));
      }
      const next = script.shift() ?? fallback;
      if (next instanceof Error) throw next;
      return next;
    } finally {
      active -= 1;
    }
  };
  return {
    poll,
    calls,
    get maxActive() {
      return maxActive;
    },
    hold() {
      holdNext = true;
    },
    release(outcome: PollOutcome) {
      const resolve = held;
      if (!resolve) throw new Error('no poll is being held');
      held = null;
      resolve(outcome);
    },
  };
}

function setup(
  options: { script?: Array<PollOutcome | Error>; fallback?: PollOutcome; intervalMs?: () => number; random?: () => number } = {},
) {
  const clock = new CountingClock(start);
  const fake = fakePoll(clock, options.script, options.fallback);
  const logged: string[] = [];
  const poller = createPoller({
    clock,
    intervalMs: options.intervalMs ?? (() => 60_000),
    poll: fake.poll,
    random: options.random ?? (() => 0.5),
    log: (message) => logged.push(message),
  });
  return { clock, fake, poller, logged };
}

const secondsUntilNextPoll = (poller: Poller, clock: ManualCoreClock) => poller.state.nextPollAt?.diff(clock.now()).as('seconds') ?? null;

const gaps = (calls: Call[]) => calls.slice(1).map((call, index) => call.atSeconds - calls[index]!.atSeconds);

describe('the normal schedule', () => {
  it('polls at start, then every interval: 60 polls an hour with exactly one timer pending', async () => {
    const { clock, fake, poller } = setup();
    poller.start();
    await flushMicrotasks();
    expect(fake.calls).toEqual([{ reason: 'start', atSeconds: 0 }]);
    expect(poller.state).toEqual({ running: true, paused: false, consecutiveFailures: 0, nextPollAt: start.plus({ seconds: 60 }) });

    for (let minute = 1; minute <= 60; minute += 1) {
      await clock.advance({ minutes: 1 });
      expect(clock.pendingTimers).toBe(1);
    }
    const intervalCalls = fake.calls.filter((call) => call.reason === 'interval');
    expect(intervalCalls).toHaveLength(60);
    expect(intervalCalls.map((call) => call.atSeconds)).toEqual(Array.from({ length: 60 }, (_, index) => (index + 1) * 60));
    expect(clock.maxPending).toBe(1);
    expect(fake.maxActive).toBe(1);
  });

  it('reads the interval at every scheduling, so a change applies from the next tick', async () => {
    let interval = 60_000;
    const { clock, fake, poller } = setup({ intervalMs: () => interval });
    poller.start();
    await flushMicrotasks();
    await clock.advance({ seconds: 30 });
    interval = 120_000;
    // The timer already armed keeps its time; the one after it uses the new interval.
    expect(secondsUntilNextPoll(poller, clock)).toBe(30);
    await clock.advance({ seconds: 30 + 120 + 120 });
    expect(fake.calls.map((call) => call.atSeconds)).toEqual([0, 60, 180, 300]);
    expect(secondsUntilNextPoll(poller, clock)).toBe(120);
  });

  it('keeps the normal interval after a poll that failed with the server reachable', async () => {
    const { clock, fake, poller } = setup({ script: ['failed', 'failed', 'ok'] });
    poller.start();
    await flushMicrotasks();
    await clock.advance({ minutes: 3 });
    expect(gaps(fake.calls)).toEqual([60, 60, 60]);
    expect(poller.state.consecutiveFailures).toBe(0);
  });

  it('never schedules faster than a second, whatever the interval setting says', async () => {
    const { clock, fake, poller, logged } = setup({ intervalMs: () => 0 });
    poller.start();
    await flushMicrotasks();
    await clock.advance({ seconds: 10 });
    expect(fake.calls).toHaveLength(11);
    expect(clock.maxPending).toBe(1);

    const broken = setup({ intervalMs: () => Number.NaN });
    broken.poller.start();
    await flushMicrotasks();
    await broken.clock.advance({ minutes: 2 });
    expect(broken.fake.calls.map((call) => call.atSeconds)).toEqual([0, 60, 120]);
    expect(broken.logged[0]).toBe('interval is not a number; using the default');
    expect(logged).toEqual([]);
  });
});

describe('backoff while the server is unreachable', () => {
  it('doubles from 5 s with ±25% jitter (pinned to the middle here), up to the 5 min cap', async () => {
    const { clock, fake, poller } = setup({ fallback: 'unreachable' });
    poller.start();
    await flushMicrotasks();
    expect(poller.state.consecutiveFailures).toBe(1);
    expect(secondsUntilNextPoll(poller, clock)).toBe(5);

    await clock.advance({ minutes: 30 });
    // With random() = 0.5 the uncapped delays are the nominal ones; at the cap the range is
    // [225 s, 300 s], whose middle is 262.5 s.
    expect(gaps(fake.calls).slice(0, 9)).toEqual([5, 10, 20, 40, 80, 160, 262.5, 262.5, 262.5]);
    expect(fake.calls.slice(1).every((call) => call.reason === 'interval')).toBe(true);
    expect(clock.maxPending).toBe(1);
  });

  it('never waits longer than the cap, even with the highest draw', async () => {
    const { clock, fake, poller } = setup({ fallback: 'unreachable', random: () => 0.999_999 });
    poller.start();
    await flushMicrotasks();
    await clock.advance({ hours: 2 });
    const delays = gaps(fake.calls);
    expect(delays.slice(0, 6)).toEqual([5, 10, 20, 40, 80, 160].map((nominal) => expect.closeTo(nominal * 1.25, 3)));
    expect(Math.max(...delays)).toBeLessThanOrEqual(300);
    expect(delays.at(-1)).toBeCloseTo(300, 3);
  });

  it('uses the lowest draw as ¾ of the nominal delay, and honours custom first and max delays', async () => {
    const clock = new ManualCoreClock(start);
    const fake = fakePoll(clock, [], 'unreachable');
    const poller = createPoller({
      clock,
      intervalMs: () => 60_000,
      poll: fake.poll,
      random: () => 0,
      backoff: { firstMs: 2_000, maxMs: 30_000 },
    });
    poller.start();
    await flushMicrotasks();
    await clock.advance({ minutes: 5 });
    expect(gaps(fake.calls).slice(0, 6)).toEqual([1.5, 3, 6, 12, 22.5, 22.5]);
  });

  it('resets after the first success', async () => {
    const { clock, fake, poller } = setup({ script: ['unreachable', 'unreachable', 'unreachable', 'ok', 'unreachable', 'failed'] });
    poller.start();
    await flushMicrotasks();
    await clock.advance({ seconds: 5 + 10 });
    expect(poller.state.consecutiveFailures).toBe(3);
    expect(secondsUntilNextPoll(poller, clock)).toBe(20);
    await clock.advance({ seconds: 20 });
    expect(poller.state.consecutiveFailures).toBe(0);
    expect(secondsUntilNextPoll(poller, clock)).toBe(60);
    await clock.advance({ seconds: 60 });
    expect(poller.state.consecutiveFailures).toBe(1);
    expect(secondsUntilNextPoll(poller, clock)).toBe(5);
    // 'failed' means the server answered: the backoff is over too.
    await clock.advance({ seconds: 5 });
    expect(poller.state.consecutiveFailures).toBe(0);
    expect(gaps(fake.calls)).toEqual([5, 10, 20, 60, 5]);
    expect(secondsUntilNextPoll(poller, clock)).toBe(60);
  });

  it('spreads retries over the whole jitter range and never outside it', () => {
    // A small deterministic generator (mulberry32) so the spread is checked on a fixed sequence.
    let seed = 0x5eed;
    const random = () => {
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
    };
    for (let failures = 1; failures <= 10; failures += 1) {
      const nominal = Math.min(5_000 * 2 ** (failures - 1), 300_000);
      const low = nominal * 0.75;
      const high = Math.min(nominal * 1.25, 300_000);
      const draws = Array.from({ length: 5_000 }, () => backoffDelayMs(failures, random()));
      expect(Math.min(...draws)).toBeGreaterThanOrEqual(low);
      expect(Math.max(...draws)).toBeLessThanOrEqual(high);
      // Both ends of the range are reached (within 1%), and the draws are spread, not bunched.
      expect(Math.min(...draws)).toBeLessThan(low + (high - low) * 0.01);
      expect(Math.max(...draws)).toBeGreaterThan(high - (high - low) * 0.01);
      const lowerHalf = draws.filter((delay) => delay < (low + high) / 2).length;
      expect(lowerHalf / draws.length).toBeGreaterThan(0.45);
      expect(lowerHalf / draws.length).toBeLessThan(0.55);
    }
  });
});

describe('pause and resume', () => {
  it('neither polls nor arms a timer while paused, and polls at once on resume', async () => {
    const { clock, fake, poller } = setup();
    poller.start();
    await flushMicrotasks();
    await clock.advance({ seconds: 90 });
    poller.pause();
    expect(clock.pendingTimers).toBe(0);
    expect(poller.state).toEqual({ running: true, paused: true, consecutiveFailures: 0, nextPollAt: null });

    await poller.refreshNow();
    await clock.advance({ hours: 1 });
    expect(fake.calls.map((call) => call.atSeconds)).toEqual([0, 60]);
    expect(clock.pendingTimers).toBe(0);

    await poller.resume('unlock');
    expect(fake.calls.at(-1)).toEqual({ reason: 'unlock', atSeconds: 90 + 3_600 });
    expect(poller.state.paused).toBe(false);
    expect(secondsUntilNextPoll(poller, clock)).toBe(60);
    await clock.advance({ minutes: 2 });
    expect(fake.calls.map((call) => call.reason)).toEqual(['start', 'interval', 'unlock', 'interval', 'interval']);
  });

  it('does not let a poll from before the pause overlap the one after the resume', async () => {
    const { clock, fake, poller } = setup();
    fake.hold();
    poller.start();
    await flushMicrotasks();
    poller.pause();
    const resumed = poller.resume('resume');
    await flushMicrotasks();
    // The resume poll waits for the old one instead of joining its stale result or overlapping it.
    expect(fake.calls).toHaveLength(1);
    fake.release('unreachable');
    await resumed;
    expect(fake.calls.map((call) => call.reason)).toEqual(['start', 'resume']);
    expect(fake.maxActive).toBe(1);
    // The old poll's outcome no longer counts: the schedule follows the resume poll ('ok').
    expect(poller.state.consecutiveFailures).toBe(0);
    expect(secondsUntilNextPoll(poller, clock)).toBe(60);
    expect(clock.pendingTimers).toBe(1);
  });

  it('stays paused across start, and polls on resume even when it was not paused', async () => {
    const { clock, fake, poller } = setup();
    poller.pause();
    poller.start();
    await flushMicrotasks();
    await clock.advance({ minutes: 5 });
    expect(fake.calls).toEqual([]);
    await poller.resume('resume');
    await poller.resume('resume');
    expect(fake.calls.map((call) => call.reason)).toEqual(['resume', 'resume']);
    expect(clock.pendingTimers).toBe(1);
  });
});

describe('refresh on demand', () => {
  it('polls at once and re-arms the timer from then on', async () => {
    const { clock, fake, poller } = setup();
    poller.start();
    await flushMicrotasks();
    await clock.advance({ seconds: 40 });
    await poller.refreshNow();
    expect(fake.calls.at(-1)).toEqual({ reason: 'demand', atSeconds: 40 });
    expect(secondsUntilNextPoll(poller, clock)).toBe(60);
    expect(clock.pendingTimers).toBe(1);
    await poller.refreshNow('resume');
    expect(fake.calls.at(-1)?.reason).toBe('resume');
  });

  it('coalesces with the poll already running', async () => {
    const { clock, fake, poller } = setup();
    poller.start();
    await flushMicrotasks();
    fake.hold();
    const first = poller.refreshNow();
    const second = poller.refreshNow();
    const third = poller.refreshNow('resume');
    expect(second).toBe(first);
    expect(third).toBe(first);
    await flushMicrotasks();
    expect(fake.calls.map((call) => call.reason)).toEqual(['start', 'demand']);
    expect(clock.pendingTimers).toBe(0);
    expect(poller.state.nextPollAt).toBeNull();

    await clock.advance({ seconds: 7 });
    fake.release('ok');
    await first;
    expect(fake.calls).toHaveLength(2);
    expect(secondsUntilNextPoll(poller, clock)).toBe(60);
    expect(clock.pendingTimers).toBe(1);
  });

  it('does nothing before start or after stop', async () => {
    const { clock, fake, poller } = setup();
    await poller.refreshNow();
    poller.start();
    poller.stop();
    await clock.advance({ minutes: 5 });
    await poller.refreshNow();
    expect(fake.calls.map((call) => call.reason)).toEqual(['start']);
    expect(clock.pendingTimers).toBe(0);
  });
});

describe('stop', () => {
  it('clears the timer and ignores the outcome of the poll in flight', async () => {
    const { clock, fake, poller } = setup({ fallback: 'unreachable' });
    poller.start();
    await flushMicrotasks();
    await clock.advance({ seconds: 5 });
    expect(poller.state.consecutiveFailures).toBe(2);
    fake.hold();
    await clock.advance({ seconds: 10 });
    expect(fake.calls).toHaveLength(3);

    poller.stop();
    fake.release('unreachable');
    await flushMicrotasks();
    expect(poller.state).toEqual({ running: false, paused: false, consecutiveFailures: 2, nextPollAt: null });
    expect(clock.pendingTimers).toBe(0);
    await clock.advance({ hours: 1 });
    expect(fake.calls).toHaveLength(3);
  });

  it('restarts after the stale poll settles, never alongside it', async () => {
    const { clock, fake, poller } = setup({ script: ['ok'] });
    poller.start();
    await flushMicrotasks();
    fake.hold();
    const pending = poller.refreshNow();
    poller.stop();
    poller.start();
    await flushMicrotasks();
    expect(fake.calls).toHaveLength(2);
    fake.release('unreachable');
    await pending;
    await flushMicrotasks();
    expect(fake.calls.map((call) => call.reason)).toEqual(['start', 'demand', 'start']);
    expect(fake.maxActive).toBe(1);
    expect(poller.state.consecutiveFailures).toBe(0);
    expect(clock.pendingTimers).toBe(1);
  });
});

describe('a poll that throws', () => {
  it('is logged and counted as failed, and the schedule goes on', async () => {
    const { clock, fake, poller, logged } = setup({ script: [new Error('boom'), 'unreachable', new Error('boom again')] });
    poller.start();
    await flushMicrotasks();
    expect(logged).toEqual(['poll (start) threw; counted as failed']);
    expect(poller.state.consecutiveFailures).toBe(0);
    expect(secondsUntilNextPoll(poller, clock)).toBe(60);

    await clock.advance({ seconds: 60 + 5 });
    expect(logged).toHaveLength(2);
    expect(poller.state.consecutiveFailures).toBe(0);
    expect(gaps(fake.calls)).toEqual([60, 5]);
    expect(clock.pendingTimers).toBe(1);
  });

  it('survives a poll that throws synchronously', async () => {
    const clock = new ManualCoreClock(start);
    const logged: unknown[] = [];
    let calls = 0;
    const poller = createPoller({
      clock,
      intervalMs: () => 60_000,
      poll: () => {
        calls += 1;
        throw new TypeError('not even a promise');
      },
      log: (_message, error) => logged.push(error),
    });
    poller.start();
    await flushMicrotasks();
    await clock.advance({ minutes: 2 });
    expect(calls).toBe(3);
    expect(logged).toHaveLength(3);
    expect(logged[0]).toBeInstanceOf(TypeError);
    expect(clock.pendingTimers).toBe(1);
  });
});
