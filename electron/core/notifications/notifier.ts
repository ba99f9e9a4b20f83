/**
 * The core's side of desktop notifications: what a notification carries, and what comes back when
 * the user acts on it. The OS adapters implement `Notifier`: notify-send on Linux
 * (electron/platform/notify-send-notifier.ts), Electron's own notifications on macOS and Windows
 * (electron/shell/notifications.ts).
 */
import type { Result } from '../../api/result.js';

/**
 * The buttons a notification can offer; clicking the notification itself always means "open".
 * `notComing` gives the booking back; a button cannot ask first, so it opens the popover asking.
 */
export type NotificationAction = 'checkIn' | 'notComing' | 'extend' | 'snooze';

/** What the user did: pressed one of the notification's buttons, or clicked it. */
export type NotificationResponse = NotificationAction | 'open';

/** How long "Extend" lengthens a reservation: one of the popover's extensions, and a whole number of slots on the usual 15- and 30-minute schedules. */
export const notificationExtendMinutes = 30;

/** The buttons' labels, the same on every OS. */
export const actionLabels: Record<NotificationAction, string> = {
  checkIn: 'Check in',
  notComing: "I'm not coming",
  extend: `Extend ${notificationExtendMinutes} min`,
  snooze: 'Snooze',
};

/** The label of a click on the notification, where the desktop names it (notification daemons may list it). */
export const openLabel = 'Open';

/**
 * Notifications kept live at once (waiting for a click, on Linux a notify-send process each);
 * showing one more closes the oldest, so helpers and handles never pile up.
 */
export const maxLiveNotifications = 8;

/** How long a notification waits for the user at most; then it is closed, its helper with it. */
export const notificationLifetimeMs = 30 * 60_000;

export interface NotificationRequest {
  /** Stable id of the notification (the planner's): showing the same id again replaces it. */
  id: string;
  /** The reservation it is about: what its buttons act on and its click opens. */
  referenceNumber: string;
  title: string;
  body: string;
  /** Its buttons, in order. */
  actions: readonly NotificationAction[];
}

export interface NotificationInvocation {
  notificationId: string;
  referenceNumber: string;
  response: NotificationResponse;
}

/**
 * What became of a notification: shown; not shown, and why (`error`); or handed to the OS, which
 * never said whether it showed it (macOS drops the notifications it will not show without a word),
 * with what Settings says of it in `value.unconfirmed`.
 */
export type ShowResult = Result<{ unconfirmed?: string }, string>;

/** What Settings says after a notification: why it was not shown, or may not have been; null once one was. */
export function notifierProblemOf(result: ShowResult): string | null {
  return result.ok ? (result.value.unconfirmed ?? null) : result.error;
}

/** The OSes whose notifications go through Electron's (electron/shell/notifications.ts), as Settings names them. */
export type ElectronNotifierOs = 'macOS' | 'Windows';

/**
 * Why an OS that never confirmed a notification may not have shown it. macOS refuses every
 * notification of an app bundle that is not code-signed (UNUserNotificationCenter), often
 * silently; electron-builder leaves a build unsigned where it finds no signing identity.
 */
export const unconfirmedReasons = {
  unsignedMacApp: 'this copy of Perch is not code-signed, and macOS shows notifications only from signed apps; install a signed build',
  macOS: 'notifications may be turned off for Perch in System Settings › Notifications, or macOS is still asking whether to allow them',
  Windows: 'notifications may be turned off for Perch in Settings › System › Notifications, or Do not disturb is on',
} as const;

/** What Settings says from the start where this copy of Perch is an unsigned macOS app. */
export const unsignedMacAppProblem = `macOS will show no notifications from Perch: ${unconfirmedReasons.unsignedMacApp}.`;

/** Settings' sentence for a notification the OS never confirmed. */
export function unconfirmedProblem(os: ElectronNotifierOs, reason: string): string {
  return `The last notification was sent, but ${os} did not confirm it was shown: ${reason}.`;
}

export interface Notifier {
  /** Never throws, never rejects: every failure becomes `{ ok: false, error }`. */
  show(notification: NotificationRequest): Promise<ShowResult>;
  /** Why no notification can be shown, known before any is tried (an unsigned macOS app): Settings says it from the start. */
  readonly knownProblem?: string;
  /** Called when the user clicks a notification or presses one of its buttons (where the platform reports it). */
  onResponse(listener: (invocation: NotificationInvocation) => void): () => void;
}

/** What the app's shell holds: a notifier it can shut down on quit. */
export interface NotifierHandle extends Notifier {
  /** Closes the notifications still waiting for the user and ends their helpers; resolves once they are gone. */
  dispose(): Promise<void>;
}

export interface NotifierLogger {
  warn(message: string): void;
}

export function detailOf(thrown: unknown): string {
  if (thrown instanceof Error) return `${thrown.message}${'code' in thrown ? ` (${String(thrown.code)})` : ''}`;
  return String(thrown);
}

/** The listeners of a notifier's responses; one that throws is logged and does not keep the others from hearing. */
export function responseListeners(logger: NotifierLogger) {
  const listeners = new Set<(invocation: NotificationInvocation) => void>();
  return {
    add(listener: (invocation: NotificationInvocation) => void): () => void {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    emit(invocation: NotificationInvocation): void {
      for (const listener of [...listeners]) {
        try {
          listener(invocation);
        } catch (thrown) {
          logger.warn(`Perch notifier: a response listener failed: ${detailOf(thrown)}`);
        }
      }
    },
  };
}
