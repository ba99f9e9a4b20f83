import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { createClient, type ApiClient } from '../../electron/api/client.js';
import { sessionHeaders, type Session } from '../../electron/api/session-headers.js';
import { operationNames } from '../../electron/api/operations.js';
import { insertSchedule } from '../support/fixtures.js';
import { adminCredentials, createNormalUser, startTestService, type TestService } from '../support/service.js';

interface Exchange {
  url: string;
  requestHeaders: Headers;
  responseHeaders: Headers;
}

let service: TestService;
let scheduleId: number;
beforeAll(async () => {
  service = await startTestService();
  scheduleId = await insertSchedule(service.store, { timezone: 'Europe/Berlin', weekdayStart: 1 });
});
afterAll(() => service.dispose());

/** A client on the in-process service whose exchanges are recorded, headers included; it sends `held.session`, as the caller holds it. */
function recordedClient(held: { session: Session | null } = { session: null }): { client: ApiClient; exchanges: Exchange[] } {
  const exchanges: Exchange[] = [];
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const response = await globalThis.fetch(input, init);
    exchanges.push({ url: String(input), requestHeaders: new Headers(init?.headers), responseHeaders: response.headers });
    return response;
  };
  return { client: createClient({ apiRoot: service.apiRoot, fetch, sessionHeaders: () => sessionHeaders(held.session) }), exchanges };
}

/** Signed in as the core signs in: the caller keeps the session Authenticate started. */
async function signedInClient(credentials: { username: string; password: string } = adminCredentials) {
  const held: { session: Session | null } = { session: null };
  const recorded = recordedClient(held);
  const result = await recorded.client.authenticate({ body: credentials });
  if (!result.ok || result.value.sessionToken === null || result.value.userId === null) throw new Error('sign-in failed');
  held.session = { sessionToken: result.value.sessionToken, userId: result.value.userId };
  return { ...recorded, held };
}

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (typeof address !== 'object' || address === null) throw new Error('no port');
  return address.port;
}

describe('the client’s shape', () => {
  it('has exactly one method per operation of the table, named by its key, and nothing else: no session of its own', () => {
    const client = createClient({ apiRoot: service.apiRoot });
    const methods = Object.entries(client)
      .filter(([, value]) => typeof value === 'function')
      .map(([name]) => name);
    expect(methods.sort()).toEqual([...operationNames].sort());
    expect(Object.keys(client).sort()).toEqual([...operationNames].sort());
  });

  it('types each method’s input and output from the table', () => {
    // Checked by the compiler, never run.
    const typed = async (client: ApiClient) => {
      // @ts-expect-error GetUser's path has :userId
      await client.getUser();
      // @ts-expect-error ids are numbers
      await client.getUser({ params: { userId: '2' } });
      // @ts-expect-error reads take no body
      await client.getAllSchedules({ body: {} });
      // @ts-expect-error CreateReservation takes a body
      await client.createReservation({});
      await client.getAllUsers({ query: { att3: 'blue', email: undefined } });
      const reservation = await client.getReservation({ params: { referenceNumber: 'x' } });
      if (reservation.ok) expectTypeOf(reservation.value.resources[0]!.id).toEqualTypeOf<number>();
    };
    expect(typed).toBeTypeOf('function');
  });
});

describe('Authenticate and the session', () => {
  it('signs in and decodes the answer, whose session its caller keeps', async () => {
    const { client } = recordedClient();
    const result = await client.authenticate({ body: adminCredentials });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value).toMatchObject({ isAuthenticated: true, userId: service.admin.userId, version: '2.9', links: [], message: null });
    expect(result.value.sessionToken).toMatch(/^[0-9a-f]{50}$/);
  });

  it('turns a refused login into an unauthorized error', async () => {
    const { client } = recordedClient();
    const result = await client.authenticate({ body: { username: 'admin', password: 'wrong' } });
    expect(result).toEqual({
      ok: false,
      error: { kind: 'unauthorized', message: 'Login failed. Invalid username or password.' },
    });
  });

  it('sends the session headers its caller gives on session operations', async () => {
    const { client, exchanges, held } = await signedInClient();
    const result = await client.getAccount({ params: { userId: service.admin.userId } });
    expect(result.ok && result.value.userName).toBe('admin');
    const headers = exchanges.at(-1)?.requestHeaders;
    expect(headers?.get('x-booked-sessiontoken')).toBe(held.session?.sessionToken);
    expect(headers?.get('x-booked-userid')).toBe(String(service.admin.userId));
    // Authenticate itself went without them.
    expect(exchanges[0]?.requestHeaders.has('x-booked-sessiontoken')).toBe(false);
  });

  it('uses a session restored from elsewhere (the keychain)', async () => {
    const client = createClient({ apiRoot: service.apiRoot, sessionHeaders: () => sessionHeaders(service.admin) });
    const result = await client.getAccount({ params: { userId: service.admin.userId } });
    expect(result.ok).toBe(true);
  });

  it('signs out, and a stale token then maps to unauthorized', async () => {
    const { client, held } = await signedInClient();
    const stale = held.session!;
    const signedOut = await client.signOut({ body: stale });
    expect(signedOut).toEqual({ ok: true, value: { signedOut: true } });
    held.session = null;

    const withoutSession = await client.getAllSchedules();
    expect(withoutSession).toEqual({
      ok: false,
      error: { kind: 'unauthorized', status: 401, message: 'You must be authenticated in order to access this service.' },
    });
    held.session = stale;
    expect(await client.getAllSchedules()).toEqual(withoutSession);
  });
});

describe('error mapping against the local service', () => {
  it('maps 403 (a normal user on an administrator’s route) to forbidden', async () => {
    const user = await createNormalUser(service, 'clara');
    const { client } = await signedInClient({ username: 'clara', password: user.password });
    const result = await client.createGroup({ body: { name: 'Not mine' } });
    expect(result).toEqual({
      ok: false,
      error: { kind: 'forbidden', status: 403, message: 'You must be an application administrator to access this service.' },
    });
  });

  it('maps 404 to notFound', async () => {
    const { client } = await signedInClient();
    const result = await client.getUser({ params: { userId: 999_999 } });
    expect(result).toEqual({
      ok: false,
      error: { kind: 'notFound', status: 404, message: 'The requested resource was not found' },
    });
  });

  it('maps 400 to validation, with the server’s errors', async () => {
    const { client } = recordedClient();
    const result = await client.authenticate({ body: { username: 'x'.repeat(256), password: 'p' } });
    expect(result).toEqual({
      ok: false,
      error: {
        kind: 'validation',
        status: 400,
        message: 'There were errors processing your request',
        errors: ['username must NOT have more than 255 characters'],
      },
    });
  });

  it('says so when an https address reaches a plain-http server', async () => {
    const client = createClient({ apiRoot: `https://${new URL(service.apiRoot).host}/Web/Services/index.php` });
    const result = await client.getStatuses();
    expect(result).toEqual({
      ok: false,
      error: {
        kind: 'network',
        message: `Can't reach ${new URL(service.apiRoot).host}: it does not answer https:// there (an intranet server may need http://). Check the address and the network.`,
      },
    });
  });

  it('maps a closed port to a network error', async () => {
    const port = await closedPort();
    const client = createClient({ apiRoot: `http://127.0.0.1:${port}/Web/Services/index.php` });
    const result = await client.getStatuses();
    expect(result).toEqual({
      ok: false,
      error: {
        kind: 'network',
        message: `Can't reach 127.0.0.1:${port}: nothing answers at that address. Check the address and the network.`,
      },
    });
  });
});

describe('requests as the table writes them', () => {
  it('keeps trailing slashes: list and create routes answer instead of redirecting', async () => {
    const { client, exchanges } = await signedInClient();
    const created = await client.createGroup({ body: { name: 'Facilities' } });
    expect(created.ok && created.value.message).toBe('The group was created');
    const listed = await client.getAllGroups();
    expect(listed.ok && listed.value.groups.map((group) => group.name)).toContain('Facilities');
    expect(exchanges.slice(1).map((exchange) => exchange.url)).toEqual([`${service.apiRoot}/Groups/`, `${service.apiRoot}/Groups/`]);
  });

  it('sends a `+` in a query value as %2B, so it arrives as a plus', async () => {
    const { client } = await signedInClient();
    const created = await client.createUser({
      body: {
        userName: 'plus',
        emailAddress: 'first+last@example.org',
        firstName: 'Plus',
        lastName: 'Sign',
        password: 'plus-password-1',
        timezone: 'UTC',
      },
    });
    expect(created.ok).toBe(true);
    const found = await client.getAllUsers({ query: { email: 'first+last@example.org', username: undefined } });
    expect(found.ok && found.value.users.map((user) => user.userName)).toEqual(['plus']);
  });

  it('sends full resource bodies the local service accepts, and reads the resource back', async () => {
    const { client } = await signedInClient();
    const created = await client.createResource({ body: { name: 'Desk 9', scheduleId } });
    expect(created.ok).toBe(true);
    if (!created.ok) return;
    const read = await client.getResource({ params: { resourceId: created.value.resourceId } });
    expect(read.ok && read.value).toMatchObject({ name: 'Desk 9', bufferTime: '', groupIds: [], typeId: null });
  });

  it('asks for compression and gets it for large answers', async () => {
    const { client, exchanges } = await signedInClient();
    for (let index = 0; index < 12; index++) await client.createGroup({ body: { name: `Team ${index}` } });
    const listed = await client.getAllGroups();
    expect(listed.ok).toBe(true);
    const exchange = exchanges.at(-1);
    expect(exchange?.requestHeaders.get('accept-encoding')).toBe('gzip, deflate, br');
    expect(exchange?.responseHeaders.get('content-encoding')).toBe('br');
  });
});

describe('the local service’s answers decode', () => {
  it('reads every list and item the service answers today', async () => {
    const { client } = await signedInClient();
    const resource = await client.createResource({ body: { name: 'Room 3', scheduleId, bufferTime: '0d0h15m' } });
    const group = await client.createGroup({ body: { name: 'Readers' } });
    if (!resource.ok || !group.ok) throw new Error('setup failed');
    const { resourceId } = resource.value;
    const userId = service.admin.userId;
    const results = {
      getAllResources: await client.getAllResources(),
      getResource: await client.getResource({ params: { resourceId } }),
      getResourceGroups: await client.getResourceGroups(),
      getStatuses: await client.getStatuses(),
      getAllSchedules: await client.getAllSchedules(),
      getSchedule: await client.getSchedule({ params: { scheduleId } }),
      getAllGroups: await client.getAllGroups(),
      getGroup: await client.getGroup({ params: { groupId: group.value.groupId } }),
      getAllUsers: await client.getAllUsers(),
      getUser: await client.getUser({ params: { userId } }),
      getAccount: await client.getAccount({ params: { userId } }),
      getAllAccessories: await client.getAllAccessories(),
      getCategoryAttributes: await client.getCategoryAttributes({ params: { categoryId: 1 } }),
    };
    const failures = Object.entries(results).filter(([, result]) => !result.ok);
    expect(failures).toEqual([]);
    expect(results.getResource.ok && results.getResource.value.bufferTime).toBe('0 hours 15 minutes');
  });
});
