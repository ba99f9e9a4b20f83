/**
 * Which occurrence stands for a whole series. Real servers delete only "this and later" when a
 * full-scope delete names a later occurrence (server-facts D), so removing a whole series means
 * naming its first remaining occurrence. The wire carries no series id: occurrences of one series
 * share their owner, resource, title and recurrence rule.
 */
import type { DateTime } from 'luxon';
import { formatWireDateTime } from '../../api/dates.js';
import type { CommandLookups } from './command-lookups.js';
import type { SessionResult } from '../session/session-errors.js';
import { wireInstant } from '../../api/dates.js';
import type { WireReservation } from '../../api/wire.js';

function sameSeries(one: WireReservation, other: WireReservation): boolean {
  const [a, b] = [one.recurrenceRule, other.recurrenceRule];
  const sameInstant = (x: string | null, y: string | null) =>
    x === null || y === null ? x === y : wireInstant(x)?.toMillis() === wireInstant(y)?.toMillis();
  return (
    one.owner.userId === other.owner.userId &&
    one.resourceId === other.resourceId &&
    one.title === other.title &&
    a.type === b.type &&
    a.interval === b.interval &&
    a.monthlyType === b.monthlyType &&
    JSON.stringify(a.weekdays ?? []) === JSON.stringify(b.weekdays ?? []) &&
    sameInstant(a.repeatTerminationDate, b.repeatTerminationDate)
  );
}

/** The reference of the series' earliest occurrence that has not ended; `picked` itself when none comes before it. */
export async function firstRemainingOccurrence(
  lookups: Pick<CommandLookups, 'run' | 'readBack'>,
  picked: WireReservation,
  now: DateTime,
): Promise<SessionResult<string>> {
  const start = wireInstant(picked.startDate);
  if (!picked.isRecurring || start === null || start.toMillis() <= now.toMillis()) return { ok: true, value: picked.referenceNumber };
  const listed = await lookups.run((client) =>
    client.getReservations({
      query: {
        userId: String(picked.owner.userId),
        resourceId: String(picked.resourceId),
        startDateTime: formatWireDateTime(now.toUTC()),
        endDateTime: formatWireDateTime(start.toUTC()),
      },
    }),
  );
  if (!listed.ok) return listed;
  const nowMs = now.toMillis();
  const earlier = listed.value.reservations
    .flatMap((summary) => {
      const from = wireInstant(summary.startDate)?.toMillis() ?? null;
      const until = wireInstant(summary.endDate)?.toMillis() ?? null;
      const candidate =
        summary.isRecurring &&
        summary.title === picked.title &&
        from !== null &&
        until !== null &&
        from < start.toMillis() &&
        until > nowMs;
      return candidate ? [{ referenceNumber: summary.referenceNumber, from }] : [];
    })
    .sort((a, b) => a.from - b.from);
  for (const { referenceNumber } of earlier) {
    const candidate = await lookups.readBack(referenceNumber);
    if (!candidate.ok) return candidate;
    if (sameSeries(candidate.value, picked)) return { ok: true, value: candidate.value.referenceNumber };
  }
  return { ok: true, value: picked.referenceNumber };
}
