/**
 * A server's start-time rule (start.time.constraint) is no API answer: Perch learns it from the
 * server's first refusal of a change to a booking under way, keeps it per server across restarts,
 * and from then on offers nothing that server would refuse — while another server is untouched.
 * The local service runs here as an organisation's server would, at its address.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BridgeResult, ReservationView, SignInRequest } from '../../electron/bridge/contract.js';
import { startTimeRulesFileName } from '../../electron/core/session/start-time-rules.js';
import type { PerchCore } from '../../electron/core/perch-core.js';
import { memorySecretStore } from '../../electron/core/storage/secret-store.js';
import { demoPassword } from '../../electron/service/seed/demo.js';
import { startCoreHarness, type CoreHarness } from '../support/core-harness.js';
import { insertReservation } from '../support/reservations.js';

// Tuesday 12 March 2030, 09:10 UTC: a booking from 09:00 to 10:00 is under way.
const utc = (time: string) => DateTime.fromISO(`2030-03-12T${time}:00Z`, { zone: 'utc' });
const startedLocked = 'This booking has started, and the server does not let you change a booking once it has started.';

let server: CoreHarness;
let otherServer: CoreHarness;

beforeAll(async () => {
  [server, otherServer] = await Promise.all([startCoreHarness(utc('09:10')), startCoreHarness(utc('09:10'))]);
});

afterAll(async () => {
  await Promise.all([server.dispose(), otherServer.dispose()]);
});

function value<T>(result: BridgeResult<T>): T {
  if (!result.ok) throw new Error(`${result.error.kind}: ${result.error.message}`);
  return result.value;
}

const signInTo = (harness: CoreHarness, username = 'user'): SignInRequest => ({
  server: { kind: 'remote', url: harness.apiRoot },
  username,
  password: demoPassword,
  staySignedIn: true,
});

type ResourceKey = keyof CoreHarness['org']['resources'];

/** A booking of `owner` from 09:00 to 10:00 today and one from 11:00 to 12:00, inserted as the server's own data. */
async function bookingsOf(
  harness: CoreHarness,
  owner: 'user' | 'admin',
  [first, second]: [ResourceKey, ResourceKey],
): Promise<{ underWay: string; later: string }> {
  const { resources, users } = harness.org;
  const [underWay, later] = await Promise.all([
    insertReservation(harness.service.store, {
      ownerId: users[owner],
      resourceId: resources[first],
      occurrences: [{ start: utc('09:00'), end: utc('10:00') }],
    }),
    insertReservation(harness.service.store, {
      ownerId: users[owner],
      resourceId: resources[second],
      occurrences: [{ start: utc('11:00'), end: utc('12:00') }],
    }),
  ]);
  return { underWay: underWay.referenceNumbers[0]!, later: later.referenceNumbers[0]! };
}

const viewOf = (core: PerchCore, referenceNumber: string): ReservationView | undefined =>
  core.snapshot().reservations.find((reservation) => reservation.referenceNumber === referenceNumber);

const updatesSent = (harness: CoreHarness) =>
  harness.requests.filter((request) => request.method === 'POST' && /^\/Reservations\/[^/]+$/.test(request.path));

describe("a server's start-time rule", () => {
  it('is learned from its first refusal, after which a booking under way is offered no change, not even after a restart', async () => {
    const mine = await bookingsOf(server, 'user', ['avon', 'severn']);
    const secrets = memorySecretStore('test: memory only');
    const first = server.newCore({ secrets });
    await first.core.start();
    value(await first.core.handlers.signIn(signInTo(server)));

    // Nothing known yet of this server: the change is offered, and the server asked.
    expect(viewOf(first.core, mine.underWay)?.canChange).toBe(true);
    server.requests.length = 0;
    expect(await first.core.handlers.extend({ referenceNumber: mine.underWay, minutes: 30 })).toEqual({
      ok: false,
      error: { kind: 'validation', message: startedLocked },
    });
    expect(updatesSent(server)).toHaveLength(1);

    // Learned: the booking under way is no longer offered a change, the one to come still is.
    expect(viewOf(first.core, mine.underWay)?.canChange).toBe(false);
    expect(viewOf(first.core, mine.later)?.canChange).toBe(true);
    server.requests.length = 0;
    expect(value(await first.core.handlers.offerExtension({ referenceNumber: mine.underWay }))).toEqual({
      minutes: null,
      reason: startedLocked,
    });
    expect(server.requests).toEqual([]);
    await first.core.stop();
    expect(JSON.parse(readFileSync(join(first.dataDir, startTimeRulesFileName), 'utf8'))).toEqual({
      startTimeRules: { [server.apiRoot]: 'future' },
    });

    // A restart remembers it before the server is asked to change anything again.
    server.requests.length = 0;
    const again = server.newCore({ dataDir: first.dataDir, secrets });
    await again.core.start();
    expect(again.core.snapshot().phase).toBe('ready');
    expect(viewOf(again.core, mine.underWay)?.canChange).toBe(false);
    expect(viewOf(again.core, mine.later)?.canChange).toBe(true);
    expect(updatesSent(server)).toEqual([]);
    await again.core.stop();
  });

  it('leaves another server, and an administrator of the same one, offered the changes they accept', async () => {
    const learnedOn = await bookingsOf(server, 'user', ['thames', 'deskD1']);
    const elsewhere = await bookingsOf(otherServer, 'user', ['avon', 'severn']);
    const ofAdmin = await bookingsOf(server, 'admin', ['loanLaptop', 'cameraKit']);
    const { core, dataDir } = server.newCore();
    await core.start();
    value(await core.handlers.signIn(signInTo(server)));
    expect((await core.handlers.extend({ referenceNumber: learnedOn.underWay, minutes: 30 })).ok).toBe(false);
    expect(viewOf(core, learnedOn.underWay)?.canChange).toBe(false);

    // The same computer signed in to another server: nothing learned there yet.
    value(await core.handlers.signIn(signInTo(otherServer)));
    expect(viewOf(core, elsewhere.underWay)?.canChange).toBe(true);
    expect(JSON.parse(readFileSync(join(dataDir, startTimeRulesFileName), 'utf8'))).toEqual({
      startTimeRules: { [server.apiRoot]: 'future' },
    });

    // Back on the first server, an administrator (whom the rule exempts) changes a booking under way.
    value(await core.handlers.signIn(signInTo(server, 'admin')));
    expect(viewOf(core, ofAdmin.underWay)?.canChange).toBe(true);
    expect(value(await core.handlers.extend({ referenceNumber: ofAdmin.underWay, minutes: 30 })).end).toBe(
      utc('10:30').setZone('Europe/London').toISO({ suppressMilliseconds: true }),
    );

    // And the user of the first server still is not offered it.
    value(await core.handlers.signIn(signInTo(server)));
    expect(viewOf(core, learnedOn.underWay)?.canChange).toBe(false);
    await core.stop();
  });
});
