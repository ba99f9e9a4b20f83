import { afterAll, beforeAll, expect, it } from 'vitest';
import { KeychainLockedError } from '../../electron/core/storage/secret-store.js';
import { keychainReasons } from '../../electron/platform/keychain/keychain-reasons.js';
import { openKeychain } from '../../electron/platform/keychain/keychain.js';
import { startPrivateSessionBus, type PrivateSessionBus } from '../support/session-bus.js';

// gnome-keyring started on demand by the bus (`--start --components=secrets`), never unlocked, on
// a fresh data folder: there is no login keyring yet and creating one needs a password prompt,
// which cannot be shown. Reads find nothing; writes fail ("Object does not exist at path
// …/collection/login"). To the user this is the same as a locked keyring.

let bus: PrivateSessionBus;
beforeAll(async () => {
  bus = await startPrivateSessionBus();
  process.env['DBUS_SESSION_BUS_ADDRESS'] = bus.address;
});
afterAll(() => bus.stop());

it('says the keychain is locked, and holds what is written until there is one to keep it', async () => {
  const logged: string[] = [];
  const store = openKeychain('Perch-keychain-test', { log: (message) => logged.push(message) });
  await expect(store.get('root|ada')).rejects.toBeInstanceOf(KeychainLockedError);
  expect(store.status()).toEqual({ available: false, reason: keychainReasons.locked });
  expect(logged.join('\n')).toMatch(/collection\/login/);
  await store.set('root|ada', 'token');
  expect(await store.get('root|ada')).toBe('token');
});
