import { sql } from 'kysely';
import { onConnection, selectRecords, type Store } from './database.js';
import { occurrences, type OccurrenceRow } from './occurrences.js';
import { visibleResourceIds, type Viewer } from './permissions.js';
import { jsonIds, readGuests, readPeople, type SeriesGuest, type SeriesPerson } from './reservation-people.js';
import { longestBookingMs } from './reservations.js';

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
  /** Limits the list to what this caller may see. Absent: everything (for callers that already decided who may see what). */
  viewer?: Viewer;
}

/** An occurrence with the people and guests of its series. */
export interface ListedOccurrence {
  row: OccurrenceRow;
  people: readonly SeriesPerson[] | undefined;
  guests: readonly SeriesGuest[] | undefined;
}

/** Ids as one bound parameter, for `where(column, 'in', …)`. */
const idList = (ids: readonly number[]) => sql<number>`(SELECT value FROM json_each(${jsonIds(ids)}))`;

/**
 * Every occurrence matching `filter`, ordered by start. A constant number of queries: the
 * occurrences with everything one-to-one joined in, then people and guests of all their series.
 * The window is an index range scan on `reservations_by_start` (or on bookings' (resource, start)
 * for a resource filter), bounded below by the longest booking stored.
 */
export async function listOccurrences(store: Store, filter: ReservationFilter): Promise<ListedOccurrence[]> {
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
    query = query.where(
      'reservations.seriesId',
      'in',
      store
        .selectFrom('reservationSeries')
        .select('reservationSeries.id as seriesId')
        .where('reservationSeries.ownerId', '=', filter.userId),
    );
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
    if (filter.reservationIds.length === 0) return [];
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
  if (rows.length === 0) return [];
  const seriesIds = [...new Set(rows.map((row) => row.seriesId))];
  const { people, guests } = await onConnection(store, (connection) => ({
    people: readPeople(connection, seriesIds),
    guests: readGuests(connection, seriesIds),
  }));
  return rows.map((row) => ({ row, people: people.get(row.seriesId), guests: guests.get(row.seriesId) }));
}
