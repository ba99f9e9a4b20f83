/**
 * Free now, worked out from what the schedules answered: which resources the user may book are
 * free at a moment (or over a time to come) and until when, and why each of the others is not.
 * Pure: it takes the moment, the answers and the reference data.
 */
import { DateTime } from 'luxon';
import { parseHumanDuration } from '../../api/durations.js';
import { AttributeCategory } from '../../api/schemas/attributes.js';
import { ResourceStatus } from '../../api/schemas/resources.js';
import type {
  FreeNowClosedView,
  FreeResourceView,
  ResourceCardView,
  ResourceFace,
  UnavailableResourceView,
} from '../../bridge/contract.js';
import type { ScheduleHours } from '../core-state.js';
import { nextOpening, openingAt, type Opening } from './opening-hours.js';
import { isoIn, isoOrNull } from './bridge-time.js';
import { unknownFace } from './resource-views.js';
import { wireInstant } from '../../api/dates.js';
import type { WireAttribute, WireResource, WireSchedule, WireSummary } from '../../api/wire.js';

export interface FreeNowContext {
  zone: string;
  /** The moment asked about (now), or the start of a time asked about. */
  now: DateTime;
  /** The end of the time asked about ("free at 14:00 for 1 h"); absent for the moment itself. */
  windowEnd?: DateTime;
  resources: readonly WireResource[];
  schedules: readonly WireSchedule[];
  groupNames: ReadonlyMap<number, readonly string[]>;
  /** The user's own reservations: a later one of theirs on a free resource says until when it is free, and what they booked lately leads. */
  own: readonly WireSummary[];
  /** The schedules' layouts, where known: a closed schedule has nothing free, and an open one is free until it closes. */
  hours: readonly ScheduleHours[];
  /** Reservation attributes: a required one that applies to a resource means one click cannot book it. */
  reservationAttributes: readonly WireAttribute[];
  favouriteResourceIds: readonly number[];
  /** Each resource's icon and colour by id (resource-kind.ts). */
  faces: ReadonlyMap<number, ResourceFace>;
  isAdmin: boolean;
  /** Whether the user may book the resource: one granted "view only" is not offered (see bookable.ts). */
  mayBook: (resourceId: number) => boolean;
}

/**
 * One schedule's answer: every reservation of it from the moment it was asked about to `until`
 * (its closing time, for Free now; the end of the time asked about, for a time to come).
 */
export interface BusyAnswer {
  scheduleId: number;
  until: DateTime;
  reservations: readonly WireSummary[];
}

/** "Cost centre" reads "a cost centre" inside a sentence; an acronym ("PO number") keeps its capitals. */
const inSentence = (label: string) => (/^[A-Z][a-z]/.test(label) ? label[0]!.toLocaleLowerCase() + label.slice(1) : label);

/** Why one click cannot book the resource ("needs approval and a cost centre"); null when it can. */
export function oneClickObstacle(resource: WireResource, attributes: readonly WireAttribute[], isAdmin: boolean): string | null {
  const required = attributes
    .filter((attribute) => attribute.required && (isAdmin || !attribute.adminOnly))
    .filter(
      (attribute) =>
        attribute.secondaryCategoryId !== AttributeCategory.resource || attribute.secondaryEntityIds.includes(resource.resourceId),
    )
    .map((attribute) => `a ${inSentence(attribute.label)}`);
  const needs = [...(resource.requiresApproval ? ['approval'] : []), ...required];
  if (needs.length === 0) return null;
  const last = needs.pop()!;
  return `needs ${needs.length > 0 ? `${needs.join(', ')} and ${last}` : last}`;
}

/** A booking as epoch milliseconds. */
interface Span {
  startMs: number;
  endMs: number;
}

/** Where one resource stands at the moment asked about. */
type Standing =
  | { kind: 'free'; nextStartMs: number | null; closesMs: number | null; openEnded: boolean; coveredToMs: number }
  | { kind: 'busy'; freeFromMs: number | null }
  | { kind: 'closed'; opensAt: DateTime | null }
  | { kind: 'notAsked' };

/**
 * The end of the bookings under way at `fromMs`, following those that meet end to start; null when
 * they run to the end of what was asked (`coveredToMs`) or past the closing time, where what
 * comes next is not known.
 */
function freeAgainMs(spans: readonly Span[], fromMs: number, coveredToMs: number, closesMs: number | null): number | null {
  let atMs = fromMs;
  for (let moved = true; moved;) {
    moved = false;
    for (const span of spans) {
      if (span.startMs <= atMs && span.endMs > atMs) {
        atMs = span.endMs;
        moved = true;
      }
    }
  }
  return atMs >= coveredToMs || (closesMs !== null && atMs >= closesMs) ? null : atMs;
}

/**
 * Each listed reservation's span, read once: the answers stay the same objects from poll to poll,
 * and every snapshot (hundreds of resources on a large server) asks again.
 */
const spansRead = new WeakMap<WireSummary, Span | null>();

function spanOf(summary: WireSummary): Span | null {
  let span = spansRead.get(summary);
  if (span === undefined) {
    const startMs = wireInstant(summary.startDate)?.toMillis();
    const endMs = wireInstant(summary.endDate)?.toMillis();
    span = startMs === undefined || endMs === undefined ? null : { startMs, endMs };
    spansRead.set(summary, span);
  }
  return span;
}

/** Every resource the user may book, with where it stands at the moment asked about. */
function standings(answers: readonly BusyAnswer[], context: FreeNowContext): { resource: WireResource; standing: Standing }[] {
  const fromMs = context.now.toMillis();
  // A moment is the millisecond it names: what starts at it is busy, what ends at it is not.
  const toMs = context.windowEnd?.toMillis() ?? fromMs + 1;
  const coveredTo = new Map<number, number>();
  for (const answer of answers)
    coveredTo.set(answer.scheduleId, Math.max(coveredTo.get(answer.scheduleId) ?? Number.NEGATIVE_INFINITY, answer.until.toMillis()));
  const spans = new Map<number, Span[]>();
  const seen = new Set<string>();
  for (const summary of [...answers.flatMap((answer) => answer.reservations), ...context.own]) {
    const span = spanOf(summary);
    if (span === null || seen.has(summary.referenceNumber)) continue;
    seen.add(summary.referenceNumber);
    const list = spans.get(summary.resourceId) ?? [];
    list.push(span);
    spans.set(summary.resourceId, list);
  }
  // Worked out once a schedule, not once a resource: at night a large organisation's hundreds are closed.
  const openings = new Map<number, { opening: Opening; opensAt: DateTime | null }>(
    context.hours.map((hours) => {
      const opening = openingAt(hours, context.now);
      return [hours.scheduleId, { opening, opensAt: opening?.open === false ? nextOpening(hours, context.now) : null }];
    }),
  );
  return context.resources
    .filter((resource) => resource.statusId === ResourceStatus.available && context.mayBook(resource.resourceId))
    .map((resource) => {
      const layout = openings.get(resource.scheduleId);
      if (layout?.opening?.open === false) return { resource, standing: { kind: 'closed', opensAt: layout.opensAt } };
      const coveredToMs = coveredTo.get(resource.scheduleId);
      if (coveredToMs === undefined) return { resource, standing: { kind: 'notAsked' } };
      // The closing time may be another day's: a layout open past midnight runs on (server-facts C).
      const openEnded = layout?.opening?.open === true && layout.opening.closesAt === null;
      const closesMs = layout?.opening?.open === true ? (layout.opening.closesAt?.toMillis() ?? null) : null;
      const booked = spans.get(resource.resourceId) ?? [];
      if (booked.some((span) => span.startMs < toMs && span.endMs > fromMs)) {
        return { resource, standing: { kind: 'busy', freeFromMs: freeAgainMs(booked, fromMs, coveredToMs, closesMs) } };
      }
      // What starts after the time asked about, within what the answer covers.
      const later = booked.filter((span) => span.startMs >= toMs && span.startMs <= coveredToMs).map((span) => span.startMs);
      const nextStartMs = later.length === 0 ? null : Math.min(...later);
      return { resource, standing: { kind: 'free', nextStartMs, closesMs, openEnded, coveredToMs } };
    });
}

/**
 * What every row says of a resource, and its instants as the user reads them: made once a list,
 * each instant written once (many rows share a closing time).
 */
function rowWriters(context: FreeNowContext) {
  const scheduleNames = new Map(context.schedules.map((schedule) => [schedule.id, schedule.name]));
  const favourites = new Set(context.favouriteResourceIds);
  const recent = new Set(context.own.map((summary) => summary.resourceId));
  const written = new Map<number, string>();
  return {
    card: (resource: WireResource): ResourceCardView => ({
      resourceId: resource.resourceId,
      name: resource.name,
      face: context.faces.get(resource.resourceId) ?? unknownFace,
      scheduleId: resource.scheduleId,
      scheduleName: scheduleNames.get(resource.scheduleId) ?? '',
      groupNames: [...(context.groupNames.get(resource.resourceId) ?? [])],
      location: resource.location,
      capacity: resource.maxParticipants !== null && resource.maxParticipants > 0 ? resource.maxParticipants : null,
      features: resource.customAttributes.flatMap(({ label, value }) => (value === null || value === '' ? [] : [{ label, value }])),
      standing: favourites.has(resource.resourceId) ? 'favourite' : recent.has(resource.resourceId) ? 'recent' : null,
    }),
    iso(ms: number): string {
      let text = written.get(ms);
      if (text === undefined) {
        text = isoIn(context.zone, DateTime.fromMillis(ms));
        written.set(ms, text);
      }
      return text;
    },
  };
}

type RowWriters = ReturnType<typeof rowWriters>;

const standingRank = { favourite: 0, recent: 1, none: 2 } as const;

/** Names in the user's order, numbers by value ("Desk 9" before "Desk 10"); one collator, as a list may hold a thousand. */
const byName = new Intl.Collator(undefined, { numeric: true }).compare;

/** Sorts by the keys in turn (a NaN difference counts as a tie), then by name. */
function rankBy<T extends { view: { name: string } }>(entries: T[], keys: readonly ((entry: T) => number)[]): T[] {
  return entries.sort((a, b) => {
    for (const key of keys) {
      const difference = key(a) - key(b);
      if (difference !== 0 && !Number.isNaN(difference)) return difference;
    }
    return byName(a.view.name, b.view.name);
  });
}

/**
 * Resources free at `now` (or over the window from `now` to `windowEnd`) in the schedules asked
 * about: available, bookable by the user, their schedule open, and no reservation of theirs under
 * way (or overlapping the window). A schedule's answer lists its reservations to its closing time,
 * so each row is free until its next booking or the closing, whichever comes first.
 *
 * Ranked for the user: favourites, then what they booked lately (their own reservations, which
 * the poller reads anyway), then what one click can book; then rooms (a resource that holds
 * people) before desks and equipment, longest free first, the smallest room first (a quick
 * booking is mostly for few people, and it leaves the big rooms to big meetings); then by name.
 */
export function freeNowViews(answers: readonly BusyAnswer[], context: FreeNowContext): FreeResourceView[] {
  return freeViewsOf(standings(answers, context), context, rowWriters(context));
}

type Standings = ReturnType<typeof standings>;

function freeViewsOf(all: Standings, context: FreeNowContext, { card, iso }: RowWriters): FreeResourceView[] {
  const endOfDayMs = context.now.setZone(context.zone).endOf('day').toMillis();
  const free = all.flatMap(({ resource, standing }) => {
    if (standing.kind !== 'free') return [];
    const { nextStartMs, closesMs, openEnded, coveredToMs } = standing;
    const untilMs = nextStartMs === null ? closesMs : closesMs === null ? nextStartMs : Math.min(nextStartMs, closesMs);
    const view: FreeResourceView = {
      ...card(resource),
      minLengthMinutes: parseHumanDuration(resource.minLength),
      maxLengthMinutes: parseHumanDuration(resource.maxLength),
      needsForm: oneClickObstacle(resource, context.reservationAttributes, context.isAdmin),
      freeUntil: untilMs === null ? null : iso(untilMs),
      // Only an answer that reached the closing (or the day's end, where the hours are not known)
      // can tell; round the clock, as far as Perch reads ahead.
      freeAllDay: nextStartMs === null && (openEnded || coveredToMs >= (closesMs ?? endOfDayMs)),
    };
    return [{ untilMs, view }];
  });
  return rankBy(free, [
    ({ view }) => standingRank[view.standing ?? 'none'],
    ({ view }) => (view.needsForm === null ? 0 : 1),
    ({ view }) => (view.capacity === null ? 1 : 0),
    ({ untilMs }) => -(untilMs ?? Number.POSITIVE_INFINITY),
    ({ view }) => view.capacity ?? 0,
  ]).map(({ view }) => view);
}

const reasonRank = { busy: 0, closed: 1, notAsked: 2 } as const;

/**
 * Free now and the rest: what is free (as `freeNowViews`), and the resources the user may book that
 * are not, so the filter finds them rather than answering "nothing free": favourites and what the
 * user booked lately first, then the soonest free again (booked, then closed, then not asked yet),
 * then by name.
 */
export function freeNowLists(
  answers: readonly BusyAnswer[],
  context: FreeNowContext,
): { free: FreeResourceView[]; notFree: UnavailableResourceView[] } {
  const all = standings(answers, context);
  const writers = rowWriters(context);
  return { free: freeViewsOf(all, context, writers), notFree: notFreeViewsOf(all, writers) };
}

function notFreeViewsOf(all: Standings, { card, iso }: RowWriters): UnavailableResourceView[] {
  const others = all.flatMap(({ resource, standing }) => {
    if (standing.kind === 'free') return [];
    const freeFromMs =
      standing.kind === 'busy' ? standing.freeFromMs : standing.kind === 'closed' ? (standing.opensAt?.toMillis() ?? null) : null;
    const view: UnavailableResourceView = {
      ...card(resource),
      reason: standing.kind,
      freeFrom: freeFromMs === null ? null : iso(freeFromMs),
    };
    return [{ freeFromMs: freeFromMs ?? Number.POSITIVE_INFINITY, view }];
  });
  return rankBy(others, [
    ({ view }) => standingRank[view.standing ?? 'none'],
    ({ view }) => reasonRank[view.reason],
    ({ freeFromMs }) => freeFromMs,
  ]).map(({ view }) => view);
}

/**
 * When Free now has nothing because every schedule holding a resource the user may book is closed
 * (not merely busy): the one that opens first and when, so the user can look at that time. Null
 * while any of them is open or its hours are not known.
 */
export function freeNowClosedView(
  context: Pick<FreeNowContext, 'zone' | 'now' | 'resources' | 'schedules' | 'hours' | 'mayBook'>,
): FreeNowClosedView | null {
  const holding = [
    ...new Set(
      context.resources
        .filter((resource) => resource.statusId === ResourceStatus.available && context.mayBook(resource.resourceId))
        .map((resource) => resource.scheduleId),
    ),
  ];
  const layouts = holding.map((scheduleId) => context.hours.find((hours) => hours.scheduleId === scheduleId));
  if (layouts.length === 0 || layouts.some((hours) => hours === undefined || openingAt(hours, context.now)?.open !== false)) return null;
  const next = (layouts as ScheduleHours[])
    .map((hours) => ({ scheduleId: hours.scheduleId, opensAt: nextOpening(hours, context.now) }))
    .sort((a, b) => (a.opensAt?.toMillis() ?? Number.POSITIVE_INFINITY) - (b.opensAt?.toMillis() ?? Number.POSITIVE_INFINITY))[0]!;
  return {
    scheduleId: next.scheduleId,
    scheduleName: context.schedules.find((schedule) => schedule.id === next.scheduleId)?.name ?? '',
    opensAt: isoOrNull(context.zone, next.opensAt),
  };
}
