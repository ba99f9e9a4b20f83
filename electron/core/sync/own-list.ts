/** The user's own list as the server answers it: what a reservation read on its own changes in it, and what left it. */
import type { DateTime } from 'luxon';
import { wireInstant } from '../../api/dates.js';
import type { WireReservation, WireSummary } from '../../api/wire.js';
import type { CoreState } from '../core-state.js';
import type { AccountIdentity } from '../session/account-identity.js';
import type { AccountSession } from '../session/session.js';
import type { AnswerTimer } from './poll-answers.js';

/** How many reservations gone from the list one poll asks about on their own (confirmVanished). */
const vanishedChecksPerPoll = 3;

type Session = Pick<AccountSession, 'account' | 'run'>;

/** One of the user's reservations, on its own (GetReservation). */
export const askReservation = (session: Session, referenceNumber: string, answers: AnswerTimer) =>
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
export async function confirmVanished(
  vanished: readonly WireSummary[],
  state: CoreState,
  session: Session,
  account: AccountIdentity,
  answers: AnswerTimer,
): Promise<void> {
  for (const summary of vanished.slice(0, vanishedChecksPerPoll)) {
    const answer = await askReservation(session, summary.referenceNumber, answers);
    if (session.account !== account) return;
    // Any other answer leaves it gone: the news of it is worded for what Perch cannot tell.
    if (answer.ok) state.data.reservations = [...state.data.reservations, summaryUpdatedBy(summary, answer.value)];
  }
}
