import type { Store } from './database.js';
import type { ReservationRow, ReservationSeriesRow, ResourceRow } from '../tables.js';

/** An occurrence with its series. */
export interface StoredReservation {
  instance: ReservationRow;
  series: ReservationSeriesRow;
}

export async function findReservation(store: Store, referenceNumber: string): Promise<StoredReservation | undefined> {
  const instance = await store.selectFrom('reservations').selectAll().where('referenceNumber', '=', referenceNumber).executeTakeFirst();
  if (!instance) return undefined;
  const series = await store.selectFrom('reservationSeries').selectAll().where('id', '=', instance.seriesId).executeTakeFirstOrThrow();
  return { instance, series };
}

/** A series' occurrences in order of start, all of them or those starting at `fromStartAt` or later. */
export function seriesOccurrences(store: Store, seriesId: number, fromStartAt?: number): Promise<ReservationRow[]> {
  let query = store.selectFrom('reservations').selectAll().where('seriesId', '=', seriesId);
  if (fromStartAt !== undefined) query = query.where('startAt', '>=', fromStartAt);
  return query.orderBy('startAt').execute();
}

/** The resources an occurrence occupies. */
export function bookedResources(store: Store, reservationId: number): Promise<ResourceRow[]> {
  return store
    .selectFrom('resources')
    .selectAll()
    .where('id', 'in', store.selectFrom('reservationBookings').select('resourceId').where('reservationId', '=', reservationId))
    .execute();
}

/** Replaces a series' stored recurrence rule (JSON). */
export async function setSeriesRecurrence(store: Store, seriesId: number, recurrence: string): Promise<void> {
  await store.updateTable('reservationSeries').set({ recurrence }).where('id', '=', seriesId).execute();
}
