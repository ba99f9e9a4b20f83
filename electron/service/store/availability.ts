import { sql } from 'kysely';
import type { Store } from './database.js';
import { visibleResourceIds, type Viewer } from './permissions.js';
import { longestBookingMs, type Booking } from './reservations.js';

/**
 * The bookings of every resource that overlap [from, to). Deliberately not filtered by resource,
 * so that it is one range scan on (start_at, resource_id) bounded by `from - longest` and `to`,
 * whatever the number of resources; INDEXED BY keeps it so once statistics exist (with them SQLite
 * may prefer a skip-scan of the primary key over every resource).
 * A week of bookings is thousands of rows, and turning each into a row object costs more than
 * SQLite takes to find them, so the rows come back as four JSON arrays in one row.
 */
function everyOverlappingBookingQuery(from: number, to: number, longestMs: number) {
  return sql<{ resourceIds: string; startAts: string; endAts: string; reservationIds: string }>`
    SELECT json_group_array(resource_id) AS resource_ids, json_group_array(start_at) AS start_ats,
      json_group_array(end_at) AS end_ats, json_group_array(reservation_id) AS reservation_ids
    FROM reservation_bookings INDEXED BY reservation_bookings_by_start
    WHERE start_at >= ${from - longestMs} AND start_at < ${to} AND end_at > ${from}`;
}

/** The bookings of every resource that overlap [from, to), by start. */
export async function everyOverlappingBooking(store: Store, from: number, to: number): Promise<Booking[]> {
  const longest = await longestBookingMs(store);
  const { rows } = await everyOverlappingBookingQuery(from, to, longest).execute(store);
  const columns = rows[0];
  if (!columns) return [];
  const resourceIds = JSON.parse(columns.resourceIds) as number[];
  const startAts = JSON.parse(columns.startAts) as number[];
  const endAts = JSON.parse(columns.endAts) as number[];
  const reservationIds = JSON.parse(columns.reservationIds) as number[];
  const bookings = resourceIds.map((resourceId, index) => ({
    resourceId,
    startAt: startAts[index]!,
    endAt: endAts[index]!,
    reservationId: reservationIds[index]!,
  }));
  // The index scan yields them by start already; an aggregate's order is not promised, so check.
  if (bookings.some((booking, index) => index > 0 && booking.startAt < bookings[index - 1]!.startAt)) {
    bookings.sort((a, b) => a.startAt - b.startAt);
  }
  return bookings;
}

/** Each resource's bookings, keeping the order they came in. */
export function bookingsByResource<B extends { resourceId: number }>(bookings: readonly B[]): Map<number, B[]> {
  const byResource = new Map<number, B[]>();
  for (const booking of bookings) {
    const list = byResource.get(booking.resourceId);
    if (list) list.push(booking);
    else byResource.set(booking.resourceId, [booking]);
  }
  return byResource;
}

/** Reference number and owner of each reservation, for the links that point at them. */
export async function reservationOwners(
  store: Store,
  reservationIds: readonly number[],
): Promise<Map<number, { referenceNumber: string; ownerId: number }>> {
  if (reservationIds.length === 0) return new Map();
  const rows = await store
    .selectFrom('reservations')
    .innerJoin('reservationSeries', 'reservationSeries.id', 'reservations.seriesId')
    .select(['reservations.id', 'reservations.referenceNumber', 'reservationSeries.ownerId'])
    .where('reservations.id', 'in', [...new Set(reservationIds)])
    .execute();
  return new Map(rows.map((row) => [row.id, { referenceNumber: row.referenceNumber, ownerId: row.ownerId }]));
}

function visibleResources(store: Store, viewer: Viewer) {
  return store
    .selectFrom('resources')
    .select(['id', 'name', 'scheduleId', 'statusId', 'statusReasonId'])
    .where('id', 'in', visibleResourceIds(store, viewer));
}

/** What availability says of a resource besides its bookings. */
export type ResourceState = Awaited<ReturnType<ReturnType<typeof visibleResources>['execute']>>[number];

/** Every resource the viewer may see, in the resources' order. */
export const visibleResourceStates = (store: Store, viewer: Viewer): Promise<ResourceState[]> =>
  visibleResources(store, viewer).orderBy('sortOrder').orderBy('name').orderBy('id').execute();

/** One resource, when the viewer may see it. */
export const visibleResourceState = (store: Store, viewer: Viewer, resourceId: number): Promise<ResourceState | undefined> =>
  visibleResources(store, viewer).where('id', '=', resourceId).executeTakeFirst();
