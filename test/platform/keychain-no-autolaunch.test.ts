import { beforeAll, expect, it } from 'vitest';
import { keychainReasons } from '../../electron/platform/keychain/keychain-reasons.js';
import { openKeychain } from '../../electron/platform/keychain/keychain.js';

// No session bus address at all and no X display: libsecret would autolaunch a bus through X11
// and cannot ("Cannot autolaunch D-Bus without X11 $DISPLAY"). Its own process: libsecret keeps
// whatever it found for the rest of the process.

beforeAll(() => {
  delete process.env['DBUS_SESSION_BUS_ADDRESS'];
  delete process.env['DISPLAY'];
});

it('falls back to memory and says there is no session bus', async () => {
  const logged: string[] = [];
  const store = openKeychain('Perch-keychain-test', { log: (message) => logged.push(message) });
  expect(await store.get('root|ada')).toBeNull();
  expect(store.status()).toEqual({ available: false, reason: keychainReasons.noBus });
  expect(logged.join('\n')).toContain('Cannot autolaunch D-Bus');
});
