/** What the user does to a reservation they have: check in, check out, extend, cancel. */
import { formatWireDateTime } from '../api/dates.js';
import { ResourceStatus } from '../api/schemas/resources.js';
import type { BridgeResult, CancelRequest, ExtendRequest, ReservationView, StateSnapshot } from '../bridge.js';
import type { CommandContext } from './command-context.js';
import type { CommandLookups } from './command-lookups.js';
import { commandMessages, describeTime } from './command-messages.js';
import { failure, invalidInput, success, unexpected } from './errors.js';
import { fullBodyOf, type WireReservationBody } from './reservation-body.js';
import { bridgeErrorFromSession } from './session.js';
import { detailView, wireInstant, type ViewContext, type WireReservation } from './state.js';

export interface ReservationActions {
  checkInOrOut(referenceNumber: string, direction: 'in' | 'out'): Promise<BridgeResult<ReservationView>>;
  extend(request: ExtendRequest): Promise<BridgeResult<ReservationView>>;
  cancel(request: CancelRequest): Promise<BridgeResult<StateSnapshot>>;
}

export function createReservationActions(context: CommandContext, lookups: CommandLookups): ReservationActions {
  const { run, readBack } = lookups;

  function requiresCheckIn(detail: WireReservation): boolean {
    return context.knownSummary(detail.referenceNumber)?.isCheckInEnabled ?? detail.autoReleaseMinutes !== null;
  }

  function viewOrError(detail: WireReservation, view: ViewContext, requires = requiresCheckIn(detail)): BridgeResult<ReservationView> {
    context.reservationChanged(detail);
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
      direction === 'in' ? client.checkinReservation({ params: { referenceNumber } }) : client.checkoutReservation({ params: { referenceNumber } }),
    );
    // Refusals (400) and sign-in problems are the server's final word; anything else is re-read.
    if (!answer.ok && answer.error.kind !== 'unexpectedBody' && answer.error.kind !== 'server') return failure(bridgeErrorFromSession(answer.error));
    const detail = await readBack(referenceNumber);
    const done = detail.ok && (direction === 'in' ? detail.data.checkInDate : detail.data.checkOutDate) !== null;
    if (detail.ok && done) return viewOrError(detail.data, view.value, direction === 'in' ? true : requiresCheckIn(detail.data));
    if (!answer.ok && answer.error.kind === 'server') {
      return failure({ kind: 'server', message: commandMessages.serverFailed(direction === 'in' ? 'checking in' : 'checking out', answer.error.status) });
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
    const detail = current.data;
    const end = wireInstant(detail.endDate);
    if (end === null) return failure(unexpected("The server's answer about the reservation has no valid end."));
    const newEnd = end.plus({ minutes });
    const name = detail.resources.find((resource) => resource.id === detail.resourceId)?.name ?? 'The resource';

    // Real servers answer every resource here; the one asked about is picked out.
    const availability = await run((client) =>
      client.getResourceAvailability({ params: { resourceId: detail.resourceId }, query: { dateTime: formatWireDateTime(end.setZone(zone)) } }),
    );
    if (!availability.ok) return failure(bridgeErrorFromSession(availability.error));
    const item = availability.data.resources.find((candidate) => candidate.resource.resourceId === detail.resourceId);
    if (!item || item.resource.statusId !== ResourceStatus.available) return failure(invalidInput(commandMessages.resourceUnavailable(name)));
    if (!item.available) {
      return failure(invalidInput(commandMessages.bookedFrom(name, describeTime(end, zone, end))));
    }
    const until = wireInstant(item.availableUntil);
    if (until !== null && until.toMillis() < newEnd.toMillis()) {
      return failure(invalidInput(commandMessages.bookedFrom(name, describeTime(until, zone, end))));
    }

    const body: WireReservationBody = { ...fullBodyOf(detail, context.knownSummary(referenceNumber)), endDateTime: formatWireDateTime(newEnd.setZone(zone)) };
    const updated = await run((client) => client.updateReservation({ params: { referenceNumber }, query: { updateScope: 'this' }, body }));
    if (!updated.ok && updated.error.kind !== 'unexpectedBody') return failure(bridgeErrorFromSession(updated.error));
    // `this` detaches an occurrence of a series, which may give it a new reference number.
    const changedReference = updated.ok ? updated.data.referenceNumber : referenceNumber;
    const after = await readBack(changedReference === '' ? referenceNumber : changedReference);
    if (!after.ok) return failure(bridgeErrorFromSession(after.error));
    const afterEnd = wireInstant(after.data.endDate);
    if (afterEnd === null || afterEnd.toMillis() !== newEnd.toMillis()) return failure(unexpected(commandMessages.extendNotConfirmed));
    return viewOrError(after.data, view.value);
  }

  async function cancel({ referenceNumber, scope }: CancelRequest): Promise<BridgeResult<StateSnapshot>> {
    const view = lookups.signedIn();
    if (!view.ok) return view;
    // Always explicit: real servers read a missing scope as `full`, the spec as `this`.
    const deleted = await run((client) => client.deleteReservation({ params: { referenceNumber }, query: { updateScope: scope } }));
    if (!deleted.ok) {
      if (deleted.error.kind !== 'unexpectedBody') return failure(bridgeErrorFromSession(deleted.error));
      const check = await readBack(referenceNumber);
      if (check.ok) return failure(unexpected(commandMessages.cancelNotConfirmed));
      if (check.error.kind !== 'notFound') return failure(bridgeErrorFromSession(check.error));
    }
    await context.reservationsChanged();
    return success(context.snapshot());
  }

  return { checkInOrOut, extend, cancel };
}
