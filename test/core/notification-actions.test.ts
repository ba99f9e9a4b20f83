/**
 * Notifications end to end: a core against the local service, with a manual clock, shows its
 * notifications through real notify-send on a private session bus, and what the user does with
 * them (ActionInvoked on the bus) is carried out against the service.
 */
import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../electron/api/client.js';
import { formatWireDateTime } from '../../electron/api/dates.js';
import type { EventPayloads } from '../../electron/bridge/contract.js';
import { appId } from '../../electron/core/desktop/app-identity.js';
import type { NotificationInvocation, NotifierHandle } from '../../electron/core/notifications/notifier.js';
import { createNotifySendNotifier } from '../../electron/platform/notify-send-notifier.js';
import { childProcessesNamed } from '../support/child-processes.js';
import { demoSignIn, startCoreHarness, type CoreHarness, type CoreUnderTest } from '../support/core-harness.js';
import { startNotificationServer, type FakeNotificationServer, type RecordedNotification } from '../support/notification-server.js';
import { insertReservation } from '../support/reservations.js';
import { startPrivateSessionBus, type PrivateSessionBus } from '../support/session-bus.js';

// Tuesday 12 March 2030, as in perch-core.test.ts: the demo user lives in Berlin (UTC+1).
const utc = (time: string) => DateTime.fromISO(`2030-03-12T${time}:00Z`, { zone: 'utc' });
const icon = '/opt/Perch/resources/app.asar.unpacked/build/icons/256x256.png';

let harness: CoreHarness;
let bus: PrivateSessionBus;
let server: FakeNotificationServer;
let notifier: NotifierHandle;
let perch: CoreUnderTest<NotifierHandle>;
const responses: NotificationInvocation[] = [];
const navigations: EventPayloads['navigate'][] = [];
const warnings: string[] = [];
const originalBus = process.env['DBUS_SESSION_BUS_ADDRESS'];

beforeAll(async () => {
  bus = await startPrivateSessionBus();
  process.env['DBUS_SESSION_BUS_ADDRESS'] = bus.address;
  server = await startNotificationServer(bus.address);
  harness = await startCoreHarness(utc('08:50'));
  notifier = createNotifySendNotifier({ icon, desktopEntry: appId, logger: { warn: (message) => warnings.push(message) } });
  notifier.onResponse((invocation) => responses.push(invocation));
  perch = harness.newCore({ notifier });
  await perch.core.start();
  const signedIn = await perch.core.handlers.signIn(demoSignIn('user', true));
  if (!signedIn.ok) throw new Error(signedIn.error.message);
  perch.core.on('navigate', (payload) => navigations.push(payload));
});

afterAll(async () => {
  await notifier.dispose();
  await harness.dispose();
  await server.stop();
  await bus.stop();
  process.env['DBUS_SESSION_BUS_ADDRESS'] = originalBus;
});

async function advanceTo(moment: DateTime): Promise<void> {
  await harness.advance({ milliseconds: moment.toMillis() - harness.clock.now().toMillis() });
}

/** The demo user's own client, signed in afresh: the manual clock lets any older session lapse. */
const asUser = (): Promise<ApiClient> => harness.clientFor('user');

async function book(resourceId: number, start: DateTime, end: DateTime, title: string): Promise<string> {
  const created = await (
    await asUser()
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

const titled = (title: string) => (notification: RecordedNotification) => notification.summary === title;
const sentTitled = (title: string) => server.notifications.filter(titled(title));

/** As the desktop does when the user presses a button; resolves once the core has carried it out. */
async function invoke(notification: RecordedNotification, actionKey: string): Promise<void> {
  const before = responses.length;
  server.invokeAction(notification.id, actionKey);
  await expect.poll(() => responses.length).toBe(before + 1);
  // The core heard it in the same breath and tracks the work it started.
  await harness.idle();
}

describe('notifications from a core, through notify-send on the bus', () => {
  it('a check-in notice comes from Perch with its icon and a Check in button, which checks in for real', async () => {
    const start = utc('10:00');
    const reference = await book(harness.org.resources.severn, start, utc('10:30'), 'Design review');
    await advanceTo(start.minus({ minutes: 10 }));
    // The start reminder waits for check-in to open, 5 minutes later: they come as one.
    expect(server.notifications).toEqual([]);
    await advanceTo(start.minus({ minutes: 5 }));

    const notice = await server.waitForNotification(titled('Design review starts in 5 min — check in to keep Severn (1.02)'));
    expect(notice).toMatchObject({
      appName: 'Perch',
      appIcon: icon,
      // Severn keeps London time, an hour behind the user's Berlin.
      body: 'Released at 10:15 London time unless you check in. 10:00–10:30 London time',
      actions: ['default', 'Open', 'checkIn', 'Check in', 'notComing', "I'm not coming", 'snooze', 'Snooze'],
    });
    expect(notice.hints).toMatchObject({ 'desktop-entry': appId });
    expect(childProcessesNamed('notify-send')).toHaveLength(1);

    await invoke(notice, 'checkIn');
    const onServer = await (await asUser()).getReservation({ params: { referenceNumber: reference } });
    expect(onServer.ok && onServer.value.checkInDate).toBeTruthy();
    expect(perch.core.snapshot().reservations.find((reservation) => reservation.referenceNumber === reference)?.checkedInAt).not.toBeNull();
    expect(navigations).toEqual([]);
    // The notice answered is closed and its helper gone.
    expect(server.closedByClient).toContain(notice.id);
    await expect.poll(() => childProcessesNamed('notify-send')).toHaveLength(0);

    // Checked in: the auto-release warning due at 10:10 never comes.
    await advanceTo(utc('10:11'));
    expect(server.notifications.filter((notification) => notification.summary.includes('left'))).toEqual([]);
  });

  it('a click on a notification opens the popover on its reservation', async () => {
    const start = utc('10:30');
    await book(harness.org.resources.trainingRoom, start, utc('11:00'), 'Induction');
    await advanceTo(start.minus({ minutes: 10 }));
    const reminder = await server.waitForNotification(titled('Induction starts in 10 min — Training room (1.04)'));
    navigations.length = 0;
    await invoke(reminder, 'default');
    expect(navigations).toEqual([{ referenceNumber: responses.at(-1)!.referenceNumber }]);
    await expect.poll(() => childProcessesNamed('notify-send')).toEqual([]);
  });

  it('Snooze raises the same reminder again 5 minutes later, once', async () => {
    const start = utc('11:00');
    await book(harness.org.resources.phoneBooth, start, utc('11:30'), 'Call with Lisbon');
    await advanceTo(start.minus({ minutes: 10 }));
    const reminder = await server.waitForNotification(titled('Call with Lisbon starts in 10 min — Phone booth (2.02)'));
    await invoke(reminder, 'snooze');
    expect(server.closedByClient).toContain(reminder.id);

    await advanceTo(start.minus({ minutes: 6 }));
    expect(sentTitled('Call with Lisbon starts in 5 min — Phone booth (2.02)')).toEqual([]);
    await advanceTo(start.minus({ minutes: 5 }));
    const again = await server.waitForNotification(titled('Call with Lisbon starts in 5 min — Phone booth (2.02)'));
    expect(again.actions).toEqual(['default', 'Open', 'snooze', 'Snooze']);

    // Not snoozed again: it stays as it is, never shown a third time.
    await advanceTo(start.plus({ minutes: 1 }));
    expect(server.notifications.filter((notification) => notification.summary.startsWith('Call with Lisbon starts'))).toHaveLength(2);
  });

  it("I'm not coming opens the popover on the booking, asking, and gives nothing back by itself", async () => {
    const start = utc('11:30');
    const reference = await book(harness.org.resources.severn, start, utc('12:00'), 'Budget sync');
    await advanceTo(start.minus({ minutes: 5 }));
    const notice = await server.waitForNotification(titled('Budget sync starts in 5 min — check in to keep Severn (1.02)'));
    navigations.length = 0;
    await invoke(notice, 'notComing');
    expect(navigations).toEqual([{ referenceNumber: reference, confirm: 'release' }]);
    const onServer = await (await asUser()).getReservation({ params: { referenceNumber: reference } });
    expect(onServer.ok && onServer.value.checkInDate).toBeNull();
    // Given back from the popover, as the user confirms there.
    expect(await perch.core.handlers.release({ referenceNumber: reference })).toMatchObject({ ok: true });
    // The notice answered is closed.
    expect(server.closedByClient).toContain(notice.id);
  });

  it('offers no Extend at the end where the server refuses changes to a booking under way (the local service, to a normal user)', async () => {
    const { resources } = harness.org;
    await book(resources.loanLaptop, utc('12:00'), utc('12:30'), 'Laptop for the demo');
    await advanceTo(utc('12:25'));
    const laptopReminder = await server.waitForNotification(titled('Laptop for the demo ends in 5 min — Loan laptop'));
    // Real servers keep a normal user from changing a reservation under way (server-facts D), and so does the local service.
    expect(laptopReminder.actions).toEqual(['default', 'Open', 'snooze', 'Snooze']);
  });

  it('Extend lengthens the reservation by 30 minutes where the server allows it (an administrator, here); where it refuses, the popover opens on the reservation with the reason', async () => {
    const adminNotifier = createNotifySendNotifier({ icon, desktopEntry: appId, logger: { warn: (message) => warnings.push(message) } });
    try {
      const admin = harness.newCore({ notifier: adminNotifier });
      await admin.core.start();
      const signedIn = await admin.core.handlers.signIn(demoSignIn('admin', true));
      if (!signedIn.ok) throw new Error(signedIn.error.message);
      const adminClient = await harness.clientFor('admin');
      const { resources, users } = harness.org;
      const reserve = async (resourceId: number, title: string) => {
        const created = await adminClient.createReservation({
          body: {
            resourceId,
            startDateTime: formatWireDateTime(utc('13:00')),
            endDateTime: formatWireDateTime(utc('13:30')),
            title,
            description: '',
            allowParticipation: false,
            termsAccepted: true,
          },
        });
        if (!created.ok) throw new Error(created.error.message);
        return created.value.referenceNumber;
      };
      const shoot = await reserve(resources.cameraKit, 'Product shoot');
      const booth = await reserve(resources.phoneBooth, 'Call with Porto');
      // Someone else has the booth right after.
      await insertReservation(harness.service.store, {
        ownerId: users.priya,
        resourceId: resources.phoneBooth,
        occurrences: [{ start: utc('13:30'), end: utc('14:00') }],
      });
      await advanceTo(utc('13:25'));

      const reminder = await server.waitForNotification(titled('Product shoot ends in 5 min — Camera kit'));
      const boothReminder = await server.waitForNotification(titled('Call with Porto ends in 5 min — Phone booth (2.02)'));
      expect(reminder.actions).toEqual(['default', 'Open', 'extend', 'Extend 30 min', 'snooze', 'Snooze']);
      const adminResponses: NotificationInvocation[] = [];
      adminNotifier.onResponse((invocation) => adminResponses.push(invocation));
      const adminNavigations: EventPayloads['navigate'][] = [];
      admin.core.on('navigate', (payload) => adminNavigations.push(payload));
      server.invokeAction(reminder.id, 'extend');
      await expect.poll(() => adminResponses).toHaveLength(1);
      await harness.idle();
      expect(adminNavigations).toEqual([]);
      // A client of its own: the one that booked was signed in before the clock moved past its session's life.
      const reader = await harness.clientFor('admin');
      const extended = await reader.getReservation({ params: { referenceNumber: shoot } });
      expect(extended.ok && DateTime.fromISO(extended.value.endDate).toMillis()).toBe(utc('14:00').toMillis());

      server.invokeAction(boothReminder.id, 'extend');
      await expect.poll(() => adminResponses).toHaveLength(2);
      await harness.idle();
      expect(adminNavigations).toEqual([
        {
          referenceNumber: booth,
          failed: {
            command: 'extend',
            error: expect.objectContaining({ kind: 'invalidInput', message: expect.stringContaining('Phone booth (2.02) is booked from') }),
          },
        },
      ]);
      const unchanged = await reader.getReservation({ params: { referenceNumber: booth } });
      expect(unchanged.ok && DateTime.fromISO(unchanged.value.endDate).toMillis()).toBe(utc('13:30').toMillis());

      // The new end brings a new end reminder, at 13:55.
      await advanceTo(utc('13:55'));
      await expect.poll(() => sentTitled('Product shoot ends in 5 min — Camera kit')).toHaveLength(2);
    } finally {
      await adminNotifier.dispose();
    }
  });

  it('leaves no notify-send behind once disposed', async () => {
    const waiting = server.notifications.filter((notification) => !server.closedByClient.includes(notification.id));
    expect(childProcessesNamed('notify-send').length).toBeGreaterThan(0);
    await notifier.dispose();
    expect(childProcessesNamed('notify-send')).toEqual([]);
    expect(server.closedByClient).toEqual(
      expect.arrayContaining(waiting.filter((notification) => notification.actions.length > 0).map((notification) => notification.id)),
    );
    expect(warnings).toEqual([]);
  });
});
