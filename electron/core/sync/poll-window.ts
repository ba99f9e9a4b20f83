/** Which span of time a poll asks the server about, and how its answer replaces what was known there. */
import type { DateTime } from 'luxon';
import type { Settings } from '../../bridge/contract.js';
import { wireInstant } from '../../api/dates.js';
import type { WireSummary } from '../../api/wire.js';

/** How far the list the user opens looks ahead (GetReservations' own default). */
const fullWindowDays = 14;

export interface PollWindow {
  from: DateTime;
  to: DateTime;
}

export function fullWindow(now: DateTime): PollWindow {
  return { from: now, to: now.plus({ days: fullWindowDays }) };
}

/** The end of the user's tomorrow: the own list and the meetings read both cover the user's today and tomorrow. */
export const endOfTomorrow = (now: DateTime, zone: string): DateTime => now.setZone(zone).plus({ days: 1 }).endOf('day');

/**
 * Now to the end of tomorrow in the user's zone; further when the longest reminder lead plus
 * `aheadMs` (the longest wait until the next poll) reaches past that.
 */
export function narrowWindow(now: DateTime, zone: string, settings: Settings, known: readonly WireSummary[], aheadMs: number): PollWindow {
  const tomorrowEnds = endOfTomorrow(now, zone);
  const leads = [settings.startReminderMinutes, settings.endReminderMinutes, settings.checkInLeadMinutes];
  for (const summary of known) {
    if (summary.startReminder !== null) leads.push(summary.startReminder);
    if (summary.endReminder !== null) leads.push(summary.endReminder);
  }
  // A reservation must be listed before its reminder is due, one wait for the next poll ahead.
  const reach = now.plus({ minutes: Math.max(...leads), milliseconds: aheadMs });
  return { from: now, to: reach > tomorrowEnds ? reach : tomorrowEnds };
}

/** Replaces what the window covered with what the server listed there; keeps the rest that has not ended. */
export function mergeReservations(
  existing: readonly WireSummary[],
  fetched: readonly WireSummary[],
  window: PollWindow,
  now: DateTime,
): WireSummary[] {
  const fromMs = window.from.toMillis();
  const toMs = window.to.toMillis();
  const nowMs = now.toMillis();
  const listed = new Set(fetched.map((summary) => summary.referenceNumber));
  const kept = existing.filter((summary) => {
    if (listed.has(summary.referenceNumber)) return false;
    const start = wireInstant(summary.startDate)?.toMillis();
    const end = wireInstant(summary.endDate)?.toMillis();
    if (start === undefined || end === undefined || end <= nowMs) return false;
    return !(start < toMs && end > fromMs);
  });
  return [...kept, ...fetched];
}
