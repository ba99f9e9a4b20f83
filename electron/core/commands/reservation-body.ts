/** The bodies sent to create and update reservations. */
import type { Static } from '@sinclair/typebox';
import type { DateTime } from 'luxon';
import { formatWireDateTime } from '../../api/dates.js';
import type { ReservationBody } from '../../api/schemas/reservations.js';
import type { BookRequest } from '../../bridge/contract.js';
import type { WireAttribute, WireReservation, WireSummary } from '../../api/wire.js';

export type WireReservationBody = Static<typeof ReservationBody>;
type AttributeInput = NonNullable<WireReservationBody['customAttributes']>[number];

/**
 * Every reservation attribute the server defines, with the value given or "" (no value): release
 * 2.8.6.1 answers a body that leaves one out with a 500 (server-facts D, releases). Values given
 * for attributes the list does not hold (it may be older than the server's) are kept as well.
 */
export function everyAttribute(given: readonly AttributeInput[], defined: readonly Pick<WireAttribute, 'id'>[]): AttributeInput[] {
  const values = new Map(given.map((attribute) => [attribute.attributeId, attribute.attributeValue ?? '']));
  const definedIds = new Set(defined.map((attribute) => attribute.id));
  return [
    ...defined.map((attribute) => ({ attributeId: attribute.id, attributeValue: values.get(attribute.id) ?? '' })),
    ...given
      .filter((attribute) => !definedIds.has(attribute.attributeId))
      .map((attribute) => ({ attributeId: attribute.attributeId, attributeValue: attribute.attributeValue ?? '' })),
  ];
}

/** A new booking of one resource, for the user alone. */
export function newBookingBody(
  request: BookRequest,
  start: DateTime,
  end: DateTime,
  zone: string,
  attributes: readonly WireAttribute[],
): WireReservationBody {
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
    customAttributes: everyAttribute(
      (request.customAttributes ?? []).map((attribute) => ({ attributeId: attribute.attributeId, attributeValue: attribute.value })),
      attributes,
    ),
    resourceId: request.resourceId,
    resources: [],
    startDateTime: formatWireDateTime(start.setZone(zone)),
    endDateTime: formatWireDateTime(end.setZone(zone)),
  };
}

/**
 * Everything a reservation is made of, so an update changes only what it means to change.
 * `attributes` are the server's reservation attributes; `isAdmin` whether the user administers it.
 */
export function fullBodyOf(
  detail: WireReservation,
  summary: WireSummary | undefined,
  attributes: readonly WireAttribute[],
  isAdmin: boolean,
): WireReservationBody {
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
    // What the reservation holds, and "" for the rest, except an admin-only attribute the read left
    // out: servers hide those from normal users, skip them when checking a normal user's body, and
    // would take "" as clearing the administrator's value.
    customAttributes: everyAttribute(
      detail.customAttributes.map((attribute) => ({ attributeId: attribute.id, attributeValue: attribute.value ?? '' })),
      attributes.filter(
        (attribute) => isAdmin || !attribute.adminOnly || detail.customAttributes.some((listed) => listed.id === attribute.id),
      ),
    ),
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
