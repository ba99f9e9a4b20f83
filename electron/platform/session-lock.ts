/**
 * Whether the desktop session is locked, on Linux, where Electron's powerMonitor reports no
 * 'lock-screen' / 'unlock-screen' (macOS and Windows only). Two sources, over D-Bus, whichever the
 * desktop has:
 * - the session bus: the screen saver's `ActiveChanged(bool)` signal, under the freedesktop name
 *   (`org.freedesktop.ScreenSaver`: KDE Plasma, Xfce, Cinnamon, MATE) or GNOME's own
 *   (`org.gnome.ScreenSaver`);
 * - the system bus: logind's `LockedHint` of this session, which the lock screens of GNOME, KDE
 *   and others set (changes come as `PropertiesChanged` on the session's object).
 * Both are only listened to (a match rule each): nothing is sent but the rules and one question to
 * logind (which session this process is in). Each change of state is reported once, however many
 * sources tell of it. A bus that cannot be reached is left out: the rest still works, and Perch
 * polls as before where none can.
 */
import { existsSync } from 'node:fs';
import dbus from 'dbus-next';

/** The system bus' standard socket, where DBUS_SYSTEM_BUS_ADDRESS does not name another. */
const systemBusSocket = '/var/run/dbus/system_bus_socket';

/** The system bus (logind's): the address the environment gives, else the standard socket where it exists. */
export function systemBusAddress(env: NodeJS.ProcessEnv): string | null {
  const given = env['DBUS_SYSTEM_BUS_ADDRESS'];
  if (given) return given;
  return existsSync(systemBusSocket) ? `unix:path=${systemBusSocket}` : null;
}

export interface SessionLockOptions {
  onLocked(): void;
  onUnlocked(): void;
  /** The session bus' address; null for none. */
  sessionBusAddress: string | null;
  /** The system bus' address (logind's); null for none. */
  systemBusAddress: string | null;
  /** The process whose session logind is asked about; this one by default. */
  pid?: number;
  log(message: string, error?: unknown): void;
}

export interface SessionLockWatcher {
  /** Resolves once the match rules are in place on every bus that could be reached. */
  ready: Promise<void>;
  stop(): void;
}

/** The screen saver interfaces whose `ActiveChanged(bool)` says the screen locked (true) or unlocked (false). */
export const screenSaverInterfaces = ['org.freedesktop.ScreenSaver', 'org.gnome.ScreenSaver'] as const;

const logindName = 'org.freedesktop.login1';
const logindSession = 'org.freedesktop.login1.Session';
const propertiesInterface = 'org.freedesktop.DBus.Properties';

/** A signal's body as a message carries it. */
type SignalMessage = InstanceType<typeof dbus.Message>;

function addMatch(bus: dbus.MessageBus, rule: string): Promise<unknown> {
  return bus.call(
    new dbus.Message({
      destination: 'org.freedesktop.DBus',
      path: '/org/freedesktop/DBus',
      interface: 'org.freedesktop.DBus',
      member: 'AddMatch',
      signature: 's',
      body: [rule],
    }),
  );
}

/**
 * Connects (the bus' Hello answered), or fails: a bus that cannot be reached rejects rather than
 * leaving calls waiting forever. Its failures later are only logged.
 */
function connect(address: string, name: string, log: SessionLockOptions['log']): Promise<dbus.MessageBus> {
  return new Promise((resolve, reject) => {
    const bus = dbus.sessionBus({ busAddress: address });
    let connected = false;
    bus.on('connect', () => {
      connected = true;
      resolve(bus);
    });
    bus.on('error', (error: unknown) => {
      if (connected) log(`the ${name} bus, watched for the session's lock, failed`, error);
      else {
        bus.disconnect();
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
  });
}

export function watchSessionLock(options: SessionLockOptions): SessionLockWatcher {
  const { log } = options;
  const buses: dbus.MessageBus[] = [];
  let locked: boolean | null = null;
  let stopped = false;

  /** Reported only when it changes: both sources may tell of the same lock. */
  function report(nowLocked: boolean): void {
    if (stopped || locked === nowLocked) return;
    locked = nowLocked;
    if (nowLocked) options.onLocked();
    else options.onUnlocked();
  }

  /** Keeps a bus to close on stop; true (and closes it) when the watcher was stopped meanwhile. */
  function kept(bus: dbus.MessageBus): boolean {
    if (stopped) bus.disconnect();
    else buses.push(bus);
    return stopped;
  }

  async function watchScreenSaver(address: string): Promise<void> {
    const bus = await connect(address, 'session', log);
    if (kept(bus)) return;
    bus.on('message', (message: SignalMessage) => {
      if (message.type !== dbus.MessageType.SIGNAL || message.member !== 'ActiveChanged') return;
      if (!(screenSaverInterfaces as readonly string[]).includes(message.interface ?? '')) return;
      const [active] = message.body as unknown[];
      if (typeof active === 'boolean') report(active);
    });
    for (const iface of screenSaverInterfaces) await addMatch(bus, `type='signal',interface='${iface}',member='ActiveChanged'`);
  }

  async function watchLogind(address: string): Promise<void> {
    const bus = await connect(address, 'system', log);
    if (kept(bus)) return;
    const reply = await bus.call(
      new dbus.Message({
        destination: logindName,
        path: '/org/freedesktop/login1',
        interface: 'org.freedesktop.login1.Manager',
        member: 'GetSessionByPID',
        signature: 'u',
        body: [options.pid ?? process.pid],
      }),
    );
    const sessionPath = reply?.body[0];
    if (typeof sessionPath !== 'string') return;
    bus.on('message', (message: SignalMessage) => {
      if (message.type !== dbus.MessageType.SIGNAL || message.interface !== propertiesInterface || message.member !== 'PropertiesChanged')
        return;
      if (message.path !== sessionPath) return;
      const [iface, changed] = message.body as [unknown, Record<string, { value: unknown } | undefined> | undefined];
      const hint = iface === logindSession ? changed?.['LockedHint']?.value : undefined;
      if (typeof hint === 'boolean') report(hint);
    });
    await addMatch(
      bus,
      `type='signal',sender='${logindName}',interface='${propertiesInterface}',member='PropertiesChanged',path='${sessionPath}',arg0='${logindSession}'`,
    );
  }

  const watched = (source: string, address: string | null, watch: (address: string) => Promise<void>) =>
    address === null
      ? Promise.resolve()
      : watch(address).catch((error: unknown) => log(`the session's lock cannot be watched through ${source}`, error));

  const ready = Promise.all([
    watched('the screen saver', options.sessionBusAddress, watchScreenSaver),
    watched('logind', options.systemBusAddress, watchLogind),
  ]).then(() => undefined);

  return {
    ready,
    stop() {
      stopped = true;
      for (const bus of buses.splice(0)) bus.disconnect();
    },
  };
}
