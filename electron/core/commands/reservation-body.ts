/** The bodies sent to create and update reservations. */
import type { Static } from '@sinclair/typebox';
import type { DateTime } from 'luxon';
import { formatWireDateTime } from '../../api/dates.js';
import type { ReservationBody } from '../../api/schemas/reservations.js';
import type { BookRequest } from '../../bridge.js';
import type { WireReservation, WireSummary } from '../views/state.js';

export type WireReservationBody = Static<typeof ReservationBody>;

/** A new booking of one resource, for the user alone. */
export function newBookingBody(request: BookRequest, start: DateTime, end: DateTime, zone: string): WireReservationBody {
  return {
    title: request.title,
    description: request.description ?? '',
    allowParticipation: false,
    termsAccepted: true,
    participants: [],
    invitees: [],
    participatingGuests: [],
    invitedGuests: [],
    accessories: [],
    customAttributes: (request.customAttributes ?? []).map((attribute) => ({ attributeId: attribute.attributeId, attributeValue: attribute.value })),
    resourceId: request.resourceId,
    resources: [],
    startDateTime: formatWireDateTime(start.setZone(zone)),
    endDateTime: formatWireDateTime(end.setZone(zone)),
  };
}

/** Everything a reservation is made of, so an update changes only what it means to change. */
export function fullBodyOf(detail: WireReservation, summary: WireSummary | undefined): WireReservationBody {
  const rule = detail.recurrenceRule;
  return {
    title: detail.title,
    description: detail.description,
    allowParticipation: detail.allowParticipation ?? false,
    termsAccepted: true,
    resourceId: detail.resourceId,
    resources: detail.resources.map((resource) => resource.id).filter((id) => id !== detail.resourceId),
    participants: detail.participants.map((person) => person.userId),
    invitees: detail.invitees.map((person) => person.userId),
    participatingGuests: summary?.participatingGuests ?? [],
    invitedGuests: summary?.invitedGuests ?? [],
    accessories: detail.accessories.map((accessory) => ({ accessoryId: accessory.id, quantityRequested: accessory.quantityReserved })),
    // GetReservation lists every reservation attribute, also ones limited to other resources,
    // which a server refuses to receive here; the values set are what the reservation holds.
    customAttributes: detail.customAttributes
      .filter((attribute) => attribute.value !== null && attribute.value !== '')
      .map((attribute) => ({ attributeId: attribute.id, attributeValue: attribute.value })),
    startReminder: detail.startReminder,
    endReminder: detail.endReminder,
    recurrenceRule: {
      type: rule.type,
      interval: rule.interval !== null && rule.interval >= 1 ? rule.interval : null,
      monthlyType: rule.monthlyType,
      weekdays: rule.weekdays,
      repeatTerminationDate: rule.repeatTerminationDate,
    },
    startDateTime: detail.startDate,
    endDateTime: detail.endDate,
  };
}
