/**
 * Whether the desktop portal offers global shortcuts, asked of the session bus: under Wayland,
 * Electron's globalShortcut binds keys only through org.freedesktop.portal.GlobalShortcuts on
 * org.freedesktop.portal.Desktop, and xdg-desktop-portal exports that interface only where the
 * desktop's own portal implements it. Without it, `globalShortcut.register` still answers true
 * and the keys never arrive. The interface's `version` property is read: an answer means present.
 */
import dbus from 'dbus-next';
import type { ShortcutPortal } from '../core/desktop/global-shortcut.js';

const portalName = 'org.freedesktop.portal.Desktop';
const portalPath = '/org/freedesktop/portal/desktop';
export const shortcutsInterface = 'org.freedesktop.portal.GlobalShortcuts';
const probeTimeoutMs = 3_000;

/** The bus' errors that mean the portal, or its GlobalShortcuts, is not there. */
const absentErrors = new Set([
  // No portal at all, and none the bus could start.
  'org.freedesktop.DBus.Error.ServiceUnknown',
  'org.freedesktop.DBus.Error.NameHasNoOwner',
  // The portal, without the interface: GDBus answers InvalidArgs ("No such interface"); others UnknownInterface.
  'org.freedesktop.DBus.Error.InvalidArgs',
  'org.freedesktop.DBus.Error.UnknownInterface',
  'org.freedesktop.DBus.Error.UnknownProperty',
  'org.freedesktop.DBus.Error.UnknownObject',
  'org.freedesktop.DBus.Error.UnknownMethod',
]);

export async function probeShortcutPortal(address: string | null, timeoutMs = probeTimeoutMs): Promise<ShortcutPortal> {
  if (address === null) return { kind: 'missing', reason: 'there is no session bus' };
  const bus = dbus.sessionBus({ busAddress: address });
  // The connection's failure (no such socket, refused) comes as an event, not as the call's answer.
  const unreachable = new Promise<ShortcutPortal>((resolve) => {
    bus.on('error', (error: unknown) =>
      resolve({ kind: 'missing', reason: `the session bus cannot be reached (${error instanceof Error ? error.message : String(error)})` }),
    );
  });
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<ShortcutPortal>((resolve) => {
    timer = setTimeout(() => resolve({ kind: 'unknown', reason: 'the session bus did not answer in time' }), timeoutMs);
  });
  try {
    return await Promise.race([askVersion(bus), unreachable, timedOut]);
  } finally {
    clearTimeout(timer);
    bus.disconnect();
  }
}

async function askVersion(bus: dbus.MessageBus): Promise<ShortcutPortal> {
  try {
    const reply = await bus.call(
      new dbus.Message({
        destination: portalName,
        path: portalPath,
        interface: 'org.freedesktop.DBus.Properties',
        member: 'Get',
        signature: 'ss',
        body: [shortcutsInterface, 'version'],
      }),
    );
    const version: unknown = reply?.body[0] instanceof dbus.Variant ? reply.body[0].value : undefined;
    if (typeof version === 'number') return { kind: 'present', version };
    return { kind: 'unknown', reason: `the portal answered ${JSON.stringify(reply?.body ?? null)} for the GlobalShortcuts version` };
  } catch (error) {
    if (error instanceof dbus.DBusError && absentErrors.has(error.type)) {
      return { kind: 'missing', reason: `the desktop portal has no GlobalShortcuts (${error.type}: ${error.text})` };
    }
    return { kind: 'unknown', reason: error instanceof Error ? error.message : String(error) };
  }
}
