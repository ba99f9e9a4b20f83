import type { Result } from './result.js';

/** What went wrong, in the few kinds a caller acts on differently. */
export type ApiErrorKind =
  'network' | 'unauthorized' | 'forbidden' | 'notFound' | 'validation' | 'server' | 'unexpectedStatus' | 'unexpectedBody';

/** A plain value (no class) so it survives IPC and structured cloning unchanged. */
export interface ApiError {
  kind: ApiErrorKind;
  /** The HTTP status, when the server answered at all. */
  status?: number;
  /** Readable for a person: the server's own words where it gave any. */
  message: string;
  /** The server's list of problems (validation and business-rule failures). */
  errors?: string[];
}

export type ApiResult<T> = Result<T, ApiError>;

export const loginRefusedMessage = 'Login failed. Invalid username or password.';

const fallbackMessages: Record<Exclude<ApiErrorKind, 'network' | 'unexpectedBody'>, string> = {
  unauthorized: 'You must be authenticated in order to access this service.',
  forbidden: 'You are not allowed to do this.',
  notFound: 'The requested resource was not found',
  validation: 'There were errors processing your request',
  server: 'The server could not complete the request',
  unexpectedStatus: 'The server gave an unexpected answer',
};

// Long enough for a PHP error line, short enough for a notification.
const MAX_DETAIL_LENGTH = 200;

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', '#39': "'" };

/**
 * The readable lines of an HTML (or plain text) answer. Real servers answer 401 with
 * `…service.<br/>{url}` and crash with PHP's HTML error pages; a person should see words, not tags.
 */
export function htmlToLines(text: string): string[] {
  return text
    .replace(/<(head|script|style)\b[\s\S]*?<\/\1\s*>/gi, '')
    .replace(/<(br|\/p|\/div|\/h\d|\/li|\/tr|\/title)\b[^>]*>/gi, '\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&(amp|lt|gt|quot|apos|nbsp|#39);/g, (_entity, name: string) => ENTITIES[name] ?? '')
    .split('\n')
    .map((line) => line.replace(/\s+/g, ' ').trim())
    .filter((line) => line !== '');
}

function shorten(text: string): string {
  return text.length <= MAX_DETAIL_LENGTH ? text : `${text.slice(0, MAX_DETAIL_LENGTH - 1)}…`;
}

function kindOfStatus(status: number): ApiErrorKind {
  if (status === 401) return 'unauthorized';
  // Too many attempts (sign-in throttling) is a refusal the person acts on like any other.
  if (status === 403 || status === 429) return 'forbidden';
  if (status === 404) return 'notFound';
  if (status === 400) return 'validation';
  if (status >= 500) return 'server';
  return 'unexpectedStatus';
}

/** The local service and real servers answer `{message, errors?}`; some real answers are HTML. */
function readErrorBody(text: string): { detail: string | undefined; errors: string[] | undefined; fromJson: boolean } {
  try {
    const body: unknown = JSON.parse(text);
    if (typeof body === 'object' && body !== null) {
      const { message, errors } = body as { message?: unknown; errors?: unknown };
      const strings = Array.isArray(errors) ? errors.filter((item) => typeof item === 'string') : [];
      return {
        detail: typeof message === 'string' && message !== '' ? message : undefined,
        errors: strings.length > 0 ? strings : undefined,
        fromJson: true,
      };
    }
  } catch {
    // not JSON: read it as HTML text below
  }
  const [firstLine] = htmlToLines(text);
  return { detail: firstLine === undefined ? undefined : shorten(firstLine), errors: undefined, fromJson: false };
}

/**
 * While its API is switched off, LibreBooking 2.x answers every call with a 200 page saying so;
 * 4.x answers 503 `{"message": "LibreBooking API is disabled. Set [\"api\"][\"enabled\"] = true"}`.
 */
export function isApiDisabledPage(text: string): boolean {
  return /API has been configured as disabled|LibreBooking API is disabled/i.test(text.slice(0, 500));
}

export const apiErrorMessages = {
  apiDisabled:
    "The server's API is switched off. Ask the server's administrator to switch it on ($conf['settings']['api']['enabled'] = 'true').",
  notInApiGroup:
    "The server lets only members of its API group use its API, and your account is not one. Ask the server's administrator to add you to the API group.",
  exceptionLogged: 'The server could not complete the request (HTTP 500). It logged the error for its administrator.',
} as const;

export function apiDisabled(status: number): ApiError {
  return { kind: 'server', status, message: apiErrorMessages.apiDisabled };
}

/**
 * LibreBooking 3.x/4.x refuse a user outside the groups its configuration allows the API: at
 * sign-in (`api.Authentication.group`) with 403 and `Login failed. API access not authorized.`,
 * on a route (per-category read-only / read-write groups) with 403 and `You are not authorized to
 * access this service.`
 */
const notInApiGroupRefusal = /^(Login failed\. API access not authorized|You are not authorized to access this service)\.?$/i;

/** LibreBooking 4.x's answer to an uncaught error: a 500 labelled JSON whose body is this text. */
const exceptionLoggedBody = 'Exception was logged.';

/** Maps a non-2xx answer to its error value. */
export function errorFromResponse(status: number, text: string): ApiError {
  const kind = kindOfStatus(status);
  if (isApiDisabledPage(text)) return apiDisabled(status);
  if (status >= 500 && text.trim() === exceptionLoggedBody) return { kind: 'server', status, message: apiErrorMessages.exceptionLogged };
  const { detail, errors, fromJson } = readErrorBody(text);
  if (status === 403 && detail !== undefined && notInApiGroupRefusal.test(detail))
    return { kind: 'forbidden', status, message: apiErrorMessages.notInApiGroup };
  let message: string;
  if (kind === 'server' || kind === 'unexpectedStatus') {
    const what = status === 503 ? "The server's API is unavailable or disabled" : fallbackMessages[kind];
    // A crash page's text (PHP's file paths and warnings) means nothing to a person; a JSON message was meant for one.
    message = `${what} (HTTP ${status})${fromJson && detail !== undefined ? `: ${detail}` : '.'}`;
  } else {
    message = detail ?? fallbackMessages[kind as keyof typeof fallbackMessages];
  }
  return { kind, status, message, ...(errors && { errors }) };
}

/** Node's names for why a connection failed, in words a person can act on. */
const CONNECTION_PROBLEMS: Record<string, string> = {
  ENOTFOUND: 'no server has that name',
  EAI_AGAIN: 'its name could not be looked up',
  ECONNREFUSED: 'nothing answers at that address',
  ECONNRESET: 'the connection was cut',
  EHOSTUNREACH: 'it cannot be reached from this network',
  ENETUNREACH: 'this computer is not connected to a network',
  ETIMEDOUT: 'it did not answer',
  UND_ERR_SOCKET: 'the connection was cut',
  UND_ERR_CONNECT_TIMEOUT: 'it did not answer',
  CERT_HAS_EXPIRED: 'its certificate has expired',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'its certificate is not trusted',
  SELF_SIGNED_CERT_IN_CHAIN: 'its certificate is not trusted',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'its certificate is not trusted',
  ERR_TLS_CERT_ALTNAME_INVALID: 'its certificate is for another name',
  NO_TLS: 'it does not answer https:// there (an intranet server may need http://)',
};

function errorCodes(error: unknown): string[] {
  const codes: string[] = [];
  for (let current = error; current instanceof Error; current = current.cause) {
    const { code } = current as { code?: unknown };
    // A plain-http server cuts an https handshake short; Node says so only in the message.
    if (/before secure TLS connection/i.test(current.message) || code === 'ERR_SSL_WRONG_VERSION_NUMBER') codes.push('NO_TLS');
    if (typeof code === 'string') codes.push(code);
  }
  return codes;
}

function isTimeout(error: unknown): boolean {
  for (let current = error; current instanceof Error; current = current.cause) {
    if (current.name === 'TimeoutError') return true;
  }
  return false;
}

/** Why a connection failed, in words, when what was thrown says so; null for anything else. */
export function connectionProblem(error: unknown): string | null {
  if (isTimeout(error)) return 'it did not answer in time';
  const codes = errorCodes(error);
  return (
    codes.map((code) => CONNECTION_PROBLEMS[code]).find((words) => words !== undefined) ??
    (codes.length > 0 ? 'the connection failed' : null)
  );
}

/** How messages name a server, and what a person can do when it cannot be reached. */
export interface ServerWording {
  name: string;
  whenUnreachable: string;
}

export const remoteServerWording = (host: string): ServerWording => ({ name: host, whenUnreachable: 'Check the address and the network.' });

/** The request never got an answer: refused, unreachable, reset, or too slow. Never Node's raw text. */
export function networkError(error: unknown, timeoutMs: number, server: ServerWording): ApiError {
  if (isTimeout(error)) return { kind: 'network', message: `${server.name} did not answer within ${timeoutMs / 1000} seconds.` };
  return {
    kind: 'network',
    message: `Can't reach ${server.name}: ${connectionProblem(error) ?? 'the connection failed'}. ${server.whenUnreachable}`,
  };
}

/** A 2xx whose body is no answer: real servers send an empty 200 for an unknown reservation. */
export function unexpectedBody(status: number, operation: string, what: string): ApiError {
  return { kind: 'unexpectedBody', status, message: `The server's answer to ${operation} ${what}.` };
}

/** What `decode` reports, as the end of a sentence about the answer. */
export function describeUnusable(member: string): string {
  return member === '' ? 'was not the kind of answer it should be' : `could not be used: its ${member} is missing or invalid`;
}
