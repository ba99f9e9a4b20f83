import { DateTime } from 'luxon';

/** The service asks this for "now", so tests can move time (session expiry, auto-release). */
export interface Clock {
  now(): DateTime;
}

export const systemClock: Clock = { now: () => DateTime.utc() };

export class ManualClock implements Clock {
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
