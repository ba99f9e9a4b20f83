import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseFile, prepareDataFolder } from '../../electron/service/data-folder.js';
import { sessionTokenHash } from '../../electron/service/passwords.js';
import { startService } from '../../electron/service/service.js';
import { adminCredentials, startTestService, type TestService } from '../support/service.js';

let service: TestService;
let file: string;
beforeAll(async () => {
  service = await startTestService();
  file = service.databaseFile;
});
afterAll(() => service.dispose());

/** Every byte SQLite keeps for the database: the file and its write-ahead log. */
const storedBytes = () =>
  [file, `${file}-wal`]
    .filter(existsSync)
    .map((path) => readFileSync(path).toString('latin1'))
    .join('');

describe('secrets at rest', () => {
  it('keeps no session token, only its hash, in the database or its log', async () => {
    const answer = await service.call('POST', '/Authentication/Authenticate', { body: adminCredentials });
    const token = answer.body.sessionToken as string;
    expect((await service.call('GET', '/Resources/', { session: { sessionToken: token, userId: answer.body.userId } })).status).toBe(200);
    const rows = await service.store.selectFrom('sessions').select('tokenHash').where('userId', '=', answer.body.userId).execute();
    expect(rows.map((row) => row.tokenHash)).toContain(sessionTokenHash(token));
    expect(storedBytes()).not.toContain(token);
    expect(storedBytes()).toContain(sessionTokenHash(token));
  });

  it('keeps no other token: no calendar-feed tokens, since no feed is served', async () => {
    const columns = await sql<{
      name: string;
    }>`SELECT name FROM pragma_table_info('users') UNION ALL SELECT name FROM pragma_table_info('resources')`.execute(service.store);
    expect(columns.rows.map((column) => column.name).filter((name) => /token/i.test(name))).toEqual([]);
    expect((await service.call('GET', `/Users/${service.admin.userId}`, { session: service.admin })).body.icsUrl).toBe('');
  });

  it('keeps the database readable by its owner alone', () => {
    if (process.platform === 'win32') return;
    for (const path of [file, `${file}-wal`, `${file}-shm`].filter(existsSync)) expect(statSync(path).mode & 0o777).toBe(0o600);
  });
});

describe('the data folder and a database an earlier version left readable', () => {
  const folder = mkdtempSync(join(tmpdir(), 'perch-modes-'));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it("are made the owner's alone on start", async () => {
    if (process.platform === 'win32') return;
    const dataFolder = join(folder, 'data');
    prepareDataFolder(dataFolder);
    writeFileSync(databaseFile(dataFolder), '', { mode: 0o644 });
    const running = await startService({ database: databaseFile(dataFolder) });
    await running.close();
    expect(statSync(dirname(databaseFile(dataFolder))).mode & 0o777).toBe(0o700);
    expect(statSync(databaseFile(dataFolder)).mode & 0o777).toBe(0o600);
  });
});
