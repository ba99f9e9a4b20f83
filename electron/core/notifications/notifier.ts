import { spawn, type ChildProcess } from 'node:child_process';
import nodeNotifier from 'node-notifier';

/**
 * Desktop notifications, and what a click on one can tell us, per platform:
 *
 * - Linux/BSD with a notify-send that has `--action` (libnotify 0.7.10 and later) and `stdbuf`
 *   (GNU coreutils): notify-send is run directly with a `default` action and waits; when the user
 *   clicks the notification the server sends ActionInvoked("default"), notify-send prints it and
 *   the click listeners get the reference number. node-notifier cannot do this (its notify-send
 *   wrapper passes neither `--action` nor `--wait`), which is why this one path bypasses it.
 * - Linux/BSD with an older notify-send: node-notifier's notify-send wrapper. The notification is
 *   shown, a click only dismisses it and is never reported.
 * - macOS (terminal-notifier) and Windows (SnoreToast): node-notifier with `wait: true`; the click
 *   comes back as the response `activate` in the call's callback.
 */

export interface NotificationRequest {
  /** Stable id of the notification (the planner's), used only in log lines. */
  id: string;
  /** The reservation a click should open. */
  referenceNumber: string;
  title: string;
  body: string;
}

export type ShowResult = { ok: true } | { ok: false; problem: string };

export interface Notifier {
  /** Never throws, never rejects: every failure becomes `{ ok: false, problem }`. */
  show(notification: NotificationRequest): Promise<ShowResult>;
  /** Called with the reservation's reference number when the user clicks a notification (where the platform reports it). */
  onClick(listener: (referenceNumber: string) => void): () => void;
}

/** What the app's shell holds: a notifier it can shut down on quit. */
export interface NotifierHandle extends Notifier {
  /** Stops the notify-send processes still waiting for a click. */
  dispose(): void;
}

export type NodeNotifierCallback = (error: Error | string | null, response?: unknown, metadata?: unknown) => void;

export interface NodeNotifierOptions {
  title: string;
  message: string;
  icon?: string;
  wait?: boolean;
  /** notify-send's `--app-name`. */
  'app-name'?: string;
  /** Windows: the AppUserModelID the toast is shown for. */
  appID?: string;
  /** Seconds before macOS removes the notification and stops waiting for a click. */
  timeout?: number;
}

/** The part of node-notifier this module uses; tests inject their own. */
export interface NodeNotifierLike {
  notify(options: NodeNotifierOptions, callback: NodeNotifierCallback): unknown;
}

export interface NotifierLogger {
  warn(message: string): void;
}

export interface NotifierOptions {
  appName?: string;
  /** Absolute path of an icon image. */
  icon?: string;
  /** Windows: the AppUserModelID the installer registered (electron-builder's `appId`); without it SnoreToast's own is used. */
  appId?: string;
  /** Replaces node-notifier (and so also the direct notify-send path). */
  notify?: NodeNotifierLike;
  /** Which platform's rules apply; the running one unless a test says otherwise. */
  platform?: NodeJS.Platform;
  logger?: NotifierLogger;
}

const sendTimeoutMs = 10_000;
/** Without an error by then, a notifier that waits for clicks has shown its notification. */
const clickWaitConfirmMs = 1_000;
/** notify-send waits for a click this long at most; the notification itself stays where the desktop keeps it. */
const clickWindowMs = 60 * 60_000;
const macTimeoutSeconds = 30;

const problems = {
  noBus: 'Notifications cannot be shown: there is no desktop session bus (D-Bus) to send them on.',
  noServer: 'Notifications cannot be shown: no notification service is running on this desktop.',
  missingNotifySend: 'Notifications cannot be shown: notify-send is not installed (on Debian and Ubuntu it comes with the libnotify-bin package).',
  timeout: 'Notifications cannot be shown: the notification service did not answer in time.',
};

/** A user-readable sentence for whatever notify-send, node-notifier or the OS said. */
function describeFailure(detail: string): string {
  // notify-send also warns "Failed to connect to proxy" when only the server is missing, so that is no sign of a missing bus.
  if (/serviceunknown|not provided by any \.service files|namehasnoowner/i.test(detail)) return problems.noServer;
  if (/could not connect|cannot autolaunch|connection refused|dbus_session_bus_address/i.test(detail)) return problems.noBus;
  if (/notify-send/i.test(detail) && /enoent|not found|must be installed|no such file|failed to run command/i.test(detail)) return problems.missingNotifySend;
  if (/timeout was reached|timed out/i.test(detail)) return problems.timeout;
  const firstLine = detail.split('\n').map((line) => line.trim()).find((line) => line !== '') ?? 'no reason given';
  return `A notification could not be shown: ${firstLine.replace(/[.\s]*$/, '')}.`;
}

function detailOf(thrown: unknown): string {
  if (thrown instanceof Error) return `${thrown.message}${'code' in thrown ? ` (${String(thrown.code)})` : ''}`;
  return String(thrown);
}

function reportsClicksThroughNodeNotifier(platform: NodeJS.Platform): boolean {
  return platform === 'darwin' || platform === 'win32';
}

function usesNotifySend(platform: NodeJS.Platform): boolean {
  return platform === 'linux' || platform === 'freebsd' || platform === 'openbsd' || platform === 'netbsd';
}

/** notify-send reads a leading `-` as an option (node-notifier passes no `--`); a zero-width space keeps it text. */
function notOption(text: string): string {
  return text.startsWith('-') ? `\u200B${text}` : text;
}

export function createNotifier(options: NotifierOptions = {}): NotifierHandle {
  const appName = options.appName ?? 'Perch';
  const platform = options.platform ?? process.platform;
  const logger = options.logger ?? console;
  const listeners = new Set<(referenceNumber: string) => void>();
  const waiting = new Set<ChildProcess>();
  let actionableNotifySend: Promise<boolean> | null = null;

  function emitClick(referenceNumber: string) {
    for (const listener of [...listeners]) {
      try {
        listener(referenceNumber);
      } catch (thrown) {
        logger.warn(`Perch notifier: a click listener failed: ${detailOf(thrown)}`);
      }
    }
  }

  function failed(request: NotificationRequest, detail: string): ShowResult {
    const problem = describeFailure(detail);
    logger.warn(`Perch notifier (${request.id}): ${problem} Detail: ${detail.trim().replace(/\s*\n\s*/g, ' | ')}`);
    return { ok: false, problem };
  }

  function viaNodeNotifier(notify: NodeNotifierLike, request: NotificationRequest): Promise<ShowResult> {
    const wait = reportsClicksThroughNodeNotifier(platform);
    const linux = usesNotifySend(platform);
    const notification: NodeNotifierOptions = {
      title: linux ? notOption(request.title) : request.title,
      message: linux ? notOption(request.body) : request.body,
      'app-name': appName,
      ...(options.icon === undefined ? {} : { icon: options.icon }),
      ...(options.appId === undefined ? {} : { appID: options.appId }),
      ...(wait ? { wait: true } : {}),
      ...(wait && platform === 'darwin' ? { timeout: macTimeoutSeconds } : {}),
    };
    return new Promise((resolve) => {
      let settled = false;
      const settle = (result: ShowResult) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(result);
      };
      // Windows' wrapper may call back twice; only the first answer counts, and is logged.
      const fail = (detail: string) => {
        if (!settled) settle(failed(request, detail));
      };
      // A waiting notifier calls back only after the click or the timeout, so silence means shown.
      const timer = setTimeout(
        () => (wait ? settle({ ok: true }) : fail('Timeout was reached')),
        wait ? clickWaitConfirmMs : sendTimeoutMs,
      );
      timer.unref();
      try {
        notify.notify(notification, (error, response) => {
          // node-notifier hands notify-send's stderr over as the "error" even when it succeeded ('' usually).
          if (error instanceof Error) return fail(detailOf(error));
          if (typeof error === 'string' && error.trim() !== '') logger.warn(`Perch notifier: notify-send said: ${error.trim()}`);
          settle({ ok: true });
          if (response === 'activate') emitClick(request.referenceNumber);
        });
      } catch (thrown) {
        fail(detailOf(thrown));
      }
    });
  }

  function viaNotifySendWithAction(request: NotificationRequest): Promise<ShowResult> {
    const args = [
      // notify-send prints the id and the action through stdio, fully buffered on a pipe: line buffering makes them arrive when they happen.
      '-oL',
      'notify-send',
      `--app-name=${appName}`,
      '--print-id',
      '--action=default=Open',
      ...(options.icon === undefined ? [] : [`--icon=${options.icon}`]),
      '--',
      request.title,
      request.body,
    ];
    return new Promise((resolve) => {
      let settled = false;
      let stdout = '';
      let stderr = '';
      let lines = 0;
      const settle = (result: ShowResult) => {
        if (settled) return;
        settled = true;
        clearTimeout(sendTimer);
        resolve(result);
      };
      // The process outlives a successful show (it waits for the click), so its end is a failure only before that.
      const fail = (detail: string) => {
        if (!settled) settle(failed(request, detail));
      };
      let child: ChildProcess;
      try {
        child = spawn('stdbuf', args, { stdio: ['ignore', 'pipe', 'pipe'] });
      } catch (thrown) {
        fail(detailOf(thrown));
        return;
      }
      waiting.add(child);
      const sendTimer = setTimeout(() => {
        fail('Timeout was reached');
        child.kill();
      }, sendTimeoutMs);
      sendTimer.unref();
      const clickTimer = setTimeout(() => child.kill(), clickWindowMs);
      clickTimer.unref();
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
            if (Number(line) > 0) settle({ ok: true });
          } else if (line === 'default') {
            emitClick(request.referenceNumber);
          }
        }
      });
      child.on('close', (code, signal) => {
        waiting.delete(child);
        clearTimeout(clickTimer);
        const why = stderr.trim() || (signal ? `notify-send stopped by ${signal}` : `notify-send exited with status ${code}`);
        fail(code === 127 ? `notify-send not found: ${why}` : why);
      });
    });
  }

  /** Whether notify-send here can report clicks, and stdbuf can pass them on as they happen. */
  function probeActionableNotifySend(): Promise<boolean> {
    return new Promise((resolve) => {
      let help = '';
      let child: ChildProcess;
      try {
        child = spawn('stdbuf', ['-oL', 'notify-send', '--help'], { stdio: ['ignore', 'pipe', 'ignore'] });
      } catch {
        resolve(false);
        return;
      }
      const timer = setTimeout(() => child.kill(), 3000);
      child.stdout!.on('data', (chunk) => (help += String(chunk)));
      child.on('error', () => {
        actionableNotifySend = null;
        resolve(false);
      });
      child.on('close', (code) => {
        clearTimeout(timer);
        const actionable = code === 0 && help.includes('--action');
        // A missing program may be installed while the app runs; only a definite answer is kept.
        if (code !== 0) actionableNotifySend = null;
        resolve(actionable);
      });
    });
  }

  async function show(request: NotificationRequest): Promise<ShowResult> {
    try {
      if (options.notify) return await viaNodeNotifier(options.notify, request);
      if (usesNotifySend(platform)) {
        actionableNotifySend ??= probeActionableNotifySend();
        if (await actionableNotifySend) return await viaNotifySendWithAction(request);
      }
      return await viaNodeNotifier(nodeNotifier, request);
    } catch (thrown) {
      return failed(request, detailOf(thrown));
    }
  }

  return {
    show,
    onClick(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    dispose() {
      for (const child of waiting) child.kill();
      waiting.clear();
    },
  };
}
