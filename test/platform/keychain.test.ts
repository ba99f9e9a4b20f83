import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import keytar from 'keytar';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openKeychain } from '../../electron/platform/keychain/keychain.js';
import { probeAccount } from '../../electron/platform/keychain/keychain-probe.js';
import type { SecretStore } from '../../electron/core/storage/secret-store.js';
import { startPrivateSessionBus, type PrivateSessionBus } from '../support/session-bus.js';

// The real OS keychain: gnome-keyring's Secret Service, unlocked, on a D-Bus session of this file's own.

const service = 'Perch-keychain-test';
const account = 'http://127.0.0.1:8080/Web/Services/index.php|ada@example.org';

let bus: PrivateSessionBus;
let store: SecretStore;
beforeAll(async () => {
  bus = await startPrivateSessionBus({ keyring: true });
  process.env['DBUS_SESSION_BUS_ADDRESS'] = bus.address;
  store = openKeychain(service);
});
afterAll(() => bus.stop());

/** What libsecret's own command line tool finds under the attributes keytar uses: the keyring itself, not our code. */
async function secretToolLookup(accountName: string): Promise<string | null> {
  try {
    const { stdout } = await promisify(execFile)('secret-tool', ['lookup', 'service', service, 'account', accountName], {
      env: process.env,
    });
    return stdout;
  } catch {
    return null;
  }
}

it('opens the Secret Service as an available keychain, leaving no probe entry behind', async () => {
  expect(store.status()).toEqual({ available: true, reason: null });
  expect(await keytar.getPassword(service, probeAccount)).toBeNull();
});

it('stores, reads, replaces and deletes a secret in the keyring', async () => {
  expect(await store.get(account)).toBeNull();
  await store.set(account, 'token ü 1');
  expect(await store.get(account)).toBe('token ü 1');
  expect(await secretToolLookup(account)).toBe('token ü 1');

  await store.set(account, 'token 2');
  expect(await store.get(account)).toBe('token 2');

  await store.delete(account);
  expect(await store.get(account)).toBeNull();
  expect(await secretToolLookup(account)).toBeNull();
  await expect(store.delete(account)).resolves.toBeUndefined();
  expect(store.status()).toEqual({ available: true, reason: null });
});

it('keeps accounts apart, and is found again by a second store (as after a restart)', async () => {
  const other = 'https://booking.example.org/Web/Services/index.php|ada@example.org';
  await store.set(account, 'local token');
  await store.set(other, 'remote token');
  const reopened = openKeychain(service);
  expect(reopened.status().available).toBe(true);
  expect(await reopened.get(account)).toBe('local token');
  expect(await reopened.get(other)).toBe('remote token');
  await reopened.delete(account);
  await reopened.delete(other);
  expect(await store.get(other)).toBeNull();
});
