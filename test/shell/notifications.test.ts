/**
 * The Electron notification adapter (macOS, Windows) against the mocked Electron: what it builds
 * for each OS, and that what the OS reports back (click, action) runs the right core action — with
 * a real core against the local service.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DateTime } from 'luxon';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { formatWireDateTime } from '../../electron/api/dates.js';
import type { EventPayloads } from '../../electron/bridge/contract.js';
import { appId } from '../../electron/core/desktop/app-identity.js';
import {
  maxLiveNotifications,
  type NotificationInvocation,
  type NotificationRequest,
  type NotifierHandle,
} from '../../electron/core/notifications/notifier.js';
import { demoSignIn, startCoreHarness, type CoreHarness } from '../support/core-harness.js';
import { fakeElectron as electron, notifications, type FakeNotification } from './fake-electron.js';

vi.mock('electron', async () => (await import('./fake-electron.js')).fakeElectron);
const { appBundleSealed, createDesktopNotifier } = await import('../../electron/shell/notifications.js');

const icon = 'C:\\Users\\ada\\AppData\\Local\\Programs\\Perch\\resources\\app.asar.unpacked\\build\\icons\\256x256.png';
const reminder: NotificationRequest = {
  id: 'checkInOpen:ABC123:2026-03-02T09:00:00.000Z',
  referenceNumber: 'ABC123',
  title: 'Check-in open: Heron',
  body: 'Check in by 10:15 or it is released',
  actions: ['checkIn', 'snooze'],
};

const created: NotifierHandle[] = [];

/** A notifier as main makes it; on macOS a signed app's unless `codeSigned` says otherwise. */
function notifierOn(platform: NodeJS.Platform, { codeSigned = true } = {}) {
  const warnings: string[] = [];
  const responses: NotificationInvocation[] = [];
  const notifier = createDesktopNotifier({ appId, icon, platform, codeSigned, logger: { warn: (message) => warnings.push(message) } });
  created.push(notifier);
  notifier.onResponse((invocation) => responses.push(invocation));
  // On macOS, the first of the notifications that register its sets of buttons (tested on their own below).
  const registrations = notifications.splice(0);
  return { notifier, warnings, responses, registrations };
}

/** Shows `request`, plays the OS showing it, and answers the notification Electron was given. */
async function shown(notifier: NotifierHandle, request: NotificationRequest): Promise<FakeNotification> {
  const before = notifications.length;
  const result = notifier.show(request);
  const notification = notifications[before]!;
  expect(notification.show).toHaveBeenCalledTimes(1);
  notification.emit('show', {});
  expect(await result).toEqual({ ok: true, value: {} });
  return notification;
}

beforeEach(() => {
  notifications.length = 0;
});
afterEach(async () => {
  await Promise.all(created.splice(0).map((notifier) => notifier.dispose()));
});

describe('macOS', () => {
  it('shows the notification through Electron with its actions as buttons, the app bundle giving name and icon', async () => {
    const { notifier } = notifierOn('darwin');
    const notification = await shown(notifier, reminder);
    expect(notification.options).toEqual({
      title: reminder.title,
      body: reminder.body,
      actions: [
        { type: 'button', text: 'Check in' },
        { type: 'button', text: 'Snooze' },
      ],
    });
  });

  it('reports a button by its index as the core action, a click as "open"', async () => {
    const { notifier, responses } = notifierOn('darwin');
    const first = await shown(notifier, reminder);
    first.emit('action', { actionIndex: 1 });
    const second = await shown(notifier, { ...reminder, id: 'endReminder:ABC123:x', actions: ['extend', 'snooze'] });
    second.emit('click', {});
    const third = await shown(notifier, { ...reminder, id: 'endReminder:ABC123:y', actions: ['extend', 'snooze'] });
    third.emit('action', { actionIndex: 0 });
    // An index the notification never had (a stale category) is no action at all.
    third.emit('action', { actionIndex: 7 });
    expect(responses).toEqual([
      { notificationId: reminder.id, referenceNumber: 'ABC123', response: 'snooze' },
      { notificationId: 'endReminder:ABC123:x', referenceNumber: 'ABC123', response: 'open' },
      { notificationId: 'endReminder:ABC123:y', referenceNumber: 'ABC123', response: 'extend' },
    ]);
  });

  it('reports what Electron says when the notification fails (notifications not allowed, say)', async () => {
    const { notifier, warnings } = notifierOn('darwin');
    const result = notifier.show(reminder);
    notifications[0]!.emit('failed', {}, 'Notifications are not allowed for this application');
    expect(await result).toEqual({
      ok: false,
      error: 'A notification could not be shown: Notifications are not allowed for this application.',
    });
    expect(warnings).toHaveLength(1);
  });

  it('reports a notification macOS neither shows nor fails as sent but not confirmed, saying what may have kept it', async () => {
    vi.useFakeTimers();
    try {
      const { notifier, warnings } = notifierOn('darwin');
      const result = notifier.show(reminder);
      await vi.advanceTimersByTimeAsync(2_000);
      expect(await result).toEqual({
        ok: true,
        value: {
          unconfirmed:
            'The last notification was sent, but macOS did not confirm it was shown: notifications may be turned off for Perch in System Settings › Notifications, or macOS is still asking whether to allow them.',
        },
      });
      expect(warnings).toEqual([expect.stringContaining('macOS did not confirm it was shown')]);
    } finally {
      vi.useRealTimers();
    }
  });

  describe('as an app bundle that is not code-signed (macOS shows no notifications from one)', () => {
    it('says so when macOS stays silent', async () => {
      vi.useFakeTimers();
      try {
        const { notifier } = notifierOn('darwin', { codeSigned: false });
        const result = notifier.show(reminder);
        await vi.advanceTimersByTimeAsync(2_000);
        expect(await result).toEqual({
          ok: true,
          value: {
            unconfirmed:
              'The last notification was sent, but macOS did not confirm it was shown: this copy of Perch is not code-signed, and macOS shows notifications only from signed apps; install a signed build.',
          },
        });
      } finally {
        vi.useRealTimers();
      }
    });

    it('says so beside what macOS answered when it refuses', async () => {
      const { notifier } = notifierOn('darwin', { codeSigned: false });
      const result = notifier.show(reminder);
      notifications[0]!.emit('failed', {}, 'Notifications are not allowed for this application');
      expect(await result).toEqual({
        ok: false,
        error:
          'A notification could not be shown: Notifications are not allowed for this application (this copy of Perch is not code-signed, and macOS shows notifications only from signed apps; install a signed build).',
      });
    });

    it('is told by the signature seal codesign leaves in the bundle, which an unsigned electron-builder build lacks', () => {
      const bundle = join(mkdtempSync(join(process.env.TMPDIR ?? '/tmp', 'perch-bundle-')), 'Perch.app', 'Contents');
      mkdirSync(join(bundle, 'MacOS'), { recursive: true });
      const executable = join(bundle, 'MacOS', 'Perch');
      writeFileSync(executable, '');
      expect(appBundleSealed(executable)).toBe(false);
      mkdirSync(join(bundle, '_CodeSignature'));
      writeFileSync(join(bundle, '_CodeSignature', 'CodeResources'), '<plist/>');
      expect(appBundleSealed(executable)).toBe(true);
    });
  });

  describe("registers Perch's sets of buttons with macOS at start, so the first notification with a set has its buttons", () => {
    it('one set a second, each through a notification closed before Electron can deliver it', async () => {
      vi.useFakeTimers();
      try {
        const { registrations } = notifierOn('darwin');
        expect(registrations).toHaveLength(1);
        await vi.advanceTimersByTimeAsync(999);
        expect(notifications).toHaveLength(0);
        await vi.advanceTimersByTimeAsync(10_000);
        const all = [...registrations, ...notifications];
        expect(all.map((notification) => notification.options.actions?.map((action) => action.text))).toEqual([
          ['Check in', "I'm not coming", 'Snooze'],
          ['Check in', "I'm not coming"],
          ['Extend 30 min', 'Snooze'],
          ['Snooze'],
        ]);
        for (const registration of all) {
          // An image holds Electron's delivery back until it comes back from another thread; closed at once, it never does.
          expect(registration.options).toMatchObject({ silent: true, icon: expect.objectContaining({ size: { width: 1, height: 1 } }) });
          expect(registration.show).toHaveBeenCalledTimes(1);
          expect(registration.close).toHaveBeenCalledTimes(1);
          expect(registration.show.mock.invocationCallOrder[0]).toBeLessThan(registration.close.mock.invocationCallOrder[0]!);
        }
      } finally {
        vi.useRealTimers();
      }
    });

    it('the sets registered are the ones the planner gives, labels in the same order', async () => {
      vi.useFakeTimers();
      try {
        const { notifier, registrations } = notifierOn('darwin');
        await vi.advanceTimersByTimeAsync(10_000);
        const registered = [...registrations, ...notifications].map((notification) => notification.options.actions);
        notifications.length = 0;
        for (const actions of [['checkIn', 'notComing', 'snooze'], ['checkIn', 'notComing'], ['extend', 'snooze'], ['snooze']] as const) {
          void notifier.show({ ...reminder, id: actions.join('+'), actions });
          expect(registered).toContainEqual(notifications.at(-1)!.options.actions);
        }
      } finally {
        vi.useRealTimers();
      }
    });

    it('stops registering when the notifier is disposed', async () => {
      vi.useFakeTimers();
      try {
        const { notifier } = notifierOn('darwin');
        await notifier.dispose();
        await vi.advanceTimersByTimeAsync(10_000);
        expect(notifications).toEqual([]);
      } finally {
        vi.useRealTimers();
      }
    });

    it('not on Windows, whose toasts carry their buttons themselves', () => {
      expect(notifierOn('win32').registrations).toEqual([]);
    });
  });

  it('says so where the system has no notifications', async () => {
    electron.Notification.isSupported.mockReturnValueOnce(false);
    const { notifier } = notifierOn('darwin');
    expect(await notifier.show(reminder)).toEqual({
      ok: false,
      error: 'A notification could not be shown: this system has no desktop notifications.',
    });
    expect(notifications).toEqual([]);
  });
});

describe('Windows', () => {
  it("shows a toast with Perch's icon and the actions as toast buttons (Electron writes them into the toast XML)", async () => {
    const { notifier, responses } = notifierOn('win32');
    const notification = await shown(notifier, { ...reminder, actions: ['extend', 'snooze'] });
    expect(notification.options).toEqual({
      title: reminder.title,
      body: reminder.body,
      icon,
      actions: [
        { type: 'button', text: 'Extend 30 min' },
        { type: 'button', text: 'Snooze' },
      ],
    });
    notification.emit('action', { actionIndex: 0 });
    expect(responses).toEqual([{ notificationId: reminder.id, referenceNumber: 'ABC123', response: 'extend' }]);
  });
});

describe('live notifications, on both', () => {
  it('the same id again replaces the notification; answered ones are let go', async () => {
    const { notifier } = notifierOn('win32');
    const first = await shown(notifier, reminder);
    const again = await shown(notifier, reminder);
    expect(first.close).toHaveBeenCalledTimes(1);
    again.emit('click', {});
    expect(again.close).toHaveBeenCalledTimes(1);
  });

  it(`holds at most ${maxLiveNotifications}: the oldest is closed first; dispose closes the rest`, async () => {
    const { notifier } = notifierOn('darwin');
    const all: FakeNotification[] = [];
    for (let index = 0; index < maxLiveNotifications + 2; index += 1) all.push(await shown(notifier, { ...reminder, id: `n${index}` }));
    expect(all.map((notification) => notification.close.mock.calls.length)).toEqual([1, 1, ...Array(maxLiveNotifications).fill(0)]);
    // One the user closed is no longer held.
    all[2]!.emit('close', {});
    await notifier.dispose();
    expect(all.map((notification) => notification.close.mock.calls.length)).toEqual([1, 1, 0, ...Array(maxLiveNotifications - 1).fill(1)]);
  });
});

describe('Linux', () => {
  it('goes through notify-send, not Electron (whose Linux notifications have no buttons)', async () => {
    const { notifier } = notifierOn('linux');
    // With no session bus here, notify-send fails; what matters is that Electron was not asked.
    const deadBus = process.env['DBUS_SESSION_BUS_ADDRESS'];
    process.env['DBUS_SESSION_BUS_ADDRESS'] = 'unix:path=/nonexistent/perch-test-bus';
    try {
      expect(await notifier.show(reminder)).toMatchObject({ ok: false });
    } finally {
      process.env['DBUS_SESSION_BUS_ADDRESS'] = deadBus;
      await notifier.dispose();
    }
    expect(notifications).toEqual([]);
  });
});

describe('with a real core against the local service', () => {
  const utc = (time: string) => DateTime.fromISO(`2030-03-12T${time}:00Z`, { zone: 'utc' });
  let harness: CoreHarness;

  beforeAll(async () => {
    harness = await startCoreHarness(utc('09:50'));
  });
  afterAll(() => harness.dispose());

  it('an unsigned macOS app: Settings says from the start that macOS will show no notifications from it', () => {
    const { notifier } = notifierOn('darwin', { codeSigned: false });
    const { core } = harness.newCore({ notifier });
    expect(core.snapshot().notifierProblem).toBe(
      'macOS will show no notifications from Perch: this copy of Perch is not code-signed, and macOS shows notifications only from signed apps; install a signed build.',
    );
    const signed = harness.newCore({ notifier: notifierOn('darwin').notifier });
    expect(signed.core.snapshot().notifierProblem).toBeNull();
  });

  it("the check-in notice's button checks in for real; its click opens the popover on the reservation", async () => {
    const { notifier } = notifierOn('darwin');
    const user = await harness.clientFor('user');
    const created = await user.createReservation({
      body: {
        resourceId: harness.org.resources.severn,
        startDateTime: formatWireDateTime(utc('10:00')),
        endDateTime: formatWireDateTime(utc('10:30')),
        title: 'Design review',
        description: '',
        allowParticipation: false,
        termsAccepted: true,
      },
    });
    if (!created.ok) throw new Error(created.error.message);
    const reference = created.value.referenceNumber;
    const { core } = harness.newCore({ notifier });
    const navigations: EventPayloads['navigate'][] = [];
    core.on('navigate', (payload) => navigations.push(payload));
    await core.start();
    const signedIn = await core.handlers.signIn(demoSignIn('user'));
    if (!signedIn.ok) throw new Error(signedIn.error.message);

    await harness.advance({ minutes: 5 });
    const notice = notifications.find(
      (notification) => notification.options.title === 'Design review starts in 5 min — check in to keep Severn (1.02)',
    );
    if (!notice) throw new Error(`no check-in notice among ${notifications.map((notification) => notification.options.title).join(', ')}`);
    // Check in first: the one button macOS shows; the others come on hover.
    expect(notice.options.actions).toEqual([
      { type: 'button', text: 'Check in' },
      { type: 'button', text: "I'm not coming" },
      { type: 'button', text: 'Snooze' },
    ]);

    // A check-in the server crashes on (as some PHP 8.2 installs do, server-facts D) opens the popover with the reason.
    harness.intercept(({ method, path }) =>
      method === 'POST' && path.endsWith('/CheckIn')
        ? new Response('<b>Fatal error</b>', { status: 500, headers: { 'Content-Type': 'text/html' } })
        : null,
    );
    notice.emit('action', { actionIndex: 0 });
    await harness.idle();
    expect(navigations).toEqual([
      {
        referenceNumber: reference,
        failed: {
          command: 'checkIn',
          error: expect.objectContaining({ kind: 'server', message: expect.stringContaining('The server failed while checking in') }),
        },
      },
    ]);
    harness.intercept(null);

    notice.emit('action', { actionIndex: 0 });
    await harness.idle();
    const onServer = await user.getReservation({ params: { referenceNumber: reference } });
    expect(onServer.ok && onServer.value.checkInDate).toBeTruthy();
    expect(navigations).toHaveLength(1);

    // "I'm not coming" gives nothing back by itself: the popover opens on the booking, asking.
    notice.emit('action', { actionIndex: 1 });
    await harness.idle();
    expect(navigations.at(-1)).toEqual({ referenceNumber: reference, confirm: 'release' });

    notice.emit('click', {});
    expect(navigations.at(-1)).toEqual({ referenceNumber: reference });
    await core.stop();
    await notifier.dispose();
  });
});
