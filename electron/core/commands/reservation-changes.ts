/** Changes to one reservation the user has: a later end, another title, another time or resource. */
import { DateTime } from 'luxon';
import { formatWireDateTime, wireInstant } from '../../api/dates.js';
import { ResourceStatus } from '../../api/schemas/resources.js';
import type { WireReservation, WireSummary } from '../../api/wire.js';
import type { BridgeResult, ExtendRequest, MoveRequest, ReservationView, RetitleRequest, StateSnapshot } from '../../bridge/contract.js';
import { isConflict, readInstant } from './booking.js';
import type { CommandContext } from './command-context.js';
import type { CommandLookups } from './command-lookups.js';
import { commandMessages, describeTime } from './command-messages.js';
import { failure, invalidInput, success, unexpected } from '../errors.js';
import { queryDate } from './query-dates.js';
import { refusalInWords, refusesStarted, type ReservationAnswers } from './reservation-answers.js';
import { fullBodyOf, type WireReservationBody } from './reservation-body.js';
import { slotProblem } from './slot-check.js';
import { bridgeErrorFromSession } from '../session/session-errors.js';

/** The start of the first reservation other than `own` that overlaps `from`–`to`, if any. */
function firstStartWithin(summaries: readonly WireSummary[], own: string, from: DateTime, to: DateTime): DateTime | null {
  const starts = summaries.flatMap((summary) => {
    const start = wireInstant(summary.startDate);
    const end = wireInstant(summary.endDate);
    const overlaps = summary.referenceNumber !== own && start !== null && end !== null && start < to && end > from;
    return overlaps ? [start < from ? from : start] : [];
  });
  return DateTime.min(...starts) ?? null;
}

export interface ReservationChanges {
  extend(request: ExtendRequest): Promise<BridgeResult<ReservationView>>;
  retitle(request: RetitleRequest): Promise<BridgeResult<ReservationView>>;
  move(request: MoveRequest): Promise<BridgeResult<StateSnapshot>>;
}

export function createReservationChanges(
  context: CommandContext,
  lookups: CommandLookups,
  answers: ReservationAnswers,
): ReservationChanges {
  const { run, readBack } = lookups;
  const { learnStartRule, viewOrError } = answers;

  async function extend({ referenceNumber, minutes }: ExtendRequest): Promise<BridgeResult<ReservationView>> {
    const view = lookups.signedIn();
    if (!view.ok) return view;
    const { zone } = view.value;
    const current = await readBack(referenceNumber);
    if (!current.ok) return failure(bridgeErrorFromSession(current.error));
    const detail = current.value;
    const end = wireInstant(detail.endDate);
    if (end === null) return failure(unexpected("The server's answer about the reservation has no valid end."));
    const newEnd = end.plus({ minutes });
    const name = detail.resources.find((resource) => resource.id === detail.resourceId)?.name ?? 'The resource';

    const resource = await lookups.findResource(detail.resourceId);
    if (!resource.ok) return resource;
    if (resource.value.statusId !== ResourceStatus.available) return failure(invalidInput(commandMessages.resourceUnavailable(name)));
    // Availability at a future dateTime is judged against the server's clock (server-facts D), so
    // the reservations of the resource after the current end decide.
    const following = await run((client) =>
      client.getReservations({
        query: {
          resourceId: String(detail.resourceId),
          startDateTime: formatWireDateTime(end.toUTC()),
          endDateTime: formatWireDateTime(newEnd.toUTC()),
        },
      }),
    );
    if (!following.ok) return failure(bridgeErrorFromSession(following.error));
    const nextStart = firstStartWithin(following.value.reservations, referenceNumber, end, newEnd);
    if (nextStart !== null) return failure(invalidInput(commandMessages.bookedFrom(name, describeTime(nextStart, zone, end))));

    const changed = await updateOne(
      detail,
      { endDateTime: formatWireDateTime(newEnd.setZone(zone)) },
      (after) => wireInstant(after.endDate)?.toMillis() === newEnd.toMillis(),
      commandMessages.extendNotConfirmed,
    );
    return changed.ok ? viewOrError(changed.value, view.value) : changed;
  }

  async function retitle({ referenceNumber, title }: RetitleRequest): Promise<BridgeResult<ReservationView>> {
    const view = lookups.signedIn();
    if (!view.ok) return view;
    const current = await readBack(referenceNumber);
    if (!current.ok) return failure(bridgeErrorFromSession(current.error));
    const changed = await updateOne(current.value, { title }, (after) => after.title === title, commandMessages.retitleNotConfirmed);
    return changed.ok ? viewOrError(changed.value, view.value) : changed;
  }

  /**
   * Another time or resource for one reservation. What the schedule's slots rule out is said before
   * anything is sent (its own booking aside, a time already taken is the server's to refuse); the
   * list is read again after, since moving an occurrence of a series may give it a new reference.
   */
  async function move({ referenceNumber, start, end, resourceId }: MoveRequest): Promise<BridgeResult<StateSnapshot>> {
    const view = lookups.signedIn();
    if (!view.ok) return view;
    const { zone } = view.value;
    const from = readInstant(start, zone);
    if (from === null) return failure(invalidInput(commandMessages.invalidStart));
    const to = readInstant(end, zone);
    if (to === null) return failure(invalidInput(commandMessages.invalidEnd));
    if (to.toMillis() <= from.toMillis()) return failure(invalidInput(commandMessages.endAfterStart));
    const resource = await lookups.findResource(resourceId);
    if (!resource.ok) return resource;
    const { name } = resource.value;
    if (resource.value.statusId !== ResourceStatus.available) return failure(invalidInput(commandMessages.resourceUnavailable(name)));
    const slots = await run((client) =>
      client.getSlots({
        params: { scheduleId: resource.value.scheduleId },
        query: { resourceId: String(resourceId), startDateTime: queryDate(from, zone), endDateTime: queryDate(to, zone) },
      }),
    );
    if (!slots.ok) return failure(bridgeErrorFromSession(slots.error));
    const problem = slotProblem(slots.value, resourceId, from, to, name, zone);
    if (problem !== null) return failure(invalidInput(problem));
    const current = await readBack(referenceNumber);
    if (!current.ok) return failure(bridgeErrorFromSession(current.error));
    const change: Partial<WireReservationBody> = {
      startDateTime: formatWireDateTime(from.setZone(zone)),
      endDateTime: formatWireDateTime(to.setZone(zone)),
      resourceId,
      // The new resource is the main one now, not one more of the others.
      resources: current.value.resources.map((held) => held.id).filter((id) => id !== current.value.resourceId && id !== resourceId),
    };
    const moved = (after: WireReservation) =>
      after.resourceId === resourceId &&
      wireInstant(after.startDate)?.toMillis() === from.toMillis() &&
      wireInstant(after.endDate)?.toMillis() === to.toMillis();
    const changed = await updateOne(current.value, change, moved, commandMessages.moveNotConfirmed, name);
    if (!changed.ok) return changed;
    await context.sync.refreshReservations();
    return success(context.view.snapshot());
  }

  /**
   * Sends the whole reservation back with `change` applied to this occurrence only, then reads it
   * again: only what the server holds afterwards confirms the change.
   */
  async function updateOne(
    detail: WireReservation,
    change: Partial<WireReservationBody>,
    confirmed: (after: WireReservation) => boolean,
    notConfirmed: string,
    /** The resource it is to hold, named when the server says that time is taken. */
    holding?: string,
  ): Promise<BridgeResult<WireReservation>> {
    const { referenceNumber } = detail;
    const attributes = await context.reference.reservationAttributes();
    const isAdmin = context.session.account?.isAdmin ?? false;
    const body: WireReservationBody = { ...fullBodyOf(detail, lookups.knownSummary(referenceNumber), attributes, isAdmin), ...change };
    const updated = await run((client) => client.updateReservation({ params: { referenceNumber }, query: { updateScope: 'this' }, body }));
    // Only an acceptance, or the refusal that names the start, says what the rule is.
    if (updated.ok) learnStartRule(detail.startDate, false);
    else if (refusesStarted(updated.error)) learnStartRule(detail.startDate, true);
    if (!updated.ok && holding !== undefined && isConflict(updated.error))
      return failure({ kind: 'conflict', message: commandMessages.notFreeThen(holding) });
    if (!updated.ok && updated.error.kind !== 'unexpectedBody') return failure(refusalInWords(updated.error, 'change'));
    // `this` detaches an occurrence of a series, which may give it a new reference number.
    const changedReference = updated.ok ? updated.value.referenceNumber : referenceNumber;
    const after = await readBack(changedReference === '' ? referenceNumber : changedReference);
    if (!after.ok) return failure(bridgeErrorFromSession(after.error));
    return confirmed(after.value) ? success(after.value) : failure(unexpected(notConfirmed));
  }

  return { extend, retitle, move };
}
