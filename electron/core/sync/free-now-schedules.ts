/**
 * Which schedules "Free now" covers: every schedule holding a resource the user may book, ranked
 * by how much the user books there — the schedules of their favourites, then of their
 * reservations, most used first, then the default schedule, then the rest by name. The ranking
 * decides which schedules are asked first when the user looks, how fresh each is kept, and which
 * the background keeps fresh (only those whose rows the tray shows).
 */
import { ResourceStatus } from '../../api/schemas/resources.js';
import type { CoreData, CoreState } from '../core-state.js';
import { bookableTest } from '../session/bookable.js';
import type { AccountIdentity } from '../session/account-identity.js';

/**
 * The first schedules of the ranking: the ones whose rows lead Free now and the tray's "Book now",
 * kept fresh in the background and re-read at every look.
 */
export const leadingScheduleCount = 2;

/**
 * The leading schedules in which the user books (of their favourites or reservations), or, before
 * they have booked anything, the leading ones: where meetings the user is in are looked for.
 */
export function meetingSchedules(
  ranked: readonly number[],
  data: Pick<CoreData, 'reservations' | 'resources'>,
  favouriteResourceIds: readonly number[],
): number[] {
  const scheduleOf = new Map(data.resources.map((resource) => [resource.resourceId, resource.scheduleId]));
  const bookedIn = new Set([
    ...favouriteResourceIds.map((resourceId) => scheduleOf.get(resourceId)),
    ...data.reservations.map((summary) => summary.scheduleId),
  ]);
  const leading = ranked.slice(0, leadingScheduleCount);
  const booked = leading.filter((scheduleId) => bookedIn.has(scheduleId));
  return booked.length > 0 ? booked : leading;
}

export function freeNowSchedules(
  data: Pick<CoreData, 'reservations' | 'resources' | 'schedules'>,
  favouriteResourceIds: readonly number[],
  mayBook: (resourceId: number) => boolean,
): number[] {
  const known = new Set(data.schedules.map((schedule) => schedule.id));
  const bookable = data.resources.filter((resource) => resource.statusId === ResourceStatus.available && mayBook(resource.resourceId));
  const holding = new Set(bookable.map((resource) => resource.scheduleId));
  // Before the resource list has arrived, the user's own reservations say where they book.
  const covered = (scheduleId: number) => (holding.size === 0 || holding.has(scheduleId)) && (known.size === 0 || known.has(scheduleId));
  const uses = new Map<number, number>();
  const count = (scheduleId: number | undefined, weight: number) => {
    if (scheduleId === undefined || !covered(scheduleId)) return;
    uses.set(scheduleId, (uses.get(scheduleId) ?? 0) + weight);
  };
  const scheduleOf = new Map(data.resources.map((resource) => [resource.resourceId, resource.scheduleId]));
  // A favourite says more about where the user books than any one reservation.
  for (const resourceId of favouriteResourceIds) count(scheduleOf.get(resourceId), 1_000);
  for (const summary of data.reservations) count(summary.scheduleId, 1);
  const used = [...uses].sort((a, b) => b[1] - a[1] || a[0] - b[0]).map(([scheduleId]) => scheduleId);
  const rest = data.schedules
    .filter((schedule) => holding.has(schedule.id) && !uses.has(schedule.id))
    .sort((a, b) => Number(b.isDefault) - Number(a.isDefault) || a.name.localeCompare(b.name, undefined, { numeric: true }) || a.id - b.id)
    .map((schedule) => schedule.id);
  return [...used, ...rest];
}

/** The schedules Free now covers for the signed-in account, ranked; none while nobody is signed in. */
export function coveredSchedules(state: Pick<CoreState, 'data' | 'settings'>, account: AccountIdentity | null): number[] {
  return account === null ? [] : freeNowSchedules(state.data, state.settings.favouriteResourceIds, bookableTest(account));
}
