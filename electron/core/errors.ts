import { connectionProblem } from '../api/api-error.js';
import type { ApiError, ApiErrorKind } from '../api/client.js';
import type { BridgeError, BridgeResult } from '../bridge/contract.js';

const bridgeKinds: Record<ApiErrorKind, BridgeError['kind']> = {
  network: 'network',
  unauthorized: 'unauthorized',
  forbidden: 'forbidden',
  notFound: 'notFound',
  validation: 'validation',
  server: 'server',
  unexpectedStatus: 'server',
  unexpectedBody: 'unexpected',
};

/** The server's own words, untouched: people recognise the messages their server gives. */
export function bridgeErrorFromApi(error: ApiError): BridgeError {
  return {
    kind: bridgeKinds[error.kind],
    message: error.message,
    ...(error.errors !== undefined && error.errors.length > 0 && { errors: [...error.errors] }),
  };
}

export const invalidInput = (message: string): BridgeError => ({ kind: 'invalidInput', message });

export const unexpected = (message: string): BridgeError => ({ kind: 'unexpected', message });

export const signedOutError = (message = 'Sign in to Perch first.'): BridgeError => ({ kind: 'signedOut', message });

export const failure = <T>(error: BridgeError): BridgeResult<T> => ({ ok: false, error });

export const success = <T>(value: T): BridgeResult<T> => ({ ok: true, value });

/** What was thrown, in words: anything may be thrown, not only an Error. */
export const messageOf = (thrown: unknown): string => (thrown instanceof Error ? thrown.message : String(thrown));

/**
 * A last line of defence: a bug inside a command becomes an answer, never a rejected IPC call.
 * A connection that failed is said in words, never with Node's own text (`getaddrinfo ENOTFOUND …`).
 */
export function errorFromThrown(thrown: unknown): BridgeError {
  const problem = connectionProblem(thrown);
  if (problem !== null) return { kind: 'network', message: `Perch could not reach the server: ${problem}. Try again in a moment.` };
  return unexpected(`Something went wrong inside Perch: ${messageOf(thrown)}`);
}
