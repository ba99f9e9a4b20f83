import { sql } from 'kysely';
import { AttributeCategory } from '../../api/schemas/attributes.js';
import { deleteAttributeValues } from './attribute-values.js';
import type { Store } from './database.js';
import { ReservationRole } from './tables.js';

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
export async function longestBookingMs(store: Store): Promise<number> {
  const row = await store.selectFrom('settings').select('value').where('key', '=', maxBookingKey).executeTakeFirst();
  return row ? Number(row.value) : 0;
}

async function recordBookingLength(store: Store, lengthMs: number): Promise<void> {
  await store
    .insertInto('settings')
    .values({ key: maxBookingKey, value: String(lengthMs) })
    .onConflict((conflict) =>
      conflict.column('key').doUpdateSet({ value: String(lengthMs) }).where(sql`CAST(settings.value AS INTEGER)`, '<', lengthMs),
    )
    .execute();
}

async function writeSeriesChildren(store: Store, seriesId: number, values: SeriesValues): Promise<void> {
  const additional = values.resourceIds.filter((id) => id !== values.resourceId);
  if (additional.length) {
    await store.insertInto('reservationSeriesResources').values(additional.map((resourceId) => ({ seriesId, resourceId }))).execute();
  }
  const people = [
    ...values.participants.map((userId) => ({ seriesId, userId, role: ReservationRole.participant })),
    ...values.invitees.filter((id) => !values.participants.includes(id)).map((userId) => ({ seriesId, userId, role: ReservationRole.invitee })),
  ];
  if (people.length) await store.insertInto('reservationPeople').values(people).execute();
  const guests = [
    ...values.participatingGuests.map((email) => ({ seriesId, email, role: ReservationRole.participant })),
    ...values.invitedGuests.filter((email) => !values.participatingGuests.includes(email)).map((email) => ({ seriesId, email, role: ReservationRole.invitee })),
  ];
  if (guests.length) await store.insertInto('reservationGuests').values(guests).onConflict((conflict) => conflict.doNothing()).execute();
  if (values.accessories.length) {
    await store.insertInto('reservationAccessories').values(values.accessories.map((accessory) => ({ seriesId, ...accessory }))).execute();
  }
}

function seriesColumns(values: SeriesValues) {
  return {
    ownerId: values.ownerId,
    resourceId: values.resourceId,
    title: values.title,
    description: values.description,
    allowParticipation: Number(values.allowParticipation),
    termsAccepted: Number(values.termsAccepted),
    recurrence: values.recurrence,
    startReminderMinutes: values.startReminderMinutes,
    endReminderMinutes: values.endReminderMinutes,
    isPendingApproval: Number(values.isPendingApproval),
  };
}

/** Call inside a transaction. */
export async function insertSeries(store: Store, values: SeriesValues, nowMs: number): Promise<number> {
  const { id } = await store
    .insertInto('reservationSeries')
    .values({ ...seriesColumns(values), createdAt: nowMs, updatedAt: nowMs })
    .returning('id')
    .executeTakeFirstOrThrow();
  await writeSeriesChildren(store, id, values);
  return id;
}

/** Replaces a series' settings and its resources, people and accessories. Call inside a transaction. */
export async function replaceSeries(store: Store, seriesId: number, values: SeriesValues, nowMs: number): Promise<void> {
  await store.updateTable('reservationSeries').set({ ...seriesColumns(values), updatedAt: nowMs }).where('id', '=', seriesId).execute();
  for (const table of ['reservationSeriesResources', 'reservationPeople', 'reservationGuests', 'reservationAccessories'] as const) {
    await store.deleteFrom(table).where('seriesId', '=', seriesId).execute();
  }
  await writeSeriesChildren(store, seriesId, values);
}

/** The primary resource first, then the additional ones. */
export async function seriesResourceIds(store: Store, seriesId: number): Promise<number[]> {
  const series = await store.selectFrom('reservationSeries').select('resourceId').where('id', '=', seriesId).executeTakeFirstOrThrow();
  const more = await store.selectFrom('reservationSeriesResources').select('resourceId').where('seriesId', '=', seriesId).execute();
  return [series.resourceId, ...more.map((row) => row.resourceId)];
}

/** Stores occurrences and what they occupy. Call inside a transaction. */
export async function insertInstances(
  store: Store,
  seriesId: number,
  resourceIds: readonly number[],
  instances: readonly InstanceValues[],
): Promise<number[]> {
  const ids: number[] = [];
  let longest = 0;
  for (const instance of instances) {
    const { id } = await store.insertInto('reservations').values({ seriesId, ...instance }).returning('id').executeTakeFirstOrThrow();
    ids.push(id);
    longest = Math.max(longest, instance.endAt - instance.startAt);
    await store
      .insertInto('reservationBookings')
      .values(resourceIds.map((resourceId) => ({ resourceId, startAt: instance.startAt, endAt: instance.endAt, reservationId: id })))
      .execute();
  }
  if (instances.length) await recordBookingLength(store, longest);
  return ids;
}

/** Moves an occurrence (and what it occupies) to new times. Call inside a transaction. */
export async function moveInstance(store: Store, reservationId: number, startAt: number, endAt: number): Promise<void> {
  await store.updateTable('reservations').set({ startAt, endAt }).where('id', '=', reservationId).execute();
  await store.updateTable('reservationBookings').set({ startAt, endAt }).where('reservationId', '=', reservationId).execute();
  await recordBookingLength(store, endAt - startAt);
}

/** Deletes occurrences, then any series left without one. Call inside a transaction. */
export async function deleteInstances(store: Store, reservationIds: readonly number[]): Promise<void> {
  if (reservationIds.length === 0) return;
  const seriesIds = await store.selectFrom('reservations').select('seriesId').distinct().where('id', 'in', [...reservationIds]).execute();
  await store.deleteFrom('reservations').where('id', 'in', [...reservationIds]).execute();
  const emptied = await store
    .deleteFrom('reservationSeries')
    .where('id', 'in', seriesIds.map((row) => row.seriesId))
    .where((where) => where.not(where.exists(where.selectFrom('reservations').select('id').whereRef('reservations.seriesId', '=', 'reservationSeries.id'))))
    .returning('id')
    .execute();
  for (const { id } of emptied) await deleteAttributeValues(store, AttributeCategory.reservation, id);
}

/**
 * Bookings on `resourceId` that overlap [from, to): an index range scan on (resource, start),
 * bounded below by the longest booking. Touching ends (one ends as the other starts) do not overlap.
 */
export async function overlappingBookings(store: Store, resourceIds: readonly number[], from: number, to: number): Promise<Booking[]> {
  if (resourceIds.length === 0) return [];
  const longest = await longestBookingMs(store);
  return store
    .selectFrom('reservationBookings')
    .select(['resourceId', 'startAt', 'endAt', 'reservationId'])
    .where('resourceId', 'in', [...resourceIds])
    .where('startAt', '>=', from - longest)
    .where('startAt', '<', to)
    .where('endAt', '>', from)
    .orderBy('resourceId')
    .orderBy('startAt')
    .execute();
}
