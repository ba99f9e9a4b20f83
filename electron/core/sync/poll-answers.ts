/**
 * What a poll's answers say of the server: whether it could be reached, whether it answered
 * slowly or failed (the strain that stretches the poll periods), and the poll's outcome.
 */
import type { DateTime } from 'luxon';
import type { CoreState } from '../core-state.js';
import type { AccountIdentity } from '../session/account-identity.js';
import type { AccountSession } from '../session/session.js';
import { bridgeErrorFromSession, type SessionResult } from '../session/session-errors.js';
import type { PollOutcome } from './poller.js';
import { maxStrainLevel } from './poll-plan.js';

/** An answer slower than this is a sign of a strained server. */
export const defaultSlowAnswerMs = 3_000;

/** Times the answers of one poll: one that came slowly is a sign of strain. */
export interface AnswerTimer {
  timed<T>(request: Promise<SessionResult<T>>): Promise<SessionResult<T>>;
  readonly slow: boolean;
}

export function answerTimer(monotonicMs: () => number, slowAnswerMs: number): AnswerTimer {
  let slow = false;
  return {
    async timed(request) {
      const began = monotonicMs();
      const result = await request;
      if (monotonicMs() - began > slowAnswerMs) slow = true;
      return result;
    },
    get slow() {
      return slow;
    },
  };
}

/** What the reads of a poll ask the server through. */
export type PollSession = Pick<AccountSession, 'account' | 'run'>;

/** What every read of one poll works with. */
export interface PollReads {
  state: CoreState;
  session: PollSession;
  /** Whom the poll reads for: an answer that comes after the account changed is dropped. */
  account: AccountIdentity;
  now: DateTime;
  answers: AnswerTimer;
}

/** Whether an error means the server cannot be reached (offline and backoff) rather than refused. */
export const unreachable = (result: SessionResult<unknown> | null) => result !== null && !result.ok && result.error.kind === 'network';

/** The server failed (it answered with an error) on one of the poll's requests. */
export const serverFailed = (results: readonly SessionResult<unknown>[]) =>
  results.some((result) => !result.ok && result.error.kind === 'server');

/** Raises the strain on a slow or failing answer, lowers it on a good poll. */
export function judgeStrain(state: Pick<CoreState, 'strain'>, slow: boolean, serverError: boolean): void {
  if (slow || serverError) {
    const level = Math.min((state.strain?.level ?? 0) + 1, maxStrainLevel);
    state.strain = { level, reason: serverError ? 'serverError' : 'slow' };
  } else if (state.strain !== null) {
    state.strain = state.strain.level > 1 ? { ...state.strain, level: state.strain.level - 1 } : null;
  }
}

/** The poll's outcome from its answers; the last refusal is what the user is told. */
export function outcomeOf(state: Pick<CoreState, 'lastError'>, results: readonly SessionResult<unknown>[]): PollOutcome {
  let outcome: PollOutcome = 'ok';
  for (const result of results) {
    if (!result.ok) {
      outcome = 'failed';
      if (result.error.kind !== 'signedOut') state.lastError = bridgeErrorFromSession(result.error);
    }
  }
  return outcome;
}
