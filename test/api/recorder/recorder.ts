import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ApiClient, ApiResult, OperationInput } from '../../../electron/api/client.js';
import { sessionKeepingClient, type SessionKeepingClient } from '../../support/session-keeping-client.js';
import type { OperationName } from '../../../electron/api/operations.js';
import { createAnonymiser, type Anonymiser } from './anonymise.js';
import type { Recording } from './recording.js';

/** What the server really said, before anonymising: the journey steers by it, not by decoding. */
export interface Answer {
  status: number;
  body: unknown;
}

interface Exchange {
  method: string;
  url: URL;
  status: number;
  contentType: string;
  headers: Record<string, string>;
  text: string;
}

// A redirect target tells where a route lives; nothing else in the headers changes what a client does.
const KEPT_HEADERS = ['location'];

/** JSON when it parses to more than a string (a string would be replayed without its quotes). */
function readBody(text: string): unknown {
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'string' ? text : parsed;
  } catch {
    return text;
  }
}

/**
 * Sends requests through Perch's own client and keeps the last raw answer, so what is recorded is
 * exactly what Perch sends and what the server answered, whether or not the client can decode it.
 */
export class Recorder {
  private last: Exchange | null = null;
  private readonly anonymiser: Anonymiser;
  private readonly folder: string;

  constructor(
    private readonly apiRoot: string,
    outFolder: string,
    private readonly state: string,
  ) {
    this.anonymiser = createAnonymiser(new URL(apiRoot).origin);
    this.folder = join(outFolder, state);
    // A rerun replaces the state's recordings: a step that no longer happens leaves no stale file.
    rmSync(this.folder, { recursive: true, force: true });
    mkdirSync(this.folder, { recursive: true });
  }

  /** A client whose answers this recorder sees; `prefix` goes before every route, to reach unknown paths. */
  client(prefix = ''): SessionKeepingClient {
    const capture: typeof globalThis.fetch = async (input, init) => {
      const response = await globalThis.fetch(input, init);
      const headers = Object.fromEntries(
        KEPT_HEADERS.flatMap((name) => (response.headers.has(name) ? [[name, response.headers.get(name)!]] : [])),
      );
      this.last = {
        method: init?.method ?? 'GET',
        url: new URL(String(input)),
        status: response.status,
        contentType: response.headers.get('content-type') ?? '',
        headers,
        text: await response.clone().text(),
      };
      return response;
    };
    return sessionKeepingClient({ apiRoot: `${this.apiRoot}${prefix}`, fetch: capture });
  }

  /** Calls `operation` and writes its answer to `<state>/<operation>-<variant>.json`. */
  async record<N extends OperationName>(
    client: ApiClient,
    operation: N,
    variant: string,
    note: string,
    input?: OperationInput<N>,
  ): Promise<Answer> {
    this.last = null;
    const method = client[operation] as (input?: OperationInput<N>) => Promise<ApiResult<unknown>>;
    const result = await method(input);
    const exchange = this.last as Exchange | null;
    if (exchange === null) throw new Error(`${operation} (${variant}) got no answer: ${result.ok ? '' : result.error.message}`);
    const body = readBody(exchange.text);
    const { text, json } = this.anonymiser;
    const recording: Recording = {
      operation,
      state: this.state,
      note,
      request: {
        method: exchange.method,
        path: exchange.url.pathname.slice(new URL(this.apiRoot).pathname.length),
        query: Object.fromEntries(exchange.url.searchParams),
      },
      status: exchange.status,
      contentType: exchange.contentType,
      headers: json(exchange.headers) as Record<string, string>,
      body: typeof body === 'string' ? text(body) : json(body),
    };
    const name = `${operation}-${variant}`;
    writeFileSync(join(this.folder, `${name}.json`), `${JSON.stringify(recording, null, 2)}\n`);
    console.log(`${String(exchange.status).padEnd(4)}${name}${result.ok ? '' : `  (${result.error.kind}: ${result.error.message})`}`);
    return { status: exchange.status, body };
  }
}
