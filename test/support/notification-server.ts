import dbus from 'dbus-next';

/** One Notify call as the server received it. */
export interface RecordedNotification {
  /** The id the server answered with. */
  id: number;
  appName: string;
  replacesId: number;
  appIcon: string;
  summary: string;
  body: string;
  /** Pairs as sent: key, label, key, label, … */
  actions: string[];
  /** Hint values unwrapped from their variants; int64 hints arrive as BigInt. */
  hints: Record<string, unknown>;
  expireTimeout: number;
}

export interface FakeNotificationServer {
  readonly notifications: readonly RecordedNotification[];
  /** Ids the clients closed themselves (CloseNotification), in order. */
  readonly closedByClient: readonly number[];
  /** Resolves with the first recorded notification matching `predicate`, waiting for it if need be. */
  waitForNotification(predicate?: (notification: RecordedNotification) => boolean, timeoutMs?: number): Promise<RecordedNotification>;
  /** As a notification daemon does when the user clicks (key `default`) or presses a button. */
  invokeAction(id: number, actionKey: string): void;
  /** Reason: 1 expired, 2 dismissed by the user, 3 closed by CloseNotification, 4 undefined. */
  close(id: number, reason?: 1 | 2 | 3 | 4): void;
  stop(): Promise<void>;
}

const NotificationsInterface = dbus.interface.Interface;
const { DBusError, Variant } = dbus;

/**
 * org.freedesktop.Notifications, as the freedesktop spec describes it, just enough for
 * notify-send: it records every call instead of drawing anything.
 */
class RecordingNotifications extends NotificationsInterface {
  readonly notifications: RecordedNotification[] = [];
  readonly closedByClient: number[] = [];
  readonly waiters = new Set<() => void>();
  private nextId = 1;

  constructor(private readonly capabilities: string[]) {
    super('org.freedesktop.Notifications');
  }

  GetServerInformation(): [string, string, string, string] {
    return ['perch-test-notifications', 'Perch', '1.0', '1.2'];
  }

  GetCapabilities(): string[] {
    return this.capabilities;
  }

  Notify(
    appName: string,
    replacesId: number,
    appIcon: string,
    summary: string,
    body: string,
    actions: string[],
    hints: Record<string, InstanceType<typeof Variant>>,
    expireTimeout: number,
  ): number {
    const id = replacesId > 0 ? replacesId : this.nextId++;
    const unwrapped: Record<string, unknown> = {};
    for (const [key, variant] of Object.entries(hints)) unwrapped[key] = variant.value;
    this.notifications.push({ id, appName, replacesId, appIcon, summary, body, actions, hints: unwrapped, expireTimeout });
    for (const wake of this.waiters) wake();
    return id;
  }

  CloseNotification(id: number): void {
    if (!this.notifications.some((notification) => notification.id === id)) {
      throw new DBusError('org.freedesktop.Notifications.Error.NotFound', `no notification ${id}`);
    }
    this.closedByClient.push(id);
    this.NotificationClosed(id, 3);
  }

  // Signals: calling these emits them on the bus (dbus-next wraps them in configureMembers).
  ActionInvoked(id: number, actionKey: string): [number, string] {
    return [id, actionKey];
  }

  NotificationClosed(id: number, reason: number): [number, number] {
    return [id, reason];
  }
}

RecordingNotifications.configureMembers({
  methods: {
    GetServerInformation: { inSignature: '', outSignature: 'ssss' },
    GetCapabilities: { inSignature: '', outSignature: 'as' },
    Notify: { inSignature: 'susssasa{sv}i', outSignature: 'u' },
    CloseNotification: { inSignature: 'u', outSignature: '' },
  },
  signals: {
    ActionInvoked: { signature: 'us' },
    NotificationClosed: { signature: 'uu' },
  },
});

/**
 * Owns org.freedesktop.Notifications on the given bus (a private one from
 * `startPrivateSessionBus`) so tests can see exactly what real notify-send sent.
 */
export async function startNotificationServer(address: string, options: { capabilities?: string[] } = {}): Promise<FakeNotificationServer> {
  const bus = dbus.sessionBus({ busAddress: address });
  const service = new RecordingNotifications(options.capabilities ?? ['actions', 'body']);
  bus.export('/org/freedesktop/Notifications', service);
  const reply = await bus.requestName('org.freedesktop.Notifications', dbus.NameFlag.DO_NOT_QUEUE);
  if (reply !== dbus.RequestNameReply.PRIMARY_OWNER) {
    bus.disconnect();
    throw new Error(`could not own org.freedesktop.Notifications (reply ${reply})`);
  }
  return {
    notifications: service.notifications,
    closedByClient: service.closedByClient,
    waitForNotification(predicate = () => true, timeoutMs = 5000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = service.notifications.find(predicate);
          if (!found) return false;
          service.waiters.delete(check);
          clearTimeout(timer);
          resolve(found);
          return true;
        };
        const timer = setTimeout(() => {
          service.waiters.delete(check);
          reject(new Error(`no matching Notify call within ${timeoutMs} ms (${service.notifications.length} recorded)`));
        }, timeoutMs);
        service.waiters.add(check);
        check();
      });
    },
    invokeAction(id, actionKey) {
      service.ActionInvoked(id, actionKey);
    },
    close(id, reason = 2) {
      service.NotificationClosed(id, reason);
    },
    async stop() {
      await bus.releaseName('org.freedesktop.Notifications').catch(() => undefined);
      bus.disconnect();
    },
  };
}
