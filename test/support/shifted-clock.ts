import { DateTime } from 'luxon';
import { systemClock, type Clock } from '../../electron/core/clock.js';

export type ShiftedClock = Clock & { readonly offsetMs: number };

/**
 * Real time moving at real speed, shifted so that it starts at `start`: for a test on real timers
 * or across processes that needs a particular moment (an open office) whatever the real hour.
 */
export function shiftedClock(start: DateTime): ShiftedClock {
  const offsetMs = start.toMillis() - Date.now();
  return { ...systemClock, offsetMs, now: () => DateTime.fromMillis(Date.now() + offsetMs) };
}
