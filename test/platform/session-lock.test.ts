/**
 * The session's lock on Linux, watched over real D-Bus: private buses of the test's own stand in
 * for the session bus (a screen saver emitting ActiveChanged) and the system bus (logind with this
 * session's LockedHint).
 */
import dbus from 'dbus-next';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { watchSessionLock, type SessionLockWatcher } from '../../electron/platform/session-lock.js';
import { startPrivateSessionBus, type PrivateSessionBus } from '../support/session-bus.js';

const Interface = dbus.interface.Interface;

/** A screen saver under `name`, as desktops own it: `ActiveChanged(bool)` is emitted by calling it. */
class ScreenSaver extends Interface {
  ActiveChanged(active: boolean): boolean {
    return active;
  }
}
ScreenSaver.configureMembers({ signals: { ActiveChanged: { signature: 'b' } } });

const sessionPath = '/org/freedesktop/login1/session/_37';

/** logind's manager: which session a process is in. */
class LoginManager extends Interface {
  askedFor: number[] = [];
  GetSessionByPID(pid: number): string {
    this.askedFor.push(pid);
    return sessionPath;
  }
}
LoginManager.configureMembers({ methods: { GetSessionByPID: { inSignature: 'u', outSignature: 'o' } } });

/** One logind session, with its LockedHint. */
class LoginSession extends Interface {
  LockedHint = false;
  lock(locked: boolean): void {
    this.LockedHint = locked;
    Interface.emitPropertiesChanged(this, { LockedHint: locked }, []);
  }
}
LoginSession.configureMembers({ properties: { LockedHint: { signature: 'b', access: 'read' } } });

let sessionBus: PrivateSessionBus;
let systemBus: PrivateSessionBus;
const connections: dbus.MessageBus[] = [];
let watcher: SessionLockWatcher | null = null;

beforeAll(async () => {
  sessionBus = await startPrivateSessionBus({ activation: false });
  systemBus = await startPrivateSessionBus({ activation: false });
});

afterEach(() => {
  watcher?.stop();
  watcher = null;
  for (const bus of connections.splice(0)) bus.disconnect();
});

afterAll(async () => {
  await sessionBus.stop();
  await systemBus.stop();
});

async function serve(address: string, name: string, objects: [string, InstanceType<typeof Interface>][]): Promise<void> {
  const bus = dbus.sessionBus({ busAddress: address });
  connections.push(bus);
  for (const [path, object] of objects) bus.export(path, object);
  expect(await bus.requestName(name, dbus.NameFlag.DO_NOT_QUEUE)).toBe(dbus.RequestNameReply.PRIMARY_OWNER);
}

/** What the watcher reported, in order. */
function watch(addresses: { session: string | null; system: string | null }): { events: string[]; problems: string[] } {
  const events: string[] = [];
  const problems: string[] = [];
  watcher = watchSessionLock({
    sessionBusAddress: addresses.session,
    systemBusAddress: addresses.system,
    pid: 4242,
    onLocked: () => events.push('locked'),
    onUnlocked: () => events.push('unlocked'),
    log: (message) => problems.push(message),
  });
  return { events, problems };
}

/** Signals travel through the daemon: waits until the watcher has heard `count` of them. */
async function heard(events: string[], count: number): Promise<void> {
  for (let waited = 0; events.length < count && waited < 5000; waited += 20) await sleep(20);
}

describe('the session lock over D-Bus', () => {
  it.each(['org.freedesktop.ScreenSaver', 'org.gnome.ScreenSaver'])("hears %s's ActiveChanged: locked, then unlocked", async (name) => {
    const saver = new ScreenSaver(name);
    await serve(sessionBus.address, name, [[`/${name.replaceAll('.', '/')}`, saver]]);
    const { events, problems } = watch({ session: sessionBus.address, system: null });
    await watcher!.ready;
    saver.ActiveChanged(true);
    await heard(events, 1);
    saver.ActiveChanged(false);
    await heard(events, 2);
    expect(events).toEqual(['locked', 'unlocked']);
    expect(problems).toEqual([]);
  });

  it("hears logind's LockedHint of this process' session, and tells each change once whatever tells it", async () => {
    const manager = new LoginManager('org.freedesktop.login1.Manager');
    const session = new LoginSession('org.freedesktop.login1.Session');
    const other = new LoginSession('org.freedesktop.login1.Session');
    await serve(systemBus.address, 'org.freedesktop.login1', [
      ['/org/freedesktop/login1', manager],
      [sessionPath, session],
      ['/org/freedesktop/login1/session/_99', other],
    ]);
    const saver = new ScreenSaver('org.freedesktop.ScreenSaver');
    await serve(sessionBus.address, 'org.freedesktop.ScreenSaver', [['/org/freedesktop/ScreenSaver', saver]]);
    const { events, problems } = watch({ session: sessionBus.address, system: systemBus.address });
    await watcher!.ready;
    expect(manager.askedFor).toEqual([4242]);

    // Another session locking is not this one's business.
    other.lock(true);
    session.lock(true);
    await heard(events, 1);
    // The screen saver tells of the same lock: still one. (Two buses keep no order between them:
    // its signal is let arrive before logind's next one.)
    saver.ActiveChanged(true);
    await sleep(100);
    session.lock(false);
    await heard(events, 2);
    saver.ActiveChanged(false);
    await sleep(100);
    expect(events).toEqual(['locked', 'unlocked']);
    expect(problems).toEqual([]);
  });

  it('without a bus to reach, says so in the log and reports nothing', async () => {
    const { events, problems } = watch({ session: 'unix:path=/nonexistent/perch-bus', system: null });
    await watcher!.ready;
    expect(events).toEqual([]);
    expect(problems).toEqual(["the session's lock cannot be watched through the screen saver"]);
  });

  it('stopped, reports nothing more', async () => {
    const saver = new ScreenSaver('org.freedesktop.ScreenSaver');
    await serve(sessionBus.address, 'org.freedesktop.ScreenSaver', [['/org/freedesktop/ScreenSaver', saver]]);
    const { events } = watch({ session: sessionBus.address, system: null });
    await watcher!.ready;
    watcher!.stop();
    saver.ActiveChanged(true);
    await sleep(100);
    expect(events).toEqual([]);
  });
});
