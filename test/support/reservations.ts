import type { DateTime } from 'luxon';
import { newReferenceNumber } from '../../electron/service/domain/reference-number.js';
import { connectionOf, type Store } from '../../electron/service/store/database.js';
import { insertInstances, insertSeries, type SeriesValues } from '../../electron/service/store/reservations.js';

export interface DirectReservation {
  ownerId: number;
  resourceId: number;
  /** One entry per occurrence; a series when there are several. */
  occurrences: { start: DateTime; end: DateTime }[];
  series?: Partial<SeriesValues>;
}

/**
 * Stores a reservation straight into the store, bypassing the rules: for tests that need
 * reservations to exist (reads, availability, slots) without exercising CreateReservation.
 */
export async function insertReservation(store: Store, reservation: DirectReservation) {
  return store.transaction().execute(async (trx) => {
    const values: SeriesValues = {
      ownerId: reservation.ownerId,
      resourceId: reservation.resourceId,
      resourceIds: [],
      title: 'Test reservation',
      description: '',
      allowParticipation: false,
      termsAccepted: true,
      recurrence: JSON.stringify({ type: 'none' }),
      startReminderMinutes: null,
      endReminderMinutes: null,
      isPendingApproval: false,
      participants: [],
      invitees: [],
      participatingGuests: [],
      invitedGuests: [],
      accessories: [],
      ...reservation.series,
    };
    const seriesId = insertSeries(connectionOf(trx), values, Date.now());
    const instances = reservation.occurrences.map(({ start, end }) => ({
      referenceNumber: newReferenceNumber(),
      startAt: start.toMillis(),
      endAt: end.toMillis(),
      creditsConsumed: 0,
    }));
    const reservationIds = insertInstances(connectionOf(trx), seriesId, [values.resourceId, ...values.resourceIds], instances);
    return { seriesId, reservationIds, referenceNumbers: instances.map((instance) => instance.referenceNumber) };
  });
}
