/**
 * A user whose zone the server leaves empty, null or unknown is read in the server's default zone:
 * its default schedule's (a client cannot read the server's configuration), this computer's only
 * when there is no schedule. Settings says so once; everything else works as for anyone.
 */
import { DateTime } from 'luxon';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { StateSnapshot } from '../../electron/bridge/contract.js';
import { demoSignIn, startCoreHarness, type CoreHarness } from '../support/core-harness.js';

// Tuesday 12 March 2030, 10:00 in London (GMT), 11:00 in Berlin.
const start = DateTime.fromISO('2030-03-12T10:00:00Z', { zone: 'utc' });

let harness: CoreHarness;

beforeAll(async () => {
  harness = await startCoreHarness(start);
  // The lab (Berlin) is the server's default schedule here, though the head office (London) comes first.
  await harness.service.store.updateTable('schedules').set({ isDefault: 0 }).where('id', '=', harness.org.schedules.headOffice).execute();
  await harness.service.store.updateTable('schedules').set({ isDefault: 1 }).where('id', '=', harness.org.schedules.lab).execute();
});

afterAll(() => harness.dispose());

afterEach(async () => {
  harness.intercept(null);
  await harness.idle();
});

const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });

async function signInAs(userName: string): Promise<StateSnapshot> {
  const { core } = harness.newCore();
  await core.start();
  const result = await core.handlers.signIn(demoSignIn(userName));
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
}

const serverDefaultNote = "Your account on the server has no time zone; Perch shows times in Europe/Berlin, the server's default.";

describe('an account without a usable time zone', () => {
  it.each([
    ['empty', 'priya', ''],
    ['unknown', 'tom', 'Mars/Olympus'],
  ])('%s: is read in the zone of the server’s default schedule, and Settings says so', async (_kind, userName, timezone) => {
    await harness.service.store.updateTable('users').set({ timezone }).where('userName', '=', userName).execute();
    const snapshot = await signInAs(userName);
    expect(snapshot.phase).toBe('ready');
    expect(snapshot.account).toMatchObject({ userName, timezone: 'Europe/Berlin', timezoneNote: serverDefaultNote });
    expect(snapshot.now).toBe('2030-03-12T11:00:00+01:00');
  });

  it('null: is read the same way, rather than failing the sign-in', async () => {
    const userId = harness.org.users.sofia;
    const read = await (await harness.clientFor('sofia')).getUser({ params: { userId } });
    if (!read.ok) throw new Error(read.error.message);
    const withoutZone = { ...read.value, timezone: null };
    harness.intercept(({ method, path }) => (method === 'GET' && path === `/Users/${userId}` ? json(withoutZone) : null));
    const snapshot = await signInAs('sofia');
    expect(snapshot.account).toMatchObject({ userName: 'sofia', timezone: 'Europe/Berlin', timezoneNote: serverDefaultNote });
  });

  it('on a server without schedules: is read in this computer’s zone, and Settings says so', async () => {
    await harness.service.store.updateTable('users').set({ timezone: '' }).where('userName', '=', 'lena').execute();
    harness.intercept(({ method, path }) =>
      method === 'GET' && path === '/Schedules/' ? json({ schedules: [], links: [], message: null }) : null,
    );
    const snapshot = await signInAs('lena');
    const machineZone = DateTime.local().zoneName ?? 'UTC';
    expect(snapshot.account).toMatchObject({
      timezone: machineZone,
      timezoneNote: `Your account on the server has no time zone; Perch shows times in ${machineZone}, this computer's.`,
    });
  });

  it('an account with its own zone: Settings says nothing about it', async () => {
    const snapshot = await signInAs('sam');
    expect(snapshot.account).toMatchObject({ timezone: 'America/New_York', timezoneNote: null });
  });
});
