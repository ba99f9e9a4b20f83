/** The user's own list as the server answers it: what a reservation read on its own changes in it, and what left it. */
import type { DateTime } from 'luxon';
import { wireInstant } from '../../api/dates.js';
import type { WireReservation, WireSummary } from '../../api/wire.js';

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
  return before.filter((summary) => !listed.has(summary.referenceNumber) && (wireInstant(summary.endDate)?.toMillis() ?? Number.NEGATIVE_INFINITY) > nowMs);
}

