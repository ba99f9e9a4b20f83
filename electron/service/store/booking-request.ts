import type { Static } from '@sinclair/typebox';
import type { ReservationBody } from '../../api/schemas/reservations.js';
import { ResourceStatus } from '../../api/schemas/resources.js';
import type { Occurrence } from '../domain/booking-rules.js';
import { readQueryDateTime, usableZone } from '../domain/query-dates.js';
import { expandRecurrence, parseRecurrenceRule, type RecurrenceRule } from '../domain/recurrence.js';
import type { ScheduleLayout } from '../domain/schedule-layout.js';
import { forbidden, invalid, Violations } from '../errors.js';
import { placeholders, type Connection } from './database.js';
import type { ZonedViewer } from './permissions.js';
import { scheduleLayout } from './schedules.js';
import type { AccessoryRequest } from './booking-checks.js';
import type { ResourceRow, ScheduleRow } from '../tables.js';

export type ReservationBodyInput = Static<typeof ReservationBody>;

/** A reservation body read against the store: every id resolved, every occurrence expanded. */
export interface BookingRequest {
  ownerId: number;
  /** The primary resource first. */
  resources: ResourceRow[];
  schedule: ScheduleRow;
  layout: ScheduleLayout;
  rule: RecurrenceRule;
  occurrences: Occurrence[];
  participants: number[];
  invitees: number[];
  accessories: AccessoryRequest[];
  skipConflicts: boolean;
  body: ReservationBodyInput;
}

const reminderMinutes = (reminder: ReservationBodyInput['startReminder']) => {
  if (!reminder) return null;
  const perUnit = { minutes: 1, hours: 60, days: 1440 }[reminder.interval];
  return reminder.value * perUnit;
};

export const remindersOf = (body: ReservationBodyInput) => ({
  startReminderMinutes: reminderMinutes(body.startReminder),
  endReminderMinutes: reminderMinutes(body.endReminder),
});

function existingUserIds(connection: Connection, ids: readonly number[]) {
  if (ids.length === 0) return new Set<number>();
  const rows = connection.all<{ id: number }>(`SELECT id FROM users WHERE id IN (${placeholders(ids.length)})`, ...ids);
  return new Set(rows.map((row) => row.id));
}

/**
 * Reads a reservation body: resources, owner, people, accessories, times and recurrence. Problems
 * are collected and thrown together as one 400, the way real servers list them.
 */
export function readBookingRequest(
  connection: Connection,
  body: ReservationBodyInput,
  caller: ZonedViewer,
  defaultOwnerId: number,
): BookingRequest {
  const violations = new Violations();
  if (body.resourceId === undefined) violations.add('Missing or invalid resourceId');
  const resourceIds = [...new Set([body.resourceId ?? 0, ...(body.resources ?? [])])].filter((id) => id > 0);
  const rows = resourceIds.length
    ? connection.records<ResourceRow>(`SELECT * FROM resources WHERE id IN (${placeholders(resourceIds.length)})`, ...resourceIds)
    : [];
  const byId = new Map(rows.map((row) => [row.id, row]));
  if (body.resourceId !== undefined && !byId.has(body.resourceId)) violations.add('Missing or invalid resourceId');
  const unknownResources = resourceIds.filter((id) => id !== body.resourceId && !byId.has(id));
  if (unknownResources.length) violations.add(`Invalid resources: ${unknownResources.join(', ')}`);
  violations.throwIfAny();

  const resources = resourceIds.map((id) => byId.get(id)!);
  const primary = resources[0]!;
  for (const resource of resources) {
    if (resource.statusId !== ResourceStatus.available && !caller.isAdmin)
      violations.add(`${resource.name} is not available for reservations.`);
    if (resource.scheduleId !== primary.scheduleId) violations.add('All resources of a reservation must belong to the same schedule.');
  }
  const schedule = connection.record<ScheduleRow>('SELECT * FROM schedules WHERE id = ?', primary.scheduleId)!;
  if (schedule.maxResourcesPerReservation && resources.length > schedule.maxResourcesPerReservation) {
    violations.add(`A reservation may hold at most ${schedule.maxResourcesPerReservation} resources.`);
  }

  const ownerId = body.userId ?? defaultOwnerId;
  if (ownerId !== defaultOwnerId && ownerId !== caller.user.id && !caller.isAdmin) {
    throw forbidden('You are not allowed to make reservations for other users.');
  }
  const participants = [...new Set(body.participants ?? [])];
  const invitees = [...new Set(body.invitees ?? [])];
  const knownUsers = existingUserIds(connection, [...new Set([ownerId, ...participants, ...invitees])]);
  if (!knownUsers.has(ownerId)) violations.add(`Invalid userId: ${ownerId}`);
  const unknownPeople = [...participants, ...invitees].filter((id) => !knownUsers.has(id));
  if (unknownPeople.length) violations.add(`Invalid participant or invitee ids: ${[...new Set(unknownPeople)].join(', ')}`);
  const maxParticipants = primary.maxParticipants;
  if (maxParticipants && participants.length > maxParticipants && !caller.isAdmin) {
    violations.add(`This reservation can have at most ${maxParticipants} participants.`);
  }

  const requested = body.accessories ?? [];
  const accessoryRows = requested.length
    ? connection.all<{ id: number; name: string; quantityAvailable: number | null }>(
        `SELECT id, name, quantity_available AS quantityAvailable FROM accessories WHERE id IN (${placeholders(requested.length)})`,
        ...requested.map((accessory) => accessory.accessoryId),
      )
    : [];
  const accessoryById = new Map(accessoryRows.map((row) => [row.id, row]));
  const accessories: AccessoryRequest[] = [];
  for (const request of requested) {
    const accessory = accessoryById.get(request.accessoryId);
    if (!accessory) violations.add(`Invalid accessoryId: ${request.accessoryId}`);
    else if (request.quantityRequested > 0) {
      accessories.push({
        accessoryId: accessory.id,
        name: accessory.name,
        quantityAvailable: accessory.quantityAvailable,
        quantity: request.quantityRequested,
      });
    }
  }

  // Times, weekdays and the last day of a series are the caller's, as on real servers.
  const zone = usableZone(caller.user.timezone);
  const start = body.startDateTime ? readQueryDateTime(body.startDateTime, zone) : null;
  const end = body.endDateTime ? readQueryDateTime(body.endDateTime, zone) : null;
  if (!body.startDateTime) violations.add('startDateTime is missing or empty');
  else if (!start) violations.add(`Invalid startDateTime: ${body.startDateTime}`);
  if (!body.endDateTime) violations.add('endDateTime is missing or empty');
  else if (!end) violations.add(`Invalid endDateTime: ${body.endDateTime}`);
  violations.throwIfAny();

  const parsedRule = parseRecurrenceRule(body.recurrenceRule, start!, zone);
  if (!parsedRule.ok) throw invalid(parsedRule.error);
  const rule = parsedRule.value;
  const first = { start: start!, end: end! };
  // A reversed range is reported by the timing rules; it has nothing to repeat.
  const expanded = end! > start! ? expandRecurrence(first, rule) : { ok: true as const, value: [first] };
  if (!expanded.ok) throw invalid(expanded.error);

  const skipConflicts = (body.retryParameters ?? []).some(
    (parameter) => parameter.name.toLowerCase() === 'skipconflicts' && parameter.value.toLowerCase() === 'true',
  );
  return {
    ownerId,
    resources,
    schedule,
    layout: scheduleLayout(connection, schedule.id),
    rule,
    occurrences: expanded.value,
    participants,
    invitees,
    accessories,
    skipConflicts,
    body,
  };
}
