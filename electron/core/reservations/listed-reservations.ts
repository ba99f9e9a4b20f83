/**
 * The user's reservations as the model, read once from each list the polls bring: the views, the
 * notification planner, the poll plan and check-in by itself all take this one list.
 */
import type { WireSummary } from '../../api/wire.js';
import type { CoreData } from '../core-state.js';
import { reservationOfSummary, scheduleZones, type Reservation } from './reservation.js';

type ListedData = Pick<CoreData, 'reservations' | 'meetings' | 'schedules'>;

/** The user's own reservations, then the meetings they are in that their own list does not hold. */
export function ownAndMeetings(data: Pick<CoreData, 'reservations' | 'meetings'>): { own: WireSummary[]; meetings: WireSummary[] } {
  const listed = new Set(data.reservations.map((summary) => summary.referenceNumber));
  const meetings: WireSummary[] = [];
  for (const summary of data.meetings.flatMap((entry) => entry.reservations)) {
    if (listed.has(summary.referenceNumber)) continue;
    listed.add(summary.referenceNumber);
    meetings.push(summary);
  }
  return { own: data.reservations, meetings };
}

interface Read {
  meetings: ListedData['meetings'];
  schedules: ListedData['schedules'];
  userId: number;
  reservations: Reservation[];
}

/**
 * The lists each read replaces whole (never changed in place), so a list is known by its identity:
 * what was read from it is kept with it until the next read replaces it.
 */
const reads = new WeakMap<readonly WireSummary[], Read>();

/**
 * The user's own reservations, then the meetings they are in, as the model (those whose dates are
 * not valid left out), in the order listed. Read once per list: the same list gives the same array.
 */
export function listedReservations(data: ListedData, userId: number): readonly Reservation[] {
  const kept = reads.get(data.reservations);
  if (kept !== undefined && kept.meetings === data.meetings && kept.schedules === data.schedules && kept.userId === userId) return kept.reservations;
  const reader = { userId, scheduleZones: scheduleZones(data.schedules) };
  const { own, meetings } = ownAndMeetings(data);
  const reservations = [...own, ...meetings].flatMap((summary) => reservationOfSummary(summary, reader) ?? []);
  reads.set(data.reservations, { meetings: data.meetings, schedules: data.schedules, userId, reservations });
  return reservations;
}
