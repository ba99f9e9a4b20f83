import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { OperationName } from '../../../electron/api/operations.js';

/** One answer of a server, as `npm run record:server` writes it and the tests replay it. */
export interface Recording {
  operation: OperationName;
  /** The server's state when it answered (the folder's name). */
  state: string;
  note: string;
  /** `path` is below the API root; query values are decoded. */
  request: { method: string; path: string; query: Record<string, string> };
  status: number;
  contentType: string;
  /** Only headers a client reads (content type, redirect target). */
  headers: Record<string, string>;
  /** Parsed JSON when the answer was JSON, else its text verbatim (HTML, empty bodies). */
  body: unknown;
}

/** Recordings of real LibreBooking 2.9 servers, one folder per state. */
export const librebooking29 = new URL('../fixtures/librebooking-2.9/', import.meta.url);

export function readRecording(state: string, name: string): Recording {
  return JSON.parse(readFileSync(new URL(`${state}/${name}.json`, librebooking29), 'utf8')) as Recording;
}

/** Answers of LibreBooking 4.x written from its source, not recorded (see the folder's README). */
export const librebooking4xSynthetic = new URL('../fixtures/librebooking-4.x-synthetic/', import.meta.url);

export function readSynthetic4x(name: string): Recording {
  return JSON.parse(readFileSync(new URL(`${name}.json`, librebooking4xSynthetic), 'utf8')) as Recording;
}

/** Every recording below `folder`, as `state/name` with the recording. */
export function readAllRecordings(folder: URL = librebooking29): Array<{ name: string; recording: Recording }> {
  const root = folder.pathname;
  return readdirSync(root, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.json'))
    .sort()
    .map((file) => ({
      name: file.replace(/\.json$/, ''),
      recording: JSON.parse(readFileSync(join(root, file), 'utf8')) as Recording,
    }));
}

/** The body's bytes as the server sent them: text verbatim, anything else as JSON. */
export function bodyText(recording: Recording): string {
  return typeof recording.body === 'string' ? recording.body : JSON.stringify(recording.body);
}

/** The recorded answer as a fetch Response. */
export function recordedResponse(recording: Recording): Response {
  return new Response(bodyText(recording), {
    status: recording.status,
    headers: { 'content-type': recording.contentType },
  });
}
