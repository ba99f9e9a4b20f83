import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DateTime } from 'luxon';
import type { ApiClient } from '../../electron/api/client.js';
import { sessionKeepingClient } from './session-keeping-client.js';
import type { Clock } from '../../electron/core/clock.js';
import { success } from '../../electron/core/errors.js';
import { memorySecretStore, type SecretStore } from '../../electron/core/storage/secret-store.js';
import type { LocalProfile } from '../../electron/core/local-service/local-account.js';
import type { LocalService } from '../../electron/core/local-service/local-service.js';
import type { NotificationInvocation, NotificationRequest, Notifier, ShowResult } from '../../electron/core/notifications/notifier.js';
import { createPerchCore, type PerchCore } from '../../electron/core/perch-core.js';
import { demoPassword, seedDemo, type DemoOrganisation } from '../../electron/service/seed/demo.js';
import { ensureLocalAccount } from '../../electron/service/seed/local-account.js';
import { startService, type RunningService } from '../../electron/service/service.js';
import { ManualCoreClock } from './manual-clock.js';
import { testTimeFormat } from './snapshots.js';

export interface RecordedRequest {
  method: string;
  /** Below the API root, e.g. `/Reservations/`. */
  path: string;
  query: URLSearchParams;
  /** The JSON body sent, parsed. */
  body: unknown;
  /** The core clock's time when the request was sent. */
  at: number;
}

/**
 * Answers instead of the service when it returns a Response; null lets the request through. A
 * promise holds the request back until it settles (a slow server), then does as its value says.
 */
export type Interceptor = (request: { method: string; path: string }) => Response | null | Promise<Response | null>;

export interface RecordingNotifier extends Notifier {
  shown: NotificationRequest[];
  /** What `show` answers next; a success by default. */
  answer: ShowResult;
  /** As the desktop does when the user clicks a shown notification or presses one of its buttons. */
  respond(invocation: NotificationInvocation): void;
}

export function recordingNotifier(): RecordingNotifier {
  const listeners = new Set<(invocation: NotificationInvocation) => void>();
  const notifier: RecordingNotifier = {
    shown: [],
    answer: { ok: true, value: {} },
    async show(notification) {
      notifier.shown.push(notification);
      return notifier.answer;
    },
    onResponse(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    respond(invocation) {
      for (const listener of listeners) listener(invocation);
    },
  };
  return notifier;
}

/**
 * The core's local service played by a service running in this process: it provisions the
 * person's account as the host process does, and stays at the same address across restarts.
 */
export function inProcessLocalService(service: () => RunningService): LocalService {
  let userName = '';
  return {
    pid: null,
    async ensureRunning(account) {
      if (account) ({ userName } = await ensureLocalAccount(service().store, account));
      return success({ apiRoot: service().apiRoot, userName });
    },
    async stop() {},
  };
}

export interface CoreUnderTest<N extends Notifier = RecordingNotifier> {
  core: PerchCore;
  dataDir: string;
  notifier: N;
  secrets: SecretStore;
}

interface CoreOptions {
  dataDir?: string;
  secrets?: SecretStore;
  local?: boolean;
  monotonicMs?: () => number;
  /** Who "Try it on this computer" provisions; the machine's login and zone otherwise. */
  localProfile?: () => LocalProfile;
  /** The core's clock: the harness's manual clock by default, or one that wraps it (to watch its timers). */
  clock?: Clock;
}

export interface CoreHarness {
  org: DemoOrganisation;
  clock: ManualCoreClock;
  apiRoot: string;
  service: RunningService;
  /** The service's time is the core clock's plus this many minutes (a lapsed session, say). */
  serviceOffset: { minutes: number };
  requests: RecordedRequest[];
  /** What the cores send goes through this fetch: recorded, and optionally answered by the test. */
  fetch: typeof fetch;
  intercept(interceptor: Interceptor | null): void;
  /** A core on the harness's clock and service, with the test's own notifier (a real one)… */
  newCore<N extends Notifier>(options: CoreOptions & { notifier: N }): CoreUnderTest<N>;
  /** …or with a recording one. */
  newCore(options?: CoreOptions & { notifier?: RecordingNotifier }): CoreUnderTest;
  /** Moves time, letting every core finish what each timer started (and what was under way before). */
  advance(by: Parameters<ManualCoreClock['advance']>[0]): Promise<void>;
  idle(): Promise<void>;
  /** A client signed in as a demo user, for setting the scene (not recorded). */
  clientFor(userName: string): Promise<ApiClient>;
  stopService(): Promise<void>;
  /** A new service on the same database file and port. */
  restartService(): Promise<void>;
  dispose(): Promise<void>;
}

/**
 * The demo organisation served in-process over HTTP, whose clock is the cores' ManualCoreClock
 * (plus an offset the test may set), and cores wired to it with a recording fetch.
 */
export async function startCoreHarness(start: DateTime): Promise<CoreHarness> {
  const folder = mkdtempSync(join(tmpdir(), 'perch-core-'));
  const database = join(folder, 'perch.db');
  const clock = new ManualCoreClock(start);
  const serviceOffset = { minutes: 0 };
  const serviceClock = { now: () => clock.now().toUTC().plus({ minutes: serviceOffset.minutes }) };
  let service = await startService({ database, clock: serviceClock });
  const org = await seedDemo(service.store);
  const apiRoot = service.apiRoot;
  const port = Number(new URL(apiRoot).port);
  const requests: RecordedRequest[] = [];
  let interceptor: Interceptor | null = null;
  const cores: CoreUnderTest<Notifier>[] = [];
  let serviceRunning = true;

  const recordingFetch: typeof fetch = async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
    const path = url.pathname.replace(/^.*\/Web\/Services\/index\.php/, '');
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
    requests.push({ method, path, query: url.searchParams, body, at: clock.now().toMillis() });
    const replaced = (await interceptor?.({ method, path })) ?? null;
    if (replaced !== null) return replaced;
    return globalThis.fetch(input, init);
  };

  const stopService = async () => {
    if (!serviceRunning) return;
    serviceRunning = false;
    await service.close();
  };

  function newCore<N extends Notifier>(options: CoreOptions & { notifier: N }): CoreUnderTest<N>;
  function newCore(options?: CoreOptions & { notifier?: RecordingNotifier }): CoreUnderTest;
  function newCore(options: CoreOptions & { notifier?: Notifier } = {}): CoreUnderTest<Notifier> {
    const dataDir = options.dataDir ?? mkdtempSync(join(folder, 'data-'));
    const notifier = options.notifier ?? recordingNotifier();
    const secrets = options.secrets ?? memorySecretStore('test: memory only');
    const core = createPerchCore({
      dataDir,
      clock: options.clock ?? clock,
      secrets,
      notifier,
      fetch: recordingFetch,
      // Whatever the machine's locale: the tests read a 24-hour British clock.
      timeFormat: testTimeFormat,
      ...(options.local !== false && { localService: inProcessLocalService(() => service) }),
      ...(options.monotonicMs !== undefined && { monotonicMs: options.monotonicMs }),
      ...(options.localProfile !== undefined && { localProfile: options.localProfile }),
      log: () => {},
    });
    const created = { core, dataDir, notifier, secrets };
    cores.push(created);
    return created;
  }

  const idle = async () => {
    await Promise.all(cores.map(({ core }) => core.idle()));
  };

  return {
    org,
    clock,
    apiRoot,
    get service() {
      return service;
    },
    serviceOffset,
    requests,
    fetch: recordingFetch,
    intercept(next) {
      interceptor = next;
    },
    newCore,
    async advance(by) {
      // Work already under way belongs to the present moment, not to the time moved to.
      await idle();
      await clock.advance(by, idle);
      await idle();
    },
    idle,
    clientFor: (userName) => demoClient(apiRoot, userName),
    stopService,
    async restartService() {
      await stopService();
      service = await startService({ database, clock: serviceClock, port });
      serviceRunning = true;
    },
    async dispose() {
      for (const { core } of cores) await core.stop();
      if (serviceRunning) await service.close();
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

/** A wire client signed in as one of the demo organisation's people. */
export async function demoClient(apiRoot: string, userName: string): Promise<ApiClient> {
  const client = sessionKeepingClient({ apiRoot });
  const answer = await client.authenticate({ body: { username: userName, password: demoPassword } });
  if (!answer.ok) throw new Error(`sign-in of ${userName} failed: ${answer.error.message}`);
  return client;
}

export const demoSignIn = (username = 'user', staySignedIn = false) => ({
  server: { kind: 'local' as const },
  username,
  password: demoPassword,
  staySignedIn,
});
