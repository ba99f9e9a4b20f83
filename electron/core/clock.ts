import { DateTime } from 'luxon';

export type TimerHandle = { readonly id: unknown };

/**
 * Time and timers for the core, injected so tests can run an hour of polling in a moment and
 * so nothing in the core reads the wall clock behind the tests' back.
 */
export interface Clock {
  now(): DateTime;
  setTimeout(callback: () => void, delayMs: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
}

export const systemClock: Clock = {
  now: () => DateTime.now(),
  setTimeout(callback, delayMs) {
    // Timers must never keep the app alive on their own, nor overflow Node's 32-bit delay.
    const timer = setTimeout(callback, Math.min(Math.max(0, delayMs), 2 ** 31 - 1));
    timer.unref();
    return { id: timer };
  },
  clearTimeout(handle) {
    clearTimeout(handle.id as NodeJS.Timeout);
  },
};
