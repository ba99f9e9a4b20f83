import { Settings } from 'luxon';

/**
 * Runs `read` while luxon takes `moment` (an ISO instant) for now. luxon starts its guess of a local
 * time's offset from the zone's offset now, so code that builds local times must be checked at
 * moments in both seasons to show that its answers do not depend on when it runs.
 */
export function withLuxonNow<T>(moment: string, read: () => T): T {
  const realNow = Settings.now;
  Settings.now = () => Date.parse(moment);
  try {
    return read();
  } finally {
    Settings.now = realNow;
  }
}

/** A moment in each season and on either side of a DST change (Europe's, 2027-03-28 01:00 UTC). */
export const readingMoments = [
  ['winter', '2027-01-15T12:00:00Z'],
  ['summer', '2027-07-15T12:00:00Z'],
  ['the minute before spring forward', '2027-03-28T00:59:00Z'],
  ['the minute after spring forward', '2027-03-28T01:01:00Z'],
] as const;
