import { DateTime } from 'luxon';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { formatWireDateTime } from '../../electron/api/dates.js';
import type { StateSnapshot } from '../../electron/bridge/contract.js';
import { demoSignIn, startCoreHarness, type CoreHarness, type CoreUnderTest } from '../support/core-harness.js';
import { steadyPeriodMinutes } from '../../electron/core/sync/poll-plan.js';

// Tuesday 12 March 2030: London (the head office's schedule) is on GMT, the demo user lives in Berlin (UTC+1).
const day = '2030-03-12';
const utc = (time: string, date = day) => DateTime.fromISO(`${date}T${time}:00Z`, { zone: 'utc' });

let harness: CoreHarness;
const running: CoreUnderTest[] = [];

beforeAll(async () => {
  harness = await startCoreHarness(utc('08:50'));
});

afterAll(() => harness.dispose());

afterEach(async () => {
  while (running.length > 0) await running.pop()!.core.stop();
  harness.intercept(null);
});

async function signedIn(
  username = 'user',
  options: Parameters<CoreHarness['newCore']>[0] = {},
  staySignedIn = false,
): Promise<CoreUnderTest> {
  const created = harness.newCore(options);
  running.push(created);
  await created.core.start();
  if (created.core.snapshot().phase !== 'ready') {
    const result = await created.core.handlers.signIn(demoSignIn(username, staySignedIn));
    if (!result.ok) throw new Error(result.error.message);
  }
  // Sign-in and restore answer with the user's list; Free now and the reference data come after.
  await harness.idle();
  return created;
}

async function advanceTo(moment: DateTime): Promise<void> {
  await harness.advance({ milliseconds: moment.toMillis() - harness.clock.now().toMillis() });
}

async function book(resourceId: number, start: DateTime, end: DateTime, title: string): Promise<string> {
  // A fresh session: the manual clock may have moved past the last one's expiry.
  const created = await (
    await harness.clientFor('user')
  ).createReservation({
    body: {
      resourceId,
      startDateTime: formatWireDateTime(start),
      endDateTime: formatWireDateTime(end),
      title,
      description: '',
      allowParticipation: false,
      termsAccepted: true,
    },
  });
  if (!created.ok) throw new Error(`${created.error.message} ${created.error.errors?.join(' ') ?? ''}`);
  return created.value.referenceNumber;
}

const titles = (state: StateSnapshot) => state.reservations.map((reservation) => reservation.title);

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
    // Severn's schedule keeps London time, an hour behind the user's Berlin: its times are London's, named.
    const london = (instant: DateTime) => instant.setZone('Europe/London').toFormat('HH:mm');
    expect(first.notifier.shown).toEqual([
      {
        id: `checkInOpen:${reference}:${start.toUTC().toISO()}`,
        referenceNumber: reference,
        title: 'Design review starts in 5 min — check in to keep Severn (1.02)',
        body: `Released at ${london(start.plus({ minutes: 15 }))} London time unless you check in. ${london(start)}–${london(start.plus({ minutes: 30 }))} London time`,
        actions: ['checkIn', 'notComing', 'snooze'],
      },
    ]);
    expect(first.core.snapshot().reservations.find((reservation) => reservation.referenceNumber === reference)).toMatchObject({
      checkInOpen: true,
      autoReleaseAt: start.plus({ minutes: 15 }).setZone('Europe/Berlin').toISO({ suppressMilliseconds: true }),
    });

    const navigated: string[] = [];
    first.core.on('navigate', (payload) => navigated.push('referenceNumber' in payload ? payload.referenceNumber : 'a draft'));
    first.notifier.respond({
      notificationId: `checkInOpen:${reference}:${start.toUTC().toISO()}`,
      referenceNumber: reference,
      response: 'open',
    });
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
    second.notifier.answer = { ok: false, error: 'Notifications cannot be shown: no notification service is running on this desktop.' };
    await advanceTo(start.plus({ minutes: 10 }));
    expect(second.notifier.shown.map((notification) => notification.title)).toEqual(['Check in to keep Severn (1.02) — 5 min left']);
    expect(second.core.snapshot().notifierProblem).toBe(
      'Notifications cannot be shown: no notification service is running on this desktop.',
    );
  });
});

describe('offline', () => {
  it('keeps the last good data while the server is unreachable, backs off, and recovers when it is back', async () => {
    await book(harness.org.resources.loanLaptop, utc('10:00', '2030-03-14'), utc('11:00', '2030-03-14'), 'Laptop for the workshop');
    const { core, dataDir, secrets } = await signedIn();
    await harness.advance({ minutes: 1 });
    const before = core.snapshot();
    expect(before.offline).toBe(false);
    expect(before.reservations.length).toBeGreaterThan(0);

    await harness.stopService();
    harness.requests.length = 0;
    // Until the next steady read of the list.
    await harness.advance({ minutes: steadyPeriodMinutes });
    const offline = core.snapshot();
    expect(offline).toMatchObject({ offline: true, fetchedAt: before.fetchedAt });
    expect(titles(offline)).toEqual(titles(before));

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
    expect(restarted.core.snapshot()).toMatchObject({
      phase: 'ready',
      fetchedAt: before.fetchedAt,
      reservations: titles(before).map((title) => expect.objectContaining({ title })),
    });
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
