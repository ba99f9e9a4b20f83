import type { Clock, TimerHandle } from '../../electron/core/clock.js';

/** One timer callback the core's clock ran: who set it (its source file under electron/) and when it fired. */
export interface WakeUp {
  label: string;
  atMs: number;
}

/** A timer set and not yet fired nor cleared. */
export interface PendingTimer {
  label: string;
  dueMs: number;
}

export interface WakeUpCounter {
  /** The clock to give the core: the one wrapped, with every timer it sets labelled and its firing recorded. */
  clock: Clock;
  /** The wake-ups since the last take, and starts afresh. */
  take(): WakeUp[];
  pending(): PendingTimer[];
}

/** The first frame of the stack in the app's own code, outside the clock: `core/sync/poller.ts`. */
function setterOf(stack: string | undefined): string {
  for (const line of (stack ?? '').split('\n').slice(1)) {
    const match = /\/electron\/(.+?\.ts):\d+/.exec(line);
    if (match && match[1] !== 'core/clock.ts') return match[1]!;
  }
  return 'unknown';
}

/**
 * Wraps the core's injected clock: each setTimeout is labelled by the core file that called it
 * (from the stack, once, when it is set) and each callback run is counted as a wake-up. A real
 * clock's timer is a wake-up of the process; on the bench's manual clock it is one simulated.
 */
export function countWakeUps(inner: Clock): WakeUpCounter {
  let fired: WakeUp[] = [];
  const live = new Map<TimerHandle, PendingTimer>();
  const clock: Clock = {
    now: () => inner.now(),
    setTimeout(callback, delayMs) {
      const label = setterOf(new Error().stack);
      const handle: TimerHandle = inner.setTimeout(() => {
        live.delete(handle);
        fired.push({ label, atMs: inner.now().toMillis() });
        callback();
      }, delayMs);
      live.set(handle, { label, dueMs: inner.now().toMillis() + Math.max(0, delayMs) });
      return handle;
    },
    clearTimeout(handle) {
      live.delete(handle);
      inner.clearTimeout(handle);
    },
  };
  return {
    clock,
    take() {
      const taken = fired;
      fired = [];
      return taken;
    },
    pending: () => [...live.values()],
  };
}
