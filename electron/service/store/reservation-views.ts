import type { Static } from '@sinclair/typebox';
import { sql } from 'kysely';
import { DateTime } from 'luxon';
import { formatWireDateTime } from '../../api/dates.js';
import { formatHoursAndMinutes } from '../../api/durations.js';
import { AttributeCategory } from '../../api/schemas/attributes.js';
import type { Person, Reminder, Reservation, ReservationSummary } from '../../api/schemas/reservations.js';
import type { ServiceConfig } from '../config.js';
import { isCheckInOpen, isCheckOutAllowed, type CheckInState } from '../domain/check-in.js';
import { readStoredRecurrenceRule, toWireRecurrenceRule } from '../domain/recurrence.js';
import { contrastingTextColor } from '../domain/colors.js';
import { formatWireUtc as wireUtc, usableZone } from '../domain/query-dates.js';
import type { LinkBuilder } from '../handlers/types.js';
import { readAttributeValues } from './attribute-values.js';
import { onConnection, selectRecords, type Connection, type Store } from './database.js';
import { visibleResourceIds, type Viewer } from './permissions.js';
import { longestBookingMs } from './reservations.js';
import { ReservationRole } from './tables.js';

type WireSummary = Static<typeof ReservationSummary>;
type WireReservation = Static<typeof Reservation>;
type WirePerson = Static<typeof Person>;
type WireReminder = Static<typeof Reminder>;

/** Which occurrences a list shows. */
export interface ReservationFilter {
  /** Epoch ms; an occurrence is in the window when it overlaps [from, to). */
  from: number;
  to: number;
  /** Owned by, or participating in. */
  userId?: number;
  /** Occupying this resource, as the primary one or an additional one. */
  resourceId?: number;
  /** On a primary resource of this schedule. */
  scheduleId?: number;
  reservationIds?: readonly number[];
  /**
   * Resources the viewer is already known to see (a schedule's, for its slots). Occurrences on
   * them pass the viewer's check without SQLite first working out every resource the viewer may
   * see, which it then does only if an occurrence is on another one.
   */
  resourcesSeen?: readonly number[];
  /**
   * Limits the list to what this caller may see and decides the update link. Absent: everything,
   * with update links (for callers that already decided who may see what).
   */
  viewer?: Viewer;
}

/** Ids as one bound parameter, read back with `json_each`: a list of hundreds costs nothing to bind. */
const jsonIds = (ids: readonly number[]) => JSON.stringify(ids);

/** Ids as one bound parameter, for `where(column, 'in', …)`. */
const idList = (ids: readonly number[]) => sql<number>`(SELECT value FROM json_each(${jsonIds(ids)}))`;

/** Occurrences with their series, owner, primary resource and its schedule: one row each. */
function occurrences(store: Store) {
  return store
    .selectFrom('reservations')
    .innerJoin('reservationSeries', 'reservationSeries.id', 'reservations.seriesId')
    .innerJoin('users', 'users.id', 'reservationSeries.ownerId')
    .innerJoin('resources', 'resources.id', 'reservationSeries.resourceId')
    .innerJoin('schedules', 'schedules.id', 'resources.scheduleId')
    .select([
      'reservations.id as reservationId',
      'reservations.referenceNumber',
      'reservations.startAt',
      'reservations.endAt',
      'reservations.originalEndAt',
      'reservations.checkInAt',
      'reservations.checkOutAt',
      'reservations.creditsConsumed',
      'reservations.seriesId',
      'reservationSeries.ownerId',
      'reservationSeries.resourceId',
      'reservationSeries.title',
      'reservationSeries.description',
      'reservationSeries.recurrence',
      'reservationSeries.startReminderMinutes',
      'reservationSeries.endReminderMinutes',
      'reservationSeries.isPendingApproval',
      'reservationSeries.allowParticipation',
      'users.firstName as ownerFirstName',
      'users.lastName as ownerLastName',
      'users.emailAddress as ownerEmailAddress',
      'resources.name as resourceName',
      'resources.scheduleId',
      'resources.color',
      'resources.bufferTime',
      'resources.requiresCheckIn',
      'resources.autoReleaseMinutes',
      'resources.statusId as resourceStatusId',
      'resources.adminGroupId as resourceAdminGroupId',
      'schedules.adminGroupId as scheduleAdminGroupId',
    ]);
}

export type OccurrenceRow = Awaited<ReturnType<ReturnType<typeof occurrences>['execute']>>[number];

/** One occurrence by reference number, with everything approval and check-in decide on. */
export async function findOccurrence(store: Store, referenceNumber: string): Promise<OccurrenceRow | undefined> {
  return occurrences(store).where('reservations.referenceNumber', '=', referenceNumber).executeTakeFirst();
}

export const checkInState = (row: OccurrenceRow): CheckInState => ({
  startAt: row.startAt,
  endAt: row.endAt,
  checkInAt: row.checkInAt,
  checkOutAt: row.checkOutAt,
  requiresCheckIn: row.requiresCheckIn === 1,
  isPendingApproval: row.isPendingApproval === 1,
});

/**
 * Who administers an occurrence: application administrators, and members of the admin group of
 * its primary resource or of that resource's schedule. One query for the viewer's groups, then a
 * test per row, so a list never asks per reservation.
 */
export async function administrationCheck(
  store: Store,
  viewer: Viewer,
): Promise<(row: Pick<OccurrenceRow, 'resourceAdminGroupId' | 'scheduleAdminGroupId'>) => boolean> {
  if (viewer.isAdmin) return () => true;
  const memberships = await store.selectFrom('groupMembers').select('groupId').where('userId', '=', viewer.user.id).execute();
  const groups = new Set(memberships.map((row) => row.groupId));
  const member = (groupId: number | null) => groupId !== null && groups.has(groupId);
  return (row) => member(row.resourceAdminGroupId) || member(row.scheduleAdminGroupId);
}

/**
 * The owner and application administrators may change, check in to and check out of a
 * reservation (the same rule UpdateReservation applies).
 */
export const mayChange = (viewer: Viewer, row: Pick<OccurrenceRow, 'ownerId'>) => viewer.isAdmin || row.ownerId === viewer.user.id;

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

interface SeriesPerson {
  seriesId: number;
  role: number;
  userId: number;
  firstName: string;
  lastName: string;
  emailAddress: string;
}

interface SeriesGuest {
  seriesId: number;
  role: number;
  email: string;
}

function groupBySeries<T extends { seriesId: number }>(rows: readonly T[]): Map<number, T[]> {
  const groups = new Map<number, T[]>();
  for (const row of rows) {
    const group = groups.get(row.seriesId);
    if (group) group.push(row);
    else groups.set(row.seriesId, [row]);
  }
  return groups;
}

function readPeople(connection: Connection, seriesIds: readonly number[]): Map<number, SeriesPerson[]> {
  return groupBySeries(
    connection.all<SeriesPerson>(
      `SELECT reservation_people.series_id AS seriesId, reservation_people.role, users.id AS userId, users.first_name AS firstName,
         users.last_name AS lastName, users.email_address AS emailAddress
       FROM reservation_people INNER JOIN users ON users.id = reservation_people.user_id
       WHERE reservation_people.series_id IN (SELECT value FROM json_each(?))
       ORDER BY users.last_name, users.first_name, users.id`,
      jsonIds(seriesIds),
    ),
  );
}

function readGuests(connection: Connection, seriesIds: readonly number[]): Map<number, SeriesGuest[]> {
  return groupBySeries(
    connection.all<SeriesGuest>(
      'SELECT series_id AS seriesId, role, email FROM reservation_guests WHERE series_id IN (SELECT value FROM json_each(?)) ORDER BY email',
      jsonIds(seriesIds),
    ),
  );
}

/** Given and family name, an empty one left out. */
export const fullName = (first: string, last: string) => [first, last].filter((part) => part !== '').join(' ');

const inRole = <T extends { role: number }>(rows: readonly T[] | undefined, role: number) => (rows ?? []).filter((row) => row.role === role);

/** Names keyed by user id, as real servers list who takes part and who is invited (server-facts C). */
const namesIn = (people: readonly SeriesPerson[] | undefined, role: number): Record<string, string> =>
  Object.fromEntries(inRole(people, role).map((person) => [String(person.userId), fullName(person.firstName, person.lastName)]));
const emailsIn = (guests: readonly SeriesGuest[] | undefined, role: number) => (guests ? inRole(guests, role).map((guest) => guest.email) : []);

/** Durations are shown in whole minutes; a check-out time on a second boundary rounds down. */
const minutesBetween = (from: number, to: number) => Math.max(0, Math.floor((to - from) / 60_000));

const bufferMs = (row: OccurrenceRow) => (row.bufferTime ?? 0) * 60_000;

/**
 * Reservation summaries (GetReservations, slots) of every occurrence matching `filter`, ordered by
 * start. A constant number of queries: the occurrences with everything one-to-one joined in, then
 * people and guests of all their series. The window is an index range scan on
 * `reservations_by_start` (or on bookings' (resource, start) for a resource filter), bounded
 * below by the longest booking stored.
 */
export async function loadSummaries(store: Store, links: LinkBuilder, filter: ReservationFilter): Promise<WireSummary[]> {
  return [...(await loadSummariesById(store, links, filter)).values()];
}

/** The same summaries keyed by reservation id (in the same order), for callers that hold ids. */
export async function loadSummariesById(store: Store, links: LinkBuilder, filter: ReservationFilter): Promise<Map<number, WireSummary>> {
  const { from, to, viewer } = filter;
  const lowest = from - (await longestBookingMs(store));
  let query = occurrences(store)
    .where('reservations.startAt', '>=', lowest)
    .where('reservations.startAt', '<', to)
    .where('reservations.endAt', '>', from)
    .orderBy('reservations.startAt')
    .orderBy('reservations.id');
  if (filter.userId !== undefined) {
    // What the user owns, as on real servers (server-facts C): what they take part in or are
    // invited to is listed by schedule or resource. The user's series first (owner index), then
    // their occurrences in the window through (series, start).
    query = query.where('reservations.seriesId', 'in', store.selectFrom('reservationSeries').select('reservationSeries.id as seriesId').where('reservationSeries.ownerId', '=', filter.userId));
  }
  if (filter.resourceId !== undefined) {
    query = query.where(
      'reservations.id',
      'in',
      store
        .selectFrom('reservationBookings')
        .select('reservationBookings.reservationId')
        .where('reservationBookings.resourceId', '=', filter.resourceId)
        .where('reservationBookings.startAt', '>=', lowest)
        .where('reservationBookings.startAt', '<', to)
        .where('reservationBookings.endAt', '>', from),
    );
  }
  if (filter.scheduleId !== undefined) query = query.where('resources.scheduleId', '=', filter.scheduleId);
  if (filter.reservationIds !== undefined) {
    if (filter.reservationIds.length === 0) return new Map();
    // One JSON parameter rather than one per id: a list of hundreds (a week of slots) no longer
    // costs hundreds of parameters to build, compile and bind.
    query = query.where('reservations.id', 'in', idList(filter.reservationIds));
  }
  if (viewer && !viewer.isAdmin) {
    const viewerId = viewer.user.id;
    // Everyone sees the calendar of the resources they may see, as on real servers, plus their own.
    const { resourcesSeen } = filter;
    query = query.where((where) =>
      where.or([
        // SQLite tries these in order and builds the full visible set only when it gets to it.
        ...(resourcesSeen ? [where('reservationSeries.resourceId', 'in', idList(resourcesSeen))] : []),
        where('reservationSeries.resourceId', 'in', visibleResourceIds(store, viewer)),
        where('reservationSeries.ownerId', '=', viewerId),
        where.exists(
          where
            .selectFrom('reservationPeople')
            .select('reservationPeople.userId')
            .whereRef('reservationPeople.seriesId', '=', 'reservationSeries.id')
            .where('reservationPeople.userId', '=', viewerId),
        ),
      ]),
    );
  }
  const rows = await selectRecords(store, query);
  if (rows.length === 0) return new Map();
  const seriesIds = [...new Set(rows.map((row) => row.seriesId))];
  const { people, guests } = await onConnection(store, (connection) => ({
    people: readPeople(connection, seriesIds),
    guests: readGuests(connection, seriesIds),
  }));
  return new Map(
    rows.map((row) => [
      row.reservationId,
      summaryOf(row, links, people.get(row.seriesId), guests.get(row.seriesId), viewer === undefined || mayChange(viewer, row)),
    ]),
  );
}

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

function summaryOf(
  row: OccurrenceRow,
  links: LinkBuilder,
  people: readonly SeriesPerson[] | undefined,
  guests: readonly SeriesGuest[] | undefined,
  changeable: boolean,
): WireSummary {
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

async function canSee(store: Store, viewer: Viewer, row: OccurrenceRow, people: readonly SeriesPerson[]): Promise<boolean> {
  if (viewer.isAdmin || row.ownerId === viewer.user.id || people.some((person) => person.userId === viewer.user.id)) return true;
  const visible = await visibleResourceIds(store, viewer).where('resources.id', '=', row.resourceId).executeTakeFirst();
  return visible !== undefined;
}

/**
 * The single form (GetReservation) in the caller's timezone, or null when there is no such
 * reservation or the caller may not see it. `isCheckInAvailable` / `isCheckoutAvailable` answer
 * whether this caller could check in or out right now, so a client can offer the button as is.
 */
export async function loadReservation(
  store: Store,
  links: LinkBuilder,
  referenceNumber: string,
  caller: Viewer & { user: { timezone: string } },
  nowMs: number,
  config: Pick<ServiceConfig, 'checkInOpensMinutes'>,
): Promise<WireReservation | null> {
  const row = await findOccurrence(store, referenceNumber);
  if (!row) return null;
  const { seriesId } = row;
  const [peopleBySeries, resources, accessories, attributes] = await Promise.all([
    onConnection(store, (connection) => readPeople(connection, [seriesId])),
    store
      .selectFrom('reservationSeriesResources')
      .innerJoin('resources', 'resources.id', 'reservationSeriesResources.resourceId')
      .select(['resources.id', 'resources.name'])
      .where('reservationSeriesResources.seriesId', '=', seriesId)
      .orderBy('resources.name')
      .orderBy('resources.id')
      .execute(),
    store
      .selectFrom('reservationAccessories')
      .innerJoin('accessories', 'accessories.id', 'reservationAccessories.accessoryId')
      .select(['accessories.id', 'accessories.name', 'accessories.quantityAvailable', 'reservationAccessories.quantity'])
      .where('reservationAccessories.seriesId', '=', seriesId)
      .orderBy('accessories.name')
      .orderBy('accessories.id')
      .execute(),
    readAttributeValues(store, links, AttributeCategory.reservation, [seriesId], () => caller.isAdmin || row.ownerId === caller.user.id),
  ]);
  const people = peopleBySeries.get(seriesId) ?? [];
  if (!(await canSee(store, caller, row, people))) return null;
  const zone = usableZone(caller.user.timezone);
  const local = (ms: number) => formatWireDateTime(DateTime.fromMillis(ms, { zone }));
  const optionalLocal = (ms: number | null) => (ms === null ? null : local(ms));
  const rule = readStoredRecurrenceRule(row.recurrence);
  const state = checkInState(row);
  const changeable = mayChange(caller, row);
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
    customAttributes: attributes.get(seriesId) ?? [],
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
    isCheckInAvailable: changeable && isCheckInOpen(state, nowMs, config.checkInOpensMinutes),
    isCheckoutAvailable: changeable && isCheckOutAllowed(state, nowMs),
    autoReleaseMinutes: row.autoReleaseMinutes,
    links: changeable ? [links.to('updateReservation', { referenceNumber }, 'update_reservation')] : [],
    message: null,
  };
}
