/** What the user does to a reservation they have: check in, check out, extend, retitle, move, cancel. */
import { DateTime } from 'luxon';
import { formatWireDateTime } from '../../api/dates.js';
import { ResourceStatus } from '../../api/schemas/resources.js';
import type {
  BridgeError,
  BridgeResult,
  CancelRequest,
  ExtendRequest,
  MoveRequest,
  ReferenceRequest,
  ReservationView,
  RetitleRequest,
  StateSnapshot,
} from '../../bridge/contract.js';
import { isConflict, readInstant } from './booking.js';
import type { CommandContext } from './command-context.js';
import type { CommandLookups } from './command-lookups.js';
import { commandMessages, describeTime } from './command-messages.js';
import { failure, invalidInput, success, unexpected } from '../errors.js';
import { queryDate } from './query-dates.js';
import { slotProblem } from './slot-check.js';
import { fullBodyOf, type WireReservationBody } from './reservation-body.js';
import { firstRemainingOccurrence } from './series.js';
import { bridgeErrorFromSession, type SessionError, type SessionResult } from '../session/session-errors.js';
import { detailView, type ViewContext } from '../views/reservation-view.js';
import { wireInstant } from '../../api/dates.js';
import type { WireReservation, WireSummary } from '../../api/wire.js';

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

export interface ReservationActions {
  checkInOrOut(referenceNumber: string, direction: 'in' | 'out'): Promise<BridgeResult<ReservationView>>;
  extend(request: ExtendRequest): Promise<BridgeResult<ReservationView>>;
  retitle(request: RetitleRequest): Promise<BridgeResult<ReservationView>>;
  move(request: MoveRequest): Promise<BridgeResult<StateSnapshot>>;
  cancel(request: CancelRequest): Promise<BridgeResult<StateSnapshot>>;
  release(request: ReferenceRequest): Promise<BridgeResult<StateSnapshot>>;
}

/** Real servers' refusal of a start in the past (server-facts B). */
const pastStartRefusal = 'The start date and time cannot be in the past.';

/** A refusal in one line: a server's validation lines say what its generic message does not. */
function inOneLine(error: SessionError): BridgeError {
  const bridged = bridgeErrorFromSession(error);
  if (bridged.kind !== 'validation' || bridged.errors === undefined || bridged.errors.length === 0) return bridged;
  return { kind: 'validation', message: bridged.errors.join(' ') };
}

/**
 * A refusal of a change or cancellation, in the user's words. Real servers apply their start-time
 * rule to changes and cancellations too: with the default setting (`future`) a reservation under
 * way can be neither. A change keeps the reservation's own start, so this refusal can only mean it
 * has started.
 */
function refusalInWords(error: SessionError, action: 'change' | 'cancel'): BridgeError {
  return refusesStarted(error) ? { kind: 'validation', message: commandMessages.startedLocked(action) } : inOneLine(error);
}

const refusesStarted = (error: SessionError) => error.kind === 'validation' && (error.errors ?? []).includes(pastStartRefusal);

export function createReservationActions(context: CommandContext, lookups: CommandLookups): ReservationActions {
  const { run, readBack } = lookups;

  /**
   * What the server's answer to a change or cancellation of a reservation under way tells of its
   * start-time rule, kept for the views: its first refusal ends the offers of what it would refuse.
   */
  function learnStartRule(start: string, refused: boolean): void {
    const account = context.session.account;
    const begun = wireInstant(start);
    const now = context.view.viewContext()?.now;
    if (account === null || begun === null || now === undefined || begun > now) return;
    context.startTimeRules.learn(account, refused ? 'future' : 'current');
  }

  function requiresCheckIn(detail: WireReservation): boolean {
    return lookups.knownSummary(detail.referenceNumber)?.isCheckInEnabled ?? detail.autoReleaseMinutes !== null;
  }

  function viewOrError(detail: WireReservation, view: ViewContext, requires = requiresCheckIn(detail)): BridgeResult<ReservationView> {
    context.sync.reservationChanged(detail);
    const result = detailView(detail, requires, view);
    return result === null ? failure(unexpected("The server's answer about the reservation has no valid dates.")) : success(result);
  }

  /**
   * Check-in and check-out: the POST's answer is not trusted on its own (real servers answer an
   * empty 200 for things they did not do, or crash after doing them), so the reservation is
   * read again and its dates decide.
   */
  async function checkInOrOut(referenceNumber: string, direction: 'in' | 'out'): Promise<BridgeResult<ReservationView>> {
    const view = lookups.signedIn();
    if (!view.ok) return view;
    const answer = await run((client) =>
      direction === 'in'
        ? client.checkinReservation({ params: { referenceNumber } })
        : client.checkoutReservation({ params: { referenceNumber } }),
    );
    // Refusals (400) and sign-in problems are the server's final word; anything else is re-read.
    if (!answer.ok && answer.error.kind !== 'unexpectedBody' && answer.error.kind !== 'server') return failure(inOneLine(answer.error));
    const detail = await readBack(referenceNumber);
    const done = detail.ok && (direction === 'in' ? detail.value.checkInDate : detail.value.checkOutDate) !== null;
    if (detail.ok && done) return viewOrError(detail.value, view.value, direction === 'in' ? true : requiresCheckIn(detail.value));
    if (!answer.ok && answer.error.kind === 'server') {
      return failure({
        kind: 'server',
        message: commandMessages.serverFailed(direction === 'in' ? 'checking in' : 'checking out', answer.error.status),
      });
    }
    if (!detail.ok && detail.error.kind !== 'notFound') return failure(bridgeErrorFromSession(detail.error));
    return failure(unexpected(direction === 'in' ? commandMessages.checkInNotConfirmed : commandMessages.checkOutNotConfirmed));
  }

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

  async function cancel({ referenceNumber, scope }: CancelRequest): Promise<BridgeResult<StateSnapshot>> {
    const view = lookups.signedIn();
    if (!view.ok) return view;
    const target = scope === 'full' ? await seriesTarget(referenceNumber, view.value.now) : { ok: true as const, value: referenceNumber };
    if (!target.ok) return failure(bridgeErrorFromSession(target.error));
    // Always explicit: real servers read a missing scope as `full`, the spec as `this`.
    const deleted = await run((client) =>
      client.deleteReservation({ params: { referenceNumber: target.value }, query: { updateScope: scope } }),
    );
    if (!deleted.ok) {
      if (refusesStarted(deleted.error)) learnStartRule(lookups.knownSummary(target.value)?.startDate ?? '', true);
      if (deleted.error.kind !== 'unexpectedBody') return failure(refusalInWords(deleted.error, 'cancel'));
      const check = await readBack(target.value);
      if (check.ok) return failure(unexpected(commandMessages.cancelNotConfirmed));
      if (check.error.kind !== 'notFound') return failure(bridgeErrorFromSession(check.error));
    }
    await context.sync.refreshReservations();
    return success(context.view.snapshot());
  }

  /**
   * "I'm not coming": the reservation as the server has it now decides. Not started yet: this
   * occurrence is cancelled. Started: it is checked out, which cuts its end to now; one awaiting
   * check-in is checked in to first, since servers check out only what was checked in to (the
   * spec's states), and real servers refuse a normal user's cancellation once it has started.
   */
  async function release({ referenceNumber }: ReferenceRequest): Promise<BridgeResult<StateSnapshot>> {
    const view = lookups.signedIn();
    if (!view.ok) return view;
    const current = await readBack(referenceNumber);
    if (!current.ok) return failure(bridgeErrorFromSession(current.error));
    const start = wireInstant(current.value.startDate);
    if (start === null) return failure(unexpected("The server's answer about the reservation has no valid start."));
    if (view.value.now <= start) return cancel({ referenceNumber, scope: 'this' });
    if (current.value.checkInDate === null) {
      const checkedIn = await checkInOrOut(referenceNumber, 'in');
      if (!checkedIn.ok) return checkedIn;
    }
    const checkedOut = await checkInOrOut(referenceNumber, 'out');
    return checkedOut.ok ? success(context.view.snapshot()) : checkedOut;
  }

  /** The occurrence a full-scope delete must name to remove the whole series. */
  async function seriesTarget(referenceNumber: string, now: DateTime): Promise<SessionResult<string>> {
    const picked = await readBack(referenceNumber);
    return picked.ok ? firstRemainingOccurrence(lookups, picked.value, now) : picked;
  }

  return { checkInOrOut, extend, retitle, move, cancel, release };
}
