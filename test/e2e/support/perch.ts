/**
 * One world per test: a fresh database seeded with the demo organisation, the local service on a
 * loopback port, a real core in this worker process, and the page's `window.perch` bound to it.
 *
 * Time runs at real speed but starts on the next Monday at 10:31 in London: the demo's head office
 * is only reservable on weekdays 08:00–18:00, and a run on a weekend or at night must see the same
 * open office. The page honours the core's clock through the snapshot's `now`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, test as base, type Page, type TestInfo } from '@playwright/test';
import { DateTime } from 'luxon';
import type { ApiClient } from '../../../electron/api/client.js';
import { formatWireDateTime } from '../../../electron/api/dates.js';
import { commandNames, eventNames, type CommandName, type StateSnapshot } from '../../../electron/bridge/contract.js';
import { defaultTimeFormatRules } from '../../../electron/bridge/format.js';
import type { Clock } from '../../../electron/core/clock.js';
import { memorySecretStore } from '../../../electron/core/storage/secret-store.js';
import { localProfile } from '../../../electron/core/local-service/local-account.js';
import { createPerchCore, type PerchCore } from '../../../electron/core/perch-core.js';
import { seedDemo, type DemoOrganisation } from '../../../electron/service/seed/demo.js';
import { startService, type RunningService } from '../../../electron/service/service.js';
import { demoClient, demoSignIn, inProcessLocalService, recordingNotifier, type RecordingNotifier } from '../../support/core-harness.js';
import { shiftedClock } from '../../support/shifted-clock.js';

// These run in the page, where `window` exists; the Node project's lib has no DOM.
declare const window: Record<string, unknown>;

export const officeZone = 'Europe/London';

/** The browser's locale in playwright.config.ts, and so the OS's as far as the core is told, unless a test uses another. */
const pageLocale = 'en-GB';

/** The next Monday after today at `time` in London: an open office whatever the real day is. */
export function nextOfficeMorning(time = '10:31', from = DateTime.now()): DateTime {
  const [hour, minute] = time.split(':').map(Number) as [number, number];
  const today = from.setZone(officeZone).startOf('day');
  const monday = today.plus({ days: 8 - today.weekday });
  return monday.set({ hour, minute, second: 0, millisecond: 0 });
}

export interface PerchWorld {
  org: DemoOrganisation;
  clock: Clock;
  core: PerchCore;
  notifier: RecordingNotifier;
  readonly service: RunningService;
  readonly apiRoot: string;
  /** A client signed in as a demo user, for setting the scene. */
  clientFor(userName: string): Promise<ApiClient>;
  /** Signs the core in as a demo user without the UI: the page then opens on cached state. */
  signIn(userName?: string): Promise<StateSnapshot>;
  /** Loads the popover and waits for the first state to be drawn. */
  open(): Promise<void>;
  stopService(): Promise<void>;
  /** A new service on the same database file and port. */
  restartService(): Promise<void>;
  /** A wire date-time in the office's zone on the world's today. */
  at(time: string, days?: number): string;
}

/** Binds `window.perch` to a core: one exposed function for commands, events pushed by evaluate. */
export async function bindPerch(page: Page, core: PerchCore): Promise<void> {
  await page.exposeFunction('__perchInvoke', (name: CommandName, request: unknown) =>
    (core.handlers[name] as (request: unknown) => Promise<unknown>)(request),
  );
  await page.addInitScript((names: string[]) => {
    type Listener = (payload: unknown) => void;
    const listeners = new Map<string, Set<Listener>>();
    const invoke = (window as { __perchInvoke: (name: string, request: unknown) => Promise<unknown> }).__perchInvoke;
    const api: Record<string, unknown> = {
      on(event: string, listener: Listener) {
        const set = listeners.get(event) ?? new Set<Listener>();
        listeners.set(event, set);
        set.add(listener);
        return () => set.delete(listener);
      },
    };
    for (const name of names) api[name] = (request?: unknown) => invoke(name, request);
    Object.defineProperty(window, '__perchDispatch', {
      value: (event: string, payload: unknown) => {
        for (const listener of listeners.get(event) ?? []) listener(payload);
      },
    });
    Object.defineProperty(window, 'perch', { value: Object.freeze(api) });
  }, commandNames as string[]);
  for (const event of eventNames) {
    core.on(event, (payload) => {
      // A page between loads, or closed, simply misses the event; the next getState catches up.
      page
        .evaluate(([name, value]) => (window as { __perchDispatch?: (e: string, p: unknown) => void }).__perchDispatch?.(name, value), [
          event,
          payload,
        ] as const)
        .catch(() => {});
    });
  }
}

export async function startWorld(
  start = nextOfficeMorning(),
  locale = pageLocale,
): Promise<PerchWorld & { page?: Page; dispose(): Promise<void> }> {
  const folder = mkdtempSync(join(tmpdir(), 'perch-e2e-'));
  const database = join(folder, 'perch.db');
  const clock = shiftedClock(start);
  const serviceClock = { now: () => clock.now().toUTC() };
  let service = await startService({ database, clock: serviceClock });
  const org = await seedDemo(service.store);
  const apiRoot = service.apiRoot;
  const port = Number(new URL(apiRoot).port);
  let running = true;
  const notifier = recordingNotifier();
  const core = createPerchCore({
    dataDir: join(folder, 'data'),
    clock,
    secrets: memorySecretStore('e2e: memory only'),
    notifier,
    localService: inProcessLocalService(() => service),
    // As the shell passes the OS's regional format: the page's own locale (the config's), whatever the machine's.
    timeFormat: defaultTimeFormatRules(locale),
    // Whoever runs the tests, the person at this computer is the same one.
    localProfile: () => localProfile('ada.lovelace', officeZone),
    log: () => {},
  });
  await core.start();
  const stopService = async () => {
    if (!running) return;
    running = false;
    await service.close();
  };
  return {
    org,
    clock,
    core,
    notifier,
    get service() {
      return service;
    },
    apiRoot,
    clientFor: (userName) => demoClient(apiRoot, userName),
    async signIn(userName = 'user') {
      const result = await core.handlers.signIn(demoSignIn(userName));
      if (!result.ok) throw new Error(`core sign-in failed: ${result.error.message}`);
      // Sign-in answers with the user's list; the scene is set once Free now's reads are over too.
      await core.idle();
      return core.snapshot();
    },
    async open() {
      throw new Error('open() needs the page fixture');
    },
    stopService,
    async restartService() {
      await stopService();
      service = await startService({ database, clock: serviceClock, port });
      running = true;
    },
    at(time, days = 0) {
      const [hour, minute] = time.split(':').map(Number) as [number, number];
      return formatWireDateTime(clock.now().setZone(officeZone).plus({ days }).set({ hour, minute, second: 0, millisecond: 0 }));
    },
    async dispose() {
      await core.stop();
      await stopService();
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

export const appUrl = () => {
  const url = process.env.PERCH_E2E_URL;
  if (!url) throw new Error('PERCH_E2E_URL is not set: run through playwright.config.ts (its global setup serves the renderer).');
  return url;
};

export const test = base.extend<{ officeTime: string; perch: PerchWorld }>({
  /** The London wall-clock time the world starts at (on the next Monday). */
  officeTime: ['10:31', { option: true }],
  perch: async ({ page, officeTime, locale }, use) => {
    // Only loopback traffic: anything else is a bug in the page.
    await page.route(/^(?!https?:\/\/127\.0\.0\.1[:/]|data:|blob:)/, (route) => route.abort());
    const world = await startWorld(nextOfficeMorning(officeTime), locale);
    await bindPerch(page, world.core);
    world.open = async () => {
      await page.goto(appUrl());
      await expect(page.getByText('Loading…')).toHaveCount(0);
    };
    await use(world);
    await page.close();
    await world.dispose();
  },
});

export { expect };

/** Saves a full-page screenshot into the test's output folder (kept as a CI artifact). */
export async function screenshot(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  const path = testInfo.outputPath(`${name}.png`);
  await page.screenshot({ path, fullPage: true });
  await testInfo.attach(name, { path, contentType: 'image/png' });
}

/** axe-core on the page as it is now: no serious or critical violations. */
export async function expectAccessible(page: Page, testInfo: TestInfo, view: string): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  await testInfo.attach(`axe-${view}.json`, { body: JSON.stringify(results.violations, null, 2), contentType: 'application/json' });
  const severe = results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.impact} ${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(' ')).join(', ')})`,
    );
  // Soft: the scenario goes on, so one run reports both the accessibility finding and the behaviour.
  expect.soft(severe, `axe violations in ${view}`).toEqual([]);
}
