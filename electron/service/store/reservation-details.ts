import { AttributeCategory } from '../../api/schemas/attributes.js';
import { readAttributeValues, type AttributeValueRecord } from './attribute-values.js';
import { onConnection, type Store } from './database.js';
import { findOccurrence, mayChange, type OccurrenceRow } from './occurrences.js';
import { visibleResourceIds, type Viewer } from './permissions.js';
import { readPeople, type SeriesPerson } from './reservation-people.js';

/** Everything the single form of a reservation shows beyond its occurrence row. */
export interface ReservationDetails {
  row: OccurrenceRow;
  people: SeriesPerson[];
  /** The additional resources, by name (the primary one is the row's). */
  resources: { id: number; name: string }[];
  accessories: { id: number; name: string; quantityAvailable: number | null; quantity: number }[];
  attributes: AttributeValueRecord[];
}

async function canSee(store: Store, viewer: Viewer, row: OccurrenceRow, people: readonly SeriesPerson[]): Promise<boolean> {
  if (viewer.isAdmin || row.ownerId === viewer.user.id || people.some((person) => person.userId === viewer.user.id)) return true;
  const visible = await visibleResourceIds(store, viewer).where('resources.id', '=', row.resourceId).executeTakeFirst();
  return visible !== undefined;
}

/** One reservation with its people, resources, accessories and attribute values; null when there is no such reservation or the viewer may not see it. */
export async function readReservationDetails(store: Store, referenceNumber: string, viewer: Viewer): Promise<ReservationDetails | null> {
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
    readAttributeValues(store, AttributeCategory.reservation, [seriesId], () => mayChange(viewer, row)),
  ]);
  const people = peopleBySeries.get(seriesId) ?? [];
  if (!(await canSee(store, viewer, row, people))) return null;
  return { row, people, resources, accessories, attributes: attributes.get(seriesId) ?? [] };
}
