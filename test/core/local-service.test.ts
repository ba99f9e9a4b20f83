import { describe, expect, it } from 'vitest';
import type { HostRequest, LocalAccount } from '../../electron/api/local-host.js';
import { localProfile, localUserName } from '../../electron/core/local-service/local-account.js';
import { createLocalService, type ServiceHostProcess } from '../../electron/core/local-service/local-service.js';

// The process handling around the host, with a scripted host; first-run.test.ts runs the real one.

interface ScriptedHost extends ServiceHostProcess {
  received: HostRequest[];
  answer(data: unknown): void;
  exit(code: number | null): void;
  killed: number;
}

function scriptedLauncher(
  onStart: (host: ScriptedHost) => void = (host) =>
    host.answer({ type: 'ready', apiRoot: `http://127.0.0.1:${4000 + host.pid!}/api`, userName: 'ada' }),
) {
  const launched: ScriptedHost[] = [];
  const launch = () => {
    const messageListeners: ((data: unknown) => void)[] = [];
    const exitListeners: ((code: number | null) => void)[] = [];
    let exited = false;
    const host: ScriptedHost = {
      pid: launched.length + 1,
      received: [],
      killed: 0,
      postMessage(message) {
        host.received.push(message);
        if (message.type === 'start') queueMicrotask(() => onStart(host));
      },
      onMessage: (listener) => messageListeners.push(listener),
      onExit: (listener) => exitListeners.push(listener),
      kill() {
        host.killed += 1;
        host.exit(null);
      },
      answer: (data) => messageListeners.forEach((listener) => listener(data)),
      exit(code) {
        if (exited) return;
        exited = true;
        exitListeners.forEach((listener) => listener(code));
      },
    };
    launched.push(host);
    return host;
  };
  return { launch, launched };
}

const account: LocalAccount = { userName: 'ada', password: 'generated-1', firstName: 'Ada', lastName: '', timezone: 'Europe/London' };

describe('the local service host', () => {
  it('starts one process for concurrent callers, and none again while it runs', async () => {
    const { launch, launched } = scriptedLauncher();
    const service = createLocalService({ dataFolder: '/data', demo: true, launch, log: () => {} });
    const answers = await Promise.all([service.ensureRunning(account), service.ensureRunning(), service.ensureRunning()]);
    expect(launched).toHaveLength(1);
    expect(launched[0]!.received).toEqual([{ type: 'start', dataFolder: '/data', demo: true, account }]);
    expect(answers).toEqual(Array(3).fill({ ok: true, value: { apiRoot: 'http://127.0.0.1:4001/api', userName: 'ada' } }));
    expect(await service.ensureRunning()).toEqual(answers[0]);
    expect(service.pid).toBe(1);
  });

  it('tells the host whether a new data folder gets the demo, as its caller decided', async () => {
    const { launch, launched } = scriptedLauncher();
    const service = createLocalService({ dataFolder: '/data', demo: false, launch, log: () => {} });
    await service.ensureRunning();
    expect(launched[0]!.received).toEqual([{ type: 'start', dataFolder: '/data', demo: false }]);
  });

  it('after an unexpected exit, logs it and starts again with the same account when next needed', async () => {
    const { launch, launched } = scriptedLauncher();
    const logged: string[] = [];
    const service = createLocalService({ dataFolder: '/data', demo: true, launch, log: (message) => logged.push(message) });
    await service.ensureRunning(account);
    launched[0]!.exit(134);
    expect(service.pid).toBeNull();
    expect(logged).toEqual(['local service: the process 1 exited unexpectedly (exit code 134); it starts again when next needed']);
    expect(await service.ensureRunning()).toEqual({ ok: true, value: { apiRoot: 'http://127.0.0.1:4002/api', userName: 'ada' } });
    expect(launched[1]!.received).toEqual([{ type: 'start', dataFolder: '/data', demo: true, account }]);
  });

  it('restarts to provision a different account', async () => {
    const { launch, launched } = scriptedLauncher();
    const service = createLocalService({ dataFolder: '/data', demo: true, launch, log: () => {} });
    await service.ensureRunning(account);
    const stopping = service.ensureRunning({ ...account, password: 'generated-2' });
    expect(launched[0]!.received.at(-1)).toEqual({ type: 'stop' });
    launched[0]!.exit(0);
    await stopping;
    expect(launched[1]!.received).toEqual([
      { type: 'start', dataFolder: '/data', demo: true, account: { ...account, password: 'generated-2' } },
    ]);
  });

  it("passes on the host's failure in its words, and tries again on the next call", async () => {
    let failing = true;
    const { launch, launched } = scriptedLauncher((host) =>
      failing
        ? host.answer({ type: 'failed', message: 'The data folder /data cannot be used (EACCES): Perch needs a folder it can write to.' })
        : host.answer({ type: 'ready', apiRoot: 'http://127.0.0.1:1/api' }),
    );
    const service = createLocalService({ dataFolder: '/data', demo: true, launch, log: () => {} });
    expect(await service.ensureRunning(account)).toEqual({
      ok: false,
      error: {
        kind: 'unexpected',
        message:
          'Perch could not start its service on this computer. The data folder /data cannot be used (EACCES): Perch needs a folder it can write to.',
      },
    });
    expect(launched[0]!.killed).toBe(1);
    failing = false;
    expect(await service.ensureRunning()).toEqual({ ok: true, value: { apiRoot: 'http://127.0.0.1:1/api', userName: null } });
  });

  it('gives up on a host that never answers, and ends one that does not stop when asked', async () => {
    const { launch, launched } = scriptedLauncher(() => {});
    const logged: string[] = [];
    const service = createLocalService({
      dataFolder: '/data',
      demo: true,
      launch,
      log: (message) => logged.push(message),
      startTimeoutMs: 20,
      stopGraceMs: 20,
    });
    expect(await service.ensureRunning(account)).toMatchObject({
      ok: false,
      error: { message: 'Perch could not start its service on this computer. It did not answer within 0 seconds.' },
    });
    expect(launched[0]!.killed).toBe(1);

    const stuck = createLocalService({
      dataFolder: '/data',
      demo: true,
      launch: scriptedLauncher().launch,
      log: (message) => logged.push(message),
      stopGraceMs: 20,
    });
    await stuck.ensureRunning(account);
    await stuck.stop();
    expect(stuck.pid).toBeNull();
    expect(logged).toEqual(['local service: the process 1 did not stop within 20 ms; ending it']);
  });

  it('ignores what is not a host message, and says so in the log', async () => {
    const logged: string[] = [];
    const { launch } = scriptedLauncher((host) => {
      host.answer({ type: 'ready' });
      host.answer({ type: 'ready', apiRoot: 'http://127.0.0.1:2/api', userName: 'ada' });
    });
    const service = createLocalService({ dataFolder: '/data', demo: true, launch, log: (message) => logged.push(message) });
    expect(await service.ensureRunning(account)).toMatchObject({ ok: true, value: { apiRoot: 'http://127.0.0.1:2/api' } });
    expect(logged).toEqual([expect.stringMatching(/^local service: unexpected message \{"type":"ready"\}: /)]);
  });
});

describe("the person's local account", () => {
  it.each([
    ['jane.doe', 'jane.doe', 'Jane', 'Doe'],
    ['ada', 'ada', 'Ada', ''],
    ['John Smith', 'John.Smith', 'John', 'Smith'],
    ['Zoë_Müller-Lüdenscheidt', 'Zoe_Muller-Ludenscheidt', 'Zoe', 'Muller Ludenscheidt'],
    ['CORP\\svc', 'CORP.svc', 'CORP', 'Svc'],
    ['.hidden.', 'hidden', 'Hidden', ''],
    ['山田', 'me', 'Me', ''],
    ['', 'me', 'Me', ''],
  ])('login name %j: user name %j, named %j %j', (login, userName, firstName, lastName) => {
    expect(localProfile(login, 'Europe/Berlin')).toEqual({ userName, firstName, lastName, timezone: 'Europe/Berlin' });
  });

  it('keeps user names short enough for any server', () => {
    expect(localUserName('a'.repeat(40) + '.b')).toBe('a'.repeat(32));
  });
});
