import { AttributeCategory } from '../../api/schemas/attributes.js';
import { deleteAttributeValues } from './attribute-values.js';
import { connectionOf, onConnection, placeholders, type Connection, type Store } from './database.js';
import { ReservationRole } from '../tables.js';

/** Everything a series holds besides its occurrences. */
export interface SeriesValues {
  ownerId: number;
  resourceId: number;
  /** Additional resources, not including the primary one. */
  resourceIds: number[];
  title: string;
  description: string;
  allowParticipation: boolean;
  termsAccepted: boolean;
  /** The recurrence rule as JSON. */
  recurrence: string;
  startReminderMinutes: number | null;
  endReminderMinutes: number | null;
  isPendingApproval: boolean;
  participants: number[];
  invitees: number[];
  participatingGuests: string[];
  invitedGuests: string[];
  accessories: { accessoryId: number; quantity: number }[];
}

export interface InstanceValues {
  referenceNumber: string;
  startAt: number;
  endAt: number;
  creditsConsumed: number;
}

export interface Booking {
  resourceId: number;
  startAt: number;
  endAt: number;
  reservationId: number;
}

const maxBookingKey = 'maxBookingMs';

/**
 * The longest booking ever stored. Overlap queries bound their index range from below with it
 * (`start >= from - longest`), so they never walk all earlier bookings.
 */
export function longestBooking(connection: Connection): number {
  const row = connection.get<{ value: string }>('SELECT value FROM settings WHERE key = ?', maxBookingKey);
  return row ? Number(row.value) : 0;
}

export const longestBookingMs = (store: Store) => onConnection(store, longestBooking);

function recordBookingLength(connection: Connection, lengthMs: number): void {
  connection.run(
    'INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value WHERE CAST(settings.value AS INTEGER) < ?',
    maxBookingKey,
    String(lengthMs),
    lengthMs,
  );
}

function writeSeriesChildren(connection: Connection, seriesId: number, values: SeriesValues): void {
  const additional = values.resourceIds.filter((id) => id !== values.resourceId);
  connection.insertRows(
    'reservation_series_resources',
    ['series_id', 'resource_id'],
    additional.map((resourceId) => [seriesId, resourceId]),
  );
  const people = [
    ...values.participants.map((userId) => [seriesId, userId, ReservationRole.participant]),
    ...values.invitees.filter((id) => !values.participants.includes(id)).map((userId) => [seriesId, userId, ReservationRole.invitee]),
  ];
  connection.insertRows('reservation_people', ['series_id', 'user_id', 'role'], people);
  const guests = [
    ...values.participatingGuests.map((email) => [seriesId, email, ReservationRole.participant]),
    ...values.invitedGuests
      .filter((email) => !values.participatingGuests.includes(email))
      .map((email) => [seriesId, email, ReservationRole.invitee]),
  ];
  connection.insertRows('reservation_guests', ['series_id', 'email', 'role'], guests, true);
  connection.insertRows(
    'reservation_accessories',
    ['series_id', 'accessory_id', 'quantity'],
    values.accessories.map((accessory) => [seriesId, accessory.accessoryId, accessory.quantity]),
  );
}

const seriesColumnNames = [
  'owner_id',
  'resource_id',
  'title',
  'description',
  'allow_participation',
  'terms_accepted',
  'recurrence',
  'start_reminder_minutes',
  'end_reminder_minutes',
  'is_pending_approval',
] as const;

/** In the order of `seriesColumnNames`. */
const seriesColumns = (values: SeriesValues) => [
  values.ownerId,
  values.resourceId,
  values.title,
  values.description,
  Number(values.allowParticipation),
  Number(values.termsAccepted),
  values.recurrence,
  values.startReminderMinutes,
  values.endReminderMinutes,
  Number(values.isPendingApproval),
];

/** Call inside a transaction. */
export function insertSeries(connection: Connection, values: SeriesValues, nowMs: number): number {
  const { id } = connection.get<{ id: number }>(
    `INSERT INTO reservation_series (${seriesColumnNames.join(', ')}, created_at, updated_at) VALUES (${placeholders(seriesColumnNames.length + 2)}) RETURNING id`,
    ...seriesColumns(values),
    nowMs,
    nowMs,
  )!;
  writeSeriesChildren(connection, id, values);
  return id;
}

/** Replaces a series' settings and its resources, people and accessories. Call inside a transaction. */
export function replaceSeries(connection: Connection, seriesId: number, values: SeriesValues, nowMs: number): void {
  connection.run(
    `UPDATE reservation_series SET ${seriesColumnNames.map((column) => `${column} = ?`).join(', ')}, updated_at = ? WHERE id = ?`,
    ...seriesColumns(values),
    nowMs,
    seriesId,
  );
  for (const table of ['reservation_series_resources', 'reservation_people', 'reservation_guests', 'reservation_accessories']) {
    connection.run(`DELETE FROM ${table} WHERE series_id = ?`, seriesId);
  }
  writeSeriesChildren(connection, seriesId, values);
}

function book(connection: Connection, reservationId: number, resourceIds: readonly number[], startAt: number, endAt: number): void {
  connection.insertRows(
    'reservation_bookings',
    ['resource_id', 'start_at', 'end_at', 'reservation_id'],
    resourceIds.map((resourceId) => [resourceId, startAt, endAt, reservationId]),
  );
}

/** Stores occurrences and what they occupy. Call inside a transaction. */
export function insertInstances(
  connection: Connection,
  seriesId: number,
  resourceIds: readonly number[],
  instances: readonly InstanceValues[],
): number[] {
  const ids: number[] = [];
  let longest = 0;
  for (const instance of instances) {
    const { id } = connection.get<{ id: number }>(
      'INSERT INTO reservations (series_id, reference_number, start_at, end_at, credits_consumed) VALUES (?, ?, ?, ?, ?) RETURNING id',
      seriesId,
      instance.referenceNumber,
      instance.startAt,
      instance.endAt,
      instance.creditsConsumed,
    )!;
    ids.push(id);
    longest = Math.max(longest, instance.endAt - instance.startAt);
    book(connection, id, resourceIds, instance.startAt, instance.endAt);
  }
  if (instances.length) recordBookingLength(connection, longest);
  return ids;
}

/** Moves an occurrence (and what it occupies) to new times. Call inside a transaction. */
export function moveInstance(connection: Connection, reservationId: number, startAt: number, endAt: number): void {
  connection.run('UPDATE reservations SET start_at = ?, end_at = ? WHERE id = ?', startAt, endAt, reservationId);
  connection.run('UPDATE reservation_bookings SET start_at = ?, end_at = ? WHERE reservation_id = ?', startAt, endAt, reservationId);
  recordBookingLength(connection, endAt - startAt);
}

/** Moves an occurrence to new times on these resources, its bookings replaced. Call inside a transaction. */
export function rebookInstance(
  connection: Connection,
  reservationId: number,
  resourceIds: readonly number[],
  startAt: number,
  endAt: number,
): void {
  connection.run('UPDATE reservations SET start_at = ?, end_at = ? WHERE id = ?', startAt, endAt, reservationId);
  connection.run('DELETE FROM reservation_bookings WHERE reservation_id = ?', reservationId);
  book(connection, reservationId, resourceIds, startAt, endAt);
  recordBookingLength(connection, endAt - startAt);
}

/** Deletes occurrences, then any series left without one. Call inside a transaction. */
export async function deleteInstances(store: Store, reservationIds: readonly number[]): Promise<void> {
  if (reservationIds.length === 0) return;
  const seriesIds = await store
    .selectFrom('reservations')
    .select('seriesId')
    .distinct()
    .where('id', 'in', [...reservationIds])
    .execute();
  await store
    .deleteFrom('reservations')
    .where('id', 'in', [...reservationIds])
    .execute();
  const emptied = await store
    .deleteFrom('reservationSeries')
    .where(
      'id',
      'in',
      seriesIds.map((row) => row.seriesId),
    )
    .where((where) =>
      where.not(where.exists(where.selectFrom('reservations').select('id').whereRef('reservations.seriesId', '=', 'reservationSeries.id'))),
    )
    .returning('id')
    .execute();
  for (const { id } of emptied) deleteAttributeValues(connectionOf(store), AttributeCategory.reservation, id);
}

/**
 * Bookings on the resources that overlap [from, to): an index range scan on (resource, start),
 * bounded below by the longest booking. Touching ends (one ends as the other starts) do not overlap.
 */
export function bookingsOverlapping(connection: Connection, resourceIds: readonly number[], from: number, to: number): Booking[] {
  if (resourceIds.length === 0) return [];
  return connection.all<Booking>(
    `SELECT resource_id AS resourceId, start_at AS startAt, end_at AS endAt, reservation_id AS reservationId FROM reservation_bookings
    WHERE resource_id IN (${placeholders(resourceIds.length)}) AND start_at >= ? AND start_at < ? AND end_at > ?
    ORDER BY resource_id, start_at`,
    ...resourceIds,
    from - longestBooking(connection),
    to,
    from,
  );
}

export const overlappingBookings = (store: Store, resourceIds: readonly number[], from: number, to: number) =>
  onConnection(store, (connection) => bookingsOverlapping(connection, resourceIds, from, to));
