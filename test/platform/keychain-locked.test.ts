import { existsSync } from 'node:fs';
import { join } from 'node:path';
import keytar from 'keytar';
import { DateTime } from 'luxon';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { KeychainLockedError } from '../../electron/core/storage/secret-store.js';
import { keychainReasons } from '../../electron/platform/keychain/keychain-reasons.js';
import { openKeychain } from '../../electron/platform/keychain/keychain.js';
import { demoSignIn, startCoreHarness, type CoreHarness } from '../support/core-harness.js';
import { isKeyringLocked, lockKeyring, unlockKeyring } from '../support/keyring.js';
import { startPrivateSessionBus, testKeyringPassword, type PrivateSessionBus } from '../support/session-bus.js';

// A locked keyring: gnome-keyring starts unlocked (it creates the login keyring), then the test
// locks it with the Secret Service's own Lock call, and unlocks it with the keyring's password as
// PAM does at login. While it is locked, reads quietly find nothing and writes are refused
// ("Cannot create an item in a locked collection"; the unlock prompt cannot be shown without a
// display, so it fails at once instead of waiting for the user).

const service = 'Perch-keychain-test';
/** Short, so that the tests see an unlock soon; the app asks every ten seconds. */
const lockPollMs = 50;
/** Each poll runs dbus-send and the unlock writes what waited: on a busy machine that is more than vitest's 1 s default. */
const unlockSeen = { timeout: 10_000 };
let bus: PrivateSessionBus;
let harness: CoreHarness;
beforeAll(async () => {
  bus = await startPrivateSessionBus({ keyring: true });
  process.env['DBUS_SESSION_BUS_ADDRESS'] = bus.address;
  harness = await startCoreHarness(DateTime.fromISO('2030-03-12T08:50:00Z', { zone: 'utc' }));
});
afterAll(async () => {
  await harness.dispose();
  await bus.stop();
});

it('holds what is written while the keyring is locked, moves nothing to memory, and writes it once unlocked', async () => {
  const logged: string[] = [];
  const store = openKeychain(service, { lockPollMs, log: (message) => logged.push(message) });
  await store.set('root|ada', 'first token');
  expect(store.status()).toEqual({ available: true, reason: null });
  const unlocked = vi.fn();
  store.onUnlocked(unlocked);

  await lockKeyring(bus.address);
  // The quirk that makes a probe write necessary: a locked keyring reads as empty, without an error.
  expect(await keytar.getPassword(service, 'root|ada')).toBeNull();
  await expect(keytar.setPassword(service, 'root|ada', 'x')).rejects.toThrow(/locked collection/);

  await store.set('root|ada', 'refreshed token');
  expect(store.status()).toEqual({
    available: false,
    reason:
      'The keychain is locked or has no default keyring yet. Perch reads your sign-in from it once it is unlocked, and keeps anything new there then.',
  });
  expect(await store.get('root|ada')).toBe('refreshed token');
  await expect(store.get('root|bob')).rejects.toBeInstanceOf(KeychainLockedError);
  expect(logged.join('\n')).toContain('locked collection');

  await unlockKeyring(bus.address, testKeyringPassword);
  await vi.waitFor(() => expect(unlocked).toHaveBeenCalledTimes(1), unlockSeen);
  expect(store.status()).toEqual({ available: true, reason: null });
  expect(await keytar.getPassword(service, 'root|ada')).toBe('refreshed token');
  await store.delete('root|ada');
});

it('at start on a locked keyring: keeps the account, and restores it once unlocked without signing in again', async () => {
  const first = harness.newCore({ secrets: openKeychain('Perch', { lockPollMs }) });
  await first.core.start();
  const signedIn = await first.core.handlers.signIn(demoSignIn('sofia', true));
  if (!signedIn.ok) throw new Error(signedIn.error.message);
  await first.core.stop();
  const keptBefore = await keytar.getPassword('Perch', 'local|sofia');
  expect(keptBefore).toContain('sessionToken');

  await lockKeyring(bus.address);
  harness.requests.length = 0;
  const secrets = openKeychain('Perch', { lockPollMs, log: () => {} });
  const second = harness.newCore({ dataDir: first.dataDir, secrets });
  const started = Date.now();
  await second.core.start();
  // No unlock prompt can be shown here, so the keychain answers at once; a prompt left unanswered
  // costs at most the keychain's timeout (keychain-unavailable.test.ts).
  expect(Date.now() - started).toBeLessThan(1000);
  expect(second.core.snapshot()).toMatchObject({
    phase: 'signedOut',
    account: null,
    keychain: { available: false, reason: keychainReasons.locked },
  });
  // Kept, not forgotten: the account file stays, and nothing went to the server.
  expect(existsSync(join(first.dataDir, 'account.json'))).toBe(true);
  expect(harness.requests).toEqual([]);

  await unlockKeyring(bus.address, testKeyringPassword);
  expect(await isKeyringLocked(bus.address)).toBe(false);
  await vi.waitFor(() => expect(second.core.snapshot().phase).toBe('ready'), unlockSeen);
  await harness.idle();
  expect(second.core.snapshot()).toMatchObject({ account: { userName: 'sofia' }, keychain: { available: true, reason: null } });
  // The kept session is used as it is: no sign-in, and the keychain entry is the one kept before.
  expect(harness.requests.map((request) => `${request.method} ${request.path}`)).not.toContain('POST /Authentication/Authenticate');
  expect(harness.requests.map((request) => `${request.method} ${request.path}`)).toContain('GET /Reservations/');
  expect(JSON.parse((await keytar.getPassword('Perch', 'local|sofia'))!)).toMatchObject({
    sessionToken: JSON.parse(keptBefore!).sessionToken,
  });
  await second.core.handlers.signOut();
});
