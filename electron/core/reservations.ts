/**
 * The user's reservations as the core knows them: each read once from what the server answered (a
 * listed summary or GetReservation), its dates as instants, and the rules every part asks of one
 * (awaits a check-in, when check-in opens and closes, when it is released) written once. The user's
 * list and their meetings are read into this model once per list read, and the views, the
 * notification planner, the poll plan and check-in by itself all take that one list. Pure.
 */
import type { DateTime } from 'luxon';
import { wireInstant } from '../api/dates.js';
import type { WireReservation, WireSchedule, WireSummary } from '../api/wire.js';
import type { ReservationRole } from '../bridge/contract.js';

export interface Reservation {
  referenceNumber: string;
  title: string;
  resourceId: number;
  resourceName: string;
  scheduleId: number;
  /** The zone of the resource's schedule, when known: its times are named in it where its clock differs. */
  timezone?: string;
  start: DateTime;
  end: DateTime;
  isRecurring: boolean;
  isPendingApproval: boolean;
  requiresCheckIn: boolean;
  checkedInAt: DateTime | null;
  checkedOutAt: DateTime | null;
  originalEnd: DateTime | null;
  autoReleaseMinutes: number | null;
  /** The reservation's own reminders, minutes before start/end, null when none. */
  startReminderMinutes: number | null;
  endReminderMinutes: number | null;
  ownerName: string;
  ownerFirstName: string;
  ownerId: number;
  /** Who takes part, who is invited, by user id. */
  participantIds: readonly number[];
  inviteeIds: readonly number[];
  /**
   * The user's own; false for someone else's that they take part in or are invited to, which
   * gets its start reminder only: check-in, changes and news of it are the owner's.
   */
  owned: boolean;
  /** The server's own answer at the moment it was read (GetReservation only); null when unknown. */
  checkInAvailable: boolean | null;
  checkOutAvailable: boolean | null;
}

/** Whom a reservation is read for: the user, and each schedule's zone by id as far as the schedules are known. */
export interface Reader {
  userId: number;
  scheduleZones?: ReadonlyMap<number, string> | undefined;
}

/** Schedule zones by id, for a `Reader` and the views. */
export function scheduleZones(schedules: readonly WireSchedule[]): Map<number, string> {
  return new Map(schedules.map((schedule) => [schedule.id, schedule.timezone]));
}

/** Servers open check-in this long before the start (a server setting they do not expose: server-facts C). */
export const checkInOpensMinutes = 5;

const minuteMs = 60_000;

export const fullName = (first: string, last: string) => `${first} ${last}`.trim();

const idsOf = (people: Readonly<Record<string, string>>) => Object.keys(people).map(Number);

/** What the user is to a reservation: owner first, then taking part, then invited. */
export function roleIn(
  reservation: Pick<Reservation, 'ownerId' | 'participantIds' | 'inviteeIds'>,
  userId: number,
): ReservationRole | null {
  if (reservation.ownerId === userId) return 'owner';
  if (reservation.participantIds.includes(userId)) return 'participant';
  return reservation.inviteeIds.includes(userId) ? 'invitee' : null;
}

/** What the user is to a listed reservation (see `roleIn`). */
export function summaryRole(summary: WireSummary, userId: number): ReservationRole | null {
  return roleIn({ ownerId: summary.userId, participantIds: idsOf(summary.participants), inviteeIds: idsOf(summary.invitees) }, userId);
}

/** The schedule's zone, where it is known (a member left out where not: the planner tells the two apart). */
function zoneOf(scheduleId: number, reader: Reader): { timezone?: string } {
  const timezone = reader.scheduleZones?.get(scheduleId);
  return timezone ? { timezone } : {};
}

/** One listed reservation; null when its dates are not valid. */
export function reservationOfSummary(summary: WireSummary, reader: Reader): Reservation | null {
  const start = wireInstant(summary.startDate);
  const end = wireInstant(summary.endDate);
  if (start === null || end === null) return null;
  return {
    referenceNumber: summary.referenceNumber,
    title: summary.title,
    resourceId: summary.resourceId,
    resourceName: summary.resourceName,
    scheduleId: summary.scheduleId,
    ...zoneOf(summary.scheduleId, reader),
    start,
    end,
    isRecurring: summary.isRecurring,
    isPendingApproval: summary.requiresApproval,
    requiresCheckIn: summary.isCheckInEnabled,
    checkedInAt: wireInstant(summary.checkInDate),
    checkedOutAt: wireInstant(summary.checkOutDate),
    originalEnd: wireInstant(summary.originalEndDate),
    autoReleaseMinutes: summary.autoReleaseMinutes,
    startReminderMinutes: summary.startReminder,
    endReminderMinutes: summary.endReminder,
    ownerName: fullName(summary.firstName, summary.lastName),
    ownerFirstName: summary.firstName.trim(),
    ownerId: summary.userId,
    participantIds: idsOf(summary.participants),
    inviteeIds: idsOf(summary.invitees),
    owned: summary.userId === reader.userId,
    checkInAvailable: null,
    checkOutAvailable: null,
  };
}

const intervalMinutes = { minutes: 1, hours: 60, days: 24 * 60 } as const;

/** GetReservation writes a reminder as a value and its unit; the list, and the model, in minutes. */
const reminderMinutes = (reminder: WireReservation['startReminder']) =>
  reminder === null ? null : reminder.value * intervalMinutes[reminder.interval];

/**
 * A single reservation as GetReservation answers it; null when its dates are not valid. It does
 * not say whether its resource asks for check-in; the caller knows that from the list or the resource.
 */
export function reservationOfDetail(detail: WireReservation, requiresCheckIn: boolean, reader: Reader): Reservation | null {
  const start = wireInstant(detail.startDate);
  const end = wireInstant(detail.endDate);
  if (start === null || end === null) return null;
  const primary = detail.resources.find((resource) => resource.id === detail.resourceId) ?? detail.resources[0];
  return {
    referenceNumber: detail.referenceNumber,
    title: detail.title,
    resourceId: detail.resourceId,
    resourceName: primary?.name ?? '',
    scheduleId: detail.scheduleId,
    ...zoneOf(detail.scheduleId, reader),
    start,
    end,
    isRecurring: detail.isRecurring,
    isPendingApproval: detail.requiresApproval,
    requiresCheckIn,
    checkedInAt: wireInstant(detail.checkInDate),
    checkedOutAt: wireInstant(detail.checkOutDate),
    originalEnd: wireInstant(detail.originalEndDate),
    autoReleaseMinutes: detail.autoReleaseMinutes,
    startReminderMinutes: reminderMinutes(detail.startReminder),
    endReminderMinutes: reminderMinutes(detail.endReminder),
    ownerName: fullName(detail.owner.firstName, detail.owner.lastName),
    ownerFirstName: detail.owner.firstName.trim(),
    ownerId: detail.owner.userId,
    participantIds: detail.participants.map((person) => person.userId),
    inviteeIds: detail.invitees.map((person) => person.userId),
    owned: detail.owner.userId === reader.userId,
    checkInAvailable: detail.isCheckInAvailable,
    checkOutAvailable: detail.isCheckoutAvailable,
  };
}

type CheckInFacts = Pick<Reservation, 'owned' | 'requiresCheckIn' | 'checkedInAt' | 'checkedOutAt' | 'isPendingApproval'>;

/** The user's own booking asks for a check-in that has not happened, and it has not been checked out of. */
export function checkInOutstanding(reservation: Omit<CheckInFacts, 'isPendingApproval'>): boolean {
  return reservation.owned && reservation.requiresCheckIn && reservation.checkedInAt === null && reservation.checkedOutAt === null;
}

/** Awaits the user's check-in: outstanding, on a booking the server takes it for (it refuses one not approved yet). */
export function awaitsCheckIn(reservation: CheckInFacts): boolean {
  return checkInOutstanding(reservation) && !reservation.isPendingApproval;
}

/** The moment (epoch ms) the server releases a booking nobody checked in to; null where its resource does not release. */
export function autoReleaseMs(reservation: Pick<Reservation, 'start' | 'autoReleaseMinutes'>): number | null {
  return reservation.autoReleaseMinutes === null ? null : reservation.start.toMillis() + reservation.autoReleaseMinutes * minuteMs;
}

/**
 * Until when (epoch ms) check-in can be made: the auto-release moment or the end, whichever is
 * first. Servers refuse check-in once the release moment has passed, although their own
 * `isCheckInAvailable` still says yes until the release job runs (server-facts D).
 */
export function checkInClosesMs(reservation: Pick<Reservation, 'start' | 'end' | 'autoReleaseMinutes'>): number {
  const releaseMs = autoReleaseMs(reservation);
  const endMs = reservation.end.toMillis();
  return releaseMs === null ? endMs : Math.min(endMs, releaseMs);
}

/** What the polls keep of the user's lists (the core's data): each list is replaced whole by a read, never changed in place. */
interface ListedData {
  reservations: readonly WireSummary[];
  /** The meetings read of each schedule. */
  meetings: readonly { reservations: readonly WireSummary[] }[];
  schedules: readonly WireSchedule[];
}

/** The user's own reservations, then the meetings they are in that their own list does not hold. */
function ownAndMeetings(data: Pick<ListedData, 'reservations' | 'meetings'>): { own: readonly WireSummary[]; meetings: WireSummary[] } {
  const listed = new Set(data.reservations.map((summary) => summary.referenceNumber));
  const meetings: WireSummary[] = [];
  for (const summary of data.meetings.flatMap((entry) => entry.reservations)) {
    if (listed.has(summary.referenceNumber)) continue;
    listed.add(summary.referenceNumber);
    meetings.push(summary);
  }
  return { own: data.reservations, meetings };
}

interface Read {
  meetings: ListedData['meetings'];
  schedules: ListedData['schedules'];
  userId: number;
  reservations: Reservation[];
}

/** A list is known by its identity: what was read from it is kept with it until the next read replaces it. */
const reads = new WeakMap<readonly WireSummary[], Read>();

/**
 * The user's own reservations, then the meetings they are in, as the model (those whose dates are
 * not valid left out), in the order listed. Read once per list: the same list gives the same array.
 */
export function listedReservations(data: ListedData, userId: number): readonly Reservation[] {
  const kept = reads.get(data.reservations);
  if (kept !== undefined && kept.meetings === data.meetings && kept.schedules === data.schedules && kept.userId === userId)
    return kept.reservations;
  const reader = { userId, scheduleZones: scheduleZones(data.schedules) };
  const { own, meetings } = ownAndMeetings(data);
  const reservations = [...own, ...meetings].flatMap((summary) => reservationOfSummary(summary, reader) ?? []);
  reads.set(data.reservations, { meetings: data.meetings, schedules: data.schedules, userId, reservations });
  return reservations;
}
