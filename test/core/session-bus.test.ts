import keytar from 'keytar';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startPrivateSessionBus, type PrivateSessionBus } from '../support/session-bus.js';

let bus: PrivateSessionBus;
beforeAll(async () => {
  bus = await startPrivateSessionBus({ keyring: true });
  process.env['DBUS_SESSION_BUS_ADDRESS'] = bus.address;
});
afterAll(() => bus.stop());

it('gives tests a real Secret Service of their own', async () => {
  await keytar.setPassword('perch-bus-check', 'someone', 'secret value');
  expect(await keytar.getPassword('perch-bus-check', 'someone')).toBe('secret value');
  expect(await keytar.deletePassword('perch-bus-check', 'someone')).toBe(true);
});
