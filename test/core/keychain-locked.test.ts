import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import keytar from 'keytar';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { keychainReasons, openKeychain } from '../../electron/core/storage/keychain.js';
import { startPrivateSessionBus, type PrivateSessionBus } from '../support/session-bus.js';

// A locked keyring: gnome-keyring starts unlocked (it creates the login keyring), then the test
// locks it over D-Bus with the Secret Service's own Lock call. Reads then quietly find nothing and
// writes are refused ("Cannot create an item in a locked collection"; the unlock prompt cannot
// be shown without a display, so it fails at once instead of waiting for the user).

const service = 'Perch-keychain-test';
let bus: PrivateSessionBus;
beforeAll(async () => {
  bus = await startPrivateSessionBus({ keyring: true });
  process.env['DBUS_SESSION_BUS_ADDRESS'] = bus.address;
});
afterAll(() => bus.stop());

async function lockLoginKeyring() {
  await promisify(execFile)(
    'dbus-send',
    ['--session', '--print-reply', '--dest=org.freedesktop.secrets', '/org/freedesktop/secrets', 'org.freedesktop.Secret.Service.Lock', 'array:objpath:/org/freedesktop/secrets/collection/login'],
    { env: process.env },
  );
}

it('switches to memory when the keyring gets locked while Perch runs, keeping the new secret', async () => {
  const logged: string[] = [];
  const store = await openKeychain(service, { log: (message) => logged.push(message) });
  expect(store.status()).toEqual({ available: true, reason: null });
  await store.set('root|ada', 'first token');

  await lockLoginKeyring();
  // The quirk that makes a probe write necessary: a locked keyring reads as empty, without an error.
  expect(await keytar.getPassword(service, 'root|ada')).toBeNull();
  await expect(keytar.setPassword(service, 'root|ada', 'x')).rejects.toThrow(/locked collection/);

  await store.set('root|ada', 'refreshed token');
  expect(store.status()).toEqual({
    available: false,
    reason: 'The keychain is locked or has no default keyring, so Perch cannot keep your sign-in there; you will need to sign in again after Perch restarts.',
  });
  expect(await store.get('root|ada')).toBe('refreshed token');
  expect(logged.join('\n')).toContain('locked collection');
});

it('opens a locked keyring as memory only, although reading it raises no error', async () => {
  const store = await openKeychain(service, { log: () => {} });
  expect(store.status()).toEqual({ available: false, reason: keychainReasons.locked });
  await store.set('root|ada', 'token');
  expect(await store.get('root|ada')).toBe('token');
});
