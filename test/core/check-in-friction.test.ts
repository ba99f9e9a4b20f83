/**
 * Check-in without friction (issue 23, item 3), through the core against the local service:
 * checking in by itself on unlock or wake (opt-in), and "I'm not coming".
 */
import { DateTime } from 'luxon';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { formatWireDateTime } from '../../electron/api/dates.js';
import type { EventPayloads } from '../../electron/bridge/contract.js';
import { demoSignIn, startCoreHarness, type CoreHarness, type CoreUnderTest } from '../support/core-harness.js';

// Tuesday 12 March 2030; the head office (London) is open 08:00–18:00, the demo user lives in Berlin.
const day = '2030-03-12';
const utc = (time: string) => DateTime.fromISO(`${day}T${time}:00Z`, { zone: 'utc' });

let harness: CoreHarness;
const running: CoreUnderTest[] = [];

beforeAll(async () => {
  harness = await startCoreHarness(utc('08:50'));
});

afterAll(() => harness.dispose());

afterEach(async () => {
  while (running.length > 0) await running.pop()!.core.stop();
});

async function signedIn(): Promise<CoreUnderTest> {
  const created = harness.newCore();
  running.push(created);
  await created.core.start();
  // Kept with the password: the clock moves hours, past the server session's life.
  const result = await created.core.handlers.signIn(demoSignIn('user', true));
  if (!result.ok) throw new Error(result.error.message);
  await harness.idle();
  return created;
}

const advanceTo = (moment: DateTime) => harness.advance({ milliseconds: moment.toMillis() - harness.clock.now().toMillis() });

/** Books Severn (1.02), which asks for check-in and releases 15 minutes after the start, as the demo user. */
async function bookSevern(start: DateTime, title: string): Promise<string> {
  const created = await (
    await harness.clientFor('user')
  ).createReservation({
    body: {
      resourceId: harness.org.resources.severn,
      startDateTime: formatWireDateTime(start),
      endDateTime: formatWireDateTime(start.plus({ minutes: 30 })),
      title,
      description: '',
      allowParticipation: false,
      termsAccepted: true,
    },
  });
  if (!created.ok) throw new Error(`${created.error.message} ${created.error.errors?.join(' ') ?? ''}`);
  return created.value.referenceNumber;
}

async function onServer(referenceNumber: string) {
  return (await harness.clientFor('user')).getReservation({ params: { referenceNumber } });
}

const checkInsOf = (referenceNumber: string) =>
  harness.requests.filter((request) => request.method === 'POST' && request.path === `/Reservations/${referenceNumber}/CheckIn`);

/** The screen locked for a minute, then unlocked. */
async function lockAndUnlock(perch: CoreUnderTest): Promise<void> {
  perch.core.screenLocked();
  await harness.advance({ minutes: 1 });
  perch.core.screenUnlocked();
  await harness.idle();
}

describe('checking in by itself on unlock or wake', () => {
  it('is off by default: unlocking in the check-in window checks nothing in', async () => {
    const start = utc('09:30');
    const reference = await bookSevern(start, 'Left alone');
    const perch = await signedIn();
    expect((await perch.core.handlers.getSettings()).autoCheckIn).toBe(false);
    await advanceTo(start.minus({ minutes: 3 }));
    await lockAndUnlock(perch);
    expect(checkInsOf(reference)).toEqual([]);
    const held = await onServer(reference);
    expect(held.ok && held.value.checkInDate).toBeNull();
  });

  it('once on, checks in once on unlock, only within the window, and says so', async () => {
    const start = utc('10:30');
    const reference = await bookSevern(start, 'Design review');
    const perch = await signedIn();
    expect(await perch.core.handlers.setSettings({ autoCheckIn: true })).toMatchObject({ ok: true, value: { autoCheckIn: true } });

    // Before check-in opens (5 minutes before the start): nothing.
    await advanceTo(start.minus({ minutes: 8 }));
    await lockAndUnlock(perch);
    expect(checkInsOf(reference)).toEqual([]);

    await advanceTo(start.minus({ minutes: 4 }));
    const shownBefore = perch.notifier.shown.length;
    await lockAndUnlock(perch);
    expect(checkInsOf(reference)).toHaveLength(1);
    const held = await onServer(reference);
    expect(held.ok && held.value.checkInDate).not.toBeNull();
    expect(perch.core.snapshot().reservations.find((reservation) => reservation.referenceNumber === reference)?.checkedInAt).not.toBeNull();
    // The confirmation takes the check-in notice's place, so no Check in button is left on screen.
    expect(perch.notifier.shown.slice(shownBefore)).toEqual([
      {
        id: `checkInOpen:${reference}:${start.toUTC().toISO()}`,
        referenceNumber: reference,
        title: 'Checked in to Severn (1.02)',
        body: 'Design review: Perch checked in as you came back to this computer.',
        actions: [],
      },
    ]);

    // Unlocked again: never twice.
    await lockAndUnlock(perch);
    expect(checkInsOf(reference)).toHaveLength(1);
  });

  it('a refused check-in is tried once only, and leaves the booking as it was', async () => {
    const start = utc('11:30');
    const reference = await bookSevern(start, 'Refused');
    const perch = await signedIn();
    await perch.core.handlers.setSettings({ autoCheckIn: true });
    await advanceTo(start.minus({ minutes: 2 }));
    harness.intercept(({ method, path }) =>
      method === 'POST' && path.endsWith('/CheckIn')
        ? Response.json(
            { links: [], message: 'There were errors processing your request', errors: ['This reservation cannot be checked in to.'] },
            { status: 400 },
          )
        : null,
    );
    try {
      await lockAndUnlock(perch);
      await lockAndUnlock(perch);
    } finally {
      harness.intercept(null);
    }
    expect(checkInsOf(reference)).toHaveLength(1);
    expect(perch.core.snapshot().reservations.find((reservation) => reservation.referenceNumber === reference)).toMatchObject({
      checkedInAt: null,
      checkInOpen: true,
    });
  });

  it('after a wake, acts on the list read on waking, not on the one from before the sleep', async () => {
    const cancelledStart = utc('12:30');
    const cancelled = await bookSevern(cancelledStart, 'Cancelled while asleep');
    const perch = await signedIn();
    await perch.core.handlers.setSettings({ autoCheckIn: true });

    // Asleep; meanwhile the booking is cancelled elsewhere. Woken in what was its check-in window: nothing.
    perch.core.systemSuspended();
    const deleted = await (
      await harness.clientFor('user')
    ).deleteReservation({ params: { referenceNumber: cancelled }, query: { updateScope: 'this' } });
    expect(deleted.ok).toBe(true);
    await advanceTo(cancelledStart.minus({ minutes: 2 }));
    perch.core.systemResumed();
    await harness.idle();
    expect(checkInsOf(cancelled)).toEqual([]);

    // Asleep through the opening of another booking's check-in: on waking, checked in, after the fresh read.
    const start = utc('13:30');
    const reference = await bookSevern(start, 'Back from lunch');
    perch.core.systemSuspended();
    await advanceTo(start.minus({ minutes: 1 }));
    const wokeAt = harness.clock.now().toMillis();
    perch.core.systemResumed();
    await harness.idle();
    expect(checkInsOf(reference)).toHaveLength(1);
    const read = harness.requests.findIndex(
      (request) => request.method === 'GET' && request.path === '/Reservations/' && request.at === wokeAt,
    );
    const checkIn = harness.requests.indexOf(checkInsOf(reference)[0]!);
    expect(read).toBeGreaterThanOrEqual(0);
    expect(read).toBeLessThan(checkIn);
  });
});

describe("I'm not coming", () => {
  it('before the start, cancels that occurrence', async () => {
    const start = utc('14:30');
    const reference = await bookSevern(start, 'Not needed');
    const perch = await signedIn();
    await advanceTo(start.minus({ minutes: 3 }));
    const released = await perch.core.handlers.release({ referenceNumber: reference });
    expect(released.ok).toBe(true);
    const deletes = harness.requests.filter((request) => request.method === 'DELETE' && request.path === `/Reservations/${reference}`);
    expect(deletes.map((request) => request.query.get('updateScope'))).toEqual(['this']);
    expect(await onServer(reference)).toMatchObject({ ok: false, error: { kind: 'notFound' } });
    expect(released.ok && released.value.reservations.some((reservation) => reservation.referenceNumber === reference)).toBe(false);
  });

  it('after the start, checks out, which ends the booking now and gives the room back', async () => {
    const start = utc('15:30');
    const reference = await bookSevern(start, 'Not coming after all');
    const perch = await signedIn();
    const now = start.plus({ minutes: 4 });
    await advanceTo(now);
    const released = await perch.core.handlers.release({ referenceNumber: reference });
    expect(released.ok).toBe(true);
    const held = await onServer(reference);
    if (!held.ok) throw new Error(held.error.message);
    expect(DateTime.fromISO(held.value.endDate).toMillis()).toBe(now.toMillis());
    expect(DateTime.fromISO(held.value.originalEndDate ?? '').toMillis()).toBe(start.plus({ minutes: 30 }).toMillis());
    expect(held.value.checkOutDate).not.toBeNull();
    expect(
      released.ok && released.value.reservations.find((reservation) => reservation.referenceNumber === reference)?.checkedOutAt,
    ).not.toBeNull();
  });

  it('from the notification, opens the popover on the booking with the question asked', async () => {
    const perch = await signedIn();
    const navigated: EventPayloads['navigate'][] = [];
    perch.core.on('navigate', (payload) => navigated.push(payload));
    perch.notifier.respond({ notificationId: 'checkInOpen:abc:2030-03-12T16:30:00.000Z', referenceNumber: 'abc', response: 'notComing' });
    await harness.idle();
    expect(navigated).toEqual([{ referenceNumber: 'abc', confirm: 'release' }]);
    // Nothing is given back before the user says so.
    expect(harness.requests.filter((request) => request.path.startsWith('/Reservations/abc'))).toEqual([]);
  });
});
