/**
 * The one-click bookings offered under "Free now". Servers refuse a start in the past and any
 * start that is not a slot boundary, and the current slot began before now, so a booking made
 * "now" starts at the next boundary. The demo schedules (and most real ones) use 30-minute slots;
 * a schedule with other slots gets the core's own message, shown verbatim.
 */
import type { BookRequest, FreeResourceView } from '../../../electron/bridge.js';
import type { DateFormat } from './format.js';

const minuteMs = 60_000;
const slotMinutes = 30;

export interface QuickChoice {
  /** What the button shows: `30 min`, `Until 12:00`. */
  label: string;
  /** The button's accessible name, which says when the booking starts. */
  description: string;
  start: string;
  end: string;
  request: BookRequest;
}

/** The minutes past midnight of `ms` on the wall clock of `timeZone`. */
function wallMinutes(ms: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).formatToParts(new Date(ms));
  const value = (type: string) => Number(parts.find((part) => part.type === type)?.value ?? 0);
  return value('hour') * 60 + value('minute');
}

/** The first slot boundary strictly after `nowMs`, on the wall clock of `timeZone` (zones with odd offsets included). */
function nextSlotStart(nowMs: number, timeZone: string, minutes: number = slotMinutes): number {
  const minuteStart = nowMs - (((nowMs % minuteMs) + minuteMs) % minuteMs);
  const past = wallMinutes(minuteStart, timeZone) % minutes;
  return minuteStart + (minutes - past) * minuteMs;
}

/**
 * 30 min and 1 h, each only when the resource is known to be free that long, and "until the next
 * booking" when that booking is known and later today. With no booking known ahead (freeUntil
 * null), both durations are offered; the server refuses one that meets a booking, in its words.
 */
export function quickChoices(resource: FreeResourceView, nowMs: number, format: DateFormat): QuickChoice[] {
  const startMs = nextSlotStart(nowMs, format.timeZone);
  const start = new Date(startMs).toISOString();
  const from = format.time(start);
  const untilMs = resource.freeUntil === null ? Number.POSITIVE_INFINITY : Date.parse(resource.freeUntil);
  const choices: QuickChoice[] = [
    { minutes: 30, label: '30 min', spoken: '30 minutes' },
    { minutes: 60, label: '1 h', spoken: '1 hour' },
  ]
    .filter(({ minutes }) => startMs + minutes * minuteMs <= untilMs)
    .map(({ minutes, label, spoken }) => ({
      label,
      description: `Book ${resource.name} for ${spoken} from ${from}`,
      start,
      end: new Date(startMs + minutes * minuteMs).toISOString(),
      request: { resourceId: resource.resourceId, start, durationMinutes: minutes, title: '' },
    }));
  // Past today freeUntil is only the end of the look-ahead, not a time anyone books to; and an
  // "until" equal to a quick choice would be the same button twice.
  const repeats = choices.some((choice) => Date.parse(choice.end) === untilMs);
  if (resource.freeUntil !== null && untilMs > startMs && !repeats && format.dayKey(untilMs) === format.dayKey(startMs)) {
    const until = format.time(resource.freeUntil);
    choices.push({
      label: `Until ${until}`,
      description: `Book ${resource.name} from ${from} until ${until}`,
      start,
      end: resource.freeUntil,
      request: { resourceId: resource.resourceId, start, end: resource.freeUntil, title: '' },
    });
  }
  return choices;
}
