import type { Occurrence } from '../domain/booking-rules.js';
import { messageDate } from '../domain/booking-rules.js';
import { placeholders, type Connection } from './database.js';
import { permittedAmong } from './permissions.js';
import { bookingsOverlapping, longestBooking } from './reservations.js';
import type { ResourceRow } from '../tables.js';

export interface ConflictOptions {
  /** Buffers widen the window for non-administrators only. */
  isAdmin: boolean;
  /** The occurrences being replaced by an update do not conflict with themselves. */
  excludeReservationIds: ReadonlySet<number>;
  zone: string;
}

export interface Conflict {
  occurrenceIndex: number;
  line: string;
}

const spanOf = (occurrences: readonly Occurrence[]) => ({
  from: Math.min(...occurrences.map((occurrence) => occurrence.start.toMillis())),
  to: Math.max(...occurrences.map((occurrence) => occurrence.end.toMillis())),
});

/**
 * Occurrences that collide with stored bookings on any of their resources: one index range query
 * over the whole span, then a pass per occurrence. A booking that ends exactly when another starts
 * is fine; a resource taking several concurrent reservations conflicts only once that many overlap.
 */
export function findConflicts(
  connection: Connection,
  resources: readonly ResourceRow[],
  occurrences: readonly Occurrence[],
  options: ConflictOptions,
): Conflict[] {
  if (occurrences.length === 0) return [];
  const bufferOf = (resource: ResourceRow) => (options.isAdmin ? 0 : (resource.bufferTime ?? 0) * 60_000);
  const widest = Math.max(0, ...resources.map(bufferOf));
  const { from, to } = spanOf(occurrences);
  const bookings = bookingsOverlapping(
    connection,
    resources.map((resource) => resource.id),
    from - widest,
    to + widest,
  ).filter((booking) => !options.excludeReservationIds.has(booking.reservationId));
  const conflicts: Conflict[] = [];
  occurrences.forEach((occurrence, occurrenceIndex) => {
    const start = occurrence.start.toMillis();
    const end = occurrence.end.toMillis();
    for (const resource of resources) {
      const buffer = bufferOf(resource);
      const overlapping = bookings.filter(
        (booking) => booking.resourceId === resource.id && booking.startAt < end + buffer && booking.endAt > start - buffer,
      );
      if (overlapping.length >= Math.max(1, resource.maxConcurrentReservations)) {
        conflicts.push({ occurrenceIndex, line: `${messageDate(occurrence.start, options.zone)} - ${resource.name}` });
      }
    }
  });
  return conflicts;
}

export const conflictMessage = (conflicts: readonly Conflict[]) =>
  `There are conflicting reservations on the following dates:\n${conflicts.map((conflict) => `${conflict.line}\n`).join('')}`;

export interface AccessoryRequest {
  accessoryId: number;
  name: string;
  quantityAvailable: number | null;
  quantity: number;
}

/**
 * Accessories that would run short: for each occurrence, what overlapping reservations already
 * hold plus what is asked must stay within the quantity available (null: unlimited).
 */
export function accessoryShortages(
  connection: Connection,
  requests: readonly AccessoryRequest[],
  occurrences: readonly Occurrence[],
  options: { excludeReservationIds: ReadonlySet<number>; zone: string },
): string | null {
  const limited = requests.filter((request) => request.quantityAvailable !== null);
  if (limited.length === 0 || occurrences.length === 0) return null;
  const { from, to } = spanOf(occurrences);
  const accessoryIds = limited.map((request) => request.accessoryId);
  const held = connection.all<{ id: number; startAt: number; endAt: number; accessoryId: number; quantity: number }>(
    `SELECT reservations.id, reservations.start_at AS startAt, reservations.end_at AS endAt, reservation_accessories.accessory_id AS accessoryId, reservation_accessories.quantity
    FROM reservations INNER JOIN reservation_accessories ON reservation_accessories.series_id = reservations.series_id
    WHERE reservations.start_at >= ? AND reservations.start_at < ? AND reservations.end_at > ? AND reservation_accessories.accessory_id IN (${placeholders(accessoryIds.length)})`,
    from - longestBooking(connection),
    to,
    from,
    ...accessoryIds,
  );
  const lines: string[] = [];
  for (const occurrence of occurrences) {
    const start = occurrence.start.toMillis();
    const end = occurrence.end.toMillis();
    for (const request of limited) {
      const inUse = held
        .filter(
          (row) =>
            row.accessoryId === request.accessoryId && !options.excludeReservationIds.has(row.id) && row.startAt < end && row.endAt > start,
        )
        .reduce((sum, row) => sum + row.quantity, 0);
      if (inUse + request.quantity > request.quantityAvailable!) {
        lines.push(`(${messageDate(occurrence.start, options.zone)}) ${request.name} limited to ${request.quantityAvailable}`);
      }
    }
  }
  return lines.length ? `There are not enough of the following accessories:\n${lines.map((line) => `${line}\n`).join('')}` : null;
}

/** The resources among `resourceIds` the user may not book: one query over just those ids. */
export function resourcesNotBookable(connection: Connection, userId: number, resourceIds: readonly number[]): number[] {
  if (resourceIds.length === 0) return [];
  const allowed = permittedAmong(connection, userId, 'book', resourceIds);
  return resourceIds.filter((id) => !allowed.has(id));
}
