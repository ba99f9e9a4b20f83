import type { Static } from '@sinclair/typebox';
import { formatHoursAndMinutes } from '../../api/durations.js';
import type { ReservationSummary } from '../../api/schemas/reservations.js';
import { contrastingTextColor } from '../domain/colors.js';
import { formatWireUtc as wireUtc } from '../domain/query-dates.js';
import { readStoredRecurrenceRule } from '../domain/recurrence.js';
import { listOccurrences, type ListedOccurrence, type ReservationFilter } from '../store/occurrence-lists.js';
import { mayChange, type OccurrenceRow } from '../store/occurrences.js';
import { inRole, type SeriesGuest, type SeriesPerson } from '../store/reservation-people.js';
import type { Store } from '../store/database.js';
import { ReservationRole } from '../tables.js';
import type { LinkBuilder } from './types.js';

type WireSummary = Static<typeof ReservationSummary>;

/** Given and family name, an empty one left out. */
export const fullName = (first: string, last: string) => [first, last].filter((part) => part !== '').join(' ');

/** Names keyed by user id, as real servers list who takes part and who is invited (server-facts C). */
const namesIn = (people: readonly SeriesPerson[] | undefined, role: number): Record<string, string> =>
  Object.fromEntries(inRole(people, role).map((person) => [String(person.userId), fullName(person.firstName, person.lastName)]));
const emailsIn = (guests: readonly SeriesGuest[] | undefined, role: number) =>
  guests ? inRole(guests, role).map((guest) => guest.email) : [];

/** Durations are shown in whole minutes; a check-out time on a second boundary rounds down. */
const minutesBetween = (from: number, to: number) => Math.max(0, Math.floor((to - from) / 60_000));

const bufferMs = (row: OccurrenceRow) => (row.bufferTime ?? 0) * 60_000;

const recurringByRule = new Map<string, boolean>();

/** Stored rules repeat across a list's rows (most are `none`); each is parsed once. */
function isRecurring(recurrence: string): boolean {
  let recurring = recurringByRule.get(recurrence);
  if (recurring === undefined) {
    recurring = readStoredRecurrenceRule(recurrence).type !== 'none';
    if (recurringByRule.size >= 10_000) recurringByRule.clear();
    recurringByRule.set(recurrence, recurring);
  }
  return recurring;
}

function summaryAnswer(links: LinkBuilder, { row, people, guests }: ListedOccurrence, changeable: boolean): WireSummary {
  const { referenceNumber } = row;
  return {
    referenceNumber,
    startDate: wireUtc(row.startAt),
    endDate: wireUtc(row.endAt),
    firstName: row.ownerFirstName,
    lastName: row.ownerLastName,
    resourceName: row.resourceName,
    title: row.title,
    description: row.description,
    requiresApproval: row.isPendingApproval === 1,
    isRecurring: isRecurring(row.recurrence),
    scheduleId: row.scheduleId,
    userId: row.ownerId,
    resourceId: row.resourceId,
    duration: formatHoursAndMinutes(minutesBetween(row.startAt, row.endAt)),
    bufferTime: row.bufferTime ? formatHoursAndMinutes(row.bufferTime) : '',
    bufferedStartDate: wireUtc(row.startAt - bufferMs(row)),
    bufferedEndDate: wireUtc(row.endAt + bufferMs(row)),
    participants: namesIn(people, ReservationRole.participant),
    invitees: namesIn(people, ReservationRole.invitee),
    participatingGuests: emailsIn(guests, ReservationRole.participant),
    invitedGuests: emailsIn(guests, ReservationRole.invitee),
    startReminder: row.startReminderMinutes,
    endReminder: row.endReminderMinutes,
    color: row.color,
    textColor: contrastingTextColor(row.color),
    checkInDate: row.checkInAt === null ? null : wireUtc(row.checkInAt),
    checkOutDate: row.checkOutAt === null ? null : wireUtc(row.checkOutAt),
    originalEndDate: row.originalEndAt === null ? null : wireUtc(row.originalEndAt),
    isCheckInEnabled: row.requiresCheckIn === 1,
    autoReleaseMinutes: row.autoReleaseMinutes,
    resourceStatusId: row.resourceStatusId,
    creditsConsumed: row.creditsConsumed,
    links: [
      links.to('getReservation', { referenceNumber }, 'get_reservation'),
      ...(changeable ? [links.to('updateReservation', { referenceNumber }, 'update_reservation')] : []),
      links.to('getUser', { userId: row.ownerId }, 'get_user'),
    ],
    message: null,
  };
}

/**
 * Reservation summaries (GetReservations, slots) of every occurrence matching `filter`, keyed by
 * reservation id in start order. The update link shows where the filter's viewer may change the
 * reservation; without a viewer, on every one.
 */
export async function summariesById(store: Store, links: LinkBuilder, filter: ReservationFilter): Promise<Map<number, WireSummary>> {
  const { viewer } = filter;
  const listed = await listOccurrences(store, filter);
  return new Map(
    listed.map((occurrence) => [
      occurrence.row.reservationId,
      summaryAnswer(links, occurrence, viewer === undefined || mayChange(viewer, occurrence.row)),
    ]),
  );
}
