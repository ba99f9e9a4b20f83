/**
 * Perch in a real Electron: the built shell, preload and renderer together, on a private D-Bus
 * session the test owns, with a stand-in tray host (StatusNotifierWatcher) and notification
 * server on it. Needs the Electron binary, which cannot be downloaded on our build machines, and
 * Linux (the private bus): elsewhere the test is reported as skipped, by name, with the reason.
 * `require('electron')` is not used to find the binary, since outside Electron it tries to
 * download it.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { DateTime } from 'luxon';
import { describe, expect, it, vi } from 'vitest';
import {
  commandNames,
  type BookRequest,
  type BridgeResult,
  type SettingsPatch,
  type StateSnapshot,
} from '../../electron/bridge/contract.js';
import { appEntryUrl } from '../../electron/core/desktop/security.js';
import { buildApp } from '../../build/scripts/app-build.js';
import { startNotificationServer } from '../support/notification-server.js';
import { startPrivateSessionBus } from '../support/session-bus.js';
import { startStatusNotifierWatcher } from '../support/status-notifier-watcher.js';

type Electron = typeof import('electron');

/** The part of Playwright's `_electron` API this test uses; Playwright is loaded only when needed. */
interface ConsoleMessage {
  type(): string;
  text(): string;
}
interface ElectronPage {
  url(): string;
  waitForLoadState(state: 'domcontentloaded' | 'load'): Promise<void>;
  reload(): Promise<unknown>;
  on(event: 'console', listener: (message: ConsoleMessage) => void): void;
  getByRole(role: 'button', options: { name: string }): { click(): Promise<void> };
  evaluate<R, A>(fn: (arg: A) => R | Promise<R>, arg?: A): Promise<R>;
  screenshot(options: { path: string }): Promise<unknown>;
}
interface ElectronApplication {
  firstWindow(): Promise<ElectronPage>;
  evaluate<R>(fn: (electron: Electron) => R | Promise<R>): Promise<R>;
  process(): { pid?: number; exitCode: number | null; once(event: 'exit', listener: () => void): void };
  close(): Promise<void>;
}
interface PlaywrightElectron {
  launch(options: { executablePath: string; args: string[]; env: Record<string, string>; timeout: number }): Promise<ElectronApplication>;
}

/** The bridge as the page sees it. */
interface PerchBridge {
  getState(): Promise<StateSnapshot>;
  setSettings(patch: SettingsPatch): Promise<BridgeResult<unknown>>;
  book(request: BookRequest): Promise<BridgeResult<unknown>>;
}

const appRoot = path.resolve(import.meta.dirname, '../..');

function findElectronBinary(): { binary: string } | { reason: string } {
  if (process.platform !== 'linux') return { reason: 'the test runs Perch on a private D-Bus session, which needs Linux' };
  let packageDir: string;
  try {
    packageDir = path.dirname(createRequire(import.meta.url).resolve('electron/package.json'));
  } catch {
    return { reason: 'the electron package is not installed' };
  }
  const pathFile = path.join(packageDir, 'path.txt');
  if (!existsSync(pathFile)) return { reason: `no Electron binary: ${pathFile} is missing (the binary download failed or was skipped)` };
  const dist = process.env['ELECTRON_OVERRIDE_DIST_PATH'] ?? path.join(packageDir, 'dist');
  const binary = path.join(dist, readFileSync(pathFile, 'utf8').trim());
  return existsSync(binary) ? { binary } : { reason: `no Electron binary at ${binary}` };
}

const testName = 'starts Perch in Electron: tray on the bus, popover shown, signed in on this computer, notified, and quit cleanly';
const found = findElectronBinary();
const electronBinary = 'binary' in found ? found.binary : null;
if ('reason' in found) console.info(`Skipped "Perch in Electron > ${testName}": ${found.reason}.`);

async function loadPlaywrightElectron(): Promise<PlaywrightElectron> {
  // Any of these carries `_electron`; the names are variables so type-checking does not need them installed.
  for (const name of ['playwright', 'playwright-core', '@playwright/test']) {
    try {
      const module = (await import(name)) as { _electron?: PlaywrightElectron };
      if (module._electron) return module._electron;
    } catch {
      // Not installed; try the next.
    }
  }
  throw new Error('The Electron test needs Playwright: npm install --save-dev @playwright/test');
}

/** A process that has not exited (a zombie has: only its parent has yet to collect it). */
function isRunning(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

/** Every process below `pid`: Electron's zygote, GPU and utility processes, and whatever they started. */
function descendantsOf(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
    } catch {
      // Gone between listing and reading.
    }
  }
  const found: number[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    for (const child of children.get(queue.shift()!) ?? []) {
      found.push(child);
      queue.push(child);
    }
  }
  return found;
}

describe('Perch in Electron', () => {
  it.skipIf(electronBinary === null)(testName, { timeout: 120_000 }, async () => {
    await buildApp();
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'perch-electron-'));
    // The keyring keeps the local account's password; the stand-ins own their names before Perch starts.
    const bus = await startPrivateSessionBus({ keyring: true });
    const trayHost = await startStatusNotifierWatcher(bus.address, { hostRegistered: true });
    const notifications = await startNotificationServer(bus.address);
    const electron = await loadPlaywrightElectron();
    const perch = await electron.launch({
      executablePath: electronBinary!,
      // A fresh data folder: nothing of the developer's own Perch is read or changed.
      args: [appRoot, `--user-data-dir=${dataDir}`],
      env: { ...(process.env as Record<string, string>), XDG_CONFIG_HOME: dataDir, DBUS_SESSION_BUS_ADDRESS: bus.address },
      timeout: 30_000,
    });
    const electronPid = perch.process().pid!;
    let quitCleanly = false;
    try {
      const page = await perch.firstWindow();
      await page.waitForLoadState('domcontentloaded');
      expect(page.url()).toBe(appEntryUrl);

      // The tray icon registers with the desktop's watcher, as a StatusNotifierItem.
      expect(await trayHost.waitForItem()).toMatch(/\S/);

      // A first run: nobody is signed in, so the popover opens by itself.
      await vi.waitFor(
        async () => expect(await perch.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows()[0]?.isVisible())).toBe(true),
        {
          timeout: 10_000,
        },
      );

      // The app page loads under its CSP without a single refusal.
      const consoleProblems: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error' || /Content Security Policy|Refused to/i.test(message.text())) consoleProblems.push(message.text());
      });
      await page.reload();
      await page.waitForLoadState('load');

      const exposed = await page.evaluate(() => {
        const scope = globalThis as unknown as { perch: Record<string, unknown>; require?: unknown; process?: unknown };
        return { bridge: Object.keys(scope.perch).sort(), require: typeof scope.require, process: typeof scope.process };
      });
      expect(exposed).toEqual({ bridge: [...commandNames, 'on'].sort(), require: 'undefined', process: 'undefined' });

      // "Try it on this computer": the local service in an Electron utility process, SQLite inside Electron.
      // Shown again first, in case something took the focus (and so hid the popover) meanwhile:
      // a hidden window stops rendering, and a click needs a rendered button.
      await perch.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows()[0]?.show());
      await page.getByRole('button', { name: 'Try it on this computer' }).click();
      const getState = () => page.evaluate(() => (globalThis as unknown as { perch: PerchBridge }).perch.getState());
      await vi.waitFor(async () => expect((await getState()).phase).toBe('ready'), { timeout: 30_000, interval: 250 });
      const { freeNow } = await getState();
      expect(freeNow.length).toBeGreaterThan(0);
      expect(consoleProblems).toEqual([]);

      // A booking from the next half hour, with start reminders two hours ahead: its reminder is due at once.
      const now = DateTime.now();
      const start = now.startOf('hour').plus({ minutes: now.minute < 30 ? 30 : 60 });
      const booking: BookRequest = {
        resourceId: freeNow[0]!.resourceId,
        start: start.toISO({ suppressMilliseconds: true })!,
        durationMinutes: 30,
        title: 'Electron check',
      };
      const settings: SettingsPatch = { startReminderMinutes: 120 };
      expect(
        await page.evaluate((patch) => (globalThis as unknown as { perch: PerchBridge }).perch.setSettings(patch), settings),
      ).toMatchObject({ ok: true });
      expect(
        await page.evaluate((request) => (globalThis as unknown as { perch: PerchBridge }).perch.book(request), booking),
      ).toMatchObject({ ok: true });
      const notification = await notifications.waitForNotification((shown) => shown.appName === 'Perch', 30_000);
      expect(notification.appName).toBe('Perch');
      expect(notification.actions.length).toBeGreaterThan(0);

      const artifacts = path.join(appRoot, 'test-results');
      await mkdir(artifacts, { recursive: true });
      await page.screenshot({ path: path.join(artifacts, 'electron-popover.png') });

      // The process stayed up all along; Quit ends it and everything it started within 5 s.
      expect(perch.process().exitCode).toBeNull();
      const children = descendantsOf(electronPid);
      expect(children.length).toBeGreaterThan(0);
      const exited = new Promise<void>((resolve) => perch.process().once('exit', resolve));
      const quitAt = Date.now();
      // The evaluation's answer may never come: the app is gone before it can send it.
      void perch.evaluate(({ app }) => app.quit()).catch(() => undefined);
      await exited;
      await vi.waitFor(() => expect(children.filter(isRunning)).toEqual([]), {
        timeout: Math.max(0, 5_000 - (Date.now() - quitAt)),
        interval: 100,
      });
      expect(Date.now() - quitAt).toBeLessThan(5_000);
      quitCleanly = true;
    } finally {
      if (!quitCleanly) await perch.close().catch(() => undefined);
      await notifications.stop();
      await trayHost.stop();
      await bus.stop();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
