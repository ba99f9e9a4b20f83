/**
 * Booking: the request is checked against what the server will demand (a free resource, length
 * limits, slot boundaries) so that the user learns it before anything is sent.
 */
import { DateTime } from 'luxon';
import { parseHumanDuration } from '../../api/durations.js';
import { ResourceStatus } from '../../api/schemas/resources.js';
import type { BookingOutcome, BookRequest, BridgeResult } from '../../bridge.js';
import type { CommandContext } from './command-context.js';
import type { CommandLookups } from './command-lookups.js';
import { commandMessages, describeMinutes } from './command-messages.js';
import { failure, invalidInput, success, unexpected } from '../errors.js';
import { newBookingBody } from './reservation-body.js';
import { bridgeErrorFromSession } from '../account/session.js';
import { slotProblem } from './slot-check.js';

/** The UI sends ISO 8601 with an offset; one without is read in the user's zone. */
function readInstant(text: string, zone: string): DateTime | null {
  const parsed = DateTime.fromISO(text.trim(), { zone, setZone: true });
  return parsed.isValid ? parsed : null;
}

export function createBooking(context: CommandContext, lookups: CommandLookups): (request: BookRequest) => Promise<BridgeResult<BookingOutcome>> {
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

    const slotZone = await lookups.scheduleZone(resource.value.scheduleId, zone);
    const slots = await run((client) =>
      client.getSlots({
        params: { scheduleId: resource.value.scheduleId },
        query: {
          resourceId: String(request.resourceId),
          startDateTime: start.setZone(slotZone).toISODate() ?? undefined,
          endDateTime: end.setZone(slotZone).toISODate() ?? undefined,
        },
      }),
    );
    if (!slots.ok) return failure(bridgeErrorFromSession(slots.error));
    const problem = slotProblem(slots.data, request.resourceId, start, end, name, zone);
    if (problem !== null) return failure(invalidInput(problem));

    const created = await run((client) => client.createReservation({ body: newBookingBody(request, start, end, zone) }));
    if (!created.ok) {
      // A POST that may have landed is not sent twice; an unreadable 2xx is no confirmation.
      if (created.error.kind === 'unexpectedBody') return failure(unexpected(commandMessages.bookingNotConfirmed));
      return failure(bridgeErrorFromSession(created.error));
    }
    await context.reservationsChanged();
    return success({ referenceNumber: created.data.referenceNumber, isPendingApproval: created.data.isPendingApproval });
  };
}
