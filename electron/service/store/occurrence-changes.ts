import { connectionOf, type Store } from './database.js';
import type { OccurrenceRow } from './occurrences.js';
import { moveInstance } from './reservations.js';

/** Approves a whole series. */
export async function approveSeries(store: Store, seriesId: number, nowMs: number): Promise<void> {
  await store.updateTable('reservationSeries').set({ isPendingApproval: 0, updatedAt: nowMs }).where('id', '=', seriesId).execute();
}

export async function recordCheckIn(store: Store, reservationId: number, atMs: number): Promise<void> {
  await store.updateTable('reservations').set({ checkInAt: atMs }).where('id', '=', reservationId).execute();
}

/**
 * Check-out frees the rest of the slot: the end moves to `atMs` (bookings follow) and the planned
 * end is kept. Call inside a transaction.
 */
export async function recordCheckOut(
  store: Store,
  occurrence: Pick<OccurrenceRow, 'reservationId' | 'startAt' | 'endAt' | 'originalEndAt'>,
  atMs: number,
): Promise<void> {
  await store
    .updateTable('reservations')
    .set({ checkOutAt: atMs, originalEndAt: occurrence.originalEndAt ?? occurrence.endAt })
    .where('id', '=', occurrence.reservationId)
    .execute();
  moveInstance(connectionOf(store), occurrence.reservationId, occurrence.startAt, atMs);
}
