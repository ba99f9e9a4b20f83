import { DateTime } from 'luxon';
import { AttributeCategory } from '../../api/schemas/attributes.js';
import { bookingMessages, creditsFor, deletionViolation, timingViolations, type Occurrence } from '../domain/booking-rules.js';
import { expandRecurrence, NO_RECURRENCE, readStoredRecurrenceRule, serializeRecurrenceRule } from '../domain/recurrence.js';
import { usableZone } from '../domain/query-dates.js';
import { newReferenceNumber } from '../domain/reference-number.js';
import { forbidden, invalid, notFound, Violations } from '../errors.js';
import { checkAttributeInputs, writeAttributeValues } from '../store/attribute-values.js';
import { accessoryShortages, conflictMessage, findConflicts, resourcesNotBookable } from '../store/booking-checks.js';
import { readBookingRequest, remindersOf, type BookingRequest } from '../store/booking-request.js';
import { connectionOf, inTransaction, inWriteTransaction, type Connection, type Store } from '../store/database.js';
import { mayChange } from '../store/occurrences.js';
import { deleteInstances, insertInstances, insertSeries, rebookInstance, replaceSeries, type SeriesValues } from '../store/reservations.js';
import { bookedResources, findReservation, seriesOccurrences, setSeriesRecurrence, type StoredReservation } from '../store/series.js';
import type { ReservationRow, ReservationSeriesRow } from '../tables.js';
import { deletionEnvelope } from './deletion.js';
import { reservationReference } from './reservation-answers.js';
import type { Caller, HandlerMap } from './types.js';

const updateScopes = ['this', 'future', 'full'] as const;
type UpdateScope = (typeof updateScopes)[number];

function readScope(text: string | undefined, fallback: UpdateScope): UpdateScope {
  if (text === undefined || text === '') return fallback;
  const scope = updateScopes.find((candidate) => candidate === text);
  if (!scope) throw invalid(`Missing or invalid updateScope: ${text}`);
  return scope;
}

async function findExisting(store: Store, referenceNumber: string): Promise<StoredReservation> {
  const existing = await findReservation(store, referenceNumber);
  if (!existing) throw notFound();
  return existing;
}

/** Owners and administrators change a reservation; everyone else lacks the right (403, with real servers' words). */
function ensureMayChange(series: ReservationSeriesRow, caller: Caller) {
  if (!mayChange(caller, series)) throw forbidden(bookingMessages.notAllowed);
}

function seriesValues(request: BookingRequest, isPendingApproval: boolean): SeriesValues {
  const { body } = request;
  return {
    ownerId: request.ownerId,
    resourceId: request.resources[0]!.id,
    resourceIds: request.resources.slice(1).map((resource) => resource.id),
    title: body.title ?? '',
    description: body.description ?? '',
    allowParticipation: body.allowParticipation ?? false,
    termsAccepted: body.termsAccepted ?? false,
    recurrence: serializeRecurrenceRule(request.rule),
    ...remindersOf(body),
    isPendingApproval,
    participants: request.participants,
    invitees: request.invitees,
    participatingGuests: body.participatingGuests ?? [],
    invitedGuests: body.invitedGuests ?? [],
    accessories: request.accessories.map(({ accessoryId, quantity }) => ({ accessoryId, quantity })),
  };
}

/**
 * Applies every rule to the occurrences a request would store, inside the writing transaction so
 * that the check and the write are one atomic step. Returns the occurrences to store: all of
 * them, or with `skipconflicts` all but the conflicting ones (never the first).
 */
function checkRequest(
  connection: Connection,
  request: BookingRequest,
  caller: Caller,
  context: { now: DateTime; action: 'add' | 'update'; replacing: ReadonlySet<number> },
): Occurrence[] {
  const zone = request.schedule.timezone;
  const violations = new Violations();
  for (const error of timingViolations(request.occurrences, request.resources, {
    now: context.now,
    isAdmin: caller.isAdmin,
    zone,
    layout: request.layout,
    action: context.action,
  })) {
    violations.add(error);
  }
  if (!caller.isAdmin) {
    const refused = resourcesNotBookable(
      connection,
      caller.user.id,
      request.resources.map((resource) => resource.id),
    );
    const names = request.resources.filter((resource) => refused.includes(resource.id)).map((resource) => resource.name);
    // A right the caller lacks outranks what is wrong with the request itself.
    if (names.length) throw forbidden(`You do not have permission to book ${names.join(', ')}.`);
  }
  const attributes = checkAttributeInputs(connection, AttributeCategory.reservation, null, request.body.customAttributes ?? [], {
    isAdmin: caller.isAdmin,
    skipRequired: caller.isAdmin,
    involved: {
      [AttributeCategory.user]: [request.ownerId],
      [AttributeCategory.resource]: request.resources.map((resource) => resource.id),
      [AttributeCategory.resourceType]: request.resources.flatMap((resource) => (resource.typeId ? [resource.typeId] : [])),
    },
  });
  for (const error of attributes.errors) violations.add(error);
  violations.throwIfAny();

  const conflicts = findConflicts(connection, request.resources, request.occurrences, {
    isAdmin: caller.isAdmin,
    excludeReservationIds: context.replacing,
    zone: caller.user.timezone,
  });
  const conflicting = new Set(conflicts.map((conflict) => conflict.occurrenceIndex));
  if (conflicts.length && (!request.skipConflicts || conflicting.has(0))) throw invalid(conflictMessage(conflicts));
  const kept = request.occurrences.filter((_, index) => !conflicting.has(index));
  const shortage = accessoryShortages(connection, request.accessories, kept, {
    excludeReservationIds: context.replacing,
    zone: caller.user.timezone,
  });
  if (shortage) throw invalid(shortage);
  return kept;
}

const needsApproval = (request: BookingRequest, caller: Caller) =>
  !caller.isAdmin && request.resources.some((resource) => resource.requiresApproval === 1);

function instanceValues(request: BookingRequest, occurrences: readonly Occurrence[], referenceNumbers: readonly string[] = []) {
  return occurrences.map((occurrence, index) => ({
    referenceNumber: referenceNumbers[index] ?? newReferenceNumber(),
    startAt: occurrence.start.toMillis(),
    endAt: occurrence.end.toMillis(),
    creditsConsumed: creditsFor(occurrence, request.resources, request.layout, request.schedule.timezone),
  }));
}

/** Stores a new series for the request; returns the reference number of its first occurrence. */
function storeSeries(
  connection: Connection,
  request: BookingRequest,
  occurrences: readonly Occurrence[],
  pending: boolean,
  nowMs: number,
  keepReferences: readonly string[] = [],
) {
  const seriesId = insertSeries(connection, seriesValues(request, pending), nowMs);
  const instances = instanceValues(request, occurrences, keepReferences);
  insertInstances(
    connection,
    seriesId,
    request.resources.map((resource) => resource.id),
    instances,
  );
  // Series ids are AUTOINCREMENT: a new one never held values.
  writeAttributeValues(connection, AttributeCategory.reservation, seriesId, request.body.customAttributes ?? [], true);
  return instances[0]!.referenceNumber;
}

/** The occurrences a scope covers, in order. */
async function occurrencesInScope(store: Store, existing: StoredReservation, scope: UpdateScope): Promise<ReservationRow[]> {
  if (scope === 'this') return [existing.instance];
  return seriesOccurrences(store, existing.series.id, scope === 'future' ? existing.instance.startAt : undefined);
}

/** The earlier part of a split series now ends the day before the occurrence it was split at, a day of the series' zone. */
async function endSeriesBefore(trx: Store, series: ReservationSeriesRow, splitAt: number) {
  const rule = readStoredRecurrenceRule(series.recurrence);
  if (rule.type === 'none' || rule.zone === null) return;
  const terminationDate = DateTime.fromMillis(splitAt, { zone: usableZone(rule.zone) })
    .minus({ days: 1 })
    .toISODate();
  await setSeriesRecurrence(trx, series.id, serializeRecurrenceRule({ ...rule, terminationDate }));
}

export const reservationHandlers = {
  async createReservation({ body }, { store, clock, caller, links }) {
    const now = clock.now();
    const { referenceNumber, pending } = await inWriteTransaction(store, (connection) => {
      const request = readBookingRequest(connection, body, caller, caller.user.id);
      const kept = checkRequest(connection, request, caller, { now, action: 'add', replacing: new Set() });
      const pending = needsApproval(request, caller);
      return { referenceNumber: storeSeries(connection, request, kept, pending, now.toMillis()), pending };
    });
    return reservationReference(links, referenceNumber, pending, 'The reservation was created');
  },

  /**
   * `this` detaches the occurrence into a series of its own; `future` re-plans the series from
   * this occurrence on; `full` (the default, as on real servers) re-plans the whole series,
   * shifted by as much as this occurrence moved.
   */
  async updateReservation({ params, query, body }, { store, clock, caller, links }) {
    const scope = readScope(query.updateScope, 'full');
    const now = clock.now();
    const { referenceNumber, pending } = await inTransaction(store, async (trx) => {
      const existing = await findExisting(trx, params.referenceNumber);
      ensureMayChange(existing.series, caller);
      const connection = connectionOf(trx);
      const request = readBookingRequest(connection, body, caller, existing.series.ownerId);
      const replaced = await occurrencesInScope(trx, existing, scope);
      const seriesCount = (await occurrencesInScope(trx, existing, 'full')).length;
      const isWholeSeries = replaced.length === seriesCount;
      const pending = needsApproval(request, caller);

      // Re-anchor the request on the series' first replaced occurrence, moved as this one moved.
      const shift = request.occurrences[0]!.start.toMillis() - existing.instance.startAt;
      const anchor = replaced[0]!;
      if (anchor.id !== existing.instance.id && scope === 'full') {
        const length = request.occurrences[0]!.end.toMillis() - request.occurrences[0]!.start.toMillis();
        const start = DateTime.fromMillis(anchor.startAt + shift, { zone: request.occurrences[0]!.start.zone });
        // Only the occurrences move: the request's resources, people and rule were read already.
        const replanned = expandRecurrence({ start, end: start.plus({ milliseconds: length }) }, request.rule);
        if (!replanned.ok) throw invalid(replanned.error);
        request.occurrences = replanned.value;
      }
      if (scope === 'this' && !isWholeSeries) {
        // A detached occurrence is a reservation of its own, no longer part of a series.
        request.occurrences = request.occurrences.slice(0, 1);
        request.rule = NO_RECURRENCE;
      }

      const replacing = new Set(replaced.map((row) => row.id));
      const kept = checkRequest(connection, request, caller, { now, action: 'update', replacing });

      if (isWholeSeries && kept.length === 1 && replaced.length === 1) {
        // A single occurrence changes in place: its reference number and check-in state stay.
        replaceSeries(connection, existing.series.id, seriesValues(request, pending), now.toMillis());
        writeAttributeValues(connection, AttributeCategory.reservation, existing.series.id, body.customAttributes ?? []);
        rebookInstance(
          connection,
          existing.instance.id,
          request.resources.map((resource) => resource.id),
          kept[0]!.start.toMillis(),
          kept[0]!.end.toMillis(),
        );
        return { referenceNumber: existing.instance.referenceNumber, pending };
      }
      // Reference numbers carry over in order, so the edited occurrence keeps its own.
      const references = replaced.map((row) => row.referenceNumber);
      await deleteInstances(trx, [...replacing]);
      if (scope === 'future' && !isWholeSeries) await endSeriesBefore(trx, existing.series, existing.instance.startAt);
      storeSeries(connection, request, kept, pending, now.toMillis(), references);
      return { referenceNumber: existing.instance.referenceNumber, pending };
    });
    return reservationReference(links, referenceNumber, pending, 'The reservation was updated');
  },

  /** Without a scope only this occurrence goes, as the spec says (real servers delete the series). */
  async deleteReservation({ params, query }, { store, clock, caller }) {
    const scope = readScope(query.updateScope, 'this');
    await inTransaction(store, async (trx) => {
      const existing = await findExisting(trx, params.referenceNumber);
      ensureMayChange(existing.series, caller);
      const resources = await bookedResources(trx, existing.instance.id);
      const tooLate = deletionViolation(DateTime.fromMillis(existing.instance.startAt), resources, clock.now(), caller.isAdmin);
      if (tooLate) throw invalid(tooLate);
      const doomed = await occurrencesInScope(trx, existing, scope);
      await deleteInstances(
        trx,
        doomed.map((row) => row.id),
      );
    });
    return deletionEnvelope();
  },
} satisfies Pick<HandlerMap, 'createReservation' | 'updateReservation' | 'deleteReservation'>;
