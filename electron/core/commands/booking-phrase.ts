/**
 * "Type to book": a line typed in the popover's field read as a booking ("desk tomorrow 14:00 for
 * 90 min", "room for 6 at 3pm for 1h", "tmrw 9–10:30 severn"), or found not to be one, so that it
 * stays a filter ("floor 3", "thames", "desk 30").
 *
 * Pure: the moment, the user's clock and the resources are given; nothing is asked of a server and
 * no clock is read. Every choice a line leaves open (a bare "3", a weekday that is today, a time
 * that has passed) is decided here and said in `ambiguities`, so the preview can show it before
 * anything is booked.
 */
import { DateTime } from 'luxon';
import { createTimeFormat, durationWords, type TimeFormat } from '../../bridge/format.js';
import type { ResourceCardView, TimeFormatRules } from '../../bridge/contract.js';
import { wordsOf } from '../../bridge/words.js';
import { resourceKindOf, type NamedKind } from '../views/resource-kind.js';

/** A resource the user may book, as the phrase can name it. */
export interface PhraseResource {
  id: number;
  name: string;
  /** What it is, where known (see `resourceKindOf`). */
  kind: NamedKind | null;
  /** How many people it holds; null where not known. */
  capacity: number | null;
  /** Other words that find it, as the filter's: its place, schedule and groups. */
  keywords: readonly string[];
}

export interface PhraseContext {
  /** The moment the line is read at, in the user's zone. */
  now: DateTime;
  /** How the user writes times: a 12-hour clock makes "9" a morning or an evening to decide. */
  timeFormat: TimeFormatRules;
  resources: readonly PhraseResource[];
}

/** What the line asks to book. */
export type ResourceWish =
  /** Named ("Thames", "severn"): the resources whose words the line's words begin, in the order given. */
  | { by: 'name'; words: string; ids: number[] }
  /** Any of a kind and size ("a desk", "room for 6", or nothing said): the resources that fit, in the order given. */
  | { by: 'kind'; kind: NamedKind | null; minCapacity: number | null; ids: number[] }
  /** Words that name no resource the user may book: said, never guessed. */
  | { by: 'unknown'; words: string };

/** A part of the line and what it was read as: `tmrw` → `Thu 27 Nov`. */
export interface UnderstoodPart {
  text: string;
  meaning: string;
}

export interface BookingIntent {
  resource: ResourceWish;
  /** Null when the line names a day but no time ("thames friday"): the preview asks for one. */
  start: DateTime | null;
  end: DateTime | null;
  /** The end was said ("until 15:00", "9–10:30"), rather than a length or nothing: moving the start keeps it. */
  endSaid: boolean;
  /** The calendar day of the start, `YYYY-MM-DD` in the user's zone. */
  day: string;
  understood: UnderstoodPart[];
  /** Choices the line left open, decided and said ("“at 3” read as 15:00"). */
  ambiguities: string[];
}

/** A booking with no length said lasts this long: the one-click buttons' length. */
export const defaultLengthMinutes = 30;

/** The phrase's view of a Free now card. */
export function phraseResourceOf(card: ResourceCardView): PhraseResource {
  return {
    id: card.resourceId,
    name: card.name,
    kind: resourceKindOf(card),
    capacity: card.capacity,
    keywords: [card.location, card.scheduleName, ...card.groupNames, ...card.features.map(({ label, value }) => `${label} ${value}`)],
  };
}

/** A clock time as typed, before the day and the hour cycle decide it. */
interface TypedClock {
  text: string;
  hour: number;
  minute: number;
  meridiem: 'am' | 'pm' | null;
  /** Written as a 24-hour clock would: "09:00", "14:00", "0:30". */
  twentyFourHour: boolean;
}

const clockPattern = String.raw`(?:\d{1,2}(?::\d{2})?(?:\s*[ap]m)?|noon|midday|midnight)`;

function typedClock(text: string): TypedClock {
  const word = text.trim();
  if (word === 'noon' || word === 'midday') return { text: word, hour: 12, minute: 0, meridiem: null, twentyFourHour: true };
  if (word === 'midnight') return { text: word, hour: 0, minute: 0, meridiem: null, twentyFourHour: true };
  const [, hour, minute, meridiem] = /^(\d{1,2})(?::(\d{2}))?\s*([ap]m)?$/.exec(word)!;
  const hours = Number(hour);
  return {
    text: word,
    hour: hours,
    minute: Number(minute ?? 0),
    meridiem: (meridiem as 'am' | 'pm' | undefined) ?? null,
    twentyFourHour: hours > 12 || hours === 0 || /^0\d/.test(hour!),
  };
}

const numberWords: Record<string, number> = { a: 1, an: 1, one: 1, two: 2, three: 3 };

const durationPattern = String.raw`(?:half\s+an?\s+hour|(?:an?|one|two|three)\s+hours?(?:\s+and\s+a\s+half)?|\d+(?:\.\d+)?\s*(?:hours?|hrs?|h)(?:\s*\d{1,2}\s*(?:minutes?|mins?|m)?)?|\d+\s*(?:minutes?|mins?|m))`;

/** Minutes of a duration matched by `durationPattern`. */
function durationMinutes(text: string): number {
  if (/^half/.test(text)) return 30;
  const spelled = /^(an?|one|two|three)\s+hours?(\s+and\s+a\s+half)?$/.exec(text);
  if (spelled) return numberWords[spelled[1]!]! * 60 + (spelled[2] ? 30 : 0);
  const hours = /^(\d+(?:\.\d+)?)\s*(?:hours?|hrs?|h)(?:\s*(\d{1,2}))?/.exec(text);
  if (hours) return Math.round(Number(hours[1]) * 60) + Number(hours[2] ?? 0);
  return Number(/^\d+/.exec(text)![0]);
}

const weekdays = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
/** Short forms people type; the luxon weekday is the index + 1. */
const weekdayPattern = String.raw`(?:mon(?:day)?|tue(?:s|sday)?|wed(?:s|nesday)?|thu(?:r|rs|rsday)?|fri(?:day)?|sat(?:urday)?|sun(?:day)?)`;
const shortWeekdayPattern = String.raw`(?:mon|tues?|weds?|thu|thur|thurs|fri|sat|sun)`;
const weekdayOf = (word: string) => weekdays.findIndex((day) => day.startsWith(word.slice(0, 3))) + 1;
const dayPattern = String.raw`(?:today|tonight|tomorrow|tomorow|tmrw|tmr|(?:on\s+)?(?:(?:next|this)\s+)?${weekdayPattern})`;

/** Words that say nothing about what or when: "book me a desk at 3". */
const fillerWords = new Set([
  'a',
  'an',
  'the',
  'on',
  'at',
  'for',
  'book',
  'me',
  'please',
  'from',
  'i',
  'need',
  'want',
  'with',
  'in',
  'and',
  'to',
  'of',
  'us',
  'get',
  'reserve',
  'some',
  'any',
]);

const kindWords: Record<string, NamedKind> = {
  room: 'room',
  rooms: 'room',
  desk: 'desk',
  desks: 'desk',
  hotdesk: 'desk',
  equipment: 'equipment',
  // "meeting room": the kind said twice.
  meeting: 'room',
};

/** Whether every typed word begins a word of the resource's name or keywords, as the filter finds. */
function named(resource: PhraseResource, typed: readonly string[]): boolean {
  const words = [resource.name, ...resource.keywords].flatMap(wordsOf);
  return typed.every((word) => words.some((candidate) => candidate.startsWith(word)));
}

/** A part of the line and where it begins. */
type TypedPart = { 0: string; index: number };

/** The line with each part read blanked out (so positions hold), and the parts read in the order typed. */
class Reading {
  rest: string;
  private readonly parts: (UnderstoodPart & { at: number })[] = [];
  constructor(line: string) {
    this.rest = ` ${line} `;
  }
  /** Blanks out the first match of `pattern` (a regex source, matched as whole words) and returns it. */
  take(pattern: string): RegExpExecArray | null {
    const match = new RegExp(String.raw`(?<=[\s,])${pattern}(?=[\s,])`).exec(this.rest);
    if (match) this.rest = this.rest.slice(0, match.index) + ' '.repeat(match[0].length) + this.rest.slice(match.index + match[0].length);
    return match;
  }
  said(match: TypedPart, meaning: string) {
    this.parts.push({ text: match[0].trim(), meaning, at: match.index });
  }
  /** The words left over once times and sizes are read, but for fillers: one part, at where the first was typed. */
  leftover(): { words: string[]; part: TypedPart } {
    const words = wordsOf(this.rest).filter((word) => !fillerWords.has(word));
    const found = new RegExp(String.raw`[^\s,]*${words[0] ?? ''}`).exec(this.rest);
    return { words, part: { 0: words.join(' '), index: found?.index ?? this.rest.length } };
  }
  get understood(): UnderstoodPart[] {
    return [...this.parts].sort((a, b) => a.at - b.at).map(({ text, meaning }) => ({ text, meaning }));
  }
}

/**
 * The line read as a booking, or null when it is not one and stays a filter. A line is a booking
 * once it says when (a time, a range, a length, "now", "in 15 min" or a day); a name or a size
 * alone ("thames", "room for 6", "desk 30") is what the filter is for.
 */
export function readBookingPhrase(line: string, context: PhraseContext): BookingIntent | null {
  const zone = context.now.zoneName ?? 'UTC';
  const format = createTimeFormat(context.timeFormat, zone);
  const twelveHour = context.timeFormat.hourCycle === 'h11' || context.timeFormat.hourCycle === 'h12';
  const now = context.now.startOf('minute');
  const ambiguities: string[] = [];
  const reading = new Reading(
    line
      .toLocaleLowerCase()
      .replace(/[–—]/g, '-')
      .replace(/\b([ap])\.m\.?/g, '$1m')
      .replace(/\s+/g, ' '),
  );

  // Longest forms first, so a part of one is not read as another: "in 15 min" is a start, not a
  // length; "9-10:30" a range, not two times; "for 90 min" a length, "for 6" a size.
  let startIn: number | null = null;
  const relative = reading.take(String.raw`in\s+(${durationPattern})`);
  if (relative) {
    startIn = durationMinutes(relative[1]!);
    reading.said(relative, `in ${durationWords(startIn)}`);
  }

  let fromClock: TypedClock | null = null;
  let untilClock: TypedClock | null = null;
  /** Where the times were typed, to say them in the order typed. */
  let timeTyped: TypedPart | null = null;
  let untilTyped: TypedPart | null = null;
  const range = reading.take(String.raw`(?:from\s+)?(${clockPattern})\s*(?:-|to|until|till|til)\s*(${clockPattern})`);
  if (range) [fromClock, untilClock, timeTyped] = [typedClock(range[1]!), typedClock(range[2]!), range];

  let lengthMinutes: number | null = null;
  const length = reading.take(String.raw`(?:for\s+)?(${durationPattern})`);
  if (length) {
    lengthMinutes = durationMinutes(length[1]!);
    reading.said(length, `for ${durationWords(lengthMinutes)}`);
  }

  let minCapacity: number | null = null;
  const size =
    reading.take(String.raw`(?:for\s+)?(\d+)\s*(?:people|persons?|ppl|pax)`) ??
    reading.take(String.raw`(\d+)\+`) ??
    reading.take(String.raw`for\s+(\d+)`);
  if (size) {
    minCapacity = Number(size[1]);
    reading.said(size, `${minCapacity} ${minCapacity === 1 ? 'person' : 'people'} or more`);
  }

  let dayTyped: TypedPart | null = null;
  // "tomorrow 9", "friday 2": a bare number right after a day is a time, where alone it is a name ("desk 30").
  const dayThenHour = reading.take(String.raw`(${dayPattern})\s+(?:at\s+)?(\d{1,2})`);
  if (dayThenHour) {
    dayTyped = { 0: dayThenHour[1]!, index: dayThenHour.index };
    timeTyped = { 0: dayThenHour[0].slice(dayThenHour[1]!.length), index: dayThenHour.index + dayThenHour[1]!.length };
    fromClock = typedClock(dayThenHour[2]!);
  }
  if (!range && !dayThenHour) {
    // The end first: "until 15:00" is not a start at 15:00.
    const until = reading.take(String.raw`(?:until|till|til|to)\s+(${clockPattern})`);
    if (until) [untilClock, untilTyped] = [typedClock(until[1]!), until];
    const at =
      reading.take(String.raw`(?:at\s+|@\s*)?(\d{1,2}:\d{2}(?:\s*[ap]m)?|\d{1,2}\s*[ap]m|noon|midday|midnight)`) ??
      reading.take(String.raw`(?:at|@)\s*(\d{1,2})`);
    if (at) [fromClock, timeTyped] = [typedClock(at[1]!), at];
  }
  dayTyped ??= reading.take(dayPattern);
  const dayWord = dayTyped?.[0].trim() ?? null;
  const saysNow = reading.take(String.raw`(?:right\s+)?(?:now|asap)`);

  // A short weekday alone ("sun", "wed") is more likely part of a name than a day to book.
  const dayAlone = dayWord !== null && !new RegExp(String.raw`^(?:on\s+)?(?:(?:next|this)\s+)?${shortWeekdayPattern}$`).test(dayWord);
  const saysWhen = fromClock !== null || untilClock !== null || lengthMinutes !== null || startIn !== null || dayAlone || saysNow !== null;
  if (!saysWhen) return null;

  // The day.
  let day = now.startOf('day');
  const tonight = dayWord !== null && /tonight/.test(dayWord);
  if (dayWord !== null) {
    day = dayOf(dayWord.replace(/^on\s+/, ''), now, ambiguities, format);
    reading.said(dayTyped!, tonight ? 'this evening' : day.hasSame(now, 'day') ? 'today' : format.shortDate(day.toMillis()));
  }

  // The start.
  let start: DateTime | null = null;
  if (fromClock !== null && startIn !== null) ambiguities.push(`both a time and “${relative![0].trim()}” given: the time kept`);
  if (fromClock !== null) {
    const hour = hourOf(
      fromClock,
      { twelveHour, evening: tonight, untilClock, passedBy: dayWord === null ? now : null },
      ambiguities,
      format,
      day,
    );
    start = day.set({ hour, minute: fromClock.minute });
  } else if (startIn !== null) start = now.plus({ minutes: startIn });
  else if (saysNow !== null || lengthMinutes !== null || untilClock !== null) {
    // A length or an end alone ("for 1h", "until 15:00") starts now, on the day said.
    start = day.hasSame(now, 'day') ? now : null;
  }
  if (saysNow) reading.said(saysNow, 'now');

  // The end.
  let end: DateTime | null = null;
  if (start !== null && untilClock !== null) {
    end = endOf(untilClock, start, ambiguities, format);
    if (lengthMinutes !== null)
      ambiguities.push(`both an end and a length given: ${format.time(end.toMillis())} kept, ${durationWords(lengthMinutes)} left out`);
  } else if (start !== null) {
    if (lengthMinutes === null) ambiguities.push(`no length given: ${durationWords(defaultLengthMinutes)}`);
    end = start.plus({ minutes: lengthMinutes ?? defaultLengthMinutes });
  }
  if (start !== null && end !== null) {
    if (timeTyped !== null)
      reading.said(
        timeTyped,
        untilClock && !untilTyped ? `${format.time(start.toMillis())}–${format.time(end.toMillis())}` : format.time(start.toMillis()),
      );
    if (untilTyped !== null) reading.said(untilTyped, `until ${format.time(end.toMillis())}`);
  }
  if (fromClock === null && startIn === null && saysNow === null && start !== null) ambiguities.push('no start given: from now');
  if (start !== null && start < now)
    ambiguities.push(`${format.time(start.toMillis())} ${day.hasSame(now, 'day') ? 'today' : format.shortDate(day.toMillis())} has passed`);
  if (start === null && fromClock === null) ambiguities.push('no time given');

  const resource = wishOf(reading, minCapacity, context.resources, ambiguities);
  return {
    resource,
    start,
    end,
    endSaid: untilClock !== null,
    day: (start ?? day).toISODate()!,
    understood: reading.understood,
    ambiguities,
  };
}

/** The day a day word names, seen from `now`. */
function dayOf(word: string, now: DateTime, ambiguities: string[], format: TimeFormat): DateTime {
  const today = now.startOf('day');
  if (/^(today|tonight)$/.test(word)) return today;
  if (/^(tomorrow|tomorow|tmrw|tmr)$/.test(word)) return today.plus({ days: 1 });
  const [, which, name] = /^(?:(next|this)\s+)?(\S+)$/.exec(word)!;
  const weekday = weekdayOf(name!);
  if (which === 'next') {
    // "next Monday" is the Monday of next week: said, as some mean the coming one.
    const inNextWeek = today.startOf('week').plus({ weeks: 1, days: weekday - 1 });
    const coming = today.plus({ days: (weekday - today.weekday + 7) % 7 || 7 });
    if (!coming.hasSame(inNextWeek, 'day'))
      ambiguities.push(`“${word}” read as ${format.shortDate(inNextWeek.toMillis())}, not ${format.shortDate(coming.toMillis())}`);
    return inNextWeek;
  }
  // A weekday alone is the next such day; today's own name is today, said.
  const ahead = (weekday - today.weekday + 7) % 7;
  if (ahead === 0 && which !== 'this') ambiguities.push(`“${word}” read as today, not next week`);
  return today.plus({ days: ahead });
}

interface HourRules {
  twelveHour: boolean;
  /** "tonight": a bare hour is in the evening. */
  evening: boolean;
  /** The end of a range: its am/pm tells the start's ("2-4pm"). */
  untilClock: TypedClock | null;
  /** No day was said: on a 12-hour clock, a bare "9" that has passed by then is the evening's. */
  passedBy: DateTime | null;
}

/** The hour (0–23) a typed start means. */
function hourOf(clock: TypedClock, rules: HourRules, ambiguities: string[], format: TimeFormat, day: DateTime): number {
  const meridiem = clock.meridiem ?? rangeMeridiem(clock, rules.untilClock);
  if (meridiem !== null) return (clock.hour % 12) + (meridiem === 'pm' ? 12 : 0);
  if (clock.twentyFourHour) return clock.hour;
  let hour = clock.hour;
  // Without am or pm, 1 to 6 is an afternoon's (nobody books a desk at 3 in the night), 7 to 11 a
  // morning's unless "tonight" says otherwise; 12 is noon.
  if (hour <= 6 || rules.evening) hour = hour === 12 ? 12 : hour + 12;
  const passed = (at: number) => rules.passedBy !== null && day.set({ hour: at, minute: clock.minute }) < rules.passedBy;
  if (rules.twelveHour && hour < 12 && passed(hour) && !passed(hour + 12)) {
    hour += 12;
    ambiguities.push(
      `“${clock.text}” read as ${format.time(day.set({ hour, minute: clock.minute }).toMillis())}: the morning's has passed`,
    );
    return hour;
  }
  const meant = day.set({ hour, minute: clock.minute }).toMillis();
  // 12 is noon on either clock; any other hour could be a morning's or an evening's.
  if (hour !== clock.hour || (rules.twelveHour && clock.hour !== 12)) {
    const other = day.set({ hour: (hour + 12) % 24, minute: clock.minute }).toMillis();
    ambiguities.push(`“${clock.text}” read as ${format.time(meant)}, not ${format.time(other)}`);
  }
  return hour;
}

/** "2-4pm": a start without am or pm takes the end's, unless that would put it after the end ("11-1pm"). */
function rangeMeridiem(from: TypedClock, until: TypedClock | null): 'am' | 'pm' | null {
  if (until?.meridiem == null || from.twentyFourHour) return null;
  if (from.hour % 12 <= until.hour % 12) return until.meridiem;
  return until.meridiem === 'pm' ? 'am' : 'pm';
}

/** The end a typed "until" means: the first such time after the start; one on the next day is said. */
function endOf(until: TypedClock, start: DateTime, ambiguities: string[], format: TimeFormat): DateTime {
  const at = (hour: number) => start.set({ hour, minute: until.minute });
  const hours =
    until.meridiem !== null
      ? [(until.hour % 12) + (until.meridiem === 'pm' ? 12 : 0)]
      : until.twentyFourHour
        ? [until.hour]
        : [until.hour % 12, (until.hour % 12) + 12];
  const sameDay = hours.map(at).find((end) => end > start);
  if (sameDay) return sameDay;
  const nextDay = at(hours[0]!).plus({ days: 1 });
  if (until.text !== 'midnight')
    ambiguities.push(`ends the next day, ${format.shortDate(nextDay.toMillis())} ${format.time(nextDay.toMillis())}`);
  return nextDay;
}

/** What the words left over (neither time nor size) ask for. */
function wishOf(reading: Reading, minCapacity: number | null, resources: readonly PhraseResource[], ambiguities: string[]): ResourceWish {
  const { words, part } = reading.leftover();
  const kinds = [...new Set(words.flatMap((word) => (kindWords[word] ? [kindWords[word]] : [])))];
  const kind = kinds.length === 1 ? kinds[0]! : null;
  const fits = (resource: PhraseResource) => minCapacity === null || (resource.capacity !== null && resource.capacity >= minCapacity);
  const nameWords = words.filter((word) => !kindWords[word]);
  if (nameWords.length === 0) {
    if (kind !== null) reading.said(part, `any ${kind}`);
    const ids = resources.filter((resource) => (kind === null || resource.kind === kind) && fits(resource)).map((resource) => resource.id);
    return { by: 'kind', kind, minCapacity, ids };
  }
  // "Thames room": the kind word may be part of the name or only say what it is.
  const byAllWords = resources.filter((resource) => named(resource, words));
  const matches =
    byAllWords.length > 0
      ? byAllWords
      : resources.filter((resource) => (kind === null || resource.kind === kind) && named(resource, nameWords));
  const typed = words.join(' ');
  if (matches.length === 0) return { by: 'unknown', words: typed };
  const fitting = matches.filter(fits);
  if (fitting.length < matches.length && minCapacity !== null) {
    ambiguities.push(
      fitting.length === 0
        ? `no “${typed}” holds ${minCapacity} people`
        : `${matches.length - fitting.length} “${typed}” too small for ${minCapacity} left out`,
    );
  }
  const ids = (fitting.length > 0 ? fitting : matches).map((resource) => resource.id);
  reading.said(part, ids.length === 1 ? resources.find((resource) => resource.id === ids[0])!.name : `${ids.length} resources`);
  return { by: 'name', words: typed, ids };
}
