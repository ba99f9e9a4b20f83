/**
 * From what the server answered to what the UI shows: wire summaries and availability become
 * views in the user's timezone, with the flags the clock decides (check-in open, may check out).
 * Pure: every function takes the moment and the zone it describes.
 */
import type { Static } from '@sinclair/typebox';
import { DateTime } from 'luxon';
import { parseWireDateTime, wallClockTime } from '../../api/dates.js';
import { parseHumanDuration } from '../../api/durations.js';
import { AttributeCategory, type AttributeDefinition } from '../../api/schemas/attributes.js';
import type { Reservation, ReservationSummary } from '../../api/schemas/reservations.js';
import type { Resource, ResourceGroupTree, ResourceType } from '../../api/schemas/resources.js';
import type { ScheduleListItem, Slots } from '../../api/schemas/schedules.js';
import type { AttributeView, RecurrenceView, ReservationRole, ReservationView, ResourceFace, ResourceView, ScheduleView, SlotView } from '../../bridge.js';

export type WireSummary = Static<typeof ReservationSummary>;
export type WireReservation = Static<typeof Reservation>;
export type WireResource = Static<typeof Resource>;
export type WireSchedule = Static<typeof ScheduleListItem>;
export type WireGroupTree = Static<typeof ResourceGroupTree>;
export type WireResourceType = Static<typeof ResourceType>;
export type WireSlots = Static<typeof Slots>;
export type WireAttribute = Static<typeof AttributeDefinition>;

/** What the views are seen from: the user, their zone, the moment. */
export interface ViewContext {
  zone: string;
  now: DateTime;
  userId: number;
  /** Each schedule's zone by id, as far as the schedules are known. */
  scheduleZones?: ReadonlyMap<number, string>;
  /** The server refuses this user's changes to a reservation once it has started (see start-time-rules.ts); absent: not known to. */
  lockedOnceStarted?: boolean;
  /** Each resource's icon and colour by id, as far as the resources are known. */
  resourceFaces?: ReadonlyMap<number, ResourceFace>;
}

/** Schedule zones by id, for `ViewContext`. */
export function scheduleZones(schedules: readonly WireSchedule[]): Map<number, string> {
  return new Map(schedules.map((schedule) => [schedule.id, schedule.timezone]));
}

/** Servers open check-in this long before the start (a server setting they do not expose: server-facts C). */
export const checkInOpensMinutes = 5;

/** Wire dates always name their offset; an offset-less one is read in UTC, as lists are. */
export function wireInstant(text: string | null | undefined): DateTime | null {
  if (text === null || text === undefined || text === '') return null;
  return parseWireDateTime(text, 'UTC');
}

/** ISO 8601 with the user's offset, whole seconds. */
export function isoIn(zone: string, instant: DateTime): string {
  return instant.setZone(zone).toISO({ suppressMilliseconds: true }) ?? instant.toUTC().toISO() ?? '';
}

export const isoOrNull = (zone: string, instant: DateTime | null) => (instant === null ? null : isoIn(zone, instant));

/**
 * What the occurrences of one series have in common: owner, resource, title, wall-clock start and
 * length. A detached occurrence (changed on its own) is no longer recurring, so it stands alone.
 */
function seriesKeyOf(facts: ReservationFacts, zone: string): string | null {
  if (!facts.isRecurring) return null;
  const minutes = Math.round(facts.end.diff(facts.start, 'minutes').minutes);
  return [facts.ownerId, facts.resourceId, facts.start.setZone(zone).toFormat('HH:mm'), minutes, facts.title].join('|');
}

/** The members of a reservation the flags are derived from, whichever answer they came from. */
interface ReservationFacts {
  referenceNumber: string;
  title: string;
  resourceId: number;
  resourceName: string;
  scheduleId: number;
  start: DateTime;
  end: DateTime;
  isRecurring: boolean;
  isPendingApproval: boolean;
  requiresCheckIn: boolean;
  checkedInAt: DateTime | null;
  checkedOutAt: DateTime | null;
  originalEnd: DateTime | null;
  autoReleaseMinutes: number | null;
  ownerName: string;
  ownerFirstName: string;
  ownerId: number;
  /** Who takes part, who is invited, by user id. */
  participantIds: readonly number[];
  inviteeIds: readonly number[];
  /** The server's own answer at the moment it was read (GetReservation only); null when unknown. */
  checkInAvailable: boolean | null;
  checkOutAvailable: boolean | null;
}

/** What the user is to a reservation: owner first, then taking part, then invited. */
function roleIn(facts: Pick<ReservationFacts, 'ownerId' | 'participantIds' | 'inviteeIds'>, userId: number): ReservationRole | null {
  if (facts.ownerId === userId) return 'owner';
  if (facts.participantIds.includes(userId)) return 'participant';
  return facts.inviteeIds.includes(userId) ? 'invitee' : null;
}

/** What the user is to a listed reservation (see `roleIn`). */
export function summaryRole(summary: WireSummary, userId: number): ReservationRole | null {
  return roleIn({ ownerId: summary.userId, participantIds: idsOf(summary.participants), inviteeIds: idsOf(summary.invitees) }, userId);
}

const idsOf = (people: Readonly<Record<string, string>>) => Object.keys(people).map(Number);

function viewOf(facts: ReservationFacts, context: ViewContext): ReservationView {
  const { zone, now } = context;
  const role = roleIn(facts, context.userId);
  // Check-in, check-out and the rest are the owner's.
  const mine = role === 'owner';
  const nowMs = now.toMillis();
  const startMs = facts.start.toMillis();
  const endMs = facts.end.toMillis();
  const awaitsCheckIn = mine && facts.requiresCheckIn && facts.checkedInAt === null && facts.checkedOutAt === null;
  // Servers refuse check-in once the auto-release moment has passed, although their own
  // `isCheckInAvailable` still says yes until the release job runs (server-facts D).
  const releaseMs = facts.autoReleaseMinutes === null ? null : startMs + facts.autoReleaseMinutes * 60_000;
  const checkInClosesMs = releaseMs === null ? endMs : Math.min(endMs, releaseMs);
  const checkInWindow = nowMs >= startMs - checkInOpensMinutes * 60_000;
  const lockedNow = nowMs >= startMs && context.lockedOnceStarted === true;
  return {
    referenceNumber: facts.referenceNumber,
    title: facts.title,
    resourceId: facts.resourceId,
    resourceName: facts.resourceName,
    scheduleId: facts.scheduleId,
    timezone: context.scheduleZones?.get(facts.scheduleId) || zone,
    start: isoIn(zone, facts.start),
    end: isoIn(zone, facts.end),
    isRecurring: facts.isRecurring,
    isPendingApproval: facts.isPendingApproval,
    requiresCheckIn: facts.requiresCheckIn,
    checkedInAt: isoOrNull(zone, facts.checkedInAt),
    checkedOutAt: isoOrNull(zone, facts.checkedOutAt),
    originalEnd: isoOrNull(zone, facts.originalEnd),
    autoReleaseAt: awaitsCheckIn && facts.autoReleaseMinutes !== null ? isoIn(zone, facts.start.plus({ minutes: facts.autoReleaseMinutes })) : null,
    checkInOpensAt: awaitsCheckIn && !facts.isPendingApproval ? isoIn(zone, facts.start.minus({ minutes: checkInOpensMinutes })) : null,
    // Servers refuse check-in to a booking that is not approved yet.
    checkInOpen: awaitsCheckIn && !facts.isPendingApproval && nowMs < checkInClosesMs && (facts.checkInAvailable ?? checkInWindow),
    // Checking out before the start would be a cancellation; servers refuse it.
    canCheckOut: mine && facts.checkedInAt !== null && facts.checkedOutAt === null && nowMs < endMs && (facts.checkOutAvailable ?? nowMs > startMs),
    canChange: mine && facts.checkedOutAt === null && nowMs < endMs && !lockedNow,
    ownerName: facts.ownerName,
    ownerFirstName: facts.ownerFirstName,
    isMine: mine,
    role,
    seriesKey: seriesKeyOf(facts, zone),
    resourceFace: context.resourceFaces?.get(facts.resourceId) ?? unknownFace,
  };
}

export const fullName = (first: string, last: string) => `${first} ${last}`.trim();

export function summaryFacts(summary: WireSummary): ReservationFacts | null {
  const start = wireInstant(summary.startDate);
  const end = wireInstant(summary.endDate);
  if (start === null || end === null) return null;
  return {
    referenceNumber: summary.referenceNumber,
    title: summary.title,
    resourceId: summary.resourceId,
    resourceName: summary.resourceName,
    scheduleId: summary.scheduleId,
    start,
    end,
    isRecurring: summary.isRecurring,
    isPendingApproval: summary.requiresApproval,
    requiresCheckIn: summary.isCheckInEnabled,
    checkedInAt: wireInstant(summary.checkInDate),
    checkedOutAt: wireInstant(summary.checkOutDate),
    originalEnd: wireInstant(summary.originalEndDate),
    autoReleaseMinutes: summary.autoReleaseMinutes,
    ownerName: fullName(summary.firstName, summary.lastName),
    ownerFirstName: summary.firstName.trim(),
    ownerId: summary.userId,
    participantIds: idsOf(summary.participants),
    inviteeIds: idsOf(summary.invitees),
    checkInAvailable: null,
    checkOutAvailable: null,
  };
}

/**
 * A single reservation as GetReservation answers it. It does not say whether its resource asks
 * for check-in; the caller knows that from the list or the resource.
 */
export function detailView(detail: WireReservation, requiresCheckIn: boolean, context: ViewContext): ReservationView | null {
  const start = wireInstant(detail.startDate);
  const end = wireInstant(detail.endDate);
  if (start === null || end === null) return null;
  const primary = detail.resources.find((resource) => resource.id === detail.resourceId) ?? detail.resources[0];
  return viewOf(
    {
      referenceNumber: detail.referenceNumber,
      title: detail.title,
      resourceId: detail.resourceId,
      resourceName: primary?.name ?? '',
      scheduleId: detail.scheduleId,
      start,
      end,
      isRecurring: detail.isRecurring,
      isPendingApproval: detail.requiresApproval,
      requiresCheckIn,
      checkedInAt: wireInstant(detail.checkInDate),
      checkedOutAt: wireInstant(detail.checkOutDate),
      originalEnd: wireInstant(detail.originalEndDate),
      autoReleaseMinutes: detail.autoReleaseMinutes,
      ownerName: fullName(detail.owner.firstName, detail.owner.lastName),
      ownerFirstName: detail.owner.firstName.trim(),
      ownerId: detail.owner.userId,
      participantIds: detail.participants.map((person) => person.userId),
      inviteeIds: detail.invitees.map((person) => person.userId),
      checkInAvailable: detail.isCheckInAvailable,
      checkOutAvailable: detail.isCheckoutAvailable,
    },
    context,
  );
}

const recurrenceTypes = ['daily', 'weekly', 'monthly', 'yearly'] as const;

/**
 * A series' last day. Servers send it as the midnight starting that day in the zone of whoever
 * booked the series (real ones write it in UTC; a local service, for series it stored before it
 * kept their booker's zone, the schedule's). Read as an instant in another zone it is the day
 * before west of it, so the day is taken where the instant is a midnight (the user's own first,
 * as the user usually booked it), and given as that day's midnight for the user.
 */
function lastDay(until: DateTime | null, userZone: string, scheduleZone: string | undefined): DateTime | null {
  if (until === null) return null;
  for (const zone of [userZone, scheduleZone ?? userZone, 'UTC']) {
    const local = until.setZone(zone);
    if (local.isValid && local.hour === 0 && local.minute === 0) {
      return wallClockTime({ year: local.year, month: local.month, day: local.day }, userZone);
    }
  }
  return until.setZone(userZone);
}

/** A reservation's series rule in the user's zone; null for a one-off (or a rule Perch cannot read). */
export function recurrenceView(detail: WireReservation, zone: string, scheduleZone?: string): RecurrenceView | null {
  const rule = detail.recurrenceRule;
  const type = recurrenceTypes.find((known) => known === rule.type);
  if (!detail.isRecurring || type === undefined) return null;
  return {
    type,
    interval: rule.interval !== null && rule.interval > 0 ? rule.interval : 1,
    weekdays: type === 'weekly' ? [...new Set(rule.weekdays ?? [])].sort((a, b) => a - b) : [],
    monthlyType: type === 'monthly' ? (rule.monthlyType ?? 'dayOfMonth') : null,
    until: isoOrNull(zone, lastDay(wireInstant(rule.repeatTerminationDate), zone, scheduleZone)),
  };
}

/**
 * The listed text of a time where the detail names the same instant: servers write GetReservation's
 * times in the user's offset and the list's in UTC, and the same reservation should stay the same.
 */
function sameTimeText<T extends string | null>(listed: T, detail: T): T {
  if (listed === detail || listed === null || detail === null) return detail;
  const listedMs = wireInstant(listed)?.toMillis();
  return listedMs !== undefined && listedMs === wireInstant(detail)?.toMillis() ? listed : detail;
}

/**
 * Folds what GetReservation said (after a check-in, check-out or extension, or read on its own
 * before a notice) into the listed summary, so the snapshot shows it before the next list.
 */
export function summaryUpdatedBy(summary: WireSummary, detail: WireReservation): WireSummary {
  return {
    ...summary,
    startDate: sameTimeText(summary.startDate, detail.startDate),
    endDate: sameTimeText(summary.endDate, detail.endDate),
    title: detail.title,
    requiresApproval: detail.requiresApproval,
    isRecurring: detail.isRecurring,
    checkInDate: sameTimeText(summary.checkInDate, detail.checkInDate),
    checkOutDate: sameTimeText(summary.checkOutDate, detail.checkOutDate),
    originalEndDate: sameTimeText(summary.originalEndDate, detail.originalEndDate),
  };
}

/** One listed reservation as the views show it; null when its dates are not valid. */
export function summaryView(summary: WireSummary, context: ViewContext): ReservationView | null {
  const facts = summaryFacts(summary);
  return facts === null ? null : viewOf(facts, context);
}

/** The user's reservations that have not ended, soonest first. */
export function upcomingViews(summaries: readonly WireSummary[], context: ViewContext): ReservationView[] {
  const nowMs = context.now.toMillis();
  return summaries
    .map((summary) => summaryFacts(summary))
    .filter((facts): facts is ReservationFacts => facts !== null && facts.end.toMillis() > nowMs)
    .sort((a, b) => a.start.toMillis() - b.start.toMillis() || a.referenceNumber.localeCompare(b.referenceNumber))
    .map((facts) => viewOf(facts, context));
}

/**
 * Real servers answer every resource under a group "All" with id 0, also when they have no
 * resource groups at all; it is no group a resource belongs to (server-facts D).
 */
const everyResourceGroupId = 0;

/** Group names by resource id, outermost first, from the nested resource group tree. */
export function groupNamesByResource(tree: WireGroupTree | null): Map<number, string[]> {
  const names = new Map<number, string[]>();
  type Node = WireGroupTree['groups'][number];
  const visit = (group: Node, path: readonly string[]) => {
    const here = group.id === everyResourceGroupId ? [...path] : [...path, group.name];
    for (const child of group.children) {
      if (child.type === 'group') {
        visit(child as Node, here);
        continue;
      }
      const list = names.get(child.resource_id) ?? [];
      for (const name of here) if (!list.includes(name)) list.push(name);
      names.set(child.resource_id, list);
    }
  };
  for (const group of tree?.groups ?? []) visit(group, []);
  return names;
}

/** What a resource that is not (or not yet) known shows: the neutral icon, no colour. */
export const unknownFace: ResourceFace = { kind: 'other', color: null };

export function resourceView(resource: WireResource, face: ResourceFace): ResourceView {
  return {
    resourceId: resource.resourceId,
    name: resource.name,
    location: resource.location,
    scheduleId: resource.scheduleId,
    groupIds: resource.groupIds ?? [],
    statusId: resource.statusId,
    requiresApproval: resource.requiresApproval,
    requiresCheckIn: resource.requiresCheckIn,
    autoReleaseMinutes: resource.autoReleaseMinutes,
    // Durations arrive in the human form (`1 hours 30 minutes`); "" means no limit.
    minLengthMinutes: parseHumanDuration(resource.minLength),
    maxLengthMinutes: parseHumanDuration(resource.maxLength),
    maxParticipants: resource.maxParticipants,
    color: resource.color,
    face,
  };
}

export function scheduleView(schedule: WireSchedule): ScheduleView {
  return { id: schedule.id, name: schedule.name, timezone: schedule.timezone, isDefault: schedule.isDefault };
}

/** One resource's slots of a GetSlots answer with their instants, in time order. */
export function resourceSlots(slots: WireSlots, resourceId: number) {
  const found: { start: DateTime; end: DateTime; slot: WireSlots['dates'][number]['resources'][number]['slots'][number] }[] = [];
  for (const date of slots.dates) {
    for (const resource of date.resources) {
      if (resource.resourceId !== resourceId) continue;
      for (const slot of resource.slots) {
        const start = wireInstant(slot.startDateTime);
        const end = wireInstant(slot.endDateTime);
        if (start !== null && end !== null) found.push({ start, end, slot });
      }
    }
  }
  return found.sort((a, b) => a.start.toMillis() - b.start.toMillis());
}

/**
 * The slots of one resource that start on `date`, a day of the user's, in the user's zone, in
 * time order. The answer may hold more than that day: the local service lays out every day of the
 * schedule's that overlaps the user's, and a real server the periods that touch it.
 */
export function slotViews(slots: WireSlots, resourceId: number, zone: string, date: string): SlotView[] {
  const dayStart = DateTime.fromISO(date, { zone });
  const dayEnd = dayStart.plus({ days: 1 });
  const onDay = ({ start }: { start: DateTime }) => start >= dayStart && start < dayEnd;
  return resourceSlots(slots, resourceId).filter(onDay).map(({ start, end, slot }) => ({
    start: isoIn(zone, start),
    end: isoIn(zone, end),
    isReservable: slot.isReservable && !slot.isReserved,
  }));
}

/** Reservation attributes; one limited to resources lists them (secondary category: resource). */
export function attributeView(attribute: WireAttribute): AttributeView {
  return {
    id: attribute.id,
    label: attribute.label,
    type: attribute.type,
    required: attribute.required,
    regex: attribute.regex === '' ? null : attribute.regex,
    possibleValues: attribute.possibleValues,
    resourceIds: attribute.secondaryCategoryId === AttributeCategory.resource ? attribute.secondaryEntityIds : [],
  };
}
