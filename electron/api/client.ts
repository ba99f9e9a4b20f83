import type { Static, TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { createFetch } from 'ofetch';
import {
  apiDisabled,
  describeUnusable,
  errorFromResponse,
  isApiDisabledPage,
  loginRefusedMessage,
  networkError,
  remoteServerWording,
  type ServerWording,
  unexpectedBody,
  type ApiResult,
} from './api-error.js';
import { decode } from './decode.js';
import type { SessionHeaders } from './session-headers.js';
import {
  operationNames,
  operations,
  type OperationDefinition,
  type OperationName,
  type Operations,
  type PathParameterName,
  type PathParameterNames,
  type pathParameters,
} from './operations.js';

export type { ApiError, ApiErrorKind, ApiResult } from './api-error.js';

export type PathParams<N extends OperationName> = {
  [K in PathParameterNames<Operations[N]['path']> & PathParameterName]: Static<(typeof pathParameters)[K]>;
};

/** Query members may be undefined; they are left out of the URL. */
type QueryOf<S extends TSchema> = { [K in keyof Static<S>]?: Static<S>[K] | undefined };

/** Query members a schema cannot type: GetAllUsers filters by custom attribute as `att<id>=<value>`. */
interface QueryExtras {
  getAllUsers: { [filter: `att${number}`]: string | undefined };
}

type QueryExtra<N extends OperationName> = N extends keyof QueryExtras ? QueryExtras[N] : unknown;

/** `{ params, query?, body }`, each member only where the operation has it. */
export type OperationInput<N extends OperationName> = ([PathParameterNames<Operations[N]['path']>] extends [never]
  ? { params?: never }
  : { params: PathParams<N> }) &
  (Operations[N] extends { query: infer Q extends TSchema } ? { query?: QueryOf<Q> & QueryExtra<N> } : { query?: never }) &
  (Operations[N] extends { body: infer B extends TSchema } ? { body: Static<B> } : { body?: never });

export type OperationOutput<N extends OperationName> = Static<Operations[N]['response']>;

export type OperationMethod<N extends OperationName> =
  Record<never, never> extends OperationInput<N>
    ? (input?: OperationInput<N>) => Promise<ApiResult<OperationOutput<N>>>
    : (input: OperationInput<N>) => Promise<ApiResult<OperationOutput<N>>>;

/** One method per operation; it keeps no session: whoever owns the session gives its headers. */
export type ApiClient = { [N in OperationName]: OperationMethod<N> };

export interface ClientOptions {
  /** `{base_url}/Web/Services/index.php`. */
  apiRoot: string;
  /** Injectable so tests can answer in-process or replay recorded bodies. */
  fetch?: typeof globalThis.fetch;
  timeoutMs?: number;
  /** How messages name the server; by default its host (and port), as people typed it. */
  wording?: ServerWording;
  /** Asked before every session and admin operation: the headers of the session as its owner holds it now. None by default. */
  sessionHeaders?: () => SessionHeaders;
}

// Real servers take over a second for large lists; this only catches a server that hangs.
const DEFAULT_TIMEOUT_MS = 30_000;

// Node's fetch asks for gzip and deflate only, and real servers send megabytes of JSON; undici
// decodes br as well, so ask for it.
const ACCEPT_ENCODING = 'gzip, deflate, br';

type BodyOptionalName = {
  [N in OperationName]: Operations[N] extends { bodyOptional: true } ? N : never;
}[OperationName];

/** What an operation whose body the spec leaves out means by an empty answer. */
const answersWithoutBody: { [N in BodyOptionalName]: OperationOutput<N> } = {
  signOut: { signedOut: true },
};

interface RawInput {
  params?: Record<string, unknown>;
  query?: Record<string, unknown>;
  body?: unknown;
}

/** The path exactly as the table writes it (trailing slash kept), below the API root. */
function operationUrl(apiRoot: string, operation: OperationDefinition, input: RawInput): string {
  const path = operation.path.replace(/:(\w+)/g, (_segment, name: string) => {
    const value = input.params?.[name];
    if (value === undefined || value === null) throw new TypeError(`${name} is required for ${operation.path}`);
    return encodeURIComponent(String(value));
  });
  // Built by hand: URLSearchParams writes spaces as `+`, and a `+` in a date must arrive as `%2B`.
  const query = Object.entries(input.query ?? {})
    .filter(([, value]) => value !== undefined && value !== null)
    .map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(String(value))}`)
    .join('&');
  return `${apiRoot.replace(/\/+$/, '')}${path}${query === '' ? '' : `?${query}`}`;
}

function readAnswer(name: OperationName, status: number, text: string): ApiResult<unknown> {
  if (status < 200 || status > 299) return { ok: false, error: errorFromResponse(status, text) };
  const operation: OperationDefinition = operations[name];
  if (text.trim() === '') {
    if (operation.bodyOptional) return { ok: true, value: answersWithoutBody[name as BodyOptionalName] };
    return { ok: false, error: unexpectedBody(status, operation.specName, 'was empty') };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    if (isApiDisabledPage(text)) return { ok: false, error: apiDisabled(status) };
    return { ok: false, error: unexpectedBody(status, operation.specName, 'was not JSON') };
  }
  const decoded = decode(operation.response, json);
  return decoded.ok
    ? { ok: true, value: decoded.value }
    : { ok: false, error: unexpectedBody(status, operation.specName, describeUnusable(decoded.error)) };
}

/** A refused login is a 200 on real servers; an accepted one must start a session. */
function readAuthentication(result: ApiResult<OperationOutput<'authenticate'>>): ApiResult<OperationOutput<'authenticate'>> {
  if (!result.ok) return result;
  const { isAuthenticated, sessionToken, userId, message } = result.value;
  if (!isAuthenticated) return { ok: false, error: { kind: 'unauthorized', message: message || loginRefusedMessage } };
  if (sessionToken === null || userId === null) {
    return {
      ok: false,
      error: unexpectedBody(
        operations.authenticate.successStatus,
        operations.authenticate.specName,
        'accepted the login but started no session',
      ),
    };
  }
  return result;
}

/** The server as people name it in messages: its host (and port), not the API root. */
function hostOf(apiRoot: string): string {
  try {
    return new URL(apiRoot).host;
  } catch {
    return 'the server';
  }
}

/** The typed client: one method per operation of the table, named by its key. */
export function createClient(options: ClientOptions): ApiClient {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const $fetch = createFetch({ fetch: options.fetch ?? ((input, init) => globalThis.fetch(input, init)) });
  const sessionHeaders = options.sessionHeaders ?? (() => ({}));
  const wording = options.wording ?? remoteServerWording(hostOf(options.apiRoot));

  async function send(name: OperationName, input: RawInput): Promise<ApiResult<unknown>> {
    const operation: OperationDefinition = operations[name];
    const headers: Record<string, string> = {
      Accept: 'application/json',
      'Accept-Encoding': ACCEPT_ENCODING,
      ...(operation.auth !== 'none' && sessionHeaders()),
    };
    let body: string | undefined;
    if (operation.body) {
      // Full bodies always: real servers crash on members left out (the schemas' defaults).
      body = JSON.stringify(Value.Default(operation.body, Value.Clone(input.body ?? {})));
      headers['Content-Type'] = 'application/json';
    }
    try {
      const response = await $fetch.raw(operationUrl(options.apiRoot, operation, input), {
        method: operation.method,
        headers,
        ...(body !== undefined && { body }),
        responseType: 'text',
        ignoreResponseError: true,
        // Retrying is the caller's decision: a POST may have landed, and a crashing server stays crashed.
        retry: false,
        timeout: timeoutMs,
      });
      return readAnswer(name, response.status, response._data ?? '');
    } catch (error) {
      return { ok: false, error: networkError(error, timeoutMs, wording) };
    }
  }

  async function invoke(name: OperationName, input: RawInput): Promise<ApiResult<unknown>> {
    const result = await send(name, input);
    return name === 'authenticate' ? readAuthentication(result as ApiResult<OperationOutput<'authenticate'>>) : result;
  }

  return Object.fromEntries(operationNames.map((name) => [name, (input: RawInput = {}) => invoke(name, input)])) as unknown as ApiClient;
}
