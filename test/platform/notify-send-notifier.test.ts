import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  maxLiveNotifications,
  type NotificationInvocation,
  type NotificationRequest,
  type NotifierHandle,
} from '../../electron/core/notifications/notifier.js';
import { createNotifySendNotifier, type NotifySendNotifierOptions } from '../../electron/platform/notify-send-notifier.js';
import { childProcessesNamed } from '../support/child-processes.js';
import { startNotificationServer, type FakeNotificationServer } from '../support/notification-server.js';
import { startPrivateSessionBus, type PrivateSessionBus } from '../support/session-bus.js';

let bus: PrivateSessionBus;
let server: FakeNotificationServer;
let emptyBus: PrivateSessionBus;
const notifiers: NotifierHandle[] = [];
const originalEnvironment = { bus: process.env['DBUS_SESSION_BUS_ADDRESS'], path: process.env['PATH'] };
const icon = '/opt/Perch/resources/app.asar.unpacked/build/icons/256x256.png';

beforeAll(async () => {
  bus = await startPrivateSessionBus();
  process.env['DBUS_SESSION_BUS_ADDRESS'] = bus.address;
  server = await startNotificationServer(bus.address);
  emptyBus = await startPrivateSessionBus();
});

afterEach(async () => {
  // Every test leaves no helper behind once its notifiers are disposed.
  while (notifiers.length > 0) await notifiers.pop()!.dispose();
  expect(childProcessesNamed('notify-send')).toEqual([]);
  process.env['DBUS_SESSION_BUS_ADDRESS'] = bus.address;
  process.env['PATH'] = originalEnvironment.path;
});

afterAll(async () => {
  await server.stop();
  await bus.stop();
  await emptyBus.stop();
  process.env['DBUS_SESSION_BUS_ADDRESS'] = originalEnvironment.bus;
});

function notifierWithLog(options: NotifySendNotifierOptions = {}) {
  const warnings: string[] = [];
  const responses: NotificationInvocation[] = [];
  const notifier = createNotifySendNotifier({
    icon,
    desktopEntry: 'org.perchapp.perch',
    ...options,
    logger: { warn: (message) => warnings.push(message) },
  });
  notifier.onResponse((invocation) => responses.push(invocation));
  notifiers.push(notifier);
  return { notifier, warnings, responses };
}

let serial = 0;
/** A reminder of its own per call, so tests on the shared server never confuse their notifications. */
function reminder(overrides: Partial<NotificationRequest> = {}): NotificationRequest {
  serial += 1;
  return {
    id: `checkInOpen:ABC${serial}:2026-03-02T09:00:00.000Z`,
    referenceNumber: `ABC${serial}`,
    title: `Check-in open: Heron ${serial}`,
    body: 'Team sync · 10:00–11:00',
    actions: ['checkIn', 'snooze'],
    ...overrides,
  };
}

const sentFor = (request: NotificationRequest) => server.waitForNotification((notification) => notification.summary === request.title);

async function timed<T>(work: Promise<T>): Promise<{ result: T; elapsedMs: number }> {
  const started = performance.now();
  const result = await work;
  return { result, elapsedMs: performance.now() - started };
}

describe('through real notify-send on a private session bus', () => {
  it('sends the notification as Perch, with its icon, desktop entry, buttons and a click action; a button comes back as its action', async () => {
    const { notifier, warnings, responses } = notifierWithLog();
    const request = reminder();
    expect(await notifier.show(request)).toEqual({ ok: true, value: {} });

    const sent = await sentFor(request);
    expect(sent).toMatchObject({
      appName: 'Perch',
      appIcon: icon,
      summary: request.title,
      body: request.body,
      actions: ['default', 'Open', 'checkIn', 'Check in', 'snooze', 'Snooze'],
      replacesId: 0,
      // Where the server honours expiry, it drops it just after its helper has closed it.
      expireTimeout: 30 * 60_000 + 5_000,
    });
    expect(sent.hints).toMatchObject({ 'desktop-entry': 'org.perchapp.perch' });
    expect(childProcessesNamed('notify-send')).toHaveLength(1);

    server.invokeAction(sent.id, 'checkIn');
    await expect
      .poll(() => responses)
      .toEqual([{ notificationId: request.id, referenceNumber: request.referenceNumber, response: 'checkIn' }]);
    // notify-send closes the notification it was answered on, and ends.
    await expect.poll(() => childProcessesNamed('notify-send')).toEqual([]);
    expect(server.closedByClient).toContain(sent.id);
    expect(warnings).toEqual([]);
  });

  it('reports a click on the notification as "open", with the end reminder\'s Extend and Snooze buttons offered', async () => {
    const { notifier, responses } = notifierWithLog();
    const request = reminder({
      id: 'endReminder:DEF456:x',
      referenceNumber: 'DEF456',
      title: 'Ends in 10 minutes: Heron',
      actions: ['extend', 'snooze'],
    });
    expect(await notifier.show(request)).toEqual({ ok: true, value: {} });
    const sent = await sentFor(request);
    expect(sent.actions).toEqual(['default', 'Open', 'extend', 'Extend 30 min', 'snooze', 'Snooze']);
    server.invokeAction(sent.id, 'default');
    await expect.poll(() => responses).toEqual([{ notificationId: request.id, referenceNumber: 'DEF456', response: 'open' }]);
  });

  it('reports nothing when the notification is dismissed, and its helper ends', async () => {
    const { notifier, responses } = notifierWithLog();
    const request = reminder();
    expect(await notifier.show(request)).toEqual({ ok: true, value: {} });
    const sent = await sentFor(request);
    server.close(sent.id, 2);
    await expect.poll(() => childProcessesNamed('notify-send')).toEqual([]);
    server.invokeAction(sent.id, 'checkIn');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(responses).toEqual([]);
  });

  it('replaces a notification shown again under the same id: the old one is closed, one helper remains', async () => {
    const { notifier, responses } = notifierWithLog();
    const first = reminder();
    await notifier.show(first);
    const firstSent = await sentFor(first);
    const again = { ...first, title: `${first.title} (again)` };
    expect(await notifier.show(again)).toEqual({ ok: true, value: {} });
    const againSent = await sentFor(again);
    expect(server.closedByClient).toContain(firstSent.id);
    expect(childProcessesNamed('notify-send')).toHaveLength(1);
    // The old one's buttons are gone with it; the new one's work.
    server.invokeAction(againSent.id, 'snooze');
    await expect.poll(() => responses).toEqual([{ notificationId: first.id, referenceNumber: first.referenceNumber, response: 'snooze' }]);
  });

  it(`keeps at most ${maxLiveNotifications} helpers: beyond that the oldest notification is closed`, async () => {
    const { notifier } = notifierWithLog();
    const requests = Array.from({ length: maxLiveNotifications + 3 }, () => reminder());
    // All at once, as a burst after a long sleep would come.
    const results = await Promise.all(requests.map((request) => notifier.show(request)));
    expect(results.every((result) => result.ok)).toBe(true);
    const sent = await Promise.all(requests.map(sentFor));
    expect(childProcessesNamed('notify-send')).toHaveLength(maxLiveNotifications);
    expect(server.closedByClient).toEqual(expect.arrayContaining(sent.slice(0, 3).map((notification) => notification.id)));
    expect(server.closedByClient).not.toEqual(expect.arrayContaining([sent[3]!.id]));
  });

  it('closes a notification nobody answered once its lifetime is over', async () => {
    const { notifier } = notifierWithLog({ lifetimeMs: 400 });
    const request = reminder();
    await notifier.show(request);
    const sent = await sentFor(request);
    expect(sent.expireTimeout).toBe(5_400);
    expect(childProcessesNamed('notify-send')).toHaveLength(1);
    await expect.poll(() => childProcessesNamed('notify-send')).toEqual([]);
    expect(server.closedByClient).toContain(sent.id);
  });

  it('dispose closes every notification still waiting and ends every helper; nothing is shown after it', async () => {
    const { notifier } = notifierWithLog();
    const requests = [reminder(), reminder(), reminder()];
    for (const request of requests) await notifier.show(request);
    const sent = await Promise.all(requests.map(sentFor));
    expect(childProcessesNamed('notify-send')).toHaveLength(3);
    await notifier.dispose();
    expect(childProcessesNamed('notify-send')).toEqual([]);
    expect(server.closedByClient).toEqual(expect.arrayContaining(sent.map((notification) => notification.id)));
    expect(await notifier.show(reminder())).toEqual({ ok: false, error: 'Notifications cannot be shown: Perch is quitting.' });
  });

  it('passes text that looks like an option or shell syntax through untouched', async () => {
    const { notifier } = notifierWithLog();
    const request = reminder({ title: '-x "$(echo owned)" `id` & <b>', body: '--help\nsecond line' });
    expect(await notifier.show(request)).toEqual({ ok: true, value: {} });
    expect((await sentFor(request)).body).toBe('--help\nsecond line');
  });

  it('still shows the notification on a server without actions, which then cannot report clicks', async () => {
    const plainBus = await startPrivateSessionBus();
    const plainServer = await startNotificationServer(plainBus.address, { capabilities: ['body'] });
    try {
      process.env['DBUS_SESSION_BUS_ADDRESS'] = plainBus.address;
      const { notifier } = notifierWithLog();
      const request = reminder({ title: 'No actions here' });
      expect(await notifier.show(request)).toEqual({ ok: true, value: {} });
      expect((await plainServer.waitForNotification()).summary).toBe('No actions here');
    } finally {
      await plainServer.stop();
      await plainBus.stop();
    }
  });

  it('with a notify-send that has no --action: shown without buttons, no helper left waiting', async () => {
    // A notify-send of before libnotify 0.7.10, played by the real one behind a --help without --action.
    const folder = mkdtempSync(join(tmpdir(), 'perch-old-notify-send-'));
    try {
      const realNotifySend = execFileSync('sh', ['-c', 'command -v notify-send'], { encoding: 'utf8' }).trim();
      const oldNotifySend = join(folder, 'notify-send');
      writeFileSync(
        oldNotifySend,
        `#!/bin/sh\nif [ "$1" = "--help" ]; then echo "Usage: notify-send [OPTION...] <SUMMARY> [BODY]"; exit 0; fi\nfor arg; do case "$arg" in --action*|--print-id) echo "Unknown option $arg" >&2; exit 1;; esac; done\nexec ${realNotifySend} "$@"\n`,
      );
      chmodSync(oldNotifySend, 0o755);
      process.env['PATH'] = `${folder}:${originalEnvironment.path}`;
      const { notifier, warnings } = notifierWithLog();
      const request = reminder({ title: 'Old notify-send' });
      expect(await notifier.show(request)).toEqual({ ok: true, value: {} });
      expect((await sentFor(request)).actions).toEqual([]);
      expect(childProcessesNamed('notify-send')).toEqual([]);
      expect(warnings).toEqual([]);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it("run from an AppImage: the helpers it spawns get no library folder of the AppImage's in LD_LIBRARY_PATH, the user's own stay", async () => {
    // AppRun exports LD_LIBRARY_PATH="$APPDIR/usr/lib:…", where the toolset's own libnotify lies.
    // A notify-send first on PATH writes down what it was given, then runs the real one.
    const folder = mkdtempSync(join(tmpdir(), 'perch-appimage-notify-send-'));
    const appDir = join(folder, '.mount_PerchAbC');
    const record = join(folder, 'received');
    const saved = { appDir: process.env['APPDIR'], libraryPath: process.env['LD_LIBRARY_PATH'] };
    try {
      const realNotifySend = execFileSync('sh', ['-c', 'command -v notify-send'], { encoding: 'utf8' }).trim();
      const recordingNotifySend = join(folder, 'notify-send');
      writeFileSync(recordingNotifySend, `#!/bin/sh\necho "\${LD_LIBRARY_PATH-(unset)}" >> '${record}'\nexec ${realNotifySend} "$@"\n`);
      chmodSync(recordingNotifySend, 0o755);
      process.env['PATH'] = `${folder}:${originalEnvironment.path}`;
      process.env['APPDIR'] = appDir;
      process.env['LD_LIBRARY_PATH'] = `${appDir}/usr/lib:/opt/vendor/lib:${appDir}/usr/lib/x86_64-linux-gnu`;
      const { notifier, warnings } = notifierWithLog();
      const request = reminder({ title: 'From an AppImage' });
      expect(await notifier.show(request)).toEqual({ ok: true, value: {} });
      // Shown with its buttons: the probe for --action and the notification itself each ran the helper.
      expect((await sentFor(request)).actions).toContain('checkIn');
      expect(readFileSync(record, 'utf8').trim().split('\n')).toEqual(['/opt/vendor/lib', '/opt/vendor/lib']);

      // Nothing but the AppImage's folders: the helper gets no LD_LIBRARY_PATH at all.
      process.env['LD_LIBRARY_PATH'] = `${appDir}/usr/lib`;
      const second = reminder({ title: 'From an AppImage, no library path of the user' });
      expect(await notifier.show(second)).toEqual({ ok: true, value: {} });
      await sentFor(second);
      expect(readFileSync(record, 'utf8').trim().split('\n').at(-1)).toBe('(unset)');
      expect(warnings).toEqual([]);
    } finally {
      for (const [name, value] of [
        ['APPDIR', saved.appDir],
        ['LD_LIBRARY_PATH', saved.libraryPath],
      ] as const) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
      rmSync(folder, { recursive: true, force: true });
    }
  });
});

describe('failures come back as a problem, quickly, never thrown', () => {
  const noServer = 'Notifications cannot be shown: no notification service is running on this desktop.';
  const noBus = 'Notifications cannot be shown: there is no desktop session bus (D-Bus) to send them on.';
  const missing =
    'Notifications cannot be shown: notify-send is not installed (on Debian and Ubuntu it comes with the libnotify-bin package).';

  it('no notification service on the bus', async () => {
    process.env['DBUS_SESSION_BUS_ADDRESS'] = emptyBus.address;
    const { notifier, warnings } = notifierWithLog();
    const { result, elapsedMs } = await timed(notifier.show(reminder()));
    expect(result).toEqual({ ok: false, error: noServer });
    expect(elapsedMs).toBeLessThan(2000);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(noServer);
  });

  it('no session bus at all', async () => {
    const deadFolder = mkdtempSync(join(tmpdir(), 'perch-dead-bus-'));
    try {
      process.env['DBUS_SESSION_BUS_ADDRESS'] = `unix:path=${join(deadFolder, 'bus')}`;
      const { notifier } = notifierWithLog();
      const { result, elapsedMs } = await timed(notifier.show(reminder()));
      expect(result).toEqual({ ok: false, error: noBus });
      expect(elapsedMs).toBeLessThan(2000);
    } finally {
      rmSync(deadFolder, { recursive: true, force: true });
    }
  });

  it('notify-send not on PATH', async () => {
    const emptyFolder = mkdtempSync(join(tmpdir(), 'perch-no-path-'));
    try {
      process.env['PATH'] = emptyFolder;
      const { notifier, warnings } = notifierWithLog();
      const { result, elapsedMs } = await timed(notifier.show(reminder()));
      expect(result).toEqual({ ok: false, error: missing });
      expect(elapsedMs).toBeLessThan(2000);
      expect(warnings).toHaveLength(1);
    } finally {
      rmSync(emptyFolder, { recursive: true, force: true });
    }
  });
});
