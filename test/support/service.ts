import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DateTime } from 'luxon';
import { ManualClock } from './manual-clock.js';
import type { ServiceConfig } from '../../electron/service/config.js';
import { createAdministrator, insertUser, type UserSeed } from '../../electron/service/seed/bootstrap.js';
import { demoPassword, seedDemo } from '../../electron/service/seed/demo.js';
import { startService, type RunningService } from '../../electron/service/service.js';
import type { Store } from '../../electron/service/store/database.js';

export const adminCredentials = { username: 'admin', password: 'admin-password-1' } as const;

export interface WireAnswer {
  status: number;
  headers: Headers;
  /** Parsed JSON, or the raw text when the body is not JSON. */
  body: any;
}

export interface Session {
  sessionToken: string;
  userId: number;
}

export interface TestService extends RunningService {
  clock: ManualClock;
  /** A raw HTTP call, for asserting exact wire answers. */
  call(
    method: string,
    path: string,
    options?: { body?: unknown; rawBody?: string; session?: Session; headers?: Record<string, string> },
  ): Promise<WireAnswer>;
  signIn(username: string, password: string): Promise<Session>;
  admin: Session;
  /** The SQLite file the service keeps its data in. */
  databaseFile: string;
  dispose(): Promise<void>;
}

/**
 * The local service in-process on a fresh temporary database, with one application administrator
 * and a clock the test moves by hand.
 */
export async function startTestService(
  options: {
    config?: Partial<ServiceConfig>;
    now?: DateTime;
    /** Seeds the store instead of the default administrator; answers whom `service.admin` signs in as. */
    seed?: (store: Store) => Promise<{ username: string; password: string }>;
  } = {},
): Promise<TestService> {
  const folder = mkdtempSync(join(tmpdir(), 'perch-test-'));
  const clock = new ManualClock(options.now ?? DateTime.utc().startOf('minute'));
  const databaseFile = join(folder, 'perch.db');
  const running = await startService({ database: databaseFile, clock, config: options.config ?? {} });
  let administrator: { username: string; password: string } = adminCredentials;
  if (options.seed) {
    administrator = await options.seed(running.store);
  } else {
    await createAdministrator(running.store, {
      userName: adminCredentials.username,
      emailAddress: 'admin@example.org',
      password: adminCredentials.password,
      timezone: 'Europe/Berlin',
    });
  }

  const call: TestService['call'] = async (method, path, callOptions = {}) => {
    const headers: Record<string, string> = { ...callOptions.headers };
    if (callOptions.session) {
      headers['X-Booked-SessionToken'] = callOptions.session.sessionToken;
      headers['X-Booked-UserId'] = String(callOptions.session.userId);
    }
    let body: string | undefined = callOptions.rawBody;
    if (callOptions.body !== undefined) {
      body = JSON.stringify(callOptions.body);
      headers['Content-Type'] = 'application/json';
    }
    const response = await fetch(running.apiRoot + path, { method, headers, redirect: 'manual', ...(body !== undefined && { body }) });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // not JSON: the raw text is the answer
    }
    return { status: response.status, headers: response.headers, body: parsed };
  };

  const signIn = async (username: string, password: string): Promise<Session> => {
    const answer = await call('POST', '/Authentication/Authenticate', { body: { username, password } });
    if (!answer.body?.isAuthenticated) throw new Error(`sign-in of ${username} failed: ${JSON.stringify(answer.body)}`);
    return { sessionToken: answer.body.sessionToken, userId: answer.body.userId };
  };

  return {
    ...running,
    clock,
    call,
    signIn,
    admin: await signIn(administrator.username, administrator.password),
    databaseFile,
    async dispose() {
      await running.close();
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

/** A normal (non-administrator) user, signed in. */
export async function createNormalUser(
  service: TestService,
  userName = 'user',
  extra: Partial<UserSeed> = {},
): Promise<Session & { password: string }> {
  const password = `${userName}-password-1`;
  await insertUser(service.store, { userName, emailAddress: `${userName}@example.org`, password, timezone: 'America/New_York', ...extra });
  return { ...(await service.signIn(userName, password)), password };
}

/** A test service holding the demo organisation, signed in as its administrator. */
export const startDemoService = () =>
  startTestService({
    seed: async (store) => {
      await seedDemo(store);
      return { username: 'admin', password: demoPassword };
    },
  });
