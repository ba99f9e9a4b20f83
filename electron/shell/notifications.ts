/**
 * Perch's desktop notifications, per OS: the core's `Notifier` on the native path of each.
 *
 * - macOS and Windows: Electron's `Notification`. It shows the app's own name and icon and asks
 *   the OS's permission as Perch (not as a helper program), and since Electron 42 its `actions`
 *   become buttons on both: on macOS as UNNotificationActions, on Windows as toast `<action>`
 *   elements Electron writes and reports back through the `action` event — so no custom
 *   `toastXml` is needed. macOS asks the user's permission when Perch starts, as the notifier
 *   registers its buttons (registerActionCategories), and shows nothing from an unsigned app.
 *   Windows shows the toasts of the AppUserModelID main.ts registers
 *   (`app.setAppUserModelId`, the run's id from app-identity.ts): the installer's Start-menu
 *   shortcut carries it, and for an unpackaged run, which has an id of its own, Electron creates a
 *   shortcut carrying it itself.
 * - Linux and the BSDs: notify-send (see electron/platform/notify-send-notifier.ts for why not Electron's here).
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Notification, nativeImage } from 'electron';
import {
  actionLabels,
  detailOf,
  maxLiveNotifications,
  notificationLifetimeMs,
  responseListeners,
  unconfirmedProblem,
  unconfirmedReasons,
  unsignedMacAppProblem,
  type ElectronNotifierOs,
  type NotificationAction,
  type NotificationRequest,
  type NotificationResponse,
  type NotifierHandle,
  type NotifierLogger,
  type ShowResult,
} from '../core/notifications/notifier.js';
import { createNotifySendNotifier } from '../platform/notify-send-notifier.js';
import { notificationActionSets } from '../core/notifications/planner.js';

export interface DesktopNotifierOptions {
  /** The app's identity: Linux's desktop entry name (Windows takes it from the process, set by main). */
  appId: string;
  /** Absolute path of the app's icon, readable by other programs. */
  icon: string;
  platform?: NodeJS.Platform;
  logger?: NotifierLogger;
  /** macOS: whether this copy's app bundle is code-signed; by default, whether the running bundle carries a signature seal. */
  codeSigned?: boolean;
}

/** Neither `show` nor `failed` by then: the OS took the notification but did not confirm it (macOS may still be asking the user's permission). */
const confirmationWaitMs = 2_000;

/** Apart by this much, macOS's registrations of Perch's sets of buttons do not overwrite one another (see registerActionCategories). */
const categoryRegistrationSpacingMs = 1_000;

export function createDesktopNotifier(options: DesktopNotifierOptions): NotifierHandle {
  const platform = options.platform ?? process.platform;
  const logger = options.logger ?? console;
  if (platform === 'darwin') {
    const codeSigned = options.codeSigned ?? appBundleSealed(process.execPath);
    // macOS shows the app bundle's icon beside every notification; an icon given too would show twice.
    const notifier = createElectronNotifier({ os: 'macOS', logger, ...(!codeSigned && { unsignedMacApp: true }) });
    const registration = registerActionCategories(Object.values(notificationActionSets), logger);
    return {
      ...notifier,
      async dispose() {
        registration.stop();
        await notifier.dispose();
      },
    };
  }
  if (platform === 'win32') return createElectronNotifier({ os: 'Windows', icon: options.icon, logger });
  return createNotifySendNotifier({ icon: options.icon, desktopEntry: options.appId, logger });
}

/**
 * Whether the macOS app bundle holding `executable` is code-signed: `codesign` seals a bundle's
 * resources in Contents/_CodeSignature/CodeResources. electron-builder, finding no signing
 * identity, leaves a bundle without one (Electron's own binary is only linker-signed, which
 * covers no bundle): macOS then refuses the app's notifications.
 */
export function appBundleSealed(executable: string): boolean {
  return existsSync(join(dirname(executable), '..', '_CodeSignature', 'CodeResources'));
}

/**
 * macOS: registers each set of buttons Perch's notifications carry as a notification category
 * ahead of the first notification needing it. Electron's Notification#show registers the category
 * of its buttons asynchronously (getNotificationCategories, then setNotificationCategories with it
 * added) while it adds the notification at once, so the first notification with a new set could
 * arrive without its buttons; and two registrations at once can each overwrite the other's.
 *
 * Each set is registered by a notification that is never delivered: with an image given, Electron
 * registers the category and only then prepares the image on another thread, adding the
 * notification after that unless it was closed; closing it at once, before Electron's thread can
 * come back, drops it (electron/electron shell/browser/notifications/mac/cocoa_notification.mm).
 */
export function registerActionCategories(actionSets: readonly (readonly NotificationAction[])[], logger: NotifierLogger): { stop(): void } {
  // Any image holds the notification back; a pixel of its own needs no file.
  const holdBack = nativeImage.createFromBitmap(Buffer.alloc(4), { width: 1, height: 1 });
  let timer: NodeJS.Timeout | undefined;
  const register = (index: number) => {
    const actions = actionSets[index]!;
    try {
      const registration = new Notification({
        silent: true,
        icon: holdBack,
        actions: actions.map((action) => ({ type: 'button' as const, text: actionLabels[action] })),
      });
      registration.show();
      registration.close();
    } catch (thrown) {
      logger.warn(`Perch notifier: the buttons ${actions.join(', ')} could not be registered with macOS: ${detailOf(thrown)}`);
    }
    if (index + 1 < actionSets.length) timer = setTimeout(() => register(index + 1), categoryRegistrationSpacingMs).unref();
  };
  if (holdBack.isEmpty())
    logger.warn('Perch notifier: no image to register the notification buttons with; a first notification may come without its buttons.');
  else if (actionSets.length > 0) register(0);
  return {
    stop: () => clearTimeout(timer),
  };
}

export function createElectronNotifier(options: {
  os: ElectronNotifierOs;
  icon?: string;
  unsignedMacApp?: boolean;
  logger: NotifierLogger;
}): NotifierHandle {
  const { logger } = options;
  const listeners = responseListeners(logger);
  const unconfirmed = unconfirmedProblem(
    options.os,
    options.unsignedMacApp ? unconfirmedReasons.unsignedMacApp : unconfirmedReasons[options.os],
  );
  // A Notification whose object is collected reports nothing more (and on Windows its toast is
  // removed), so the live ones are held here, by id, oldest first, and let go once done with.
  const live = new Map<string, Notification>();

  function close(id: string): void {
    const notification = live.get(id);
    live.delete(id);
    notification?.close();
  }

  function failed(request: NotificationRequest, detail: string): ShowResult {
    const reason = options.unsignedMacApp ? ` (${unconfirmedReasons.unsignedMacApp})` : '';
    const problem = `A notification could not be shown: ${detail.trim().replace(/[.\s]*$/, '')}${reason}.`;
    logger.warn(`Perch notifier (${request.id}): ${problem}`);
    return { ok: false, error: problem };
  }

  function show(request: NotificationRequest): Promise<ShowResult> {
    if (!Notification.isSupported()) return Promise.resolve(failed(request, 'this system has no desktop notifications'));
    // The same id again replaces the notification shown before (a snoozed one coming back).
    close(request.id);
    while (live.size >= maxLiveNotifications) close(live.keys().next().value!);

    return new Promise((resolve) => {
      let settled = false;
      let confirmationTimer: NodeJS.Timeout | undefined;
      const settle = (result: ShowResult) => {
        if (settled) return;
        settled = true;
        clearTimeout(confirmationTimer);
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
      notification.on('show', () => settle({ ok: true, value: {} }));
      notification.on('failed', (_event, error) => {
        if (isLive()) live.delete(request.id);
        settle(failed(request, error));
      });
      live.set(request.id, notification);
      confirmationTimer = setTimeout(() => {
        logger.warn(`Perch notifier (${request.id}): ${unconfirmed}`);
        settle({ ok: true, value: { unconfirmed } });
      }, confirmationWaitMs);
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
    ...(options.unsignedMacApp && { knownProblem: unsignedMacAppProblem }),
    onResponse: listeners.add,
    async dispose() {
      for (const id of [...live.keys()]) close(id);
    },
  };
}
