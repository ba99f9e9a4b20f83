/**
 * Perch's desktop notifications, per OS: the core's `Notifier` on the native path of each.
 *
 * - macOS and Windows: Electron's `Notification`. It shows the app's own name and icon and asks
 *   the OS's permission as Perch (not as a helper program), and since Electron 42 its `actions`
 *   become buttons on both: on macOS as UNNotificationActions, on Windows as toast `<action>`
 *   elements Electron writes and reports back through the `action` event — so no custom
 *   `toastXml` is needed. Windows shows the toasts of the AppUserModelID main.ts registers
 *   (`app.setAppUserModelId`, the run's id from app-identity.ts): the installer's Start-menu
 *   shortcut carries it, and for an unpackaged run, which has an id of its own, Electron creates a
 *   shortcut carrying it itself.
 * - Linux and the BSDs: notify-send (see notify-send-notifier.ts for why not Electron's here).
 */
import { Notification } from 'electron';
import {
  actionLabels,
  detailOf,
  maxLiveNotifications,
  notificationLifetimeMs,
  responseListeners,
  type NotificationRequest,
  type NotificationResponse,
  type NotifierHandle,
  type NotifierLogger,
  type ShowResult,
} from '../core/notifications/notifier.js';
import { createNotifySendNotifier } from '../core/notifications/notify-send-notifier.js';

export interface DesktopNotifierOptions {
  /** The app's identity: Linux's desktop entry name (Windows takes it from the process, set by main). */
  appId: string;
  /** Absolute path of the app's icon, readable by other programs. */
  icon: string;
  platform?: NodeJS.Platform;
  logger?: NotifierLogger;
}

/** Without `failed` by then, the OS took the notification (macOS may still be asking the user's permission). */
const failureWaitMs = 2_000;

export function createDesktopNotifier(options: DesktopNotifierOptions): NotifierHandle {
  const platform = options.platform ?? process.platform;
  const logger = options.logger ?? console;
  if (platform === 'darwin' || platform === 'win32') {
    // macOS shows the app bundle's icon beside every notification; an icon given too would show twice.
    return createElectronNotifier({ logger, ...(platform === 'win32' && { icon: options.icon }) });
  }
  return createNotifySendNotifier({ icon: options.icon, desktopEntry: options.appId, logger });
}

export function createElectronNotifier(options: { icon?: string; logger: NotifierLogger }): NotifierHandle {
  const { logger } = options;
  const listeners = responseListeners(logger);
  // A Notification whose object is collected reports nothing more (and on Windows its toast is
  // removed), so the live ones are held here, by id, oldest first, and let go once done with.
  const live = new Map<string, Notification>();

  function close(id: string): void {
    const notification = live.get(id);
    live.delete(id);
    notification?.close();
  }

  function failed(request: NotificationRequest, detail: string): ShowResult {
    const problem = `A notification could not be shown: ${detail.trim().replace(/[.\s]*$/, '')}.`;
    logger.warn(`Perch notifier (${request.id}): ${problem}`);
    return { ok: false, problem };
  }

  function show(request: NotificationRequest): Promise<ShowResult> {
    if (!Notification.isSupported()) return Promise.resolve(failed(request, 'this system has no desktop notifications'));
    // The same id again replaces the notification shown before (a snoozed one coming back).
    close(request.id);
    while (live.size >= maxLiveNotifications) close(live.keys().next().value!);

    return new Promise((resolve) => {
      let settled = false;
      let failureTimer: NodeJS.Timeout | undefined;
      const settle = (result: ShowResult) => {
        if (settled) return;
        settled = true;
        clearTimeout(failureTimer);
        resolve(result);
      };
      let notification: Notification;
      try {
        notification = new Notification({
          title: request.title,
          body: request.body,
          ...(options.icon !== undefined && { icon: options.icon }),
          actions: request.actions.map((action) => ({ type: 'button' as const, text: actionLabels[action] })),
        });
      } catch (thrown) {
        settle(failed(request, detailOf(thrown)));
        return;
      }
      const isLive = () => live.get(request.id) === notification;
      const respond = (response: NotificationResponse) => {
        if (isLive()) close(request.id);
        listeners.emit({ notificationId: request.id, referenceNumber: request.referenceNumber, response });
      };
      notification.on('click', () => respond('open'));
      notification.on('action', (details) => {
        const action = request.actions[details.actionIndex];
        if (action !== undefined) respond(action);
      });
      notification.on('close', () => {
        if (isLive()) live.delete(request.id);
      });
      notification.on('show', () => settle({ ok: true }));
      notification.on('failed', (_event, error) => {
        if (isLive()) live.delete(request.id);
        settle(failed(request, error));
      });
      live.set(request.id, notification);
      failureTimer = setTimeout(() => settle({ ok: true }), failureWaitMs);
      // Like a notify-send helper, a notification waits for the user this long at most.
      setTimeout(() => {
        if (isLive()) close(request.id);
      }, notificationLifetimeMs).unref();
      try {
        notification.show();
      } catch (thrown) {
        if (isLive()) live.delete(request.id);
        settle(failed(request, detailOf(thrown)));
      }
    });
  }

  return {
    show,
    onResponse: listeners.add,
    async dispose() {
      for (const id of [...live.keys()]) close(id);
    },
  };
}
