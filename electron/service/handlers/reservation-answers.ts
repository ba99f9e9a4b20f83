import type { Static } from '@sinclair/typebox';
import { DateTime } from 'luxon';
import { formatWireDateTime } from '../../api/dates.js';
import type { Person, Reminder, Reservation } from '../../api/schemas/reservations.js';
import { isCheckInOpen, isCheckOutAllowed } from '../domain/check-in.js';
import { usableZone } from '../domain/query-dates.js';
import { readStoredRecurrenceRule, toWireRecurrenceRule } from '../domain/recurrence.js';
import { checkInState, mayChange } from '../store/occurrences.js';
import type { ZonedViewer } from '../store/permissions.js';
import type { ReservationDetails } from '../store/reservation-details.js';
import { inRole } from '../store/reservation-people.js';
import { ReservationRole } from '../tables.js';
import { customAttributeAnswers } from './custom-attribute-answers.js';
import type { LinkBuilder } from './types.js';

type WireReservation = Static<typeof Reservation>;
type WirePerson = Static<typeof Person>;
type WireReminder = Static<typeof Reminder>;

/** The envelope create, update, approve, check-in and check-out answer. */
export function reservationReference(links: LinkBuilder, referenceNumber: string, isPendingApproval: boolean, message: string) {
  return {
    referenceNumber,
    isPendingApproval,
    links: [
      links.to('getReservation', { referenceNumber }, 'get_reservation'),
      links.to('updateReservation', { referenceNumber }, 'update_reservation'),
    ],
    message,
  };
}

/** Reminders read back in the largest unit that divides them evenly. */
function reminderOf(minutes: number | null): WireReminder | null {
  if (minutes === null) return null;
  if (minutes > 0 && minutes % 1440 === 0) return { value: minutes / 1440, interval: 'days' };
  if (minutes > 0 && minutes % 60 === 0) return { value: minutes / 60, interval: 'hours' };
  return { value: minutes, interval: 'minutes' };
}

function personOf(links: LinkBuilder, person: { userId: number; firstName: string; lastName: string; emailAddress: string }): WirePerson {
  return {
    userId: person.userId,
    firstName: person.firstName,
    lastName: person.lastName,
    emailAddress: person.emailAddress,
    links: [links.to('getUser', { userId: person.userId }, 'get_user')],
    message: null,
  };
}

/**
 * The single form (GetReservation) in the viewer's timezone. `isCheckInAvailable` /
 * `isCheckoutAvailable` answer whether this viewer could check in or out right now, so a client
 * can offer the button as is.
 */
export function reservationAnswer(
  links: LinkBuilder,
  { row, people, resources, accessories, attributes }: ReservationDetails,
  viewer: ZonedViewer,
  nowMs: number,
  checkInOpensMinutes: number,
): WireReservation {
  const { referenceNumber } = row;
  const zone = usableZone(viewer.user.timezone);
  const local = (ms: number) => formatWireDateTime(DateTime.fromMillis(ms, { zone }));
  const optionalLocal = (ms: number | null) => (ms === null ? null : local(ms));
  const rule = readStoredRecurrenceRule(row.recurrence);
  const state = checkInState(row);
  const changeable = mayChange(viewer, row);
  const resourceEntry = (id: number, name: string) => ({
    id,
    name,
    type: null,
    groups: null,
    links: [links.to('getResource', { resourceId: id }, 'get_resource')],
    message: null,
  });
  return {
    referenceNumber,
    startDate: local(row.startAt),
    endDate: local(row.endAt),
    title: row.title,
    description: row.description,
    requiresApproval: row.isPendingApproval === 1,
    isRecurring: rule.type !== 'none',
    scheduleId: row.scheduleId,
    resourceId: row.resourceId,
    owner: personOf(links, {
      userId: row.ownerId,
      firstName: row.ownerFirstName,
      lastName: row.ownerLastName,
      emailAddress: row.ownerEmailAddress,
    }),
    participants: inRole(people, ReservationRole.participant).map((person) => personOf(links, person)),
    invitees: inRole(people, ReservationRole.invitee).map((person) => personOf(links, person)),
    customAttributes: customAttributeAnswers(links, attributes),
    recurrenceRule: toWireRecurrenceRule(rule),
    attachments: [],
    resources: [resourceEntry(row.resourceId, row.resourceName), ...resources.map((resource) => resourceEntry(resource.id, resource.name))],
    accessories: accessories.map((accessory) => ({
      id: accessory.id,
      name: accessory.name,
      quantityAvailable: accessory.quantityAvailable,
      quantityReserved: accessory.quantity,
      links: [],
      message: null,
    })),
    startReminder: reminderOf(row.startReminderMinutes),
    endReminder: reminderOf(row.endReminderMinutes),
    allowParticipation: row.allowParticipation === 1,
    checkInDate: optionalLocal(row.checkInAt),
    checkOutDate: optionalLocal(row.checkOutAt),
    originalEndDate: optionalLocal(row.originalEndAt),
    isCheckInAvailable: changeable && isCheckInOpen(state, nowMs, checkInOpensMinutes),
    isCheckoutAvailable: changeable && isCheckOutAllowed(state, nowMs),
    autoReleaseMinutes: row.autoReleaseMinutes,
    links: changeable ? [links.to('updateReservation', { referenceNumber }, 'update_reservation')] : [],
    message: null,
  };
}
