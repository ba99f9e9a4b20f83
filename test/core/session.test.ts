import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DateTime } from 'luxon';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../electron/api/client.js';
import { sessionHeaders } from '../../electron/api/session-headers.js';
import { memorySecretStore, type SecretStore } from '../../electron/core/storage/secret-store.js';
import { openKeychain } from '../../electron/platform/keychain/keychain.js';
import { demoPassword } from '../../electron/service/seed/demo.js';
import { demoSignIn, startCoreHarness, type CoreHarness } from '../support/core-harness.js';
import { startPrivateSessionBus, type PrivateSessionBus } from '../support/session-bus.js';

// A Tuesday, 08:50 in London (GMT) and 09:50 in Berlin, where the demo user lives.
const start = DateTime.fromISO('2030-03-12T08:50:00Z', { zone: 'utc' });

let bus: PrivateSessionBus;
let harness: CoreHarness;

beforeAll(async () => {
  bus = await startPrivateSessionBus({ keyring: true });
  process.env['DBUS_SESSION_BUS_ADDRESS'] = bus.address;
  harness = await startCoreHarness(start);
});

afterAll(async () => {
  await harness.dispose();
  await bus.stop();
});

afterEach(async () => {
  harness.intercept(null);
  await harness.idle();
});

const requestLines = () => harness.requests.map((request) => `${request.method} ${request.path}`);

async function kept(secrets: SecretStore, account: string): Promise<Record<string, unknown> | null> {
  const stored = await secrets.get(account);
  return stored === null ? null : (JSON.parse(stored) as Record<string, unknown>);
}

describe('sign in', () => {
  it('signs in to the local service by user name, reads the account and keeps the session', async () => {
    const { core, dataDir, secrets } = harness.newCore();
    await core.start();
    expect(core.snapshot().phase).toBe('signedOut');

    const result = await core.handlers.signIn(demoSignIn('user'));
    if (!result.ok) throw new Error(result.error.message);
    expect(result.value.phase).toBe('ready');
    expect(result.value.account).toEqual({
      server: { kind: 'local' },
      userId: harness.org.users.user,
      userName: 'user',
      displayName: 'Jonas Weber',
      timezone: 'Europe/Berlin',
      timezoneNote: null,
      isAdmin: false,
    });
    expect(result.value.now).toBe('2030-03-12T09:50:00+01:00');

    // The token lives in the keychain, with its expiry; the password only when asked to stay signed in.
    const secret = await kept(secrets, 'local|user');
    expect(secret).toEqual({
      sessionToken: expect.stringMatching(/^[0-9a-f]{50}$/),
      userId: harness.org.users.user,
      sessionExpires: expect.any(String),
    });
    expect(DateTime.fromISO(String(secret!['sessionExpires'])).toMillis()).toBe(start.plus({ minutes: 30 }).toMillis());

    const account = JSON.parse(readFileSync(join(dataDir, 'account.json'), 'utf8'));
    expect(account).toEqual({
      server: { kind: 'local' },
      apiRoot: harness.apiRoot,
      userName: 'user',
      userId: harness.org.users.user,
      firstName: 'Jonas',
      lastName: 'Weber',
      timezone: 'Europe/Berlin',
      isAdmin: false,
      // Kept with the account: what is offered for booking is checked against it.
      bookableResourceIds: expect.arrayContaining([harness.org.resources.thames, harness.org.resources.severn]),
    });
    await core.stop();
  });

  it('signs in by e-mail address to a server address as the user typed it', async () => {
    const { core, secrets } = harness.newCore({ local: false });
    await core.start();
    const typed = `http://127.0.0.1:${new URL(harness.apiRoot).port}/`;
    const result = await core.handlers.signIn({
      server: { kind: 'remote', url: typed },
      username: 'admin@example.com',
      password: demoPassword,
      staySignedIn: true,
    });
    if (!result.ok) throw new Error(result.error.message);
    expect(result.value.account).toEqual({
      server: { kind: 'remote', url: typed },
      userId: harness.org.users.admin,
      userName: 'admin',
      displayName: 'Alex Morgan',
      timezone: 'Europe/London',
      timezoneNote: null,
      isAdmin: true,
    });
    // Keyed by the API root and the real user name, whichever the user typed.
    expect(await kept(secrets, `${harness.apiRoot}|admin`)).toMatchObject({ password: demoPassword, userId: harness.org.users.admin });
    await core.stop();
  });

  it("answers a wrong password with the server's own message and stays signed out", async () => {
    const { core, dataDir } = harness.newCore();
    await core.start();
    const result = await core.handlers.signIn({ ...demoSignIn('user'), password: 'not-the-password' });
    expect(result).toEqual({ ok: false, error: { kind: 'unauthorized', message: 'Login failed. Invalid username or password.' } });
    expect(core.snapshot()).toMatchObject({ phase: 'signedOut', account: null });
    expect(existsSync(join(dataDir, 'account.json'))).toBe(false);
    await core.stop();
  });

  it('refuses an address that is not one before sending anything', async () => {
    const { core } = harness.newCore();
    await core.start();
    harness.requests.length = 0;
    const result = await core.handlers.signIn({ ...demoSignIn('user'), server: { kind: 'remote', url: 'ftp://files.example.org' } });
    expect(result).toEqual({ ok: false, error: { kind: 'invalidInput', message: 'Only http:// and https:// addresses can be used.' } });
    expect(harness.requests).toEqual([]);
    await core.stop();
  });

  it('keeps the session in memory for this run, and says so, when no keychain is usable', async () => {
    const reason =
      'No keychain is available (there is no D-Bus session bus to reach it); you will need to sign in again after Perch restarts.';
    const { core } = harness.newCore({ secrets: memorySecretStore(reason) });
    await core.start();
    const result = await core.handlers.signIn(demoSignIn('user'));
    if (!result.ok) throw new Error(result.error.message);
    expect(result.value.keychain).toEqual({ available: false, reason });
    expect(result.value.phase).toBe('ready');
    expect((await core.handlers.listSchedules()).ok).toBe(true);
    await core.stop();
  });
});

describe('silent re-authentication', () => {
  afterEach(() => {
    harness.serviceOffset.minutes = 0;
  });

  it('signs in again when the server ended the session, and retries the action once', async () => {
    const { core } = harness.newCore();
    await core.start();
    await core.handlers.signIn(demoSignIn('user'));
    // The reference data, read in the background, is in before the session lapses.
    await harness.idle();
    // The server's clock runs 31 minutes ahead: for it the session has lapsed, for the core not yet.
    harness.serviceOffset.minutes = 31;
    harness.requests.length = 0;
    const attributes = await core.handlers.listReservationAttributes();
    expect(attributes.ok).toBe(true);
    expect(requestLines()).toEqual(['GET /Attributes/Category/1', 'POST /Authentication/Authenticate', 'GET /Attributes/Category/1']);
    expect(core.snapshot().phase).toBe('ready');
    await core.stop();
  });

  it('re-authenticates first when its own record says the session lapsed (screen locked for 31 minutes)', async () => {
    const { core, secrets } = harness.newCore();
    await core.start();
    await core.handlers.signIn(demoSignIn('user', true));
    const before = await kept(secrets, 'local|user');
    core.screenLocked();
    await harness.advance({ minutes: 31 });
    harness.requests.length = 0;
    core.screenUnlocked();
    await harness.idle();
    // The user's own list, and who is busy in their schedule (not asked for 30 minutes).
    expect(requestLines()).toEqual(['POST /Authentication/Authenticate', 'GET /Reservations/', 'GET /Reservations/']);
    const after = await kept(secrets, 'local|user');
    expect(after!['sessionToken']).not.toBe(before!['sessionToken']);
    expect(core.snapshot()).toMatchObject({ phase: 'ready', offline: false, lastError: null });
    await core.stop();
  });

  it('signs out with a clear message when signing in again is refused', async () => {
    const { core, dataDir, secrets } = harness.newCore();
    await core.start();
    await core.handlers.signIn(demoSignIn('tom', true));
    // The password was changed elsewhere; then the session lapses.
    const admin = await harness.clientFor('admin');
    const changed = await admin.updateUserPassword({ params: { userId: harness.org.users.tom }, body: { password: 'a-new-password-1' } });
    expect(changed.ok).toBe(true);
    harness.serviceOffset.minutes = 31;
    const states: string[] = [];
    core.on('stateChanged', (state) => states.push(state.phase));

    const result = await core.handlers.listReservationAttributes();
    const message =
      'Your session on the server ended and signing in again failed: Login failed. Invalid username or password. Sign in again to continue.';
    expect(result).toEqual({ ok: false, error: { kind: 'signedOut', message } });
    await harness.idle();
    expect(core.snapshot()).toMatchObject({
      phase: 'signedOut',
      account: null,
      reservations: [],
      lastError: { kind: 'signedOut', message },
    });
    expect(states).toContain('signedOut');
    expect(await secrets.get('local|tom')).toBeNull();
    expect(existsSync(join(dataDir, 'account.json'))).toBe(false);
    expect(existsSync(join(dataDir, 'cache'))).toBe(false);
    await core.stop();
  });
});

describe('with the OS keychain', () => {
  it('restores the session on restart without asking for the password, and signs in again with the kept one', async () => {
    const secrets = openKeychain('Perch');
    expect(secrets.status()).toEqual({ available: true, reason: null });
    const first = harness.newCore({ secrets });
    await first.core.start();
    await first.core.handlers.signIn(demoSignIn('sofia', true));
    await first.core.stop();

    harness.requests.length = 0;
    const second = harness.newCore({ dataDir: first.dataDir, secrets: openKeychain('Perch') });
    await second.core.start();
    expect(second.core.snapshot()).toMatchObject({
      phase: 'ready',
      account: { userName: 'sofia', displayName: 'Sofia Rossi', timezone: 'Europe/Rome' },
    });
    await harness.idle();
    // The kept token is used as it is: no sign-in request.
    expect(requestLines()).not.toContain('POST /Authentication/Authenticate');
    expect(requestLines()).toContain('GET /Reservations/');
    await second.core.stop();

    // Later the server has ended that session: the kept password signs in again, silently.
    harness.serviceOffset.minutes = 45;
    harness.requests.length = 0;
    const third = harness.newCore({ dataDir: first.dataDir, secrets: openKeychain('Perch') });
    await third.core.start();
    await harness.idle();
    // Every call that met the ended session waits for one sign-in, then is sent again.
    expect(requestLines().filter((line) => line === 'POST /Authentication/Authenticate')).toHaveLength(1);
    expect(third.core.snapshot()).toMatchObject({ phase: 'ready', lastError: null, offline: false });
    harness.serviceOffset.minutes = 0;
    await third.core.stop();
  });

  it('signs out: tells the server, and removes the keychain entry and the account file', async () => {
    const secrets = openKeychain('Perch');
    const { core, dataDir } = harness.newCore({ secrets });
    await core.start();
    await core.handlers.signIn(demoSignIn('priya', true));
    const secret = await kept(secrets, 'local|priya');
    expect(secret).toMatchObject({ password: demoPassword });

    harness.requests.length = 0;
    const result = await core.handlers.signOut();
    if (!result.ok) throw new Error(result.error.message);
    expect(result.value).toMatchObject({ phase: 'signedOut', account: null, reservations: [], freeNow: [] });
    expect(requestLines()).toContain('POST /Authentication/SignOut');
    expect(await secrets.get('local|priya')).toBeNull();
    expect(existsSync(join(dataDir, 'account.json'))).toBe(false);

    // The token no longer opens anything.
    const ended = { sessionToken: String(secret!['sessionToken']), userId: harness.org.users.priya };
    const client = createClient({ apiRoot: harness.apiRoot, sessionHeaders: () => sessionHeaders(ended) });
    const probe = await client.getAllSchedules();
    expect(probe.ok ? 'ok' : probe.error.kind).toBe('unauthorized');

    // A new start finds nothing to restore.
    const again = harness.newCore({ dataDir, secrets });
    await again.core.start();
    expect(again.core.snapshot().phase).toBe('signedOut');
    await core.stop();
    await again.core.stop();
  });
});
