import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { keychainReasons } from '../../electron/platform/keychain/keychain-reasons.js';
import { openKeychain } from '../../electron/platform/keychain/keychain.js';

// No D-Bus session at all: the address names a socket nobody listens on, and with no X display
// libsecret cannot autolaunch a bus either. keytar rejects at once ("Could not connect: …").

const folder = mkdtempSync(join(tmpdir(), 'perch-no-bus-'));
beforeAll(() => {
  process.env['DBUS_SESSION_BUS_ADDRESS'] = `unix:path=${join(folder, 'no-bus-here')}`;
  delete process.env['DISPLAY'];
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

it('falls back to memory, promptly, and says there is no session bus', async () => {
  const logged: string[] = [];
  const started = Date.now();
  const store = openKeychain('Perch-keychain-test', { log: (message) => logged.push(message) });
  expect(await store.get('root|ada')).toBeNull();
  expect(Date.now() - started).toBeLessThan(2500);
  expect(store.status()).toEqual({
    available: false,
    reason: 'No keychain is available (there is no D-Bus session bus to reach it); you will need to sign in again after Perch restarts.',
  });
  expect(store.status().reason).toBe(keychainReasons.noBus);
  expect(logged.join('\n')).toContain('Could not connect');

  await store.set('root|ada', 'token');
  expect(await store.get('root|ada')).toBe('token');
  await store.delete('root|ada');
  expect(await store.get('root|ada')).toBeNull();
});
