import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DateTime } from 'luxon';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../electron/api/client.js';
import { sessionKeepingClient } from '../support/session-keeping-client.js';
import { formatWireDateTime } from '../../electron/api/dates.js';
import { AttributeCategory } from '../../electron/api/schemas/attributes.js';
import {
  cacheFolderName,
  cachePartFile,
  cachePartNames,
  cachePartText,
  digestOf,
  legacyCacheFileName,
  loadCache,
  removeCache,
  withoutSecrets,
  writeCachePart,
  type CachePartName,
  type CacheParts,
} from '../../electron/core/storage/cache.js';
import { openKeychain } from '../../electron/platform/keychain/keychain.js';
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
let parts: CacheParts;
let adminId: number;

beforeAll(async () => {
  let demo: DemoOrganisation | undefined;
  service = await startTestService({
    now: DateTime.fromISO('2025-06-02T09:00:00Z'),
    seed: async (store) => {
      demo = await seedDemo(store);
      adminId = await createAdministrator(store, {
        userName: credentials.username,
        emailAddress: 'cache-admin@example.org',
        password: credentials.password,
        timezone: 'Europe/London',
      });
      return credentials;
    },
  });
  const start = service.clock.now().plus({ hours: 1 });
  await insertReservation(service.store, {
    ownerId: adminId,
    resourceId: Object.values(demo!.resources)[0]!,
    occurrences: [{ start, end: start.plus({ hours: 1 }) }],
  });

  client = sessionKeepingClient({ apiRoot: service.apiRoot });
  const signedIn = await client.authenticate({ body: { username: credentials.username, password: credentials.password } });
  if (!signedIn.ok || signedIn.value.sessionToken === null) throw new Error('sign-in failed');
  sessionToken = signedIn.value.sessionToken;

  const now = service.clock.now();
  const [reservations, resources, schedules, groups, attributes] = await Promise.all([
    client.getReservations({
      query: { userId: String(adminId), startDateTime: formatWireDateTime(now), endDateTime: formatWireDateTime(now.plus({ days: 14 })) },
    }),
    client.getAllResources(),
    client.getAllSchedules(),
    client.getResourceGroups(),
    client.getCategoryAttributes({ params: { categoryId: AttributeCategory.reservation } }),
  ]);
  if (!reservations.ok || !resources.ok || !schedules.ok || !groups.ok || !attributes.ok) throw new Error('a read failed');
  const account = {
    apiRoot: service.apiRoot,
    userId: adminId,
    userName: credentials.username,
    displayName: 'Perch Administrator',
    timezone: 'Europe/London',
    isAdmin: true,
  };
  parts = {
    reference: {
      account,
      resources: resources.value.resources,
      schedules: schedules.value.schedules,
      groups: groups.value,
      reservationAttributes: attributes.value.attributes,
    },
    reservations: {
      account,
      reservations: reservations.value.reservations,
      fetchedAt: now.toISO()!,
      referenceFetchedAt: now.toISO()!,
    },
    shown: { account, shownNotificationIds: ['start:ABC123:2025-06-02T10:00:00Z'] },
  };
  expect(parts.reservations.reservations).toHaveLength(1);
  expect(parts.reference.resources.length).toBeGreaterThan(5);
});
afterAll(() => service.dispose());

let dataDir: string;
beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'perch-cache-'));
});
afterEach(() => rm(dataDir, { recursive: true, force: true }));

async function save<N extends CachePartName>(name: N, part: CacheParts[N]): Promise<void> {
  await writeCachePart(dataDir, name, cachePartText(name, part));
}

async function saveAll(): Promise<void> {
  for (const name of cachePartNames) await save(name, parts[name]);
}

/** What loadCache found, without the fingerprints. */
async function loadedParts(folder = dataDir) {
  const loaded = await loadCache(folder);
  return {
    reference: loaded.reference?.part ?? null,
    reservations: loaded.reservations?.part ?? null,
    shown: loaded.shown?.part ?? null,
    legacy: loaded.legacy,
  };
}

/** The single file earlier versions wrote, pretty-printed as they did. */
function legacyCache(overrides: Record<string, unknown> = {}) {
  const { reference, reservations, shown } = parts;
  return JSON.stringify({ savedAt: reservations.fetchedAt, ...reference, ...reservations, ...shown, ...overrides }, null, 2);
}

describe('the cache parts', () => {
  it('has nothing to offer before the first save', async () => {
    expect(await loadedParts()).toEqual({ reference: null, reservations: null, shown: null, legacy: false });
    expect(await loadedParts(join(dataDir, 'missing'))).toEqual({ reference: null, reservations: null, shown: null, legacy: false });
  });

  it('gives back each part as it was saved, each in its own compact file, with the fingerprint of its text', async () => {
    await saveAll();
    expect(await loadedParts()).toEqual({ ...parts, legacy: false });
    expect(await readdir(join(dataDir, cacheFolderName))).toEqual(['reference.json', 'reservations.json', 'shown.json']);
    const text = await readFile(cachePartFile(dataDir, 'reference'), 'utf8');
    expect(text).toBe(JSON.stringify(parts.reference));
    const loaded = await loadCache(dataDir);
    expect(loaded.reference?.digest).toBe(digestOf(text));
    expect(loaded.reservations?.digest).not.toBe(loaded.reference?.digest);
  });

  it('overwrites atomically, leaving no temporary files, when saves overlap', async () => {
    await Promise.all(Array.from({ length: 10 }, (_, index) => save('shown', { ...parts.shown, shownNotificationIds: [`id-${index}`] })));
    expect(await readdir(join(dataDir, cacheFolderName))).toEqual(['shown.json']);
    expect((await loadCache(dataDir)).shown?.part.shownNotificationIds).toHaveLength(1);
  });

  it.each([
    ['not JSON', '{"account": '],
    ['empty', ''],
    ['an array', '[]'],
    ['another shape', JSON.stringify({ version: 2, data: {} })],
  ])('treats a part that is %s as no cache, and still reads the others', async (_what, text) => {
    await saveAll();
    await writeFile(cachePartFile(dataDir, 'reference'), text);
    expect(await loadedParts()).toEqual({ ...parts, reference: null, legacy: false });
  });

  it('does not trust a part whose payload does not match the wire schemas', async () => {
    await saveAll();
    const [first] = parts.reservations.reservations;
    await writeFile(
      cachePartFile(dataDir, 'reservations'),
      JSON.stringify({ ...parts.reservations, reservations: [{ ...first, startDate: 'tomorrow' }] }),
    );
    await writeFile(
      cachePartFile(dataDir, 'shown'),
      JSON.stringify({ ...parts.shown, account: { ...parts.shown.account, isAdmin: undefined } }),
    );
    expect(await loadedParts()).toEqual({ reference: parts.reference, reservations: null, shown: null, legacy: false });
  });

  it('removes every part, and the single file of earlier versions', async () => {
    await saveAll();
    await writeFile(join(dataDir, legacyCacheFileName), legacyCache());
    await removeCache(dataDir);
    expect(await readdir(dataDir)).toEqual([]);
  });
});

describe('the single cache file of earlier versions', () => {
  it('is read into the parts while no part is there yet, and said to be there', async () => {
    await writeFile(join(dataDir, legacyCacheFileName), legacyCache());
    const loaded = await loadCache(dataDir);
    expect({ reference: loaded.reference?.part, reservations: loaded.reservations?.part, shown: loaded.shown?.part }).toEqual(parts);
    // No part has a file of its own yet: each is to be written.
    expect([loaded.reference?.digest, loaded.reservations?.digest, loaded.shown?.digest]).toEqual([null, null, null]);
    expect(loaded.legacy).toBe(true);
  });

  it('without groups or attributes, gives the reference data no age, so it is fetched again', async () => {
    await writeFile(join(dataDir, legacyCacheFileName), legacyCache({ groups: undefined }));
    const loaded = await loadedParts();
    expect(loaded.reference).toEqual({ ...parts.reference, groups: null });
    expect(loaded.reservations).toEqual({ ...parts.reservations, referenceFetchedAt: null });
  });

  it('is ignored once there are parts, and when it is damaged or has no account', async () => {
    await writeFile(join(dataDir, legacyCacheFileName), '{ "savedAt": ');
    expect(await loadedParts()).toEqual({ reference: null, reservations: null, shown: null, legacy: true });
    await writeFile(join(dataDir, legacyCacheFileName), legacyCache({ account: null }));
    expect(await loadedParts()).toEqual({ reference: null, reservations: null, shown: null, legacy: true });
    await writeFile(join(dataDir, legacyCacheFileName), legacyCache({ shownNotificationIds: ['from-the-old-file'] }));
    await save('shown', parts.shown);
    expect(await loadedParts()).toEqual({ reference: null, reservations: null, shown: parts.shown, legacy: true });
  });
});

describe('no credentials in the cache', () => {
  it('leaves out every member named like a credential, wherever it is, and logs where', async () => {
    const careless = {
      ...parts.reservations,
      account: { ...parts.reservations.account, sessionToken, password: credentials.password },
      session: { userId: adminId, session_token: sessionToken, sessionExpires: '2025-06-02T09:30:00+0000' },
      reservations: parts.reservations.reservations.map((reservation) => ({
        ...reservation,
        meta: [{ 'X-Booked-SessionToken': sessionToken }],
      })),
    } as unknown as CacheParts['reservations'];
    const logged: string[] = [];
    const text = cachePartText('reservations', careless, { log: (message) => logged.push(message) });
    await writeCachePart(dataDir, 'reservations', text);

    const written = await readFile(cachePartFile(dataDir, 'reservations'), 'utf8');
    expect(written).not.toContain(sessionToken);
    expect(written).not.toContain(credentials.password);
    expect(logged).toEqual([
      'Perch left reservations.account.sessionToken, reservations.account.password, reservations.reservations[0].meta[0].X-Booked-SessionToken, reservations.session.session_token out of the cache: credentials are never written to disk.',
    ]);
    expect((await loadCache(dataDir)).reservations?.part.account).toEqual(parts.reservations.account);
  });

  it('keeps everything that is not a credential', () => {
    for (const name of cachePartNames) {
      expect(withoutSecrets(parts[name])).toEqual({ value: parts[name], dropped: [] });
      expect(cachePartText(name, parts[name], { log: () => expect.unreachable() })).toBe(JSON.stringify(parts[name]));
    }
  });
});

/** Every file under a folder, however deep, with its contents. */
async function everyFile(folder: string): Promise<{ path: string; text: string }[]> {
  const entries = await readdir(folder, { withFileTypes: true, recursive: true });
  return Promise.all(
    entries
      .filter((entry) => entry.isFile())
      .map(async (entry) => {
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
  await saveSettings(dataDir, {
    ...defaultSettings,
    favouriteResourceIds: parts.reference.resources.slice(0, 2).map((resource) => resource.resourceId),
  });
  for (const name of cachePartNames) {
    const careless = { ...parts[name], account: { ...parts[name].account, sessionToken, password: credentials.password } };
    await writeCachePart(dataDir, name, cachePartText(name, careless, { log: () => {} }));
  }

  const files = await everyFile(dataDir);
  const names = files.map((file) => file.path.slice(dataDir.length + 1)).sort();
  expect(names).toEqual([
    'cache/reference.json',
    'cache/reservations.json',
    'cache/shown.json',
    'settings.json',
    expect.stringMatching(/^settings\.json\.corrupt-\d{8}T\d{6}Z$/),
  ]);
  for (const needle of [sessionToken, credentials.password, JSON.stringify(credentials.password).slice(1, -1)]) {
    for (const file of files) expect(file.text.includes(needle), `${needle} in ${file.path}`).toBe(false);
  }
  // And the secrets are still there for the session core to use.
  expect(await secrets.get(`${account}|password`)).toBe(credentials.password);
});
