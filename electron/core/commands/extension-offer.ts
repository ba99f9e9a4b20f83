/**
 * What Extend offers for a reservation: its next slot, as long as the resource accepts it (the
 * slot is reservable and free, the reservation stays within the resource's longest booking and the
 * resource is available), or why there is none. One GetSlots for one resource and one day, asked
 * only for the reservation the popover shows.
 */
import { DateTime } from 'luxon';
import { parseHumanDuration } from '../../api/durations.js';
import { ResourceStatus } from '../../api/schemas/resources.js';
import type { BridgeResult, ExtensionOffer, ReferenceRequest } from '../../bridge/contract.js';
import { durationWords } from '../../bridge/format.js';
import { bridgeErrorFromSession } from '../session/session-errors.js';
import { failure, invalidInput, success } from '../errors.js';
import { isoIn } from '../views/bridge-time.js';
import { resourceSlots } from '../views/resource-views.js';
import { summaryView } from '../views/reservation-view.js';
import { wireInstant } from '../../api/dates.js';
import type { WireSlots } from '../../api/wire.js';
import type { CommandLookups } from './command-lookups.js';
import { commandMessages, describeTime } from './command-messages.js';
import { queryDate } from './query-dates.js';

export const extensionMessages = {
  unknownReservation: 'Perch does not know this reservation yet; refresh and try again.',
  noSlotAfter: (name: string, time: string) => `${name} has no bookable time right after ${time}.`,
} as const;

export interface ExtensionFacts {
  name: string;
  start: DateTime;
  end: DateTime;
  /** The resource's longest booking in minutes; null for no limit. */
  maxLengthMinutes: number | null;
  zone: string;
}

/** The next slot after `end` in a GetSlots answer, judged against the resource's limits. Pure. */
export function offerFromSlots(slots: WireSlots, resourceId: number, facts: ExtensionFacts): ExtensionOffer {
  const { name, start, end, zone } = facts;
  const endMs = end.toMillis();
  const time = (instant: DateTime) => describeTime(instant, zone, end);
  const next = resourceSlots(slots, resourceId).find((slot) => slot.start.toMillis() === endMs);
  // A slot someone booked is not reservable either: being booked is the reason worth giving.
  if (next?.slot.isReserved) return { minutes: null, reason: commandMessages.bookedFrom(name, time(end)) };
  if (next === undefined || !next.slot.isReservable) return { minutes: null, reason: extensionMessages.noSlotAfter(name, time(end)) };
  const length = Math.round(next.end.diff(start, 'minutes').minutes);
  if (facts.maxLengthMinutes !== null && length > facts.maxLengthMinutes) {
    return { minutes: null, reason: commandMessages.tooLong(name, durationWords(facts.maxLengthMinutes)) };
  }
  return { minutes: Math.round(next.end.diff(end, 'minutes').minutes), end: isoIn(zone, next.end) };
}

export function createExtensionOffer(lookups: CommandLookups) {
  return async ({ referenceNumber }: ReferenceRequest): Promise<BridgeResult<ExtensionOffer>> => {
    const view = lookups.signedIn();
    if (!view.ok) return view;
    const { zone } = view.value;
    const summary = lookups.knownSummary(referenceNumber);
    const start = wireInstant(summary?.startDate);
    const end = wireInstant(summary?.endDate);
    if (summary === undefined || start === null || end === null) return failure(invalidInput(extensionMessages.unknownReservation));
    const name = summary.resourceName || 'The resource';
    // The views' own decision (the server's start-time rule among it), without asking the server.
    if (summaryView(summary, view.value)?.canChange !== true)
      return success({ minutes: null, reason: commandMessages.startedLocked('change') });
    const resource = await lookups.findResource(summary.resourceId);
    if (!resource.ok) return resource;
    if (resource.value.statusId !== ResourceStatus.available)
      return success({ minutes: null, reason: commandMessages.resourceUnavailable(name) });
    // The slot that starts at the end, on the user's day it starts in.
    const day = queryDate(end, zone);
    const slots = await lookups.run((client) =>
      client.getSlots({
        params: { scheduleId: resource.value.scheduleId },
        query: { resourceId: String(summary.resourceId), startDateTime: day, endDateTime: day },
      }),
    );
    if (!slots.ok) return failure(bridgeErrorFromSession(slots.error));
    return success(
      offerFromSlots(slots.value, summary.resourceId, {
        name,
        start,
        end,
        maxLengthMinutes: parseHumanDuration(resource.value.maxLength),
        zone,
      }),
    );
  };
}
