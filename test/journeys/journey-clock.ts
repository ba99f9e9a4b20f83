/** Time for the journeys: the real clock, which a journey may have to wait on (check-in opens, a start passes). */
import { DateTime } from 'luxon';
import { systemClock, type Clock } from '../../electron/core/clock.js';

export interface JourneyClock extends Clock {
  /** Resolves once `moment` has come. */
  waitUntil(moment: DateTime): Promise<void>;
}

/** Against a real server: real time, real waits. */
export const realJourneyClock: JourneyClock = {
  ...systemClock,
  waitUntil: (moment) => new Promise((resolve) => setTimeout(resolve, Math.max(0, moment.toMillis() - Date.now()))),
};

/**
 * Real time that runs from `start` instead of today, for a local service sharing it: the journeys
 * can run in business hours whenever the tests run, and waiting jumps ahead instead of sleeping.
 */
export function shiftedJourneyClock(start: DateTime): JourneyClock & { now(): DateTime } {
  let shiftMs = start.toMillis() - Date.now();
  const now = () => DateTime.fromMillis(Date.now() + shiftMs, { zone: 'utc' });
  return {
    ...systemClock,
    now,
    async waitUntil(moment) {
      shiftMs += Math.max(0, moment.toMillis() - now().toMillis());
    },
  };
}
