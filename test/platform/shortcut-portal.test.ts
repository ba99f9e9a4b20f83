/**
 * Whether the desktop portal offers global shortcuts, asked over real D-Bus: a private bus of the
 * test's own, with a stand-in for org.freedesktop.portal.Desktop that has the GlobalShortcuts
 * interface (GNOME 48+, KDE Plasma 5.27+) or only others (GNOME 46, as on Ubuntu 24.04).
 */
import dbus from 'dbus-next';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { probeShortcutPortal, shortcutsInterface } from '../../electron/platform/shortcut-portal.js';
import { startPrivateSessionBus, type PrivateSessionBus } from '../support/session-bus.js';

const Interface = dbus.interface.Interface;

/** The portal's GlobalShortcuts, as far as the probe reads it: its version. */
class GlobalShortcutsPortal extends Interface {
  version = 1;
}
GlobalShortcutsPortal.configureMembers({ properties: { version: { signature: 'u', access: 'read' } } });

/** Another portal interface, which every portal backend has. */
class SettingsPortal extends Interface {
  version = 2;
}
SettingsPortal.configureMembers({ properties: { version: { signature: 'u', access: 'read' } } });

let sessionBus: PrivateSessionBus;
let portal: dbus.MessageBus | null = null;

beforeAll(async () => {
  sessionBus = await startPrivateSessionBus({ activation: false });
});

afterEach(() => {
  portal?.disconnect();
  portal = null;
});

afterAll(() => sessionBus.stop());

/** The portal on the bus, with these interfaces on its object. */
async function servePortal(interfaces: InstanceType<typeof Interface>[]): Promise<void> {
  portal = dbus.sessionBus({ busAddress: sessionBus.address });
  for (const object of interfaces) portal.export('/org/freedesktop/portal/desktop', object);
  expect(await portal.requestName('org.freedesktop.portal.Desktop', dbus.NameFlag.DO_NOT_QUEUE)).toBe(dbus.RequestNameReply.PRIMARY_OWNER);
}

describe('the GlobalShortcuts portal probe', () => {
  it('finds the interface and its version where the desktop implements it', async () => {
    await servePortal([new GlobalShortcutsPortal(shortcutsInterface), new SettingsPortal('org.freedesktop.portal.Settings')]);
    expect(await probeShortcutPortal(sessionBus.address)).toEqual({ kind: 'present', version: 1 });
  });

  it('finds it missing on a portal without it (GNOME 46), and where no portal runs', async () => {
    await servePortal([new SettingsPortal('org.freedesktop.portal.Settings')]);
    const without = await probeShortcutPortal(sessionBus.address);
    expect(without).toMatchObject({ kind: 'missing', reason: expect.stringContaining('the desktop portal has no GlobalShortcuts') });
    portal?.disconnect();
    portal = null;
    // A bare bus starts no portal on demand.
    expect(await probeShortcutPortal(sessionBus.address)).toMatchObject({
      kind: 'missing',
      reason: expect.stringContaining('org.freedesktop.DBus.Error.ServiceUnknown'),
    });
  });

  it('finds it missing without a session bus, or one that cannot be reached', async () => {
    expect(await probeShortcutPortal(null)).toEqual({ kind: 'missing', reason: 'there is no session bus' });
    expect(await probeShortcutPortal('unix:path=/nonexistent/perch-bus')).toMatchObject({
      kind: 'missing',
      reason: expect.stringContaining('the session bus cannot be reached'),
    });
  });

  it('cannot tell, and says so, when the bus never answers', async () => {
    // A socket that takes the connection and never speaks.
    const folder = mkdtempSync(join(tmpdir(), 'perch-silent-bus-'));
    const socket = join(folder, 'bus');
    const silent: Server = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(socket, resolve));
    try {
      expect(await probeShortcutPortal(`unix:path=${socket}`, 300)).toEqual({
        kind: 'unknown',
        reason: 'the session bus did not answer in time',
      });
    } finally {
      silent.close();
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
