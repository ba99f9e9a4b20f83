/** What the user does to a reservation they have: check in, check out, give it back, cancel; changes are in reservation-changes.ts. */
import type { DateTime } from 'luxon';
import { wireInstant } from '../../api/dates.js';
import type { BridgeResult, CancelRequest, ReferenceRequest, ReservationView, StateSnapshot } from '../../bridge/contract.js';
import type { CommandContext } from './command-context.js';
import type { CommandLookups } from './command-lookups.js';
import { commandMessages } from './command-messages.js';
import { failure, success, unexpected } from '../errors.js';
import { createReservationAnswers, inOneLine, refusalInWords, refusesStarted } from './reservation-answers.js';
import { createReservationChanges, type ReservationChanges } from './reservation-changes.js';
import { firstRemainingOccurrence } from './series.js';
import { bridgeErrorFromSession, type SessionResult } from '../session/session-errors.js';

export interface ReservationActions extends ReservationChanges {
  checkInOrOut(referenceNumber: string, direction: 'in' | 'out'): Promise<BridgeResult<ReservationView>>;
  cancel(request: CancelRequest): Promise<BridgeResult<StateSnapshot>>;
  release(request: ReferenceRequest): Promise<BridgeResult<StateSnapshot>>;
}

export function createReservationActions(context: CommandContext, lookups: CommandLookups): ReservationActions {
  const { run, readBack } = lookups;
  const answers = createReservationAnswers(context, lookups);
  const { learnStartRule, requiresCheckIn, viewOrError } = answers;

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

  return { checkInOrOut, ...createReservationChanges(context, lookups, answers), cancel, release };
}
