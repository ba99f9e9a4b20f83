/**
 * Which schedules "Free now" asks about: the ones the user books in. Each costs one request per
 * look (server-facts E), so they are few: those of the user's favourites and reservations, most
 * used first; before the user has booked anything, those holding resources the user sees, the
 * default schedule first.
 */
import type { CoreData } from '../core-state.js';

/** A look then costs at most this many requests for "Free now". */
export const maxFreeNowSchedules = 2;

export function freeNowSchedules(data: Pick<CoreData, 'reservations' | 'resources' | 'schedules'>, favouriteResourceIds: readonly number[]): number[] {
  const known = new Set(data.schedules.map((schedule) => schedule.id));
  const uses = new Map<number, number>();
  const count = (scheduleId: number | undefined, weight: number) => {
    if (scheduleId === undefined || (known.size > 0 && !known.has(scheduleId))) return;
    uses.set(scheduleId, (uses.get(scheduleId) ?? 0) + weight);
  };
  const scheduleOf = new Map(data.resources.map((resource) => [resource.resourceId, resource.scheduleId]));
  // A favourite says more about where the user books than any one reservation.
  for (const resourceId of favouriteResourceIds) count(scheduleOf.get(resourceId), 1_000);
  for (const summary of data.reservations) count(summary.scheduleId, 1);
  const ranked = [...uses].sort((a, b) => b[1] - a[1] || a[0] - b[0]).map(([scheduleId]) => scheduleId);
  if (ranked.length > 0) return ranked.slice(0, maxFreeNowSchedules);
  // Nothing booked yet: the schedules that hold resources the user sees, the default one first.
  const seen = new Set(data.resources.map((resource) => resource.scheduleId));
  const candidates = data.schedules.filter((schedule) => seen.size === 0 || seen.has(schedule.id));
  return candidates
    .sort((a, b) => Number(b.isDefault) - Number(a.isDefault) || a.id - b.id)
    .slice(0, maxFreeNowSchedules)
    .map((schedule) => schedule.id);
}
