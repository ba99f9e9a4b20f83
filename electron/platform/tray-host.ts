/**
 * Whether a Linux desktop can show Perch's tray icon. Electron's Linux tray is a
 * StatusNotifierItem: the desktop shows it only when a StatusNotifierHost (KDE Plasma, Xfce's and
 * other panels, GNOME with the AppIndicator extension) has registered with the
 * org.kde.StatusNotifierWatcher on the session bus. Stock GNOME has none, and then the icon never
 * appears. The probe asks the watcher with `dbus-send`, which every desktop with a session bus
 * installs (Electron has no D-Bus API, and Perch ships no D-Bus library).
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { TrayHost } from '../core/desktop/popover-at-start.js';
import { systemProgramEnv } from './system-program-env.js';

const watcherName = 'org.kde.StatusNotifierWatcher';
const watcherPath = '/StatusNotifierWatcher';
const probeTimeoutMs = 2_000;

/**
 * The session bus the desktop's programs use: the address the session gives, else the
 * per-user bus systemd starts at $XDG_RUNTIME_DIR/bus (libdbus's own default). Never dbus-launch's
 * autolaunch, which would start a bus of its own that no desktop listens on.
 */
export function sessionBusAddress(env: NodeJS.ProcessEnv): string | null {
  const given = env['DBUS_SESSION_BUS_ADDRESS'];
  if (given) return given;
  const runtimeDir = env['XDG_RUNTIME_DIR'];
  if (runtimeDir && existsSync(path.join(runtimeDir, 'bus'))) return `unix:path=${path.join(runtimeDir, 'bus')}`;
  return null;
}

export function probeTrayHost(options: { env?: NodeJS.ProcessEnv; timeoutMs?: number } = {}): Promise<TrayHost> {
  const env = options.env ?? process.env;
  const timeoutMs = options.timeoutMs ?? probeTimeoutMs;
  const address = sessionBusAddress(env);
  if (address === null) return Promise.resolve({ kind: 'missing', reason: 'there is no session bus' });
  const args = [
    `--bus=${address}`,
    '--print-reply=literal',
    `--reply-timeout=${timeoutMs}`,
    `--dest=${watcherName}`,
    watcherPath,
    'org.freedesktop.DBus.Properties.Get',
    `string:${watcherName}`,
    'string:IsStatusNotifierHostRegistered',
  ];
  return new Promise((resolve) => {
    // The reply timeout bounds the call; this one bounds connecting to a bus that never answers.
    execFile('dbus-send', args, { env: systemProgramEnv(env), timeout: timeoutMs + 1_000 }, (error, stdout, stderr) => {
      resolve(error ? failedProbe(error, stderr) : answeredProbe(stdout));
    });
  });
}

function answeredProbe(stdout: string): TrayHost {
  if (/\bboolean true\b/.test(stdout)) return { kind: 'registered' };
  if (/\bboolean false\b/.test(stdout))
    return { kind: 'missing', reason: 'no StatusNotifierHost is registered with the StatusNotifierWatcher' };
  return { kind: 'unknown', reason: `the StatusNotifierWatcher answered ${JSON.stringify(stdout.trim())}` };
}

function failedProbe(error: Error & { code?: unknown; killed?: boolean }, stderr: string): TrayHost {
  if (error.code === 'ENOENT') return { kind: 'unknown', reason: 'dbus-send is not installed' };
  if (error.killed) return { kind: 'unknown', reason: 'the session bus did not answer in time' };
  if (/ServiceUnknown|NameHasNoOwner/.test(stderr)) return { kind: 'missing', reason: `no ${watcherName} on the session bus` };
  if (/Failed to open connection|Unable to autolaunch|Failed to connect/i.test(stderr)) {
    return { kind: 'missing', reason: 'the session bus cannot be reached' };
  }
  return { kind: 'unknown', reason: stderr.trim().split('\n')[0] || error.message };
}
