/**
 * What one click on a free resource does, decided once for both sides: the popover's Free now and
 * the tray's Book now offer the same actions, with the same words.
 *
 * Servers refuse a start in the past and any start that is not a slot boundary, and the current
 * slot began before now, so a booking made "now" starts at the next boundary. The demo schedules
 * (and most real ones) use 30-minute slots; a schedule with other slots gets the core's own
 * message, shown verbatim. Each action says exactly what it books ("12:00–12:30", or "now–12:30"
 * when that boundary is within the minute). Where one click cannot succeed — the resource needs
 * approval or a reservation attribute, or its length limits rule out every quick length — the
 * action is "Book…", which opens the Book form filled in.
 */
import type { BookDraft, BookRequest, FreeResourceView } from './contract.js';
import { durationWords, type TimeFormat } from './format.js';

const minuteMs = 60_000;
const slotMinutes = 30;
const quickMinutes = [30, 60] as const;

export type QuickAction =
  | {
      kind: 'book';
      /** What the control shows: `12:00–12:30`, `now–12:30`. */
      label: string;
      /** Its accessible name, which holds the label: `Book Thames (1.01) 12:00–12:30`. */
      description: string;
      start: string;
      end: string;
      request: BookRequest;
    }
  | {
      kind: 'form';
      label: string;
      /** Why one click cannot book it: `needs approval and a cost centre`. */
      reason: string;
      /** `Book… Boardroom: needs approval and a Cost centre`. */
      description: string;
      draft: BookDraft;
    };

/** What the "Book…" control shows. */
export const bookFormLabel = 'Book…';

/** The minutes past midnight of `ms` on the wall clock of `timeZone`. */
function wallMinutes(ms: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).formatToParts(
    new Date(ms),
  );
  const value = (type: string) => Number(parts.find((part) => part.type === type)?.value ?? 0);
  return value('hour') * 60 + value('minute');
}

/** The first slot boundary strictly after the minute of `nowMs`, on the wall clock of `timeZone` (zones with odd offsets included). */
export function nextSlotStart(nowMs: number, timeZone: string, minutes: number = slotMinutes): number {
  const minuteStart = nowMs - (((nowMs % minuteMs) + minuteMs) % minuteMs);
  const past = wallMinutes(minuteStart, timeZone) % minutes;
  return minuteStart + (minutes - past) * minuteMs;
}

/** `now–12:30` when the booking starts within the minute, else `12:00–12:30`. */
export function rangeLabel(startMs: number, endMs: number, nowMs: number, format: TimeFormat): string {
  return startMs - nowMs <= minuteMs ? `now–${format.time(endMs)}` : format.timeRange(startMs, endMs);
}

const withinLimits = (resource: FreeResourceView, minutes: number) =>
  (resource.minLengthMinutes === null || minutes >= resource.minLengthMinutes) &&
  (resource.maxLengthMinutes === null || resource.maxLengthMinutes <= 0 || minutes <= resource.maxLengthMinutes);

/** A time to come the user asked about: "free at 14:00 for 1 h". */
export interface LaterTime {
  startMs: number;
  minutes: number;
}

/**
 * 30 min and 1 h, each only when the resource is known to be free that long and its limits allow
 * it, and "until the next booking" when that booking is known and later today. With no booking
 * known ahead (freeUntil null), both lengths are offered; the server refuses one that meets a
 * booking, in its words. For a time to come (`later`), the one booking of that time. A resource
 * one click cannot book gets one "Book…" instead.
 */
export function quickActions(resource: FreeResourceView, nowMs: number, format: TimeFormat, later: LaterTime | null = null): QuickAction[] {
  const startMs = later?.startMs ?? nextSlotStart(nowMs, format.timeZone);
  const lengths: readonly number[] = later === null ? quickMinutes : [later.minutes];
  const start = new Date(startMs).toISOString();
  const untilMs = resource.freeUntil === null ? Number.POSITIVE_INFINITY : Date.parse(resource.freeUntil);
  const book = (endMs: number, request: BookRequest): QuickAction => {
    const label = rangeLabel(startMs, endMs, nowMs, format);
    return { kind: 'book', label, description: `Book ${resource.name} ${label}`, start, end: new Date(endMs).toISOString(), request };
  };
  const fitting = lengths.filter((minutes) => startMs + minutes * minuteMs <= untilMs);
  const allowed = fitting.filter((minutes) => withinLimits(resource, minutes));
  const needsForm = resource.needsForm ?? (fitting.length > 0 && allowed.length === 0 ? lengthReason(resource) : null);
  if (needsForm !== null) {
    const minutes = fitting.find((length) => withinLimits(resource, length)) ?? resource.minLengthMinutes ?? lengths[0] ?? quickMinutes[0];
    return [
      {
        kind: 'form',
        label: bookFormLabel,
        reason: needsForm,
        description: `${bookFormLabel} ${resource.name}: ${needsForm}`,
        draft: { resourceId: resource.resourceId, start, durationMinutes: minutes },
      },
    ];
  }
  const actions = allowed.map((minutes) =>
    book(startMs + minutes * minuteMs, { resourceId: resource.resourceId, start, durationMinutes: minutes, title: '' }),
  );
  // Free all day, freeUntil is only the schedule's closing time (or the end of the look-ahead),
  // not a time anyone books to; and an "until" equal to a quick length would be the same action twice.
  const untilMinutes = Math.round((untilMs - startMs) / minuteMs);
  const repeats = allowed.some((minutes) => minutes === untilMinutes);
  if (
    later === null &&
    !resource.freeAllDay &&
    resource.freeUntil !== null &&
    untilMs > startMs &&
    !repeats &&
    withinLimits(resource, untilMinutes) &&
    format.dayKey(untilMs) === format.dayKey(startMs)
  ) {
    actions.push(book(untilMs, { resourceId: resource.resourceId, start, end: resource.freeUntil, title: '' }));
  }
  return actions;
}

/** Why no quick length fits the resource's limits, in the words the Book form's durations use. */
function lengthReason(resource: FreeResourceView): string {
  const { minLengthMinutes: min, maxLengthMinutes: max } = resource;
  const hasMax = max !== null && max > 0;
  if (min !== null && hasMax) return `books for ${durationWords(min)} to ${durationWords(max)}`;
  return hasMax ? `books for at most ${durationWords(max)}` : `books for at least ${durationWords(min ?? 0)}`;
}
