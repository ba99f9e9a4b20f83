import type { Static } from '@sinclair/typebox';
import type { DateTime } from 'luxon';
import { ResourceStatus, type AvailabilityItem } from '../../api/schemas/resources.js';
import { availabilityAt, availabilityHorizonDays, type HeldTime } from '../domain/availability.js';
import { readQueryDateTime, usableZone, wireFormatter } from '../domain/query-dates.js';
import { invalid, notFound } from '../errors.js';
import {
  bookingsByResource,
  everyOverlappingBooking,
  reservationOwners,
  visibleResourceState,
  visibleResourceStates,
  type ResourceState,
} from '../store/availability.js';
import type { Store } from '../store/database.js';
import { overlappingBookings } from '../store/reservations.js';
import type { Caller, HandlerMap, LinkBuilder } from './types.js';

type WireAvailabilityItem = Static<typeof AvailabilityItem>;

interface AskedTime {
  at: DateTime;
  horizon: DateTime;
  zone: string;
}

/**
 * The asked instant and the horizon, both in the caller's timezone. An omitted or empty dateTime
 * asks about now, as on real servers (clients that always send the parameter send it empty).
 */
function askedTime(dateTime: string | undefined, now: DateTime, caller: Caller): AskedTime {
  const zone = usableZone(caller.user.timezone);
  const at = dateTime === undefined || dateTime.trim() === '' ? now : readQueryDateTime(dateTime, zone);
  if (at === null) throw invalid(`Invalid dateTime: ${dateTime ?? ''}`);
  const local = at.setZone(zone);
  return { at: local, horizon: local.plus({ days: availabilityHorizonDays }), zone };
}

/** Availability items of `resources` from their bookings, with one more query for the reservations the items link to. */
async function presentAvailability(
  store: Store,
  links: LinkBuilder,
  resources: readonly ResourceState[],
  bookings: ReadonlyMap<number, readonly HeldTime[]>,
  asked: AskedTime,
): Promise<WireAvailabilityItem[]> {
  const at = asked.at.toMillis();
  const horizon = asked.horizon.toMillis();
  const answers = resources.map((resource) =>
    availabilityAt(bookings.get(resource.id) ?? [], at, horizon, resource.statusId === ResourceStatus.available),
  );
  const owners = await reservationOwners(
    store,
    answers.flatMap((answer) => (answer.reservationId === null ? [] : [answer.reservationId])),
  );
  const format = wireFormatter(asked.zone);
  const wire = (instant: number | null) => (instant === null ? null : format(instant));
  return resources.map((resource, index) => {
    const answer = answers[index]!;
    const reservation = answer.reservationId === null ? undefined : owners.get(answer.reservationId);
    return {
      available: answer.available,
      resource: {
        resourceId: resource.id,
        name: resource.name,
        scheduleId: resource.scheduleId,
        statusId: resource.statusId,
        statusReasonId: resource.statusReasonId,
        links: [
          links.to('getResource', { resourceId: resource.id }, 'get_resource'),
          links.to('getSchedule', { scheduleId: resource.scheduleId }, 'get_schedule'),
        ],
        message: null,
      },
      availableAt: wire(answer.availableAt),
      availableUntil: wire(answer.availableUntil),
      links: reservation
        ? [
            links.to('getUser', { userId: reservation.ownerId }, 'get_user'),
            links.to('getReservation', { referenceNumber: reservation.referenceNumber }, 'get_reservation'),
          ]
        : [],
      message: null,
    };
  });
}

/**
 * `availableAt`/`availableUntil` look 7 days ahead of `dateTime` and are in the caller's timezone.
 * A resource whose status is not Available (Unavailable, or Hidden as administrators see it)
 * answers `available: false` with both times null: it cannot be booked at any time.
 */
export const availabilityHandlers = {
  /** Every visible resource from one range scan over all bookings, never a query per resource. */
  async getAvailability({ query }, { store, clock, links, caller }) {
    const asked = askedTime(query.dateTime, clock.now(), caller);
    const [resources, bookings] = await Promise.all([
      visibleResourceStates(store, caller),
      everyOverlappingBooking(store, asked.at.toMillis(), asked.horizon.toMillis()),
    ]);
    const items = await presentAvailability(store, links, resources, bookingsByResource(bookings), asked);
    return { resources: items, links: [], message: null };
  },

  /** A resource the caller may not see answers as if it did not exist. */
  async getResourceAvailability({ params, query }, { store, clock, links, caller }) {
    const resource = await visibleResourceState(store, caller, params.resourceId);
    if (!resource) throw notFound();
    const asked = askedTime(query.dateTime, clock.now(), caller);
    const bookings = await overlappingBookings(store, [resource.id], asked.at.toMillis(), asked.horizon.toMillis());
    const items = await presentAvailability(store, links, [resource], new Map([[resource.id, bookings]]), asked);
    return { resources: items, links: [], message: null };
  },
} satisfies Pick<HandlerMap, 'getAvailability' | 'getResourceAvailability'>;
