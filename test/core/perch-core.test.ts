import { DateTime } from 'luxon';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../electron/api/client.js';
import { formatWireDateTime } from '../../electron/api/dates.js';
import type { StateSnapshot } from '../../electron/bridge.js';
import { insertReservation } from '../support/reservations.js';
import { demoSignIn, startCoreHarness, type CoreHarness, type CoreUnderTest, type RecordedRequest } from '../support/core-harness.js';

// Tuesday 12 March 2030: London (the head office's schedule) is on GMT, the demo user lives in Berlin (UTC+1).
const day = '2030-03-12';
const utc = (time: string, date = day) => DateTime.fromISO(`${date}T${time}:00Z`, { zone: 'utc' });
const berlin = (time: string, date = day) => utc(time, date).setZone('Europe/Berlin').toISO({ suppressMilliseconds: true });

let harness: CoreHarness;
let user: ApiClient;
const running: CoreUnderTest[] = [];

beforeAll(async () => {
  harness = await startCoreHarness(utc('08:50'));
  user = await harness.clientFor('user');
});

afterAll(() => harness.dispose());

afterEach(async () => {
  while (running.length > 0) await running.pop()!.core.stop();
  harness.intercept(null);
});

async function signedIn(username = 'user', options: Parameters<CoreHarness['newCore']>[0] = {}, staySignedIn = false): Promise<CoreUnderTest> {
  const created = harness.newCore(options);
  running.push(created);
  await created.core.start();
  if (created.core.snapshot().phase !== 'ready') {
    const result = await created.core.handlers.signIn(demoSignIn(username, staySignedIn));
    if (!result.ok) throw new Error(result.error.message);
  }
  return created;
}

async function advanceTo(moment: DateTime): Promise<void> {
  await harness.advance({ milliseconds: moment.toMillis() - harness.clock.now().toMillis() });
}

async function book(resourceId: number, start: DateTime, end: DateTime, title: string): Promise<string> {
  const created = await user.createReservation({
    body: { resourceId, startDateTime: formatWireDateTime(start), endDateTime: formatWireDateTime(end), title, description: '', allowParticipation: false, termsAccepted: true },
  });
  if (!created.ok) throw new Error(`${created.error.message} ${created.error.errors?.join(' ') ?? ''}`);
  return created.data.referenceNumber;
}

/** The requests of each poll: everything sent at one moment of the manual clock. */
function byMoment(requests: readonly RecordedRequest[]): Map<number, RecordedRequest[]> {
  const groups = new Map<number, RecordedRequest[]>();
  for (const request of requests) groups.set(request.at, [...(groups.get(request.at) ?? []), request]);
  return groups;
}

const titles = (state: StateSnapshot) => state.reservations.map((reservation) => reservation.title);

describe('free now', () => {
  it('lists the resources free now, longest free first, with when each is free until', async () => {
    const { resources, users } = harness.org;
    const priya = users.priya;
    await insertReservation(harness.service.store, { ownerId: priya, resourceId: resources.severn, occurrences: [{ start: utc('09:30'), end: utc('10:00') }] });
    await insertReservation(harness.service.store, { ownerId: priya, resourceId: resources.thames, occurrences: [{ start: utc('10:30'), end: utc('11:00') }] });
    await insertReservation(harness.service.store, { ownerId: priya, resourceId: resources.avon, occurrences: [{ start: utc('08:30'), end: utc('09:30') }] });

    const { core } = await signedIn();
    const { freeNow } = core.snapshot();
    const weekAhead = berlin('08:50', '2030-03-19');
    const free = (name: string, freeUntil: string | null, groupNames: string[]) => ({ name, freeUntil, groupNames, scheduleName: 'Head office' });
    expect(freeNow.map(({ name, freeUntil, groupNames, scheduleName }) => ({ name, freeUntil, groupNames, scheduleName }))).toEqual([
      free('Boardroom', weekAhead, ['Head office', 'Floor 2 rooms']),
      free('Camera kit', weekAhead, ['Equipment']),
      free('Hot desk D1', weekAhead, ['Head office', 'Desks']),
      free('Hot desk D2', weekAhead, ['Head office', 'Desks']),
      free('Loan laptop', weekAhead, ['Equipment']),
      free('Phone booth (2.02)', weekAhead, ['Head office', 'Floor 2 rooms']),
      free('Training room (1.04)', weekAhead, ['Head office', 'Floor 1 rooms']),
      free('Thames (1.01)', '2030-03-12T11:30:00+01:00', ['Head office', 'Floor 1 rooms']),
      free('Severn (1.02)', '2030-03-12T10:30:00+01:00', ['Head office', 'Floor 1 rooms']),
    ]);
    expect(freeNow.find((resource) => resource.name === 'Severn (1.02)')).toMatchObject({ resourceId: resources.severn, scheduleId: harness.org.schedules.headOffice });
  });
});

describe('polling', () => {
  it('shows the reservations, then polls with at most two requests: a narrow list, and availability every 5 minutes', async () => {
    const { resources } = harness.org;
    await book(resources.phoneBooth, utc('12:00'), utc('12:30'), 'Call with Lisbon');
    await book(resources.loanLaptop, utc('10:00', '2030-03-14'), utc('11:00', '2030-03-14'), 'Laptop for the workshop');

    const { core } = await signedIn();
    // Signing in fetched the 14-day list: both are there, soonest first, in the user's zone.
    expect(core.snapshot().reservations).toMatchObject([
      { title: 'Call with Lisbon', resourceName: 'Phone booth (2.02)', start: '2030-03-12T13:00:00+01:00', end: '2030-03-12T13:30:00+01:00', isMine: true, ownerName: 'Jonas Weber', requiresCheckIn: false, checkInOpen: false },
      { title: 'Laptop for the workshop', start: '2030-03-14T11:00:00+01:00' },
    ]);

    harness.requests.length = 0;
    const began = harness.clock.now();
    await harness.advance({ minutes: 10 });
    const polls = [...byMoment(harness.requests).entries()];
    expect(polls.map(([at]) => (at - began.toMillis()) / 60_000)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    for (const [at, requests] of polls) {
      const minute = (at - began.toMillis()) / 60_000;
      expect(requests.length).toBeLessThanOrEqual(2);
      const lines = requests.map((request) => `${request.method} ${request.path}`).sort();
      expect(lines).toEqual(minute % 5 === 0 ? ['GET /Reservations/', 'GET /Resources/Availability'] : ['GET /Reservations/']);
      const list = requests.find((request) => request.path === '/Reservations/')!;
      // The user's own, from now to the end of tomorrow in Berlin.
      expect(Object.fromEntries(list.query)).toEqual({
        userId: String(harness.org.users.user),
        startDateTime: formatWireDateTime(DateTime.fromMillis(at, { zone: 'utc' })),
        endDateTime: '2030-03-13T22:59:59+0000',
      });
    }
    // The narrow polls did not lose what lies beyond their window.
    expect(titles(core.snapshot())).toEqual(['Call with Lisbon', 'Laptop for the workshop']);
    expect(core.snapshot().fetchedAt).toBe(harness.clock.now().setZone('Europe/Berlin').toISO({ suppressMilliseconds: true }));
  });

  it('fetches the 14-day list and availability when the popover opens; a narrow poll replaces what it covers', async () => {
    const { core } = await signedIn();
    const later = await book(harness.org.resources.cameraKit, utc('09:00', '2030-03-15'), utc('10:00', '2030-03-15'), 'Recording');
    await harness.advance({ minutes: 1 });
    expect(titles(core.snapshot())).not.toContain('Recording');

    harness.requests.length = 0;
    core.popoverOpened();
    await harness.idle();
    const list = harness.requests.find((request) => request.path === '/Reservations/')!;
    expect(list.query.get('endDateTime')).toBe(formatWireDateTime(harness.clock.now().toUTC().plus({ days: 14 })));
    expect(harness.requests.map((request) => request.path)).toContain('/Resources/Availability');
    expect(titles(core.snapshot())).toContain('Recording');

    // Cancelled elsewhere: the next regular poll covers today and tomorrow only, so the 15th stays until the list is fetched again.
    const phoneBooth = core.snapshot().reservations.find((reservation) => reservation.title === 'Call with Lisbon')!;
    await user.deleteReservation({ params: { referenceNumber: phoneBooth.referenceNumber }, query: { updateScope: 'this' } });
    await user.deleteReservation({ params: { referenceNumber: later }, query: { updateScope: 'this' } });
    await harness.advance({ minutes: 1 });
    expect(titles(core.snapshot())).toEqual(['Laptop for the workshop', 'Recording']);
    core.popoverOpened();
    await harness.idle();
    expect(titles(core.snapshot())).toEqual(['Laptop for the workshop']);
  });

  it('does not poll while the screen is locked or the system sleeps, and polls at once when back', async () => {
    const { core } = await signedIn();
    core.screenLocked();
    harness.requests.length = 0;
    await harness.advance({ minutes: 10 });
    expect(harness.requests).toEqual([]);
    core.systemSuspended();
    core.screenUnlocked();
    await harness.advance({ minutes: 2 });
    expect(harness.requests).toEqual([]);
    core.systemResumed();
    await harness.idle();
    // Back after more than 5 minutes: the list and availability, at once.
    expect(harness.requests.map((request) => request.path).sort()).toEqual(['/Reservations/', '/Resources/Availability']);
  });

  it('applies a new poll interval from the next tick on', async () => {
    const { core } = await signedIn();
    const changed = await core.handlers.setSettings({ pollIntervalSeconds: 180 });
    expect(changed).toMatchObject({ ok: true, value: { pollIntervalSeconds: 180 } });
    harness.requests.length = 0;
    const began = harness.clock.now().toMillis();
    await harness.advance({ minutes: 10 });
    const moments = [...byMoment(harness.requests).keys()].map((at) => (at - began) / 60_000);
    expect(moments).toEqual([1, 4, 7, 10]);
    expect(await core.handlers.getSettings()).toMatchObject({ pollIntervalSeconds: 180 });
  });
});

describe('notifications', () => {
  it('reminds at the right moments from one timer, once, even across a restart; a click navigates', async () => {
    const { resources } = harness.org;
    const now = harness.clock.now();
    const start = now.startOf('hour').plus({ hours: 2 });
    const reference = await book(resources.severn, start, start.plus({ minutes: 30 }), 'Design review');
    // Kept with the password: with polls an hour apart the server's session lapses in between.
    const first = await signedIn('user', {}, true);
    // Polls are rare now: the reminders come from the planner's timer, not from a poll.
    await first.core.handlers.setSettings({ pollIntervalSeconds: 3600 });
    await harness.advance({ minutes: 1 });
    // One poll timer and one notification timer, never more.
    expect(harness.clock.pendingTimers).toBe(2);

    await advanceTo(start.minus({ minutes: 10 }));
    expect(harness.requests.filter((request) => request.at === start.minus({ minutes: 10 }).toMillis())).toEqual([]);
    // The start reminder (10 minutes before) waits for check-in to open (5 minutes before): one notification.
    expect(first.notifier.shown).toEqual([]);

    await advanceTo(start.minus({ minutes: 5 }));
    expect(harness.requests.filter((request) => request.at === start.minus({ minutes: 5 }).toMillis())).toEqual([]);
    // Severn's schedule keeps London time, an hour behind the user's Berlin: its times are London's, named.
    const london = (instant: DateTime) => instant.setZone('Europe/London').toFormat('HH:mm');
    expect(first.notifier.shown).toEqual([
      {
        id: `checkInOpen:${reference}:${start.toUTC().toISO()}`,
        referenceNumber: reference,
        title: 'Design review starts in 5 min — check in to keep Severn (1.02)',
        body: `Released at ${london(start.plus({ minutes: 15 }))} London time unless you check in. ${london(start)}–${london(start.plus({ minutes: 30 }))} London time`,
        actions: ['checkIn', 'snooze'],
      },
    ]);
    expect(first.core.snapshot().reservations.find((reservation) => reservation.referenceNumber === reference)).toMatchObject({ checkInOpen: true, autoReleaseAt: start.plus({ minutes: 15 }).setZone('Europe/Berlin').toISO({ suppressMilliseconds: true }) });

    const navigated: string[] = [];
    first.core.on('navigate', ({ referenceNumber }) => navigated.push(referenceNumber));
    first.notifier.respond({ notificationId: `checkInOpen:${reference}:${start.toUTC().toISO()}`, referenceNumber: reference, response: 'open' });
    expect(navigated).toEqual([reference]);

    // Restart: the shown ids come back from the cache, so nothing is shown twice.
    await first.core.stop();
    const second = harness.newCore({ dataDir: first.dataDir, secrets: first.secrets });
    running.push(second);
    await second.core.start();
    expect(second.core.snapshot().phase).toBe('ready');
    await harness.advance({ minutes: 1 });
    expect(second.notifier.shown).toEqual([]);

    // A notifier that fails is reported in the state, never thrown.
    second.notifier.answer = { ok: false, problem: 'Notifications cannot be shown: no notification service is running on this desktop.' };
    await advanceTo(start.plus({ minutes: 10 }));
    expect(second.notifier.shown.map((notification) => notification.title)).toEqual(['Check in to keep Severn (1.02) — 5 min left']);
    expect(second.core.snapshot().notifierProblem).toBe('Notifications cannot be shown: no notification service is running on this desktop.');
  });
});

describe('offline', () => {
  it('keeps the last good data while the server is unreachable, backs off, and recovers when it is back', async () => {
    const { core, dataDir, secrets } = await signedIn();
    await harness.advance({ minutes: 1 });
    const before = core.snapshot();
    expect(before.offline).toBe(false);
    expect(before.reservations.length).toBeGreaterThan(0);

    await harness.stopService();
    harness.requests.length = 0;
    await harness.advance({ minutes: 1 });
    const offline = core.snapshot();
    expect(offline).toMatchObject({ offline: true, fetchedAt: before.fetchedAt, reservations: before.reservations });

    // Backoff: retries come sooner than the interval at first, then further and further apart.
    await harness.advance({ minutes: 5 });
    const attempts = harness.requests.filter((request) => request.path === '/Reservations/').map((request) => request.at);
    const gaps = attempts.slice(1).map((at, index) => at - attempts[index]!);
    expect(gaps.length).toBeGreaterThanOrEqual(4);
    expect(gaps[0]!).toBeLessThan(10_000);
    for (let index = 1; index < gaps.length; index += 1) expect(gaps[index]!).toBeGreaterThan(gaps[index - 1]!);

    // The app restarts while the server is still away: the cached data is shown at once, marked offline.
    await core.stop();
    const restarted = harness.newCore({ dataDir, secrets });
    running.push(restarted);
    await restarted.core.start();
    expect(restarted.core.snapshot()).toMatchObject({ phase: 'ready', fetchedAt: before.fetchedAt, reservations: titles(before).map((title) => expect.objectContaining({ title })) });
    await harness.idle();
    expect(restarted.core.snapshot().offline).toBe(true);

    // A new service on the same database and port: the first success clears the flag.
    await harness.restartService();
    await harness.advance({ minutes: 6 });
    const recovered = restarted.core.snapshot();
    expect(recovered).toMatchObject({ offline: false, lastError: null, phase: 'ready' });
    expect(recovered.fetchedAt).not.toBe(before.fetchedAt);
    expect(titles(recovered)).toContain('Laptop for the workshop');
  });
});
