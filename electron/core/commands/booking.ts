/**
 * Booking: the request is checked against what the server will demand (a free resource, length
 * limits, slot boundaries) so that the user learns it before anything is sent.
 */
import { DateTime } from 'luxon';
import { parseHumanDuration } from '../../api/durations.js';
import { ResourceStatus } from '../../api/schemas/resources.js';
import { formatWireDateTime } from '../../api/dates.js';
import type { BookingOutcome, BookRequest, BridgeError, BridgeResult } from '../../bridge/contract.js';
import type { CommandContext } from './command-context.js';
import type { CommandLookups } from './command-lookups.js';
import { commandMessages, describeMinutes, describeTime } from './command-messages.js';
import { failure, invalidInput, success, unexpected } from '../errors.js';
import { newBookingBody } from './reservation-body.js';
import { queryDate } from './query-dates.js';
import { bridgeErrorFromSession, type SessionError } from '../session/session-errors.js';
import { isTaken, nextFreeSpan, slotProblem, slotSpans, type BusySpan } from './slot-check.js';
import { isoIn } from '../views/bridge-time.js';
import { wireInstant } from '../../api/dates.js';
import type { WireSlots } from '../../api/wire.js';

/** The start of real servers' refusal of a booking that overlaps another (server-facts B). */
const conflictRefusal = 'There are conflicting reservations';

export const isConflict = (error: SessionError) =>
  error.kind === 'validation' && (error.errors ?? [error.message]).some((line) => line.startsWith(conflictRefusal));

/** The UI sends ISO 8601 with an offset; one without is read in the user's zone. */
export function readInstant(text: string, zone: string): DateTime | null {
  const parsed = DateTime.fromISO(text.trim(), { zone, setZone: true });
  return parsed.isValid ? parsed : null;
}

export function createBooking(
  context: CommandContext,
  lookups: CommandLookups,
): (request: BookRequest) => Promise<BridgeResult<BookingOutcome>> {
  const { run } = lookups;
  return async function book(request) {
    const view = lookups.signedIn();
    if (!view.ok) return view;
    const { zone } = view.value;
    const account = context.session.account!;
    const start = readInstant(request.start, zone);
    if (start === null) return failure(invalidInput(commandMessages.invalidStart));
    let end: DateTime | null;
    if (request.end !== undefined) {
      end = readInstant(request.end, zone);
      if (end === null) return failure(invalidInput(commandMessages.invalidEnd));
    } else if (request.durationMinutes !== undefined) {
      end = start.plus({ minutes: request.durationMinutes });
    } else {
      return failure(invalidInput(commandMessages.endOrDuration));
    }
    if (end.toMillis() <= start.toMillis()) return failure(invalidInput(commandMessages.endAfterStart));

    const resource = await lookups.findResource(request.resourceId);
    if (!resource.ok) return resource;
    const { name } = resource.value;
    if (resource.value.statusId !== ResourceStatus.available) return failure(invalidInput(commandMessages.resourceUnavailable(name)));
    // Servers apply length limits to everyone but administrators.
    if (!account.isAdmin) {
      const minutes = Math.round(end.diff(start, 'minutes').minutes);
      const min = parseHumanDuration(resource.value.minLength);
      const max = parseHumanDuration(resource.value.maxLength);
      if (min !== null && min > 0 && minutes < min) return failure(invalidInput(commandMessages.tooShort(name, describeMinutes(min))));
      if (max !== null && max > 0 && minutes > max) return failure(invalidInput(commandMessages.tooLong(name, describeMinutes(max))));
    }

    const slots = await run((client) =>
      client.getSlots({
        params: { scheduleId: resource.value.scheduleId },
        query: { resourceId: String(request.resourceId), startDateTime: queryDate(start, zone), endDateTime: queryDate(end, zone) },
      }),
    );
    if (!slots.ok) return failure(bridgeErrorFromSession(slots.error));
    if (isTaken(slots.value, request.resourceId, start, end))
      return failure(await clash(slots.value, request.resourceId, name, start, end, zone));
    const problem = slotProblem(slots.value, request.resourceId, start, end, name, zone);
    if (problem !== null) return failure(invalidInput(problem));

    const body = newBookingBody(request, start, end, zone, await context.reference.reservationAttributes());
    const created = await run((client) => client.createReservation({ body }));
    if (!created.ok) {
      // A POST that may have landed is not sent twice; an unreadable 2xx is no confirmation.
      if (created.error.kind === 'unexpectedBody') return failure(unexpected(commandMessages.bookingNotConfirmed));
      if (isConflict(created.error)) return failure(await clash(slots.value, request.resourceId, name, start, end, zone));
      return failure(bridgeErrorFromSession(created.error));
    }
    await context.sync.refreshReservations();
    return success({ referenceNumber: created.value.referenceNumber, isPendingApproval: created.value.isPendingApproval });
  };

  /**
   * Someone else holds the time asked for. The server's own words list dates in its format, which
   * help nobody; this says so plainly and offers the next time the same length is free that day,
   * from the day's slots already at hand and the resource's bookings from then on (one cheap request).
   */
  async function clash(
    slots: WireSlots,
    resourceId: number,
    name: string,
    start: DateTime,
    end: DateTime,
    zone: string,
  ): Promise<BridgeError> {
    const spans = slotSpans(slots, resourceId);
    const lastEndMs = Math.max(...spans.map((span) => span.endMs), end.toMillis());
    const busy: BusySpan[] = [];
    if (lastEndMs > end.toMillis()) {
      const listed = await run((client) =>
        client.getReservations({
          query: {
            resourceId: String(resourceId),
            startDateTime: formatWireDateTime(start.toUTC()),
            endDateTime: formatWireDateTime(DateTime.fromMillis(lastEndMs).toUTC()),
          },
        }),
      );
      // Without the list, no time is offered: one that may be taken too would only clash again.
      if (!listed.ok) return { kind: 'conflict', message: commandMessages.justTaken(name, null) };
      for (const summary of listed.value.reservations) {
        const from = wireInstant(summary.startDate);
        const until = wireInstant(summary.endDate);
        if (from !== null && until !== null) busy.push({ startMs: from.toMillis(), endMs: until.toMillis() });
      }
    }
    // The server said it is taken; a list that does not show it yet must not offer it again.
    if (!busy.some((held) => held.startMs < end.toMillis() && held.endMs > start.toMillis()))
      busy.push({ startMs: start.toMillis(), endMs: end.toMillis() });
    const next = nextFreeSpan(spans, busy, start.toMillis(), end.toMillis() - start.toMillis());
    if (next === null) return { kind: 'conflict', message: commandMessages.justTaken(name, null) };
    const nextStart = DateTime.fromMillis(next.startMs);
    return {
      kind: 'conflict',
      message: commandMessages.justTaken(name, describeTime(nextStart, zone, start)),
      nextFree: { start: isoIn(zone, nextStart), end: isoIn(zone, DateTime.fromMillis(next.endMs)) },
    };
  }
}
