/**
 * The user's own list as the server answers it: which span of time a poll asks about, how the
 * answer replaces what was known there, what a reservation read on its own changes in it (before a
 * notice about it, or after an action), and what left it.
 */
import type { DateTime } from 'luxon';
import { formatWireDateTime, wireInstant } from '../../api/dates.js';
import type { WireReservation, WireSummary } from '../../api/wire.js';
import type { Settings } from '../../bridge/contract.js';
import type { SessionResult } from '../session/session-errors.js';
import { unreachable, type AnswerTimer, type PollReads, type PollSession } from './poll-answers.js';

/** How far the list the user opens looks ahead (GetReservations' own default). */
const fullWindowDays = 14;

/** How many reservations gone from the list one poll asks about on their own (confirmVanished). */
const vanishedChecksPerPoll = 3;

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

/**
 * Asks for the user's own list over `window` and lays the answer over what the state knew there
 * (dropped when the account changed meanwhile). Gives the answer, and what left the list without
 * having ended: confirmVanished asks after those.
 */
export async function readOwnList(
  window: PollWindow,
  reads: PollReads,
): Promise<{ answer: SessionResult<unknown>; vanished: WireSummary[] }> {
  const { state, session, account, now, answers } = reads;
  const answer = await answers.timed(
    session.run((client) =>
      client.getReservations({
        query: {
          userId: String(account.userId),
          startDateTime: formatWireDateTime(window.from.toUTC()),
          endDateTime: formatWireDateTime(window.to.toUTC()),
        },
      }),
    ),
  );
  if (!answer.ok || session.account !== account) return { answer, vanished: [] };
  const listedBefore = state.data.reservations;
  state.data.reservations = mergeReservations(listedBefore, answer.value.reservations, window, now);
  state.data.fetchedAt = now;
  return { answer, vanished: notListed(listedBefore, state.data.reservations, now) };
}

/** One of the user's reservations, on its own (GetReservation). */
const askReservation = (session: PollSession, referenceNumber: string, answers: AnswerTimer) =>
  answers.timed(session.run((client) => client.getReservation({ params: { referenceNumber } })));

/**
 * The listed text of a time where the detail names the same instant: servers write GetReservation's
 * times in the user's offset and the list's in UTC, and the same reservation should stay the same.
 */
function sameTimeText<T extends string | null>(listed: T, detail: T): T {
  if (listed === detail || listed === null || detail === null) return detail;
  const listedMs = wireInstant(listed)?.toMillis();
  return listedMs !== undefined && listedMs === wireInstant(detail)?.toMillis() ? listed : detail;
}

/**
 * Folds what GetReservation said (after a check-in, check-out or extension, or read on its own
 * before a notice) into the listed summary, so the snapshot shows it before the next list.
 */
export function summaryUpdatedBy(summary: WireSummary, detail: WireReservation): WireSummary {
  return {
    ...summary,
    startDate: sameTimeText(summary.startDate, detail.startDate),
    endDate: sameTimeText(summary.endDate, detail.endDate),
    title: detail.title,
    requiresApproval: detail.requiresApproval,
    isRecurring: detail.isRecurring,
    checkInDate: sameTimeText(summary.checkInDate, detail.checkInDate),
    checkOutDate: sameTimeText(summary.checkOutDate, detail.checkOutDate),
    originalEndDate: sameTimeText(summary.originalEndDate, detail.originalEndDate),
  };
}

/**
 * Reads each of the user's reservations on its own before a notice about it (GetReservation): the
 * answer replaces what was listed, a 404 says it is gone — cancelled, or released by the server's
 * job. Each is marked asked in `askedAtMs` whatever the answer: a refusal is not asked again at
 * once. Gives the answers that were neither (refusals, server errors).
 */
export async function readListedReservations(
  referenceNumbers: readonly string[],
  reads: PollReads,
  askedAtMs: Map<string, number>,
): Promise<SessionResult<unknown>[] | 'accountChanged' | 'unreachable'> {
  const { state, session, account, now, answers } = reads;
  const results: SessionResult<unknown>[] = [];
  for (const referenceNumber of referenceNumbers) {
    askedAtMs.set(referenceNumber, now.toMillis());
    const answer = await askReservation(session, referenceNumber, answers);
    if (session.account !== account) return 'accountChanged';
    if (unreachable(answer)) return 'unreachable';
    const { reservations } = state.data;
    if (answer.ok) {
      state.data.reservations = reservations.map((summary) =>
        summary.referenceNumber === referenceNumber ? summaryUpdatedBy(summary, answer.value) : summary,
      );
    } else if (answer.error.kind === 'notFound') {
      state.data.reservations = reservations.filter((summary) => summary.referenceNumber !== referenceNumber);
    } else {
      results.push(answer);
    }
  }
  return results;
}

/** What was listed before, has not ended, and is listed no more. */
export function notListed(before: readonly WireSummary[], after: readonly WireSummary[], now: DateTime): WireSummary[] {
  const listed = new Set(after.map((summary) => summary.referenceNumber));
  const nowMs = now.toMillis();
  return before.filter(
    (summary) => !listed.has(summary.referenceNumber) && (wireInstant(summary.endDate)?.toMillis() ?? Number.NEGATIVE_INFINITY) > nowMs,
  );
}

/**
 * A reservation the list no longer holds may have moved out of its window rather than gone: each
 * (a few a poll) is asked on its own before its vanishing is news, and one still there is kept,
 * at its new time. Vanishing is rare, so this costs next to nothing.
 */
export async function confirmVanished(vanished: readonly WireSummary[], reads: PollReads): Promise<void> {
  const { state, session, account, answers } = reads;
  for (const summary of vanished.slice(0, vanishedChecksPerPoll)) {
    const answer = await askReservation(session, summary.referenceNumber, answers);
    if (session.account !== account) return;
    // Any other answer leaves it gone: the news of it is worded for what Perch cannot tell.
    if (answer.ok) state.data.reservations = [...state.data.reservations, summaryUpdatedBy(summary, answer.value)];
  }
}
