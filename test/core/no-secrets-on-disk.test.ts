import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DateTime } from 'luxon';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openKeychain } from '../../electron/platform/keychain/keychain.js';
import { insertUser } from '../../electron/service/seed/bootstrap.js';
import { startCoreHarness, type CoreHarness } from '../support/core-harness.js';
import { startPrivateSessionBus, type PrivateSessionBus } from '../support/session-bus.js';

const password = 'Kq7-distinctive-Passphrase-4412';
const start = DateTime.fromISO('2030-03-12T08:50:00Z', { zone: 'utc' });

let bus: PrivateSessionBus;
let harness: CoreHarness;

beforeAll(async () => {
  bus = await startPrivateSessionBus({ keyring: true });
  process.env['DBUS_SESSION_BUS_ADDRESS'] = bus.address;
  harness = await startCoreHarness(start);
  await insertUser(harness.service.store, {
    userName: 'morgan',
    emailAddress: 'morgan@example.com',
    password,
    timezone: 'Europe/Berlin',
    firstName: 'Morgan',
    lastName: 'Lee',
    groupIds: [harness.org.groups.staff],
  });
});

afterAll(async () => {
  await harness.dispose();
  await bus.stop();
});

function filesUnder(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

/** Every byte of every file the app wrote, searched for each secret as UTF-8, UTF-16 and base64. */
function filesHolding(folder: string, secrets: readonly string[]): string[] {
  const needles = secrets.flatMap((secret) => [
    Buffer.from(secret, 'utf8'),
    Buffer.from(secret, 'utf16le'),
    Buffer.from(Buffer.from(secret).toString('base64')),
  ]);
  return filesUnder(folder).filter((file) => {
    const bytes = readFileSync(file);
    return needles.some((needle) => bytes.includes(needle));
  });
}

it('writes no token or password to any file, through sign-in, polling, booking and sign-out; the keychain holds them', async () => {
  const secrets = openKeychain('Perch');
  expect(secrets.status().available).toBe(true);
  const { core, dataDir } = harness.newCore({ secrets });
  await core.start();
  const signedIn = await core.handlers.signIn({ server: { kind: 'local' }, username: 'morgan@example.com', password, staySignedIn: true });
  if (!signedIn.ok) throw new Error(signedIn.error.message);
  await core.handlers.setSettings({ startReminderMinutes: 20 });

  const kept = JSON.parse((await secrets.get('local|morgan'))!) as { sessionToken: string; password: string };
  expect(kept.password).toBe(password);
  const tokens = new Set([kept.sessionToken]);

  await harness.advance({ minutes: 6 });
  const booked = await core.handlers.book({
    resourceId: harness.org.resources.thames,
    start: '2030-03-12T11:00:00+01:00',
    durationMinutes: 30,
    title: 'Secret-free stand-up',
  });
  expect(booked.ok).toBe(true);
  core.popoverOpened();
  // A lapsed session: a second token comes into play.
  harness.serviceOffset.minutes = 31;
  await harness.advance({ minutes: 2 });
  harness.serviceOffset.minutes = 0;
  tokens.add((JSON.parse((await secrets.get('local|morgan'))!) as { sessionToken: string }).sessionToken);
  expect(tokens.size).toBe(2);

  expect(
    filesUnder(dataDir)
      .map((file) => file.slice(dataDir.length + 1))
      .sort(),
  ).toEqual(['account.json', 'cache/reference.json', 'cache/reservations.json', 'cache/shown.json', 'settings.json']);
  expect(readFileSync(join(dataDir, 'cache', 'reservations.json'), 'utf8')).toContain('Secret-free stand-up');
  expect(filesHolding(dataDir, [password, ...tokens])).toEqual([]);

  const signedOut = await core.handlers.signOut();
  expect(signedOut.ok).toBe(true);
  expect(await secrets.get('local|morgan')).toBeNull();
  expect(filesHolding(dataDir, [password, ...tokens])).toEqual([]);
  expect(filesUnder(dataDir).map((file) => file.slice(dataDir.length + 1))).toEqual(['settings.json']);
  await core.stop();
});
