import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, type ApiClient, type ApiResult } from '../../electron/api/client.js';
import { sessionHeaders } from '../../electron/api/session-headers.js';
import { createAccountSession } from '../../electron/core/session/session.js';
import { memorySecretStore } from '../../electron/core/storage/secret-store.js';
import { ManualCoreClock } from '../support/manual-clock.js';
import { startReplayServer, type ReplayServer } from '../support/replay-server.js';
import { readRecording, readSynthetic4x, type Recording } from './recorder/recording.js';

// LibreBooking 4.x's answers, synthesised from its source (fixtures/librebooking-4.x-synthetic/README.md),
// served over HTTP on 127.0.0.1 and read through the client as Perch reads a real server.

let server: ReplayServer;
let folder: string;
beforeAll(async () => {
  server = await startReplayServer();
  folder = mkdtempSync(join(tmpdir(), 'perch-4x-'));
});
afterAll(async () => {
  await server.close();
  rmSync(folder, { recursive: true, force: true });
});
const session = { sessionToken: 'a'.repeat(50), userId: 2 };

/** Answers with the recording and calls the client; the request must be the one the recording answers. */
async function replay<T>(recording: Recording, call: (client: ApiClient) => Promise<ApiResult<T>>, pathPrefix = ''): Promise<ApiResult<T>> {
  server.answerWith(recording);
  server.received.length = 0;
  const client = createClient({ apiRoot: `${server.apiRoot}${pathPrefix}`, sessionHeaders: () => sessionHeaders(session) });
  const result = await call(client);
  expect(server.received).toEqual([{ method: recording.request.method, path: recording.request.path }]);
  return result;
}

const apiSwitchedOff =
  "The server's API is switched off. Ask the server's administrator to switch it on ($conf['settings']['api']['enabled'] = 'true').";
const notInApiGroup =
  "The server lets only members of its API group use its API, and your account is not one. Ask the server's administrator to add you to the API group.";
const credentials = { username: 'user', password: 'password' };

describe('the client reads LibreBooking 4.x’s answers', () => {
  it('the API switched off: 503 JSON, at sign-in and on any route, reads as the API switched off', async () => {
    expect(await replay(readSynthetic4x('authenticate-api-disabled'), (client) => client.authenticate({ body: credentials }))).toEqual({
      ok: false,
      error: { kind: 'server', status: 503, message: apiSwitchedOff },
    });
    expect(await replay(readSynthetic4x('getAllResources-api-disabled'), (client) => client.getAllResources())).toEqual({
      ok: false,
      error: { kind: 'server', status: 503, message: apiSwitchedOff },
    });
  });

  it('a user outside the API groups: 403 at sign-in and on a route, reads as not in the API group', async () => {
    server.answerWith(readSynthetic4x('authenticate-not-in-api-group'));
    const client = createClient({ apiRoot: server.apiRoot });
    expect(await client.authenticate({ body: credentials })).toEqual({
      ok: false,
      error: { kind: 'forbidden', status: 403, message: notInApiGroup },
    });
    expect(await replay(readSynthetic4x('getAllResources-not-in-api-group'), (signedIn) => signedIn.getAllResources())).toEqual({
      ok: false,
      error: { kind: 'forbidden', status: 403, message: notInApiGroup },
    });
  });

  it('no valid session: 401 JSON reads as unauthorized, so the session signs in again', async () => {
    expect(await replay(readSynthetic4x('getAllResources-no-session'), (client) => client.getAllResources())).toEqual({
      ok: false,
      error: { kind: 'unauthorized', status: 401, message: 'You must be authenticated in order to access this service.' },
    });
  });

  it('an unknown path (404) and a method the route does not take (405 with Allow) keep Slim’s words', async () => {
    expect(await replay(readSynthetic4x('getStatuses-unknown-path'), (client) => client.getStatuses(), '/Unknown')).toEqual({
      ok: false,
      error: { kind: 'notFound', status: 404, message: 'Not found.' },
    });
    const refused = readSynthetic4x('deleteReservation-method-not-allowed');
    expect(
      await replay(refused, (client) =>
        client.deleteReservation({ params: { referenceNumber: '6b06552218712617927746' }, query: { updateScope: 'this' } }),
      ),
    ).toEqual({
      ok: false,
      error: {
        kind: 'unexpectedStatus',
        status: 405,
        message: 'The server gave an unexpected answer (HTTP 405): Method not allowed. Must be one of: GET, POST',
      },
    });
  });

  it('an uncaught error: 500 labelled JSON whose body is "Exception was logged." reads as a server error in words', async () => {
    expect(
      await replay(readSynthetic4x('createReservation-uncaught-error'), (client) => client.createReservation({ body: { resourceId: 1 } })),
    ).toEqual({
      ok: false,
      error: {
        kind: 'server',
        status: 500,
        message: 'The server could not complete the request (HTTP 500). It logged the error for its administrator.',
      },
    });
  });

  it('an error while the API starts keeps the message meant for the administrator', async () => {
    expect(
      await replay(readSynthetic4x('authenticate-misconfigured-api-group'), (client) => client.authenticate({ body: credentials })),
    ).toEqual({
      ok: false,
      error: {
        kind: 'server',
        status: 500,
        message: "The server could not complete the request (HTTP 500): Group 'API users' for config key not found. Please fix config.php.",
      },
    });
  });
});

describe('sign-in refusals in words that say what to do', () => {
  /** Signs in to the replay server as a person who typed its address would. */
  async function signInAnswered(recording: Recording) {
    server.answerWith(recording);
    const account = createAccountSession({
      dataDir: mkdtempSync(join(folder, 'data-')),
      clock: new ManualCoreClock(DateTime.fromISO('2030-03-12T08:50:00Z')),
      secrets: memorySecretStore('test: memory only'),
      log: () => {},
    });
    const result = await account.signIn({ server: { kind: 'remote', url: server.origin }, ...credentials, staySignedIn: false });
    expect(account.account).toBeNull();
    return result;
  }

  it('a wrong password keeps the server’s words and says what a single sign-on user must do', async () => {
    expect(await signInAnswered(readRecording('as-installed', 'authenticate-wrong-password'))).toEqual({
      ok: false,
      error: {
        kind: 'unauthorized',
        message:
          "Login failed. Invalid username or password. If you sign in to the website through your organisation's single sign-on, Perch needs an API password from the server's administrator, or your directory (LDAP or Active Directory) account where the site uses one.",
      },
    });
  });

  it.each([
    ['LibreBooking 2.9 (a 200 page)', readRecording('api-disabled', 'authenticate-user')],
    ['LibreBooking 4.x (503 JSON)', readSynthetic4x('authenticate-api-disabled')],
  ])('the API switched off on %s: ask the administrator to switch it on', async (_server, recording) => {
    expect(await signInAnswered(recording)).toEqual({ ok: false, error: { kind: 'server', message: apiSwitchedOff } });
  });

  it('not in the API group (4.x): ask the administrator to be added to it', async () => {
    expect(await signInAnswered(readSynthetic4x('authenticate-not-in-api-group'))).toEqual({
      ok: false,
      error: { kind: 'forbidden', message: notInApiGroup },
    });
  });
});
