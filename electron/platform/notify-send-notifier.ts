import { spawn, type ChildProcess } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { systemProgramEnv } from './system-program-env.js';
import {
  actionLabels,
  detailOf,
  maxLiveNotifications,
  notificationLifetimeMs,
  openLabel,
  responseListeners,
  type NotificationAction,
  type NotificationRequest,
  type NotifierHandle,
  type NotifierLogger,
  type ShowResult,
} from '../core/notifications/notifier.js';

/**
 * Desktop notifications on Linux and the BSDs, through notify-send on the session bus.
 *
 * Why not Electron's Notification here: on Linux Electron (libnotify_notification.cc, Electron 45)
 * adds only the "default" action — a click on the body, labelled "View" — and ignores `actions`,
 * which its documentation lists for macOS and Windows only. Buttons need notify-send's `--action`
 * (libnotify 0.7.10 and later); node-notifier's notify-send wrapper passes neither actions nor
 * waiting, so notify-send is run directly.
 *
 * With actions, notify-send waits: it prints the notification's id, then the key of the action the
 * user invoked, closes the notification and exits. So each live notification is one process, and
 * none outlives its notification:
 * - it exits by itself when the user acts on the notification or it is closed;
 * - showing the same id again, or more than `maxLiveNotifications` at once, closes the old one;
 * - after `lifetimeMs` it is closed (and `--expire-time` asks the server to drop it then too);
 * - `dispose()` closes them all.
 * "Closes" is SIGINT, on which notify-send withdraws its notification from the desktop
 * (CloseNotification) and exits; SIGKILL follows if it has not gone within a moment.
 *
 * A notify-send without `--action` (or a system without GNU `stdbuf`, needed to see its output as
 * it happens) still shows the notification, without buttons and without reporting clicks.
 */

export interface NotifySendNotifierOptions {
  appName?: string;
  /** Absolute path of an icon image: read by the notification server, so not inside app.asar. */
  icon?: string;
  /** The app's desktop entry name without `.desktop`: lets the desktop link the notification to the app. */
  desktopEntry?: string;
  /** How long a notification waits for the user at most. */
  lifetimeMs?: number;
  logger?: NotifierLogger;
}

interface LiveNotification {
  child: ChildProcess;
  exited: Promise<void>;
  /** Resolves once SIGINT closes the notification rather than only killing the process (see `close`). */
  interruptible: Promise<void>;
}

const sendTimeoutMs = 10_000;
const noop = () => {};
/** After SIGINT, notify-send needs one D-Bus call to close its notification. */
const closeGraceMs = 2_000;
/**
 * notify-send prints the id just before it installs its SIGINT handler; a SIGINT in between would
 * end it without closing the notification. Its next step is that handler, so this much later it is there.
 */
const sigintHandlerDelayMs = 100;
/**
 * notify-send stops waiting (without closing anything) at its expire time: it is asked to wait a
 * little longer than the lifetime, so the notification is always closed first.
 */
const expireAfterLifetimeMs = 5_000;

const problems = {
  noBus: 'Notifications cannot be shown: there is no desktop session bus (D-Bus) to send them on.',
  noServer: 'Notifications cannot be shown: no notification service is running on this desktop.',
  missingNotifySend:
    'Notifications cannot be shown: notify-send is not installed (on Debian and Ubuntu it comes with the libnotify-bin package).',
  timeout: 'Notifications cannot be shown: the notification service did not answer in time.',
  stopped: 'Notifications cannot be shown: Perch is quitting.',
};

/** A user-readable sentence for whatever notify-send or the OS said. */
function describeFailure(detail: string): string {
  // notify-send also warns "Failed to connect to proxy" when only the server is missing, so that is no sign of a missing bus.
  if (/serviceunknown|not provided by any \.service files|namehasnoowner/i.test(detail)) return problems.noServer;
  if (/could not connect|cannot autolaunch|connection refused|dbus_session_bus_address/i.test(detail)) return problems.noBus;
  if (/enoent|not found|no such file|failed to run command/i.test(detail)) return problems.missingNotifySend;
  if (/timeout was reached|timed out/i.test(detail)) return problems.timeout;
  const firstLine =
    detail
      .split('\n')
      .map((line) => line.trim())
      .find((line) => line !== '') ?? 'no reason given';
  return `A notification could not be shown: ${firstLine.replace(/[.\s]*$/, '')}.`;
}

export function createNotifySendNotifier(options: NotifySendNotifierOptions = {}): NotifierHandle {
  const appName = options.appName ?? 'Perch';
  const lifetimeMs = options.lifetimeMs ?? notificationLifetimeMs;
  const logger = options.logger ?? console;
  const listeners = responseListeners(logger);
  /** By notification id, oldest first. */
  const live = new Map<string, LiveNotification>();
  let actionable: Promise<boolean> | null = null;
  let disposed = false;
  let queue: Promise<void> = Promise.resolve();

  function failed(request: NotificationRequest, detail: string): ShowResult {
    const problem = describeFailure(detail);
    logger.warn(`Perch notifier (${request.id}): ${problem} Detail: ${detail.trim().replace(/\s*\n\s*/g, ' | ')}`);
    return { ok: false, error: problem };
  }

  async function close(notification: LiveNotification): Promise<void> {
    const { child } = notification;
    // One that never showed (a bus that does not answer) is not waited for: SIGINT ends it all the same.
    await Promise.race([notification.interruptible, notification.exited, sleep(closeGraceMs, undefined, { ref: false })]);
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGINT');
    if (
      (await Promise.race([notification.exited.then(() => 'exited' as const), sleep(closeGraceMs, undefined, { ref: false })])) !== 'exited'
    )
      child.kill('SIGKILL');
    await notification.exited;
  }

  /** Makes room: the notification this one replaces, and the oldest beyond the limit, are closed first. */
  async function closeReplacedAndOldest(id: string): Promise<void> {
    const replaced = live.get(id);
    if (replaced !== undefined) await close(replaced);
    while (live.size >= maxLiveNotifications) {
      const oldest = live.values().next().value!;
      await close(oldest);
    }
  }

  function notifySendArgs(request: NotificationRequest, withActions: boolean): string[] {
    const actionArgs = withActions
      ? ['--print-id', `--action=default=${openLabel}`, ...request.actions.map((action) => `--action=${action}=${actionLabels[action]}`)]
      : [];
    return [
      `--app-name=${appName}`,
      `--expire-time=${lifetimeMs + expireAfterLifetimeMs}`,
      ...(options.icon === undefined ? [] : [`--icon=${options.icon}`]),
      ...(options.desktopEntry === undefined ? [] : [`--hint=string:desktop-entry:${options.desktopEntry}`]),
      ...actionArgs,
      '--',
      request.title,
      request.body,
    ];
  }

  function run(request: NotificationRequest, withActions: boolean): Promise<ShowResult> {
    // notify-send prints the id and the action through stdio, fully buffered on a pipe: line buffering makes them arrive when they happen.
    const [command, args] = withActions
      ? ['stdbuf', ['-oL', 'notify-send', ...notifySendArgs(request, true)]]
      : ['notify-send', notifySendArgs(request, false)];
    return new Promise((resolve) => {
      let settled = false;
      let sendTimer: NodeJS.Timeout | undefined;
      let stdout = '';
      let stderr = '';
      let lines = 0;
      const settle = (result: ShowResult) => {
        if (settled) return;
        settled = true;
        clearTimeout(sendTimer);
        resolve(result);
      };
      // A waiting process outlives a successful show, so its end is a failure only before that.
      const fail = (detail: string) => {
        if (!settled) settle(failed(request, detail));
      };
      let child: ChildProcess;
      try {
        child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], env: systemProgramEnv() });
      } catch (thrown) {
        fail(detailOf(thrown));
        return;
      }
      let interruptible = noop;
      const notification: LiveNotification = {
        child,
        exited: new Promise((exited) => child.on('close', () => exited())),
        interruptible: new Promise((resolve) => (interruptible = resolve)),
      };
      if (withActions) live.set(request.id, notification);
      sendTimer = setTimeout(() => {
        fail('Timeout was reached');
        // It never got as far as showing anything: nothing to close but the process.
        child.kill('SIGKILL');
      }, sendTimeoutMs);
      const lifetimeTimer = withActions ? setTimeout(() => void close(notification), lifetimeMs) : undefined;
      lifetimeTimer?.unref();
      const offered = new Set<string>(request.actions);
      child.on('error', (error) => fail(`notify-send: ${detailOf(error)}`));
      child.stderr!.on('data', (chunk) => {
        if (stderr.length < 4096) stderr += String(chunk);
      });
      child.stdout!.on('data', (chunk) => {
        stdout += String(chunk);
        let newline: number;
        while ((newline = stdout.indexOf('\n')) >= 0) {
          const line = stdout.slice(0, newline).trim();
          stdout = stdout.slice(newline + 1);
          // First the id the server gave (0 when Notify failed), then the key of the action invoked.
          if (lines++ === 0) {
            setTimeout(interruptible, sigintHandlerDelayMs);
            if (Number(line) > 0) settle({ ok: true, value: {} });
          } else if (line === 'default' || offered.has(line)) {
            const response = line === 'default' ? 'open' : (line as NotificationAction);
            listeners.emit({ notificationId: request.id, referenceNumber: request.referenceNumber, response });
          }
        }
      });
      child.on('close', (code, signal) => {
        if (live.get(request.id) === notification) live.delete(request.id);
        clearTimeout(lifetimeTimer);
        if (!withActions && code === 0) return settle({ ok: true, value: {} });
        const why = stderr.trim() || (signal ? `notify-send stopped by ${signal}` : `notify-send exited with status ${code}`);
        fail(code === 127 ? `notify-send not found: ${why}` : why);
      });
    });
  }

  /** Whether notify-send here has buttons, and stdbuf can pass on what it prints as it happens. */
  function probeActions(): Promise<boolean> {
    return new Promise((resolve) => {
      let help = '';
      let child: ChildProcess;
      try {
        child = spawn('stdbuf', ['-oL', 'notify-send', '--help'], { stdio: ['ignore', 'pipe', 'ignore'], env: systemProgramEnv() });
      } catch {
        resolve(false);
        return;
      }
      const timer = setTimeout(() => child.kill(), 3000);
      child.stdout!.on('data', (chunk) => (help += String(chunk)));
      child.on('error', () => {
        actionable = null;
        resolve(false);
      });
      child.on('close', (code) => {
        clearTimeout(timer);
        // A missing program may be installed while the app runs; only a definite answer is kept.
        if (code !== 0) actionable = null;
        resolve(code === 0 && help.includes('--action'));
      });
    });
  }

  async function show(request: NotificationRequest): Promise<ShowResult> {
    try {
      if (disposed) return { ok: false, error: problems.stopped };
      actionable ??= probeActions();
      const withActions = await actionable;
      // One at a time, each until the server has it: two at once cannot pass the limit together,
      // and the oldest is always one the desktop has shown.
      const shown = queue.then(async () => {
        if (withActions) await closeReplacedAndOldest(request.id);
        return run(request, withActions);
      });
      queue = shown.then(noop, noop);
      return await shown;
    } catch (thrown) {
      return failed(request, detailOf(thrown));
    }
  }

  return {
    show,
    onResponse: listeners.add,
    async dispose() {
      disposed = true;
      await Promise.all([...live.values()].map(close));
    },
  };
}
