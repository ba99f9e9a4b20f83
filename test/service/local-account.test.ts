import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'libsql';
import { Kysely, Migrator, SqliteDialect, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readHostAnswer, type HostAnswer, type LocalAccount } from '../../electron/api/local-host.js';
import { databaseFile } from '../../electron/service/data-folder.js';
import { hashPassword } from '../../electron/service/passwords.js';
import { demoPassword, seedDemo } from '../../electron/service/seed/demo.js';
import { ensureLocalAccount, lockOtherPeople } from '../../electron/service/seed/local-account.js';
import { startService } from '../../electron/service/service.js';
import { migrations } from '../../electron/service/store/migrations.js';
import { forkServiceHost } from '../support/service-host.js';
import { startDemoService, type TestService } from '../support/service.js';

const account = (overrides: Partial<LocalAccount> = {}): LocalAccount => ({
  userName: 'jane.doe',
  password: 'first-generated-password',
  firstName: 'Jane',
  lastName: 'Doe',
  timezone: 'Europe/Paris',
  ...overrides,
});

describe('the local account', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startDemoService();
  });
  afterAll(() => service.dispose());

  const authenticate = async (username: string, password: string) =>
    (await service.call('POST', '/Authentication/Authenticate', { body: { username, password } })).body.isAuthenticated as boolean;

  it("is created on the first start in the groups of the demo's normal user, and signs in", async () => {
    const created = await ensureLocalAccount(service.store, account());
    expect(created).toMatchObject({ userName: 'jane.doe', created: true });
    const user = await service.call('GET', `/Users/${created.userId}`, { session: service.admin });
    expect(user.body).toMatchObject({ userName: 'jane.doe', firstName: 'Jane', lastName: 'Doe', timezone: 'Europe/Paris' });
    expect(user.body.groups.map((group: { name: string }) => group.name)).toEqual(['Staff']);
    expect(await authenticate('jane.doe', 'first-generated-password')).toBe(true);
  });

  it('gets the password it is given on a later start, keeping its id and names', async () => {
    const again = await ensureLocalAccount(
      service.store,
      account({ password: 'second-generated-password', firstName: 'Someone', timezone: 'UTC' }),
    );
    const users = await service.call('GET', '/Users/', { session: service.admin });
    expect(again).toMatchObject({ userName: 'jane.doe', created: false });
    expect(users.body.users.filter((user: { userName: string }) => user.userName === 'jane.doe')).toHaveLength(1);
    expect(await authenticate('jane.doe', 'first-generated-password')).toBe(false);
    expect(await authenticate('jane.doe', 'second-generated-password')).toBe(true);
    const user = await service.call('GET', `/Users/${again.userId}`, { session: service.admin });
    expect(user.body).toMatchObject({ firstName: 'Jane', timezone: 'Europe/Paris' });
  });

  it('locks every other account, ending their sessions, and stays so on every later start', async () => {
    const admin = await service.call('POST', '/Authentication/Authenticate', { body: { username: 'admin', password: demoPassword } });
    const session = { sessionToken: admin.body.sessionToken as string, userId: admin.body.userId as number };
    await lockOtherPeople(service.store);
    await lockOtherPeople(service.store);
    expect((await service.call('GET', '/Resources/', { session })).status).toBe(401);
    expect(await authenticate('admin', demoPassword)).toBe(false);
    expect(await authenticate('user', demoPassword)).toBe(false);
    expect(await authenticate('jane.doe', 'second-generated-password')).toBe(true);
  });

  it('never takes over a demo colleague who shares the login name', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'perch-local-account-'));
    const running = await startService({ database: databaseFile(folder) });
    try {
      await seedDemo(running.store);
      const created = await ensureLocalAccount(running.store, account({ userName: 'SAM' }));
      expect(created).toMatchObject({ userName: 'SAM2', created: true });
      const sam = await running.store.selectFrom('users').select('firstName').where('userName', '=', 'sam').executeTakeFirstOrThrow();
      expect(sam.firstName).toBe('Sam');
      const samSignsIn = await fetch(`${running.apiRoot}/Authentication/Authenticate`, {
        method: 'POST',
        body: JSON.stringify({ username: 'sam', password: demoPassword }),
      });
      expect(((await samSignsIn.json()) as { isAuthenticated: boolean }).isAuthenticated).toBe(true);
      // The account stays the recorded one, whatever name a later start asks for.
      expect(await ensureLocalAccount(running.store, account({ userName: 'SAM' }))).toMatchObject({
        userId: created.userId,
        userName: 'SAM2',
        created: false,
      });
    } finally {
      await running.close();
      rmSync(folder, { recursive: true, force: true });
    }
  });
});

describe('the host process', () => {
  let folder: string;
  beforeAll(() => {
    folder = mkdtempSync(join(tmpdir(), 'perch-host-'));
  });
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  /**
   * Starts the host as the app does, sends `start`, and answers its first message and exit code;
   * `whileReady` runs against the API root before the host is asked to stop.
   */
  async function startHost(
    dataFolder: string,
    whileReady?: (apiRoot: string) => Promise<void>,
    demo = true,
  ): Promise<{ answer: HostAnswer; exitCode: number | null }> {
    const host = forkServiceHost()();
    const exited = new Promise<number | null>((resolve) => host.onExit(resolve));
    const firstMessage = new Promise<unknown>((resolve) => host.onMessage(resolve));
    host.postMessage({ type: 'start', dataFolder, demo, account: account() });
    const read = readHostAnswer(await firstMessage);
    if (!read.ok) throw new Error(read.error);
    if (read.value.type === 'ready') {
      try {
        await whileReady?.(read.value.apiRoot);
      } finally {
        host.postMessage({ type: 'stop' });
      }
    }
    return { answer: read.value, exitCode: await exited };
  }

  it('answers ready with the API root and the account, and exits 0 when asked to stop', async () => {
    const { answer, exitCode } = await startHost(join(folder, 'fresh'));
    expect(answer).toMatchObject({ type: 'ready', apiRoot: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\//), userName: 'jane.doe' });
    expect(exitCode).toBe(0);
  }, 30_000);

  it("lets nobody but the person sign in: the demo organisation's documented accounts are locked", async () => {
    const signIns: Record<string, unknown> = {};
    await startHost(join(folder, 'locked'), async (apiRoot) => {
      for (const [username, password] of [
        ['admin', demoPassword],
        ['user', demoPassword],
        ['jane.doe', account().password],
      ]) {
        const answer = await fetch(`${apiRoot}/Authentication/Authenticate`, {
          method: 'POST',
          body: JSON.stringify({ username, password }),
        });
        signIns[username!] = ((await answer.json()) as { isAuthenticated: boolean }).isAuthenticated;
      }
    });
    expect(signIns).toEqual({ admin: false, user: false, 'jane.doe': true });
  }, 30_000);

  it('seeds no demo organisation when the app does not ask for it: the person alone, with nothing to book', async () => {
    const seen: Record<string, unknown> = {};
    await startHost(
      join(folder, 'no-demo'),
      async (apiRoot) => {
        const demoUser = await fetch(`${apiRoot}/Authentication/Authenticate`, {
          method: 'POST',
          body: JSON.stringify({ username: 'user', password: demoPassword }),
        });
        seen['demo user signs in'] = ((await demoUser.json()) as { isAuthenticated: boolean }).isAuthenticated;
        const signIn = await fetch(`${apiRoot}/Authentication/Authenticate`, {
          method: 'POST',
          body: JSON.stringify({ username: 'jane.doe', password: account().password }),
        });
        const { sessionToken, userId } = (await signIn.json()) as { sessionToken: string; userId: number };
        const resources = await fetch(`${apiRoot}/Resources/`, {
          headers: { 'X-Booked-SessionToken': sessionToken, 'X-Booked-UserId': String(userId) },
        });
        seen['resources'] = ((await resources.json()) as { resources: unknown[] }).resources;
      },
      false,
    );
    expect(seen).toEqual({ 'demo user signs in': false, resources: [] });
  }, 30_000);

  it('says why a data folder cannot be used, and exits non-zero', async () => {
    const file = join(folder, 'a-file');
    writeFileSync(file, '');
    const { answer, exitCode } = await startHost(join(file, 'data'));
    expect(answer).toEqual({
      type: 'failed',
      message: `The data folder ${join(file, 'data')} cannot be used (ENOTDIR): Perch needs a folder it can write to.`,
    });
    expect(exitCode).toBe(1);
  }, 30_000);

  it('upgrades a database of the first shipped schema in place, keeping its records', async () => {
    const dataFolder = join(folder, 'first-release');
    mkdirSync(dataFolder);
    // The first release's schema, written as that release did: its migrations and nothing after.
    const firstRelease = new Kysely<unknown>({ dialect: new SqliteDialect({ database: new SQLite(databaseFile(dataFolder)) }) });
    const migrator = new Migrator({ db: firstRelease, provider: { getMigrations: async () => migrations } });
    const [firstMigration] = Object.keys(migrations);
    expect((await migrator.migrateTo(firstMigration!)).error).toBeUndefined();
    // The person's account of that release, recorded as the local account.
    await sql`INSERT INTO users (user_name, email_address, first_name, last_name, password_hash, timezone, date_created, ics_token)
      VALUES ('early', 'early@example.com', 'Early', 'Adopter', ${await hashPassword('from-the-first-release')}, 'UTC', ${new Date().toISOString()}, 'early-ics')`.execute(
      firstRelease,
    );
    await sql`INSERT INTO settings (key, value) SELECT 'localAccountUserId', id FROM users WHERE user_name = 'early'`.execute(firstRelease);
    await firstRelease.destroy();

    const { answer, exitCode } = await startHost(dataFolder, async (apiRoot) => {
      const signIn = await fetch(`${apiRoot}/Authentication/Authenticate`, {
        method: 'POST',
        body: JSON.stringify({ username: 'early', password: account().password }),
      });
      expect(((await signIn.json()) as { isAuthenticated: boolean }).isAuthenticated).toBe(true);
    });
    expect(answer.type).toBe('ready');
    expect(exitCode).toBe(0);
    const upgraded = new SQLite(databaseFile(dataFolder));
    try {
      const applied = upgraded.prepare('SELECT name FROM kysely_migration ORDER BY name').all() as { name: string }[];
      expect(applied.map((row) => row.name)).toEqual(Object.keys(migrations));
      expect(upgraded.prepare('PRAGMA integrity_check').pluck().all()).toEqual(['ok']);
    } finally {
      upgraded.close();
    }
  }, 30_000);

  it('refuses a database written by a newer Perch instead of touching it', async () => {
    const dataFolder = join(folder, 'newer');
    expect((await startHost(dataFolder)).answer.type).toBe('ready');
    const database = new SQLite(databaseFile(dataFolder));
    database.prepare('INSERT INTO kysely_migration (name, timestamp) VALUES (?, ?)').run('9999-from-the-future', new Date().toISOString());
    database.close();
    const { answer, exitCode } = await startHost(dataFolder);
    expect(answer).toEqual({
      type: 'failed',
      message: `The local service's data in ${dataFolder} was written by a newer version of Perch. Update Perch to use it.`,
    });
    expect(exitCode).toBe(1);
  }, 30_000);
});
