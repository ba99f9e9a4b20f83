/**
 * The tray-host probe against a real dbus-daemon of the test's own, with a stand-in
 * StatusNotifierWatcher on it (or none).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import dbus from 'dbus-next';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { probeTrayHost, sessionBusAddress } from '../../electron/platform/tray-host.js';
import { startPrivateSessionBus, type PrivateSessionBus } from '../support/session-bus.js';
import { startStatusNotifierWatcher, watcherName, type FakeStatusNotifierWatcher } from '../support/status-notifier-watcher.js';

let bus: PrivateSessionBus;
let watcher: FakeStatusNotifierWatcher | null = null;
const env = () => ({ PATH: process.env['PATH'], DBUS_SESSION_BUS_ADDRESS: bus.address });

// A bare bus: nothing on it is started on demand, so a watcher exists only when a test starts one.
beforeAll(async () => {
  bus = await startPrivateSessionBus({ activation: false });
});
afterAll(() => bus.stop());
afterEach(async () => {
  await watcher?.stop();
  watcher = null;
});

describe('probeTrayHost on a session bus', () => {
  it('a panel showing tray icons (a registered host): registered', async () => {
    watcher = await startStatusNotifierWatcher(bus.address, { hostRegistered: true });
    await expect(probeTrayHost({ env: env() })).resolves.toEqual({ kind: 'registered' });
  });

  it('a watcher without a host: missing', async () => {
    watcher = await startStatusNotifierWatcher(bus.address, { hostRegistered: false });
    await expect(probeTrayHost({ env: env() })).resolves.toEqual({
      kind: 'missing',
      reason: 'no StatusNotifierHost is registered with the StatusNotifierWatcher',
    });
  });

  it('no watcher at all (stock GNOME): missing', async () => {
    await expect(probeTrayHost({ env: env() })).resolves.toEqual({ kind: 'missing', reason: `no ${watcherName} on the session bus` });
  });

  it('something that owns the name but answers nothing sensible: unknown, with what it said', async () => {
    const impostor = dbus.sessionBus({ busAddress: bus.address });
    try {
      await impostor.requestName(watcherName, dbus.NameFlag.DO_NOT_QUEUE);
      const probed = await probeTrayHost({ env: env() });
      expect(probed.kind).toBe('unknown');
      expect(probed.kind === 'unknown' && probed.reason).toMatch(/^Error org\.freedesktop\.DBus\.Error\.\w+: /);
    } finally {
      impostor.disconnect();
    }
  });
});

describe('probeTrayHost without a usable bus', () => {
  let emptyFolder: string;
  beforeAll(async () => {
    emptyFolder = await mkdtemp(join(tmpdir(), 'perch-no-bus-'));
  });
  afterAll(() => rm(emptyFolder, { recursive: true, force: true }));

  it('no session bus address and no per-user bus: missing, and nothing is started to find out', async () => {
    await expect(probeTrayHost({ env: { PATH: process.env['PATH'], XDG_RUNTIME_DIR: emptyFolder } })).resolves.toEqual({
      kind: 'missing',
      reason: 'there is no session bus',
    });
  });

  it('a bus address nobody listens on: missing', async () => {
    const env = { PATH: process.env['PATH'], DBUS_SESSION_BUS_ADDRESS: `unix:path=${join(emptyFolder, 'gone')}` };
    await expect(probeTrayHost({ env })).resolves.toEqual({ kind: 'missing', reason: 'the session bus cannot be reached' });
  });

  it('no dbus-send: unknown', async () => {
    await expect(probeTrayHost({ env: { PATH: emptyFolder, DBUS_SESSION_BUS_ADDRESS: bus.address } })).resolves.toEqual({
      kind: 'unknown',
      reason: 'dbus-send is not installed',
    });
  });

  it('the per-user bus systemd starts is the session bus when the session names none', async () => {
    expect(sessionBusAddress({ XDG_RUNTIME_DIR: emptyFolder })).toBeNull();
    const runtimeDir = await mkdtemp(join(tmpdir(), 'perch-runtime-'));
    await writeFile(join(runtimeDir, 'bus'), '');
    expect(sessionBusAddress({ XDG_RUNTIME_DIR: runtimeDir })).toBe(`unix:path=${join(runtimeDir, 'bus')}`);
    await rm(runtimeDir, { recursive: true });
    expect(sessionBusAddress({ DBUS_SESSION_BUS_ADDRESS: 'unix:path=/x', XDG_RUNTIME_DIR: emptyFolder })).toBe('unix:path=/x');
  });
});
