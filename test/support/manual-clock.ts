import { DateTime } from 'luxon';
import type { Clock, TimerHandle } from '../../electron/core/clock.js';
import type { Clock as ServiceClock } from '../../electron/service/clock.js';

/** The service's clock, moved by hand (session expiry, auto-release). */
export class ManualClock implements ServiceClock {
  constructor(private current: DateTime) {}
  now(): DateTime {
    return this.current;
  }
  set(to: DateTime): void {
    this.current = to;
  }
  advance(by: { minutes?: number; seconds?: number; hours?: number; days?: number }): void {
    this.current = this.current.plus(by);
  }
}

interface PendingTimer {
  handle: TimerHandle;
  dueMs: number;
  callback: () => void;
}

/** A clock that moves only when the test says so, firing due timers in order as it goes. */
export class ManualCoreClock implements Clock {
  private current: DateTime;
  private timers: PendingTimer[] = [];
  private nextId = 0;

  constructor(start: DateTime) {
    this.current = start;
  }

  now(): DateTime {
    return this.current;
  }

  setTimeout(callback: () => void, delayMs: number): TimerHandle {
    const handle = { id: this.nextId++ };
    this.timers.push({ handle, dueMs: this.current.toMillis() + Math.max(0, delayMs), callback });
    return handle;
  }

  clearTimeout(handle: TimerHandle): void {
    this.timers = this.timers.filter((timer) => timer.handle !== handle);
  }

  get pendingTimers(): number {
    return this.timers.length;
  }

  /**
   * Moves time forward as a machine asleep sees it: no timer runs meanwhile; those that fell due
   * are overdue, and run at the next `advance` (as a waking machine runs them at once).
   */
  sleep(by: { minutes?: number; hours?: number }): void {
    this.current = this.current.plus(by);
  }

  /**
   * Moves time forward, running each timer at its due moment; after each one the test's
   * `settle` (for example, waiting for the HTTP the timer started) runs before time moves on.
   */
  async advance(
    by: { milliseconds?: number; seconds?: number; minutes?: number; hours?: number },
    settle: () => Promise<void> = flushMicrotasks,
  ): Promise<void> {
    const target = this.current.plus(by).toMillis();
    for (;;) {
      const next = this.timers.filter((timer) => timer.dueMs <= target).sort((a, b) => a.dueMs - b.dueMs)[0];
      if (!next) break;
      this.timers = this.timers.filter((timer) => timer !== next);
      this.current = DateTime.fromMillis(Math.max(next.dueMs, this.current.toMillis()), { zone: this.current.zone });
      next.callback();
      await settle();
    }
    this.current = DateTime.fromMillis(target, { zone: this.current.zone });
  }
}

export const flushMicrotasks = () => new Promise<void>((resolve) => setImmediate(resolve));
