/**
 * How Free now reads and filters: what each row says about a resource, and which rows a filter
 * keeps. The order is the core's (electron/core/views/state.ts freeNowViews); filters only leave
 * rows out.
 */
import type { FreeResourceView } from '../../../electron/bridge.js';
import type { DateFormat } from './format.js';

/** The sizes the people filter offers: at least this many (0: any size). */
export const capacityChoices = [0, 2, 4, 6, 8, 12] as const;

/** The lengths a time to come is looked at for, in minutes. */
export const laterLengths = [30, 60, 90, 120] as const;

const slotMs = 30 * 60_000;

/**
 * The times to come Free now can look at: each half hour after the next slot (which is what "now"
 * books) to the end of the day.
 */
export function laterStarts(nextSlotMs: number, format: DateFormat): string[] {
  const today = format.dayKey(nextSlotMs);
  const starts: string[] = [];
  for (let ms = nextSlotMs + slotMs; format.dayKey(ms) === today; ms += slotMs) starts.push(new Date(ms).toISOString());
  return starts;
}

/**
 * When something opens, as short as the day allows: `08:00` today, `tomorrow 08:00`, else the
 * weekday (`Mon 08:00`); Free now looks a week ahead at most.
 */
export function openingWords(opensAt: string, nowMs: number, format: DateFormat): string {
  const dayNumber = (key: string) => Date.parse(`${key}T00:00:00Z`) / 86_400_000;
  const day = format.dayKey(opensAt);
  const days = dayNumber(day) - dayNumber(format.dayKey(nowMs));
  const time = format.time(opensAt);
  if (days <= 0) return time;
  if (days === 1) return `tomorrow ${time}`;
  return `${format.weekday(new Date(Date.parse(`${day}T00:00:00Z`)).getUTCDay())} ${time}`;
}

const peopleWords = (count: number) => `${count} ${count === 1 ? 'person' : 'people'}`;

/**
 * What kind of resource, how many it holds and where: "Floor 1 rooms · 6 people · Head office,
 * floor 1". The kind is its innermost resource group (2.9 servers have no resource types: server-facts D).
 */
export function resourceSummary(resource: FreeResourceView): string {
  const kind = resource.groupNames.at(-1) ?? '';
  const size = resource.capacity === null ? '' : peopleWords(resource.capacity);
  return [kind, size, resource.location].filter((part) => part !== '').join(' · ');
}

/** Everything the text filter looks in: name, kind, place and features ("Floor 2"). */
function searchText(resource: FreeResourceView): string {
  const features = resource.features.map(({ label, value }) => `${label} ${value}`);
  return [resource.name, resource.location, ...resource.groupNames, ...features].join('\n').toLocaleLowerCase();
}

/**
 * The rows that match every word typed (in the name, kind, place or a feature: "floor 2 screen")
 * and hold at least `people` (0: any size; a resource that does not say how many it holds is left
 * out once a size is asked for).
 */
export function freeNowMatches(resources: readonly FreeResourceView[], query: string, people: number): FreeResourceView[] {
  const words = query.trim().toLocaleLowerCase().split(/\s+/).filter(Boolean);
  return resources.filter((resource) => {
    if (people > 0 && (resource.capacity === null || resource.capacity < people)) return false;
    const text = searchText(resource);
    return words.every((word) => text.includes(word));
  });
}
