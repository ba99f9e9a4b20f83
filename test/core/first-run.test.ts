/**
 * "Try it on this computer", end to end below the UI: the core starts the local service as a
 * separate process (the host module under tsx, as the app's utility process would run it), keeps the
 * generated password in the real OS keychain (gnome-keyring on a private D-Bus), and a later start
 * finds the same account, its bookings and its password again.
 *
 * Core and service run on one clock that starts on a Wednesday morning in London: the demo's head
 * office is open on weekdays from 08:00 to 18:00, and the test must see it open whatever the real hour.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openKeychain } from '../../electron/platform/keychain/keychain.js';
import type { SecretStore } from '../../electron/core/storage/secret-store.js';
import { localProfile } from '../../electron/core/local-service/local-account.js';
import { createLocalService, type LocalService } from '../../electron/core/local-service/local-service.js';
import { createPerchCore, type PerchCore } from '../../electron/core/perch-core.js';
import { localKeychainAccount } from '../../electron/core/session/kept-session.js';
import { recordingNotifier } from '../support/core-harness.js';
import { forkServiceHostOn } from '../support/service-host.js';
import { shiftedClock } from '../support/shifted-clock.js';
import { startPrivateSessionBus, type PrivateSessionBus } from '../support/session-bus.js';

const officeZone = 'Europe/London';
const profile = localProfile('jane.doe', officeZone);
const clock = shiftedClock(DateTime.fromISO('2026-12-02T10:31', { zone: officeZone }));
/** The next morning, in office hours. */
const bookedStart = DateTime.fromISO('2026-12-03T10:00', { zone: officeZone });

let bus: PrivateSessionBus;
let secrets: SecretStore;
let folder: string;
const logged: string[] = [];
const running: { core: PerchCore; localService: LocalService }[] = [];

beforeAll(async () => {
  bus = await startPrivateSessionBus({ keyring: true });
  process.env['DBUS_SESSION_BUS_ADDRESS'] = bus.address;
  secrets = openKeychain('Perch-first-run-test');
  folder = mkdtempSync(join(tmpdir(), 'perch-first-run-'));
});

afterAll(async () => {
  for (const { core } of running) await core.stop();
  await bus.stop();
  rmSync(folder, { recursive: true, force: true });
});

/** A core as main.ts composes it, with Node's launcher instead of Electron's, on the shared folders and keychain. */
function newCore(): { core: PerchCore; localService: LocalService } {
  const localService = createLocalService({
    dataFolder: join(folder, 'local-service'),
    demo: true,
    launch: forkServiceHostOn(clock),
    log: (message) => logged.push(message),
  });
  const core = createPerchCore({
    dataDir: folder,
    clock,
    secrets,
    notifier: recordingNotifier(),
    localService,
    localProfile: () => profile,
    log: (message) => logged.push(message),
  });
  running.push({ core, localService });
  return { core, localService };
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function keptPassword(userName: string): Promise<string | undefined> {
  const entry = await secrets.get(localKeychainAccount(userName));
  return entry === null ? undefined : (JSON.parse(entry) as { password?: string }).password;
}

describe('try it on this computer', () => {
  let first: { userName: string; userId: number; password: string; referenceNumber: string; pid: number };

  it('starts the service as its own process, signs in to a new account with a generated password, and books', async () => {
    const { core, localService } = newCore();
    await core.start();
    expect(core.snapshot().phase).toBe('signedOut');

    const result = await core.handlers.tryThisComputer();
    if (!result.ok) throw new Error(`tryThisComputer failed: ${result.error.message}`);
    const pid = localService.pid;
    expect(pid).not.toBeNull();
    expect(pid).not.toBe(process.pid);
    expect(isAlive(pid!)).toBe(true);

    expect(result.value).toMatchObject({
      phase: 'ready',
      account: { server: { kind: 'local' }, userName: 'jane.doe', displayName: 'Jane Doe', isAdmin: false },
    });
    // Sign-in answers with the user's list; Free now fills in after.
    await core.idle();
    const snapshot = core.snapshot();
    // The demo organisation's rooms, desks and equipment, as Staff may book them.
    const free = snapshot.freeNow.map((resource) => resource.name);
    expect(free).toEqual(expect.arrayContaining(['Thames (1.01)', 'Hot desk D1', 'Loan laptop']));
    expect(free).not.toContain('3D printer');

    const password = await keptPassword('jane.doe');
    expect(password).toMatch(/^[\w-]{32}$/);

    const laptop = await core.handlers.listResources();
    if (!laptop.ok) throw new Error(laptop.error.message);
    const resourceId = laptop.value.find((resource) => resource.name === 'Loan laptop')!.resourceId;
    const booked = await core.handlers.book({ resourceId, start: bookedStart.toISO()!, durationMinutes: 60, title: 'First run' });
    if (!booked.ok) throw new Error(`booking failed: ${booked.error.message}`);

    first = {
      userName: 'jane.doe',
      userId: snapshot.account!.userId,
      password: password!,
      referenceNumber: booked.value.referenceNumber,
      pid: pid!,
    };
    await core.stop();
    expect(isAlive(pid!)).toBe(false);
    expect(localService.pid).toBeNull();
    expect(logged.filter((line) => line.includes('exited unexpectedly'))).toEqual([]);
  }, 60_000);

  it('restores the same account on the next start, with its booking and without a new password', async () => {
    const { core, localService } = newCore();
    await core.start();
    expect(core.snapshot()).toMatchObject({ phase: 'ready', account: { userId: first.userId, userName: first.userName } });
    expect(localService.pid).not.toBe(first.pid);
    const refreshed = await core.handlers.refresh();
    expect(refreshed.lastError).toBeNull();
    expect(refreshed.reservations.map((reservation) => reservation.referenceNumber)).toContain(first.referenceNumber);
    expect(await keptPassword(first.userName)).toBe(first.password);
    await core.stop();
  }, 60_000);

  it('generates a new password when the keychain lost it, and the service accepts it', async () => {
    await secrets.delete(localKeychainAccount(first.userName));
    const { core } = newCore();
    await core.start();
    expect(core.snapshot()).toMatchObject({ phase: 'ready', lastError: null, account: { userId: first.userId } });
    const renewed = await keptPassword(first.userName);
    expect(renewed).toBeDefined();
    expect(renewed).not.toBe(first.password);
    const refreshed = await core.handlers.refresh();
    expect(refreshed.lastError).toBeNull();
    expect(refreshed.reservations.map((reservation) => reservation.referenceNumber)).toContain(first.referenceNumber);
    await core.stop();
  }, 60_000);

  it('starts the service again after it died, at its new address, with the same session', async () => {
    const { core, localService } = newCore();
    await core.start();
    // Killed between polls: a poll under way would only go offline and retry after its backoff.
    await core.idle();
    const pid = localService.pid!;
    process.kill(pid, 'SIGKILL');
    await expect.poll(() => localService.pid).toBeNull();
    expect(logged.some((line) => line.includes(`process ${pid} exited unexpectedly`))).toBe(true);

    const refreshed = await core.handlers.refresh();
    expect(refreshed).toMatchObject({ phase: 'ready', offline: false, lastError: null });
    expect(refreshed.reservations.map((reservation) => reservation.referenceNumber)).toContain(first.referenceNumber);
    expect(localService.pid).not.toBeNull();
    expect(localService.pid).not.toBe(pid);
    await core.stop();
  }, 60_000);
});
