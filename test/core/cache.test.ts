import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DateTime } from 'luxon';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createClient, type ApiClient } from '../../electron/api/client.js';
import { formatWireDateTime } from '../../electron/api/dates.js';
import { cacheFileName, loadCache, saveCache, withoutSecrets, type CachedData } from '../../electron/core/storage/cache.js';
import { openKeychain } from '../../electron/core/storage/keychain.js';
import { defaultSettings, loadSettings, saveSettings } from '../../electron/core/storage/settings-store.js';
import { createAdministrator } from '../../electron/service/seed/bootstrap.js';
import { seedDemo, type DemoOrganisation } from '../../electron/service/seed/demo.js';
import { insertReservation } from '../support/reservations.js';
import { startTestService, type TestService } from '../support/service.js';

// The cache against real data: the local service in-process with the demo organisation, read
// through the typed client, exactly as the poller will fill it.

const credentials = { username: 'cache-admin', password: 'Needle-Password-7f3a9c!' };

let service: TestService;
let client: ApiClient;
let sessionToken: string;
let snapshot: CachedData;
let adminId: number;

beforeAll(async () => {
  let demo: DemoOrganisation | undefined;
  service = await startTestService({
    now: DateTime.fromISO('2025-06-02T09:00:00Z'),
    seed: async (store) => {
      demo = await seedDemo(store);
      adminId = await createAdministrator(store, { userName: credentials.username, emailAddress: 'cache-admin@example.org', password: credentials.password, timezone: 'Europe/London' });
      return credentials;
    },
  });
  const start = service.clock.now().plus({ hours: 1 });
  await insertReservation(service.store, { ownerId: adminId, resourceId: Object.values(demo!.resources)[0]!, occurrences: [{ start, end: start.plus({ hours: 1 }) }] });

  client = createClient({ apiRoot: service.apiRoot });
  const signedIn = await client.authenticate({ body: { username: credentials.username, password: credentials.password } });
  if (!signedIn.ok || signedIn.data.sessionToken === null) throw new Error('sign-in failed');
  sessionToken = signedIn.data.sessionToken;

  const now = service.clock.now();
  const [reservations, busy, resources, schedules, groups] = await Promise.all([
    client.getReservations({ query: { userId: String(adminId), startDateTime: formatWireDateTime(now), endDateTime: formatWireDateTime(now.plus({ days: 14 })) } }),
    client.getReservations({ query: { scheduleId: '1', startDateTime: formatWireDateTime(now), endDateTime: formatWireDateTime(now.plus({ minutes: 1 })) } }),
    client.getAllResources(),
    client.getAllSchedules(),
    client.getResourceGroups(),
  ]);
  if (!reservations.ok || !busy.ok || !resources.ok || !schedules.ok || !groups.ok) throw new Error('a read failed');
  snapshot = {
    savedAt: now.toISO()!,
    account: { apiRoot: service.apiRoot, userId: adminId, userName: credentials.username, displayName: 'Perch Administrator', timezone: 'Europe/London', isAdmin: true },
    reservations: reservations.data.reservations,
    busyNow: [{ scheduleId: 1, askedAt: now.toISO()!, reservations: busy.data.reservations }],
    resources: resources.data.resources,
    schedules: schedules.data.schedules,
    groups: groups.data,
    referenceFetchedAt: now.toISO()!,
    fetchedAt: now.toISO()!,
    shownNotificationIds: ['start:ABC123:2025-06-02T10:00:00Z'],
  };
  expect(snapshot.reservations).toHaveLength(1);
  expect(snapshot.resources.length).toBeGreaterThan(5);
});
afterAll(() => service.dispose());

let dataDir: string;
beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'perch-cache-'));
});
afterEach(() => rm(dataDir, { recursive: true, force: true }));

describe('saveCache and loadCache', () => {
  it('has nothing to offer before the first save', async () => {
    expect(await loadCache(dataDir)).toBeNull();
    expect(await loadCache(join(dataDir, 'missing'))).toBeNull();
  });

  it('gives back the last good data as it was saved', async () => {
    await saveCache(dataDir, snapshot);
    expect(await loadCache(dataDir)).toEqual(snapshot);
    expect(await readdir(dataDir)).toEqual([cacheFileName]);
  });

  it('keeps data saved without an account or a fetch', async () => {
    const empty: CachedData = { savedAt: snapshot.savedAt, account: null, reservations: [], resources: [], schedules: [], fetchedAt: null, shownNotificationIds: [] };
    await saveCache(dataDir, empty);
    expect(await loadCache(dataDir)).toEqual(empty);
  });

  it('overwrites atomically, leaving no temporary files, when saves overlap', async () => {
    await Promise.all(Array.from({ length: 10 }, (_, index) => saveCache(dataDir, { ...snapshot, shownNotificationIds: [`id-${index}`] })));
    expect(await readdir(dataDir)).toEqual([cacheFileName]);
    expect((await loadCache(dataDir))?.shownNotificationIds).toHaveLength(1);
  });

  it.each([
    ['not JSON', '{"savedAt": '],
    ['empty', ''],
    ['an array', '[]'],
    ['another shape', JSON.stringify({ version: 2, data: {} })],
  ])('treats a cache file that is %s as no cache', async (_what, text) => {
    await writeFile(join(dataDir, cacheFileName), text);
    expect(await loadCache(dataDir)).toBeNull();
  });

  it('does not trust a cache whose payload does not match the wire schemas', async () => {
    const [first] = snapshot.reservations;
    const damaged = { ...snapshot, reservations: [{ ...first, startDate: 'tomorrow' }] };
    await writeFile(join(dataDir, cacheFileName), JSON.stringify(damaged));
    expect(await loadCache(dataDir)).toBeNull();
    const missingMember = { ...snapshot, account: { ...snapshot.account, isAdmin: undefined } };
    await writeFile(join(dataDir, cacheFileName), JSON.stringify(missingMember));
    expect(await loadCache(dataDir)).toBeNull();
  });
});

describe('no credentials in the cache', () => {
  it('leaves out every member named like a credential, wherever it is, and logs where', async () => {
    const careless = {
      ...snapshot,
      account: { ...snapshot.account!, sessionToken, password: credentials.password },
      session: { userId: adminId, session_token: sessionToken, sessionExpires: '2025-06-02T09:30:00+0000' },
      reservations: snapshot.reservations.map((reservation) => ({ ...reservation, meta: [{ 'X-Booked-SessionToken': sessionToken }] })),
    } as unknown as CachedData;
    const logged: string[] = [];
    await saveCache(dataDir, careless, { log: (message) => logged.push(message) });

    const text = await readFile(join(dataDir, cacheFileName), 'utf8');
    expect(text).not.toContain(sessionToken);
    expect(text).not.toContain(credentials.password);
    expect(logged).toEqual([
      'Perch left account.sessionToken, account.password, reservations[0].meta[0].X-Booked-SessionToken, session.session_token out of the cache: credentials are never written to disk.',
    ]);
    const loaded = await loadCache(dataDir);
    expect(loaded?.account).toEqual(snapshot.account);
  });

  it('keeps everything that is not a credential', () => {
    expect(withoutSecrets(snapshot)).toEqual({ value: snapshot, dropped: [] });
  });
});

/** Every file under a folder, however deep, with its contents. */
async function everyFile(folder: string): Promise<{ path: string; text: string }[]> {
  const entries = await readdir(folder, { withFileTypes: true, recursive: true });
  return Promise.all(
    entries.filter((entry) => entry.isFile()).map(async (entry) => {
      const path = join(entry.parentPath, entry.name);
      return { path, text: await readFile(path, 'latin1') };
    }),
  );
}

it('keeps the session token and the password out of every file the app writes after a sign-in', async () => {
  // The sign-in as the app does it: secrets to the secret store (memory-only here: no keychain in
  // this process), everything else to the data folder, including a corrupt settings file set aside.
  const secrets = openKeychain('Perch', { loadKeytar: () => Promise.reject(new Error('no keytar here')), log: () => {} });
  const account = `${service.apiRoot}|${credentials.username}`;
  await secrets.set(`${account}|session`, JSON.stringify({ sessionToken, userId: adminId }));
  await secrets.set(`${account}|password`, credentials.password);

  await writeFile(join(dataDir, 'settings.json'), '{ broken');
  await loadSettings(dataDir);
  await saveSettings(dataDir, { ...defaultSettings, favouriteResourceIds: snapshot.resources.slice(0, 2).map((resource) => resource.resourceId) });
  await saveCache(dataDir, { ...snapshot, account: { ...snapshot.account!, sessionToken, password: credentials.password } as CachedData['account'] }, { log: () => {} });

  const files = await everyFile(dataDir);
  const names = files.map((file) => file.path.slice(dataDir.length + 1)).sort();
  expect(names).toEqual([cacheFileName, 'settings.json', expect.stringMatching(/^settings\.json\.corrupt-\d{8}T\d{6}Z$/)]);
  for (const needle of [sessionToken, credentials.password, JSON.stringify(credentials.password).slice(1, -1)]) {
    for (const file of files) expect(file.text.includes(needle), `${needle} in ${file.path}`).toBe(false);
  }
  // And the secrets are still there for the session core to use.
  expect(await secrets.get(`${account}|password`)).toBe(credentials.password);
});
