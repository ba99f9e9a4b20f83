import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import nodeNotifier from 'node-notifier';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createNotifier, type NodeNotifierCallback, type NodeNotifierOptions, type NotifierHandle } from '../../electron/core/notifications/notifier.js';
import { startNotificationServer, type FakeNotificationServer } from '../support/notification-server.js';
import { startPrivateSessionBus, type PrivateSessionBus } from '../support/session-bus.js';

let bus: PrivateSessionBus;
let server: FakeNotificationServer;
let emptyBus: PrivateSessionBus;
const notifiers: NotifierHandle[] = [];
const originalEnvironment = { bus: process.env['DBUS_SESSION_BUS_ADDRESS'], path: process.env['PATH'] };

beforeAll(async () => {
  bus = await startPrivateSessionBus();
  process.env['DBUS_SESSION_BUS_ADDRESS'] = bus.address;
  server = await startNotificationServer(bus.address);
  emptyBus = await startPrivateSessionBus();
});

afterEach(() => {
  process.env['DBUS_SESSION_BUS_ADDRESS'] = bus.address;
  process.env['PATH'] = originalEnvironment.path;
});

afterAll(async () => {
  for (const notifier of notifiers) notifier.dispose();
  await server.stop();
  await bus.stop();
  await emptyBus.stop();
  process.env['DBUS_SESSION_BUS_ADDRESS'] = originalEnvironment.bus;
});

function notifierWithLog(options: Parameters<typeof createNotifier>[0] = {}) {
  const warnings: string[] = [];
  const notifier = createNotifier({ ...options, logger: { warn: (message) => warnings.push(message) } });
  notifiers.push(notifier);
  return { notifier, warnings };
}

const reminder = {
  id: 'start:ABC123:2026-03-02T09:00:00.000Z',
  referenceNumber: 'ABC123',
  title: 'Room Heron in 10 minutes',
  body: 'Team sync, 10:00–11:00',
};

async function timed<T>(work: Promise<T>): Promise<{ result: T; elapsedMs: number }> {
  const started = performance.now();
  const result = await work;
  return { result, elapsedMs: performance.now() - started };
}

describe('through real notify-send on a private session bus', () => {
  it('sends the title and body as app Perch, with a default action, and reports a click with the reference number', async () => {
    const { notifier, warnings } = notifierWithLog();
    const clicks: string[] = [];
    const stopped: string[] = [];
    notifier.onClick((referenceNumber) => clicks.push(referenceNumber));
    notifier.onClick((referenceNumber) => stopped.push(referenceNumber))();

    expect(await notifier.show(reminder)).toEqual({ ok: true });

    const sent = await server.waitForNotification((notification) => notification.summary === reminder.title);
    expect(sent).toMatchObject({ appName: 'Perch', summary: reminder.title, body: reminder.body, actions: ['default', 'Open'], replacesId: 0 });
    expect(typeof sent.hints['sender-pid']).toBe('bigint');

    server.invokeAction(sent.id, 'default');
    await expect.poll(() => clicks).toEqual(['ABC123']);
    expect(stopped).toEqual([]);
    expect(warnings).toEqual([]);
  });

  it('reports nothing when the notification is dismissed instead of clicked', async () => {
    const { notifier } = notifierWithLog();
    const clicks: string[] = [];
    notifier.onClick((referenceNumber) => clicks.push(referenceNumber));
    expect(await notifier.show({ ...reminder, id: 'end:DEF456:x', referenceNumber: 'DEF456', title: 'Dismiss me' })).toEqual({ ok: true });
    const sent = await server.waitForNotification((notification) => notification.summary === 'Dismiss me');
    server.close(sent.id, 2);
    server.invokeAction(sent.id + 1000, 'default');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(clicks).toEqual([]);
  });

  it('passes text that looks like an option or shell syntax through untouched', async () => {
    const { notifier } = notifierWithLog();
    const title = '-x "$(echo owned)" `id` & <b>';
    expect(await notifier.show({ ...reminder, title, body: '--help\nsecond line' })).toEqual({ ok: true });
    const sent = await server.waitForNotification((notification) => notification.summary === title);
    expect(sent.body).toBe('--help\nsecond line');
    server.close(sent.id);
  });

  it('sends through node-notifier itself (the path of a notify-send without --action) as app Perch', async () => {
    const { notifier, warnings } = notifierWithLog({ notify: nodeNotifier, platform: 'linux' });
    expect(await notifier.show({ ...reminder, title: 'Via node-notifier', body: 'Check-in opens at 09:55' })).toEqual({ ok: true });
    const sent = await server.waitForNotification((notification) => notification.summary === 'Via node-notifier');
    expect(sent).toMatchObject({ appName: 'Perch', body: 'Check-in opens at 09:55', actions: [] });
    expect(warnings).toEqual([]);
  });

  it('still shows the notification on a server without actions, which then cannot report clicks', async () => {
    const plainBus = await startPrivateSessionBus();
    const plainServer = await startNotificationServer(plainBus.address, { capabilities: ['body'] });
    try {
      process.env['DBUS_SESSION_BUS_ADDRESS'] = plainBus.address;
      const { notifier } = notifierWithLog();
      expect(await notifier.show({ ...reminder, title: 'No actions here' })).toEqual({ ok: true });
      expect((await plainServer.waitForNotification()).summary).toBe('No actions here');
    } finally {
      await plainServer.stop();
      await plainBus.stop();
    }
  });
});

describe('failures come back as a problem, quickly, never thrown', () => {
  const noServer = 'Notifications cannot be shown: no notification service is running on this desktop.';
  const noBus = 'Notifications cannot be shown: there is no desktop session bus (D-Bus) to send them on.';
  const missing = 'Notifications cannot be shown: notify-send is not installed (on Debian and Ubuntu it comes with the libnotify-bin package).';

  for (const path of ['direct notify-send', 'node-notifier'] as const) {
    const options = path === 'node-notifier' ? { notify: nodeNotifier, platform: 'linux' as const } : {};

    it(`no notification service on the bus (${path})`, async () => {
      process.env['DBUS_SESSION_BUS_ADDRESS'] = emptyBus.address;
      const { notifier, warnings } = notifierWithLog(options);
      const { result, elapsedMs } = await timed(notifier.show(reminder));
      expect(result).toEqual({ ok: false, problem: noServer });
      expect(elapsedMs).toBeLessThan(2000);
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toContain(noServer);
    });

    it(`no session bus at all (${path})`, async () => {
      const deadFolder = mkdtempSync(join(tmpdir(), 'perch-dead-bus-'));
      try {
        process.env['DBUS_SESSION_BUS_ADDRESS'] = `unix:path=${join(deadFolder, 'bus')}`;
        const { notifier } = notifierWithLog(options);
        const { result, elapsedMs } = await timed(notifier.show(reminder));
        expect(result).toEqual({ ok: false, problem: noBus });
        expect(elapsedMs).toBeLessThan(2000);
      } finally {
        rmSync(deadFolder, { recursive: true, force: true });
      }
    });
  }

  it('notify-send not on PATH', async () => {
    const emptyFolder = mkdtempSync(join(tmpdir(), 'perch-no-path-'));
    try {
      process.env['PATH'] = emptyFolder;
      const { notifier, warnings } = notifierWithLog();
      const { result, elapsedMs } = await timed(notifier.show(reminder));
      expect(result).toEqual({ ok: false, problem: missing });
      expect(elapsedMs).toBeLessThan(2000);
      expect(warnings).toHaveLength(1);
    } finally {
      rmSync(emptyFolder, { recursive: true, force: true });
    }
  });

  it('node-notifier reporting notify-send missing, or throwing', async () => {
    const reportsMissing = notifierWithLog({
      platform: 'linux',
      notify: { notify: (_options, callback) => callback(new Error('notify-send must be installed on the system.')) },
    });
    expect(await reportsMissing.notifier.show(reminder)).toEqual({ ok: false, problem: missing });

    const throws = notifierWithLog({
      platform: 'linux',
      notify: {
        notify: () => {
          throw new TypeError('spawn EACCES');
        },
      },
    });
    expect(await throws.notifier.show(reminder)).toEqual({ ok: false, problem: 'A notification could not be shown: spawn EACCES.' });
  });
});

describe('where node-notifier reports clicks (macOS, Windows)', () => {
  it('waits for the click and passes the reference number on, having shown the notification first', async () => {
    const calls: NodeNotifierOptions[] = [];
    let answer: NodeNotifierCallback = () => undefined;
    const { notifier } = notifierWithLog({
      platform: 'darwin',
      icon: '/opt/perch/icon.png',
      notify: {
        notify(options, callback) {
          calls.push(options);
          answer = callback;
        },
      },
    });
    const clicks: string[] = [];
    notifier.onClick((referenceNumber) => clicks.push(referenceNumber));

    // terminal-notifier and SnoreToast answer only after the click (or their timeout): silence means shown.
    expect(await notifier.show(reminder)).toEqual({ ok: true });
    expect(calls).toEqual([{ title: reminder.title, message: reminder.body, 'app-name': 'Perch', icon: '/opt/perch/icon.png', wait: true, timeout: 30 }]);
    answer(null, 'activate', { activationType: 'contentsClicked' });
    expect(clicks).toEqual(['ABC123']);
  });

  it('passes the Windows app id, and reports an early error as a problem', async () => {
    const calls: NodeNotifierOptions[] = [];
    const { notifier } = notifierWithLog({
      platform: 'win32',
      appId: 'org.perch.app',
      notify: {
        notify(options, callback) {
          calls.push(options);
          setTimeout(() => callback(new Error('Command failed: snoretoast-x64.exe (exit code -1)')), 20);
        },
      },
    });
    expect(await notifier.show(reminder)).toEqual({ ok: false, problem: 'A notification could not be shown: Command failed: snoretoast-x64.exe (exit code -1).' });
    expect(calls[0]).toMatchObject({ appID: 'org.perch.app', wait: true });
  });
});
