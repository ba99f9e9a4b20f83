/**
 * What waits for what, against the local service on a manual clock: sign-in answers with the
 * user's own list as soon as it is in, while the resource list (seconds on a large real server)
 * is still on its way; Refresh reads the user's list and who is busy, and the reference data only
 * by age (12 hours), or when the user asks to reload everything.
 */
import { DateTime } from 'luxon';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { StateSnapshot } from '../../electron/bridge/contract.js';
import { insertReservation } from '../support/reservations.js';
import { demoSignIn, startCoreHarness, type CoreHarness, type RecordedRequest } from '../support/core-harness.js';

// Tuesday 12 March 2030, 08:50 UTC: the demo user lives in Berlin; the hub is open round the clock.
const start = DateTime.fromISO('2030-03-12T08:50:00Z', { zone: 'utc' });

/** How long the test lets sign-in take, in real time, while the resource list is held back (generous: a loaded machine is slow). */
const patienceMs = 10_000;

let harness: CoreHarness;

beforeEach(async () => {
  harness = await startCoreHarness(start);
});

afterEach(() => harness.dispose());

/** The requests for the reference data kept 12 hours: resources, groups, schedules, attributes, and the user's grants. */
const isReferenceRead = (request: RecordedRequest) => /^\/(Resources|Schedules|Attributes|Users|Groups)\//.test(request.path);
const described = (requests: readonly RecordedRequest[]) => requests.map((request) => `${request.method} ${request.path}`);

describe('My reservations first', () => {
  it('answers sign-in with the user’s reservations while the resource list is still on its way, Free now loading; Free now fills in after', async () => {
    const meeting = harness.clock.now().plus({ hours: 2 });
    await insertReservation(harness.service.store, {
      ownerId: harness.org.users.user,
      resourceId: harness.org.resources.thames,
      occurrences: [{ start: meeting, end: meeting.plus({ minutes: 30 }) }],
      series: { title: 'Design review' },
    });
    let releaseResources!: () => void;
    const resourcesReleased = new Promise<void>((resolve) => (releaseResources = resolve));
    // A large server: the resource list comes only when the test lets it.
    harness.intercept(({ method, path }) => (method === 'GET' && path === '/Resources/' ? resourcesReleased.then(() => null) : null));
    const { core } = harness.newCore();
    await core.start();
    const events: StateSnapshot[] = [];
    core.on('stateChanged', (snapshot) => events.push(snapshot));

    let patience: NodeJS.Timeout | undefined;
    const waited = new Promise<'still waiting for the resource list'>((resolve) => {
      patience = setTimeout(() => resolve('still waiting for the resource list'), patienceMs);
    });
    const signedIn = await Promise.race([core.handlers.signIn(demoSignIn('user')), waited]).finally(() => clearTimeout(patience));
    // The resource list was asked for at once, and is still held back.
    expect(described(harness.requests.filter(isReferenceRead))).toContain('GET /Resources/');
    releaseResources();
    if (typeof signedIn === 'string' || !signedIn.ok)
      throw new Error(`sign-in did not answer with a snapshot: ${JSON.stringify(signedIn)}`);

    const first = signedIn.value;
    expect(first.phase).toBe('ready');
    expect(first.reservations.map(({ title, resourceName }) => `${title} · ${resourceName}`)).toEqual(['Design review · Thames (1.01)']);
    expect(first.fetchedAt).not.toBeNull();
    // Not "nothing free": Free now is not known yet.
    expect(first.freeNow).toEqual([]);
    expect(first.freeNowLoading).toBe(true);
    expect(events.some((snapshot) => snapshot.reservations.length === 1 && snapshot.freeNowLoading)).toBe(true);

    await harness.idle();
    const filled = core.snapshot();
    expect(filled.freeNowLoading).toBe(false);
    // Free now in the schedule the user books in: the head office, open at this hour.
    expect(filled.freeNow.map((resource) => resource.name)).toContain('Severn (1.02)');
    expect(filled.reservations.map((reservation) => reservation.title)).toEqual(['Design review']);
    // The popover was told, without asking again.
    expect(events.at(-1)?.freeNow.map((resource) => resource.name)).toContain('Severn (1.02)');
  }, 30_000);

  it('stops saying Free now is loading once its reads are over, even when the resource list could not be read', async () => {
    const { core } = harness.newCore();
    await core.start();
    harness.intercept(({ path }) =>
      /^\/(Resources|Schedules|Attributes)\//.test(path) ? Promise.reject(new TypeError('fetch failed')) : null,
    );
    const signedIn = await core.handlers.signIn(demoSignIn('user'));
    expect(signedIn.ok).toBe(true);
    await harness.idle();
    harness.intercept(null);
    const snapshot = core.snapshot();
    expect(snapshot.freeNow).toEqual([]);
    expect(snapshot.freeNowLoading).toBe(false);
  });
});

describe('reference data kept by age', () => {
  it('Refresh reads the user’s list and who is busy, not the reference data while it is fresh; Reload everything reads it all again', async () => {
    const { core } = harness.newCore();
    await core.start();
    const signedIn = await core.handlers.signIn(demoSignIn('user'));
    expect(signedIn.ok).toBe(true);
    await harness.idle();
    // Sign-in reads the user and each of their groups once: the reference read after it does not again.
    const grantReads = described(harness.requests.filter((request) => /^\/(Users|Groups)\/\d+$/.test(request.path)));
    expect(grantReads.filter((read) => read === `GET /Users/${harness.org.users.user}`)).toHaveLength(1);
    expect(new Set(grantReads).size).toBe(grantReads.length);
    const freeAtSignIn = core.snapshot().freeNow.map((resource) => resource.name);
    expect(freeAtSignIn).toContain('Hub desk H1');

    await harness.advance({ hours: 1 });
    harness.requests.length = 0;
    const refreshed = await core.handlers.refresh();
    const refreshRequests = harness.requests.filter((request) => request.path !== '/Authentication/Authenticate');
    expect(described(refreshRequests.filter(isReferenceRead))).toEqual([]);
    // The 14-day list and who is busy in the schedules Free now shows, one request each.
    expect(refreshRequests.every((request) => request.path === '/Reservations/')).toBe(true);
    expect(refreshRequests.filter((request) => request.query.has('userId'))).toHaveLength(1);
    expect(refreshRequests.filter((request) => request.query.has('scheduleId')).length).toBeGreaterThan(0);
    expect(refreshed.freeNow.map((resource) => resource.name)).toEqual(freeAtSignIn);

    harness.requests.length = 0;
    await core.handlers.reloadEverything();
    const reloaded = described(harness.requests.filter(isReferenceRead));
    for (const read of [
      'GET /Resources/',
      'GET /Resources/Groups',
      'GET /Schedules/',
      `GET /Attributes/Category/1`,
      `GET /Users/${harness.org.users.user}`,
    ]) {
      expect(reloaded).toContain(read);
    }
    expect(harness.requests.some((request) => request.path === '/Reservations/' && request.query.has('userId'))).toBe(true);

    // Twelve hours on, the reference data is stale: the next Refresh reads it again.
    await harness.advance({ hours: 12 });
    harness.requests.length = 0;
    await core.handlers.refresh();
    expect(described(harness.requests.filter(isReferenceRead))).toContain('GET /Resources/');
  });
});
