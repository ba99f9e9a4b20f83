/**
 * The local service as a process beside the app: started on demand with the account of the person
 * at this computer, shared by concurrent callers, restarted after an unexpected exit, and stopped
 * (asked, then ended) when the app quits. The core never imports the service; it only knows the
 * messages in electron/api/local-host.ts and an injected launcher.
 */
import { readHostAnswer, type HostRequest, type LocalAccount } from '../../api/local-host.js';
import type { BridgeResult } from '../../bridge/contract.js';
import { failure, success, unexpected } from '../errors.js';

/** A started host process, as far as the core needs it (Electron's utility process and Node's child process both fit). */
export interface ServiceHostProcess {
  readonly pid: number | undefined;
  postMessage(message: HostRequest): void;
  onMessage(listener: (data: unknown) => void): void;
  onExit(listener: (code: number | null) => void): void;
  /** Ends the process without waiting for it. */
  kill(): void;
}

export type ServiceHostLauncher = () => ServiceHostProcess;

/** Where the running service answers, and the provisioned account's name there (it differs from the one asked for when that was taken). */
export interface LocalServiceAddress {
  apiRoot: string;
  userName: string | null;
}

export interface LocalService {
  /**
   * The running service, started when needed. `account` provisions the person's account, and a
   * different one than the running service was given restarts it; without one, whatever the last
   * start provisioned is provisioned again (a restart after a crash), if anything.
   */
  ensureRunning(account?: LocalAccount): Promise<BridgeResult<LocalServiceAddress>>;
  stop(): Promise<void>;
  /** The host process's id while it runs. */
  readonly pid: number | null;
}

export interface LocalServiceOptions {
  dataFolder: string;
  /** Whether a new data folder gets the demo organisation (else a lone administrator nobody signs in as). */
  demo: boolean;
  launch: ServiceHostLauncher;
  log: (message: string, error?: unknown) => void;
  /** Migrating and seeding a first start takes a few seconds on a slow disk; beyond this the host is stuck. */
  startTimeoutMs?: number;
  /** How long a stop may take before the process is ended. */
  stopGraceMs?: number;
}

const localServiceMessages = {
  startFailed: (reason: string) => `Perch could not start its service on this computer. ${reason}`,
  exitedEarly: (code: number | null) => `The service stopped while starting (exit code ${code ?? 'none'}).`,
  timedOut: (seconds: number) => `It did not answer within ${seconds} seconds.`,
  stopped: 'The service was stopped while starting.',
} as const;

const sameAccount = (a: LocalAccount, b: LocalAccount) =>
  a.userName === b.userName &&
  a.password === b.password &&
  a.firstName === b.firstName &&
  a.lastName === b.lastName &&
  a.timezone === b.timezone;

interface Run {
  process: ServiceHostProcess;
  account: LocalAccount | null;
  ready: Promise<BridgeResult<LocalServiceAddress>>;
  exited: Promise<void>;
  stopping: boolean;
}

export function createLocalService(options: LocalServiceOptions): LocalService {
  const { dataFolder, launch, log } = options;
  const startTimeoutMs = options.startTimeoutMs ?? 60_000;
  const stopGraceMs = options.stopGraceMs ?? 3_000;
  let current: Run | null = null;
  let lastAccount: LocalAccount | null = null;

  function start(account: LocalAccount | null): Run {
    const host = launch();
    let settle: (result: BridgeResult<LocalServiceAddress>) => void = () => {};
    const ready = new Promise<BridgeResult<LocalServiceAddress>>((resolve) => (settle = resolve));
    let markExited: () => void = () => {};
    const exited = new Promise<void>((resolve) => (markExited = resolve));
    const run: Run = { process: host, account, ready, exited, stopping: false };
    let settled = false;
    const answer = (result: BridgeResult<LocalServiceAddress>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      settle(result);
      if (result.ok) return;
      // A failed start leaves nothing running: the next call tries again.
      if (current === run) current = null;
      run.stopping = true;
      host.kill();
    };
    const fail = (reason: string) => answer(failure(unexpected(localServiceMessages.startFailed(reason))));
    const timer = setTimeout(() => fail(localServiceMessages.timedOut(Math.round(startTimeoutMs / 1000))), startTimeoutMs);

    host.onMessage((data) => {
      const read = readHostAnswer(data);
      if (!read.ok) return log(`local service: ${read.error}`);
      if (read.value.type === 'ready') answer(success({ apiRoot: read.value.apiRoot, userName: read.value.userName ?? null }));
      else fail(read.value.message);
    });
    host.onExit((code) => {
      markExited();
      fail(run.stopping ? localServiceMessages.stopped : localServiceMessages.exitedEarly(code));
      if (current !== run) return;
      current = null;
      // The next ensureRunning starts it again; until then calls to it fail as unreachable.
      if (!run.stopping)
        log(
          `local service: the process ${host.pid ?? ''} exited unexpectedly (exit code ${code ?? 'none'}); it starts again when next needed`,
        );
    });
    host.postMessage({ type: 'start', dataFolder, demo: options.demo, ...(account !== null && { account }) });
    return run;
  }

  async function stopRun(run: Run): Promise<void> {
    run.stopping = true;
    if (current === run) current = null;
    run.process.postMessage({ type: 'stop' });
    let timer: NodeJS.Timeout | undefined;
    const graceOver = new Promise<'graceOver'>((resolve) => (timer = setTimeout(() => resolve('graceOver'), stopGraceMs)));
    const outcome = await Promise.race([run.exited, graceOver]);
    clearTimeout(timer);
    if (outcome === 'graceOver') {
      log(`local service: the process ${run.process.pid ?? ''} did not stop within ${stopGraceMs} ms; ending it`);
      run.process.kill();
      await run.exited;
    }
  }

  return {
    get pid() {
      return current?.process.pid ?? null;
    },

    async ensureRunning(account) {
      if (account !== undefined && current !== null && (current.account === null || !sameAccount(current.account, account)))
        await stopRun(current);
      if (account !== undefined) lastAccount = account;
      current ??= start(lastAccount);
      return current.ready;
    },

    async stop() {
      if (current !== null) await stopRun(current);
    },
  };
}
