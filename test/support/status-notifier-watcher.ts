import dbus from 'dbus-next';

/**
 * org.kde.StatusNotifierWatcher as a desktop's panel runs it, just enough for a tray icon to
 * register: it records every StatusNotifierItem that registers instead of drawing anything.
 * `hostRegistered` is what the watcher says of its hosts (a panel that shows the items); false is
 * a watcher with no panel behind it.
 */
export interface FakeStatusNotifierWatcher {
  /** The items' bus names or object paths, as they registered. */
  readonly items: readonly string[];
  waitForItem(timeoutMs?: number): Promise<string>;
  stop(): Promise<void>;
}

const WatcherInterface = dbus.interface.Interface;
export const watcherName = 'org.kde.StatusNotifierWatcher';

class RecordingWatcher extends WatcherInterface {
  readonly items: string[] = [];
  readonly waiters = new Set<() => void>();

  constructor(private readonly hostRegistered: boolean) {
    super(watcherName);
  }

  get IsStatusNotifierHostRegistered(): boolean {
    return this.hostRegistered;
  }

  get RegisteredStatusNotifierItems(): string[] {
    return this.items;
  }

  get ProtocolVersion(): number {
    return 0;
  }

  RegisterStatusNotifierItem(service: string): void {
    this.items.push(service);
    this.StatusNotifierItemRegistered(service);
    for (const wake of this.waiters) wake();
  }

  RegisterStatusNotifierHost(_service: string): void {}

  StatusNotifierItemRegistered(service: string): string {
    return service;
  }
}

RecordingWatcher.configureMembers({
  properties: {
    IsStatusNotifierHostRegistered: { signature: 'b', access: 'read' },
    RegisteredStatusNotifierItems: { signature: 'as', access: 'read' },
    ProtocolVersion: { signature: 'i', access: 'read' },
  },
  methods: {
    RegisterStatusNotifierItem: { inSignature: 's', outSignature: '' },
    RegisterStatusNotifierHost: { inSignature: 's', outSignature: '' },
  },
  signals: {
    StatusNotifierItemRegistered: { signature: 's' },
  },
});

/** Owns org.kde.StatusNotifierWatcher on the given bus (a private one from `startPrivateSessionBus`). */
export async function startStatusNotifierWatcher(
  address: string,
  options: { hostRegistered: boolean },
): Promise<FakeStatusNotifierWatcher> {
  const bus = dbus.sessionBus({ busAddress: address });
  const watcher = new RecordingWatcher(options.hostRegistered);
  bus.export('/StatusNotifierWatcher', watcher);
  const reply = await bus.requestName(watcherName, dbus.NameFlag.DO_NOT_QUEUE);
  if (reply !== dbus.RequestNameReply.PRIMARY_OWNER) {
    bus.disconnect();
    throw new Error(`could not own ${watcherName} (reply ${reply})`);
  }
  return {
    items: watcher.items,
    waitForItem(timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const item = watcher.items[0];
          if (item === undefined) return;
          watcher.waiters.delete(check);
          clearTimeout(timer);
          resolve(item);
        };
        const timer = setTimeout(() => {
          watcher.waiters.delete(check);
          reject(new Error(`no StatusNotifierItem registered within ${timeoutMs} ms`));
        }, timeoutMs);
        watcher.waiters.add(check);
        check();
      });
    },
    async stop() {
      await bus.releaseName(watcherName).catch(() => undefined);
      bus.disconnect();
    },
  };
}
