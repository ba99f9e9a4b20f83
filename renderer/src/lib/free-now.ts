/**
 * How Free now reads and filters: what each row says about a resource, and which rows a filter
 * keeps. The order is the core's (electron/core/views/free-now.ts freeNowLists); filters only leave
 * rows out.
 */
import type { ResourceCardView, UnavailableResourceView } from '$bridge/contract.js';
import type { DateFormat } from './format.js';
import { wordsOf } from '$bridge/words.js';

/** The sizes the people filter offers: at least this many (0: any size). */
export const capacityChoices = [0, 2, 4, 6, 8, 12] as const;

/** The lengths Free now books, now or at a time to come, in minutes: the first is what one click books. */
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
export function resourceSummary(resource: ResourceCardView): string {
  const kind = resource.groupNames.at(-1) ?? '';
  const size = resource.capacity === null ? '' : peopleWords(resource.capacity);
  return [kind, size, resource.location].filter((part) => part !== '').join(' · ');
}

/**
 * Everything the text filter looks in, each as its own run of words: name, place, schedule, groups
 * and features (label and value together: "Floor 2").
 */
function searchFields(resource: ResourceCardView): string[][] {
  const features = resource.features.map(({ label, value }) => `${label} ${value}`);
  return [resource.name, resource.location, resource.scheduleName, ...resource.groupNames, ...features].map(wordsOf);
}

/**
 * Whether a typed word is found: its parts ("1.02" is 1 then 02) follow one another in one field,
 * the last the beginning of a word ("1.0" finds "(1.02)", "desk-2" finds "Desk 23").
 */
function found(parts: readonly string[], fields: readonly string[][]): boolean {
  const last = parts.length - 1;
  return fields.some((words) =>
    words.some(
      (_, at) =>
        at + last < words.length &&
        parts.every((part, index) => (index === last ? words[at + index]!.startsWith(part) : words[at + index] === part)),
    ),
  );
}

/** The words of "people" a size is typed with: "8 people", "8 pers", "8 p". */
const sizeWords = ['people', 'persons'];

/**
 * What is typed, read as a filter: the words to find, and a size ("8 people" or "8+": at least
 * that many, as the people filter). A number alone is never a size, so "floor 3" does not find a
 * room on floor 5 that holds three.
 */
function readFilter(query: string): { words: string[][]; people: number } {
  const typed = query.trim().split(/\s+/).filter(Boolean);
  const words: string[][] = [];
  let people = 0;
  for (let index = 0; index < typed.length; index++) {
    const word = typed[index]!.toLocaleLowerCase();
    const size = /^(\d+)(\+?)$/.exec(word);
    const next = typed[index + 1]?.toLocaleLowerCase();
    if (size !== null && next !== undefined && sizeWords.some((sizeWord) => sizeWord.startsWith(next))) {
      people = Math.max(people, Number(size[1]));
      index++;
    } else if (size?.[2] === '+') people = Math.max(people, Number(size[1]));
    else {
      const parts = wordsOf(word);
      if (parts.length > 0) words.push(parts);
    }
  }
  return { words, people };
}

/**
 * The resources where every word typed begins a word of its name, place, schedule, group or
 * features ("floor 2 screen", "S03", "1.02"), holding at least `people` (0: any size; a resource
 * that does not say how many it holds is left out once a size is asked for, typed or chosen).
 */
export function freeNowMatches<Resource extends ResourceCardView>(
  resources: readonly Resource[],
  query: string,
  people: number,
): Resource[] {
  const filter = readFilter(query);
  const atLeast = Math.max(people, filter.people);
  return resources.filter((resource) => {
    if (atLeast > 0 && (resource.capacity === null || resource.capacity < atLeast)) return false;
    if (filter.words.length === 0) return true;
    const fields = searchFields(resource);
    return filter.words.every((parts) => found(parts, fields));
  });
}

/**
 * Why a resource is not free now, and until when: "busy until 14:30", "booked until closing",
 * "closed · opens Mon 08:00", "not checked yet" (its schedule has not been asked yet).
 */
export function notFreeWords(resource: UnavailableResourceView, nowMs: number, format: DateFormat): string {
  const until = resource.freeFrom === null ? null : openingWords(resource.freeFrom, nowMs, format);
  switch (resource.reason) {
    case 'busy':
      return until === null ? 'booked until closing' : `busy until ${until}`;
    case 'closed':
      return until === null ? 'closed' : `closed · opens ${until}`;
    case 'notAsked':
      return 'not checked yet';
  }
}

/**
 * How many rows of a long list to show at first: all of them when a few more than `limit`,
 * otherwise `limit` (the rest one click away), so hundreds of rows do not fill the popover.
 */
export function firstRowCount(total: number, limit: number): number {
  return total <= limit + Math.ceil(limit / 3) ? total : limit;
}

/**
 * Whether "free all day" tells something in a list: only where it is the exception, when most
 * rows end sooner ("until 14:00"); on a list that is free all day nearly everywhere it is noise.
 */
export function saysAllDay<Resource>(rows: readonly Resource[], isAllDay: (resource: Resource) => boolean): boolean {
  const allDay = rows.filter(isAllDay).length;
  return allDay > 0 && allDay * 2 < rows.length;
}
