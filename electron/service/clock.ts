import { DateTime } from 'luxon';

/** The service asks this for "now", so tests can move time (session expiry, auto-release). */
export interface Clock {
  now(): DateTime;
}

export const systemClock: Clock = { now: () => DateTime.utc() };
