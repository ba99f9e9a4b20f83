/** What the server's answer to an action on one reservation means: a refusal in words, what it teaches, the view after. */
import type { BridgeError, BridgeResult, ReservationView } from '../../bridge/contract.js';
import { wireInstant } from '../../api/dates.js';
import type { WireReservation } from '../../api/wire.js';
import type { CommandContext } from './command-context.js';
import type { CommandLookups } from './command-lookups.js';
import { commandMessages } from './command-messages.js';
import { failure, success, unexpected } from '../errors.js';
import { bridgeErrorFromSession, type SessionError } from '../session/session-errors.js';
import { detailView, type ViewContext } from '../views/reservation-view.js';

/** Real servers' refusal of a start in the past (server-facts B). */
const pastStartRefusal = 'The start date and time cannot be in the past.';

export const refusesStarted = (error: SessionError) => error.kind === 'validation' && (error.errors ?? []).includes(pastStartRefusal);

/** A refusal in one line: a server's validation lines say what its generic message does not. */
export function inOneLine(error: SessionError): BridgeError {
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
export function refusalInWords(error: SessionError, action: 'change' | 'cancel'): BridgeError {
  return refusesStarted(error) ? { kind: 'validation', message: commandMessages.startedLocked(action) } : inOneLine(error);
}

export interface ReservationAnswers {
  /**
   * What the server's answer to a change or cancellation of a reservation under way tells of its
   * start-time rule, kept for the views: its first refusal ends the offers of what it would refuse.
   */
  learnStartRule(start: string, refused: boolean): void;
  requiresCheckIn(detail: WireReservation): boolean;
  /** The reservation as the server now holds it, folded into the state and shown as a view. */
  viewOrError(detail: WireReservation, view: ViewContext, requires?: boolean): BridgeResult<ReservationView>;
}

export function createReservationAnswers(context: CommandContext, lookups: CommandLookups): ReservationAnswers {
  function requiresCheckIn(detail: WireReservation): boolean {
    return lookups.knownSummary(detail.referenceNumber)?.isCheckInEnabled ?? detail.autoReleaseMinutes !== null;
  }

  return {
    learnStartRule(start, refused) {
      const account = context.session.account;
      const begun = wireInstant(start);
      const now = context.view.viewContext()?.now;
      if (account === null || begun === null || now === undefined || begun > now) return;
      context.startTimeRules.learn(account, refused ? 'future' : 'current');
    },
    requiresCheckIn,
    viewOrError(detail, view, requires = requiresCheckIn(detail)) {
      context.sync.reservationChanged(detail);
      const result = detailView(detail, requires, view);
      return result === null ? failure(unexpected("The server's answer about the reservation has no valid dates.")) : success(result);
    },
  };
}
