/**
 * How soon the next poll comes: every poll interval (60 s by default) only near the user's own
 * events, every few minutes otherwise, and slower still while the server shows strain
 * (server-facts E). Pure: it takes the moment, the user's reservations and the settings.
 */
import type { DateTime } from 'luxon';
import type { Settings } from '../../bridge.js';
import type { PlannerReservation } from '../notifications/planner.js';

/** Away from the user's events: a reservation made elsewhere for 10 minutes ahead is still seen before its start reminder is late. */
export const farPeriodMinutes = 5;
/** A start, an end, check-in opening or an auto-release this close counts as near. */
export const nearEventMinutes = 5;
/**
 * After an auto-release moment the poll interval stays in force this long while the reservation
 * is still listed unchecked, so its release is reported within one interval of the server's job.
 */
export const releaseWatchMinutes = 10;
/** Servers open check-in this long before the start (server-facts C). */
const serverCheckInOpensMinutes = 5;
/** Each strained poll doubles the periods, up to 2^this. */
export const maxStrainLevel = 3;

const minuteMs = 60_000;

export type PollSettings = Pick<Settings, 'pollIntervalSeconds' | 'checkInLeadMinutes'>;

/** Spans of time, as epoch ms [from, to), in which the poll interval is in force. */
function nearSpans(reservation: PlannerReservation, settings: PollSettings): [number, number][] {
  const startMs = reservation.start.toMillis();
  const endMs = reservation.end.toMillis();
  const lead = nearEventMinutes * minuteMs;
  const spans: [number, number][] = [
    [startMs - lead, startMs + minuteMs],
    [endMs - lead, endMs + minuteMs],
  ];
  const awaitsCheckIn = reservation.requiresCheckIn && !reservation.checkedIn && !reservation.checkedOut && !reservation.isPendingApproval;
  if (awaitsCheckIn) {
    const opensMs = startMs - Math.max(settings.checkInLeadMinutes, serverCheckInOpensMinutes) * minuteMs;
    const releaseMs = reservation.autoReleaseMinutes === null ? null : startMs + reservation.autoReleaseMinutes * minuteMs;
    // The whole check-in window: a check-in made elsewhere must silence the release warning.
    spans.push([opensMs - lead, Math.min(endMs, releaseMs ?? endMs)]);
    if (releaseMs !== null && releaseMs < endMs) spans.push([releaseMs - lead, releaseMs + releaseWatchMinutes * minuteMs]);
  }
  return spans;
}

export interface PollDelay {
  delayMs: number;
  /** Whether the poll interval is in force (near an event) rather than the far period. */
  near: boolean;
}

/**
 * The wait before the next poll: the poll interval inside a near span, otherwise the far period
 * cut short where the next near span begins; both stretched by 2^strain while the server is
 * slow or failing.
 */
const farPeriodMs = (settings: PollSettings) => Math.max(settings.pollIntervalSeconds * 1000, farPeriodMinutes * minuteMs);

/** The longest wait there can be until the next poll: the far period, stretched as far as strain goes. */
export const longestWaitMs = (settings: PollSettings) => farPeriodMs(settings) * 2 ** maxStrainLevel;

export function nextPollDelay(now: DateTime, reservations: readonly PlannerReservation[], settings: PollSettings, strainLevel: number): PollDelay {
  const nowMs = now.toMillis();
  const nearMs = settings.pollIntervalSeconds * 1000;
  const farMs = farPeriodMs(settings);
  const stretch = 2 ** Math.min(Math.max(strainLevel, 0), maxStrainLevel);
  let nextNearMs = Number.POSITIVE_INFINITY;
  for (const reservation of reservations) {
    // Someone else's meeting asks nothing of the user's polls: its reminder is planned already.
    if (!reservation.owned || !reservation.start.isValid || !reservation.end.isValid) continue;
    for (const [fromMs, toMs] of nearSpans(reservation, settings)) {
      if (fromMs <= nowMs && nowMs < toMs) return { delayMs: nearMs * stretch, near: true };
      if (fromMs > nowMs) nextNearMs = Math.min(nextNearMs, fromMs);
    }
  }
  return { delayMs: Math.min(farMs * stretch, Math.max(nextNearMs - nowMs, nearMs)), near: false };
}
