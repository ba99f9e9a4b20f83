/**
 * Type to book, against the current data: a line read as a booking (booking-phrase.ts), the
 * resource chosen among those it fits that are free then (ranked as Free now), and the result said
 * in words ("Thames (1.01), tomorrow 14:00–15:30") before Enter books it through `book`, which
 * checks it as every booking is checked.
 */
import { DateTime } from 'luxon';
import { createTimeFormat } from '../../bridge/format.js';
import type {
  BookingOutcome,
  BookPhraseRequest,
  BookRequest,
  BridgeResult,
  FreeAtRequest,
  FreeResourceView,
  PhrasePreview,
  PhraseRequest,
  ResourceCardView,
} from '../../bridge/contract.js';
import type { CommandContext } from './command-context.js';
import type { CommandLookups } from './command-lookups.js';
import { openScheduleIds } from './free-at.js';
import { failure, invalidInput, success } from '../errors.js';
import { isoIn } from '../views/bridge-time.js';
import { phraseResourceOf, readBookingPhrase, type BookingIntent, type ResourceWish } from './booking-phrase.js';

/** Free now books from the next half hour (a slot that has begun cannot be booked by most users); "now" does the same. */
const slotMinutes = 30;
/** A start this close to the half hour is "now" itself, as Free now's "now–12:30". */
const withinTheMinuteMs = 60_000;
/** What freeAt may look at in one request. */
const longestLookMinutes = 24 * 60;

interface PhraseCommands {
  readPhrase(request: PhraseRequest): Promise<BridgeResult<PhrasePreview | null>>;
  bookPhrase(request: BookPhraseRequest): Promise<BridgeResult<BookingOutcome>>;
}

export function createPhraseCommands(
  context: CommandContext,
  lookups: CommandLookups,
  freeAt: (request: FreeAtRequest) => Promise<BridgeResult<FreeResourceView[]>>,
  book: (request: BookRequest) => Promise<BridgeResult<BookingOutcome>>,
): PhraseCommands {
  async function readPhrase({ text }: PhraseRequest): Promise<BridgeResult<PhrasePreview | null>> {
    const view = lookups.signedIn();
    if (!view.ok) return view;
    const { zone } = view.value;
    const now = view.value.now.setZone(zone);
    const snapshot = context.view.snapshot();
    // Every resource the user may book, in Free now's order, so the first that fits is the one Free now would offer.
    const cards: ResourceCardView[] = [...snapshot.freeNow, ...snapshot.notFreeNow];
    const intent = readBookingPhrase(text, { now, timeFormat: snapshot.timeFormat, resources: cards.map(phraseResourceOf) });
    if (intent === null) return success(null);
    const format = createTimeFormat(snapshot.timeFormat, zone);
    const understood = intent.understood;
    const ambiguities = [...intent.ambiguities];
    const nameOf = (id: number) => cards.find((card) => card.resourceId === id)?.name ?? '';
    const preview = (words: string, problem: string | null, extra: Partial<PhrasePreview> = {}): PhrasePreview => ({
      words,
      resourceId: null,
      start: null,
      end: null,
      understood,
      ambiguities,
      problem,
      draft: null,
      ...extra,
    });

    const wanted = wishWords(intent.resource, nameOf);
    if (intent.resource.by === 'unknown') return success(preview(wanted, `Nothing you can book is called “${intent.resource.words}”.`));
    // A name always names someone; a kind and size may fit nobody.
    if (intent.resource.by === 'kind' && intent.resource.ids.length === 0) {
      const { kind, minCapacity } = intent.resource;
      return success(preview(wanted, `No ${kind ?? 'resource'} you can book holds ${minCapacity ?? 0} people.`));
    }
    if (intent.start === null || intent.end === null)
      return success(
        preview(`${wanted}, ${format.shortDate(DateTime.fromISO(intent.day, { zone }).toMillis())}`, 'Add a time, as in “14:00 for 1 h”.'),
      );

    const { start, end } = bookableTimes(intent, now, ambiguities, format);
    const when = `${dayWords(start, now, format)} ${format.timeRange(start.toMillis(), end.toMillis())}`;
    const times = { start: isoIn(zone, start), end: isoIn(zone, end) };
    const minutes = Math.round(end.diff(start, 'minutes').minutes);
    if (start < now.startOf('minute')) return success(preview(`${wanted}, ${when}`, 'That time has passed.', times));

    // Who is free then: one GetReservations per Free now schedule (free-at.ts), never availability.
    const ids = intent.resource.ids;
    let chosen: { id: number; free: FreeResourceView | null } | null = null;
    if (minutes <= longestLookMinutes) {
      const free = await freeAt({ start: times.start, durationMinutes: minutes });
      if (!free.ok) return free;
      const fitting = free.value.find((resource) => ids.includes(resource.resourceId));
      const asked = new Set(openScheduleIds(context, start));
      // A resource in a schedule not asked about may be free: the booking will tell.
      const unknown = ids.find((id) => !asked.has(cards.find((card) => card.resourceId === id)?.scheduleId ?? -1));
      chosen = fitting ? { id: fitting.resourceId, free: fitting } : unknown !== undefined ? { id: unknown, free: null } : null;
    } else chosen = { id: ids[0]!, free: null };
    if (chosen === null)
      return success(
        preview(`${wanted}, ${when}`, ids.length === 1 ? `${nameOf(ids[0]!)} is not free then.` : `No ${wanted} is free then.`, times),
      );

    const words = `${nameOf(chosen.id)}, ${when}`;
    const needsForm = chosen.free?.needsForm ?? null;
    if (needsForm !== null) {
      const draft = { resourceId: chosen.id, start: times.start, durationMinutes: minutes };
      return success(
        preview(words, `${nameOf(chosen.id)} ${needsForm}: finish it in the Book form.`, { resourceId: chosen.id, ...times, draft }),
      );
    }
    return success(preview(words, null, { resourceId: chosen.id, ...times }));
  }

  return {
    readPhrase,
    async bookPhrase({ text, title }) {
      // Read again now: the preview the user saw may be minutes old, and what is free has moved on.
      const read = await readPhrase({ text });
      if (!read.ok) return read;
      const preview = read.value;
      if (preview === null)
        return failure(invalidInput(`“${text}” is not a booking Perch can read: say what and when, as in “desk tomorrow 14:00 for 1 h”.`));
      if (preview.problem !== null || preview.resourceId === null || preview.start === null || preview.end === null) {
        return failure(invalidInput(preview.problem ?? 'Add a time, as in “14:00 for 1 h”.'));
      }
      return book({ resourceId: preview.resourceId, start: preview.start, end: preview.end, title });
    },
  };
}

/** What the line asks for, in words: a name, "desk", "room for 6", "resource". */
function wishWords(wish: ResourceWish, nameOf: (id: number) => string): string {
  if (wish.by === 'unknown') return `“${wish.words}”`;
  if (wish.by === 'name') return wish.ids.length === 1 ? nameOf(wish.ids[0]!) : `“${wish.words}”`;
  const kind = wish.kind ?? 'resource';
  return wish.minCapacity === null ? kind : `${kind} for ${wish.minCapacity}`;
}

/**
 * The times to book: a start at now moves to the next half hour, as Free now's buttons do (a slot
 * under way cannot be booked by most users), keeping an end that was said and otherwise the
 * length; said.
 */
function bookableTimes(
  intent: BookingIntent,
  now: DateTime,
  ambiguities: string[],
  format: ReturnType<typeof createTimeFormat>,
): { start: DateTime; end: DateTime } {
  const start = intent.start!;
  const end = intent.end!;
  // The user's half hours, which are not UTC's in zones half an hour off (India, Newfoundland).
  const moved = start.startOf('hour').plus({ minutes: Math.ceil((start.minute + start.second / 60) / slotMinutes) * slotMinutes });
  const startsNow = Math.abs(start.toMillis() - now.toMillis()) < withinTheMinuteMs;
  if (!startsNow || moved.toMillis() - start.toMillis() < withinTheMinuteMs) return { start, end };
  ambiguities.push(`“now” read as ${format.time(moved.toMillis())}, the next half hour`);
  return { start: moved, end: intent.endSaid && end > moved ? end : moved.plus(end.diff(start)) };
}

/** "today", "tomorrow", else the date: "Fri 27 Nov". */
function dayWords(start: DateTime, now: DateTime, format: ReturnType<typeof createTimeFormat>): string {
  const days = Math.round(start.startOf('day').diff(now.startOf('day'), 'days').days);
  if (days === 0) return 'today';
  if (days === 1) return 'tomorrow';
  return format.shortDate(start.toMillis());
}
