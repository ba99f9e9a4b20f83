import { afterAll, beforeAll, expect, it } from 'vitest';
import { keychainReasons } from '../../electron/platform/keychain/keychain-reasons.js';
import { openKeychain } from '../../electron/platform/keychain/keychain.js';
import { startPrivateSessionBus, type PrivateSessionBus } from '../support/session-bus.js';

// A session bus, but nothing on it provides org.freedesktop.secrets and nothing can be started on
// demand (a bare bus: a normal session bus here would activate the installed gnome-keyring).

let bus: PrivateSessionBus;
beforeAll(async () => {
  bus = await startPrivateSessionBus({ activation: false });
  process.env['DBUS_SESSION_BUS_ADDRESS'] = bus.address;
});
afterAll(() => bus.stop());

it('falls back to memory and says there is no Secret Service', async () => {
  const logged: string[] = [];
  const store = openKeychain('Perch-keychain-test', { log: (message) => logged.push(message) });
  expect(await store.get('root|ada')).toBeNull();
  expect(store.status()).toEqual({
    available: false,
    reason: 'No keychain is available (no Secret Service on the session bus); you will need to sign in again after Perch restarts.',
  });
  expect(store.status().reason).toBe(keychainReasons.noSecretService);
  expect(logged.join('\n')).toContain('not provided by any .service files');
  await store.set('root|ada', 'token');
  expect(await store.get('root|ada')).toBe('token');
});
