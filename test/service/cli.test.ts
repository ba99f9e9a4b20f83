import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { resourceStatusesBody } from '../support/answers.js';

const repository = resolve(import.meta.dirname, '../..');
const apiRootLine = /^Perch local service: (http:\/\/127\.0\.0\.1:(\d+)\/Web\/Services\/index\.php)$/m;

const folders: string[] = [];
const running = new Set<ChildProcess>();

function dataFolder(): string {
  const folder = mkdtempSync(join(tmpdir(), 'perch-cli-'));
  folders.push(folder);
  return join(folder, 'data');
}

afterAll(() => {
  // Only a failed test leaves a service behind.
  for (const child of running) child.kill('SIGKILL');
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

interface Finished {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** The CLI as a real child process: one node, no wrapper, so signals reach it directly. */
function launch(args: string[], env: Record<string, string> = {}) {
  const environment = { ...process.env, ...env };
  if (!('PERCH_ADMIN_PASSWORD' in env)) delete environment.PERCH_ADMIN_PASSWORD;
  const child = spawn(process.execPath, ['--import', 'tsx', 'electron/service/cli.ts', ...args], {
    cwd: repository,
    env: environment,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  const output = { stdout: '', stderr: '' };
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output.stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output.stderr += chunk));
  const finished = new Promise<Finished>((resolve) =>
    child.on('close', (code, signal) => {
      running.delete(child);
      resolve({ code, signal, ...output });
    }),
  );
  return { child, output, finished };
}

/** Starts the service and waits for the API root line, which the CLI prints once it is ready. */
async function start(args: string[], env: Record<string, string> = {}) {
  const launched = launch(['--port', '0', ...args], env);
  const apiRoot = await new Promise<string>((resolve, reject) => {
    const look = () => {
      const match = apiRootLine.exec(launched.output.stdout);
      if (match) resolve(match[1]!);
    };
    launched.child.stdout.on('data', look);
    void launched.finished.then((result) => reject(new Error(`the service exited early (${result.code}): ${result.stderr}`)));
  });
  return {
    apiRoot,
    output: launched.output,
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      launched.child.kill(signal);
      return launched.finished;
    },
  };
}

async function call(apiRoot: string, method: string, path: string, options: { body?: unknown; session?: Session } = {}) {
  const headers: Record<string, string> = {};
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  if (options.session) {
    headers['X-Booked-SessionToken'] = options.session.sessionToken;
    headers['X-Booked-UserId'] = String(options.session.userId);
  }
  const response = await fetch(apiRoot + path, {
    method,
    headers,
    ...(options.body !== undefined && { body: JSON.stringify(options.body) }),
  });
  return { status: response.status, body: (await response.json()) as any };
}

interface Session {
  sessionToken: string;
  userId: number;
}

async function signIn(apiRoot: string, username: string, password: string): Promise<Session | null> {
  const answer = await call(apiRoot, 'POST', '/Authentication/Authenticate', { body: { username, password } });
  return answer.body.isAuthenticated ? { sessionToken: answer.body.sessionToken, userId: answer.body.userId } : null;
}

// Each start is a fresh node compiling the service with tsx: slow on a busy machine.
describe('npm run service', { timeout: 60_000 }, () => {
  it('serves the API on a free port of 127.0.0.1 and prints its root', async () => {
    const service = await start(['--data', dataFolder()]);
    expect(Number(new URL(service.apiRoot).port)).toBeGreaterThan(0);
    const statuses = await call(service.apiRoot, 'GET', '/Resources/Status');
    expect(statuses).toEqual({ status: 200, body: resourceStatusesBody });
    await service.stop();
  });

  it('creates an administrator with a generated password shown on the first start only', async () => {
    const data = dataFolder();
    const first = await start(['--data', data]);
    const password = /^Administrator: admin \/ (\S+)$/m.exec(first.output.stdout)?.[1];
    expect(password).toMatch(/^[A-Za-z0-9_-]{24}$/);
    const session = await signIn(first.apiRoot, 'admin', password!);
    expect(session).not.toBeNull();
    // An application administrator: an admin-only route answers.
    expect((await call(first.apiRoot, 'POST', '/Groups/', { session: session!, body: { name: 'Team' } })).status).toBe(201);
    await first.stop();
    expect(existsSync(join(data, 'perch.db'))).toBe(true);

    const second = await start(['--data', data]);
    expect(second.output.stdout).not.toContain('Administrator');
    expect(second.output.stdout).not.toContain(password);
    expect(await signIn(second.apiRoot, 'admin', password!)).not.toBeNull();
    await second.stop();
  });

  it('takes the administrator password from PERCH_ADMIN_PASSWORD and does not print it', async () => {
    const service = await start(['--data', dataFolder()], { PERCH_ADMIN_PASSWORD: 'correct horse battery staple' });
    expect(service.output.stdout).toContain('Administrator: admin (password from PERCH_ADMIN_PASSWORD)');
    expect(service.output.stdout).not.toContain('correct horse');
    expect(await signIn(service.apiRoot, 'admin', 'correct horse battery staple')).not.toBeNull();
    await service.stop();
  });

  it('seeds the demo organisation once and keeps its data across restarts', async () => {
    const data = dataFolder();
    const first = await start(['--data', data, '--demo']);
    expect(first.output.stdout).toContain('admin / password (application administrator)');
    expect(first.output.stdout).toContain('user / password (normal user)');
    expect(first.output.stdout).not.toMatch(/^Administrator:/m);
    const admin = (await signIn(first.apiRoot, 'admin', 'password'))!;
    expect(admin).not.toBeNull();
    expect(await signIn(first.apiRoot, 'user', 'password')).not.toBeNull();
    expect((await call(first.apiRoot, 'GET', '/Resources/', { session: admin })).body.resources).toHaveLength(16);
    const created = await call(first.apiRoot, 'POST', '/Groups/', { session: admin, body: { name: 'Created before the restart' } });
    expect(created.status).toBe(201);
    expect(await first.stop()).toMatchObject({ code: 0, signal: null });

    const second = await start(['--data', data, '--demo']);
    expect(second.output.stdout).toContain('Demo organisation from an earlier start, kept as it is.');
    const again = (await signIn(second.apiRoot, 'admin', 'password'))!;
    expect((await call(second.apiRoot, 'GET', '/Resources/', { session: again })).body.resources).toHaveLength(16);
    const group = await call(second.apiRoot, 'GET', `/Groups/${created.body.groupId}`, { session: again });
    expect(group.body.name).toBe('Created before the restart');
    const users = await call(second.apiRoot, 'GET', '/Users/', { session: again });
    expect(users.body.users).toHaveLength(7);
    await second.stop();
  });

  it('adds no demo data to a folder that already holds data', async () => {
    const data = dataFolder();
    await (await start(['--data', data], { PERCH_ADMIN_PASSWORD: 'secret-1' })).stop();
    const service = await start(['--data', data, '--demo']);
    expect(service.output.stderr).toContain('Demo data not added:');
    expect(await signIn(service.apiRoot, 'admin', 'secret-1')).not.toBeNull();
    expect(await signIn(service.apiRoot, 'user', 'password')).toBeNull();
    await service.stop();
  });

  it('exits 1 with one clear line when the port is taken', async () => {
    const service = await start(['--data', dataFolder()]);
    const port = new URL(service.apiRoot).port;
    const result = await launch(['--port', port, '--data', dataFolder()]).finished;
    expect(result).toEqual({
      code: 1,
      signal: null,
      stdout: '',
      stderr: `perch service: port ${port} is already in use on 127.0.0.1; choose another with --port\n`,
    });
    await service.stop();
  });

  it.each(['SIGTERM', 'SIGINT'] as const)('closes the server and the database on %s and exits 0', async (signal) => {
    const data = dataFolder();
    const service = await start(['--data', data]);
    expect(existsSync(join(data, 'perch.db-wal'))).toBe(true);
    expect(await service.stop(signal)).toMatchObject({ code: 0, signal: null });
    // The store folds the write-ahead log back into the database file as it closes: the file
    // alone holds every record (libsql leaves the emptied log in place, see Connection.close).
    const log = join(data, 'perch.db-wal');
    expect(existsSync(log) ? statSync(log).size : 0).toBe(0);
    await expect(fetch(service.apiRoot + '/Resources/Status')).rejects.toThrow();
  });
});

describe('bad command lines', { timeout: 30_000 }, () => {
  it.each([
    [['--port', '70000'], 'perch service: --port must be a whole number from 0 to 65535, not "70000" (see --help)'],
    [['--port', 'http'], 'perch service: --port must be a whole number from 0 to 65535, not "http" (see --help)'],
    [['--port', '-1'], "perch service: Option '--port' argument is ambiguous (see --help)"],
    [['--port=-1'], 'perch service: --port must be a whole number from 0 to 65535, not "-1" (see --help)'],
    [['--port'], "perch service: Option '--port <value>' argument missing (see --help)"],
    [['--bogus'], "perch service: Unknown option '--bogus' (see --help)"],
    [['--demo=yes'], "perch service: Option '--demo' does not take an argument (see --help)"],
    [['serve'], "perch service: Unexpected argument 'serve' (see --help)"],
    [['--data', ''], 'perch service: --data needs a folder (see --help)'],
  ])('%j exits 2 with one clear line', async (args, message) => {
    const result = await launch(args).finished;
    expect(result).toEqual({ code: 2, signal: null, stdout: '', stderr: `${message}\n` });
  });

  it('refuses a data folder that is a file', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'perch-cli-'));
    folders.push(folder);
    const file = join(folder, 'not-a-folder');
    writeFileSync(file, '');
    const result = await launch(['--data', file]).finished;
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(`perch service: --data: cannot use ${file} as the data folder (EEXIST) (see --help)\n`);
  });

  it('prints its usage with --help', async () => {
    const result = await launch(['--help']).finished;
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Usage: npm run service -- \[--port <port>\] \[--data <folder>\] \[--demo\]\n/);
    expect(result.stdout).toContain('PERCH_ADMIN_PASSWORD');
  });
});
