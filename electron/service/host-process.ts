/**
 * The local service's process beside the tray app: an Electron utility process in the app, a Node
 * child process in tests (host.ts is its entry). It waits for `start`, serves the API on loopback,
 * answers `ready` with the API root, and on `stop`, a lost parent or SIGTERM closes the service and
 * the database cleanly and exits 0. A start that fails answers `failed` with a message a person can act on.
 */
import { readHostRequest, type HostAnswer, type HostRequest } from '../api/local-host.js';
import type { Clock } from './clock.js';
import { databaseFile, prepareDataFolder } from './data-folder.js';
import { ensureLocalAccount, lockOtherPeople } from './seed/local-account.js';
import { prepareFirstStart } from './seed/first-start.js';
import { startService, type RunningService } from './service.js';

type StartRequest = Extract<HostRequest, { type: 'start' }>;

interface ParentChannel {
  /** Resolves once the message has left this process, so exiting right after cannot drop it. */
  send(answer: HostAnswer): Promise<void>;
  onMessage(listener: (data: unknown) => void): void;
  onDisconnect(listener: () => void): void;
}

/** Electron's `process.parentPort`, as far as the host uses it. */
interface UtilityParentPort {
  on(event: 'message', listener: (event: { data: unknown }) => void): void;
  postMessage(message: unknown): void;
}

function parentChannel(): ParentChannel | null {
  const parentPort = (process as { parentPort?: UtilityParentPort }).parentPort;
  if (parentPort) {
    return {
      send: async (answer) => {
        parentPort.postMessage(answer);
        // postMessage queues; one turn of the loop lets it go out before a possible exit.
        await new Promise((resolve) => setImmediate(resolve));
      },
      onMessage: (listener) => parentPort.on('message', (event) => listener(event.data)),
      // Electron ends a utility process with its parent; there is no event to wait for.
      onDisconnect: () => undefined,
    };
  }
  const send = process.send?.bind(process);
  if (!send) return null;
  return {
    send: (answer) => new Promise((resolve) => send(answer, undefined, undefined, () => resolve())),
    onMessage: (listener) => process.on('message', listener),
    onDisconnect: (listener) => process.once('disconnect', listener),
  };
}

const unwritableFolderCodes = new Set([
  'EACCES',
  'EPERM',
  'EROFS',
  'ENOTDIR',
  'EEXIST',
  'ENOSPC',
  'SQLITE_CANTOPEN',
  'SQLITE_READONLY',
  'SQLITE_PERM',
  'SQLITE_FULL',
]);

/** Node's and SQLite's error codes in words; anything else keeps its own message. */
function describeStartFailure(error: unknown, dataFolder: string): string {
  const { code, message } = error as { code?: string; message?: string };
  if (message?.startsWith('corrupted migrations')) {
    return `The local service's data in ${dataFolder} was written by a newer version of Perch. Update Perch to use it.`;
  }
  if (code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT') {
    return `The local service's database in ${dataFolder} is damaged or is not a Perch database (${code}).`;
  }
  if (code !== undefined && unwritableFolderCodes.has(code)) {
    return `The data folder ${dataFolder} cannot be used (${code}): Perch needs a folder it can write to.`;
  }
  return `The local service could not start: ${message ?? String(error)}`;
}

async function startIn(request: StartRequest, clock: Clock): Promise<{ service: RunningService; userName?: string }> {
  const { dataFolder, demo, account } = request;
  prepareDataFolder(dataFolder);
  const service = await startService({ database: databaseFile(dataFolder), port: 0, clock });
  try {
    await prepareFirstStart(service.store, { demo });
    const ensured = account === undefined ? undefined : await ensureLocalAccount(service.store, account);
    await lockOtherPeople(service.store);
    return ensured === undefined ? { service } : { service, userName: ensured.userName };
  } catch (error) {
    await service.close();
    throw error;
  }
}

function host(parent: ParentChannel, clock: Clock): void {
  let starting: Promise<RunningService | null> | null = null;
  let stopping: Promise<never> | null = null;

  const exit = (code: number, why?: unknown): never => {
    if (why !== undefined) console.error('[perch local service]', why);
    process.exit(code);
  };

  const stop = () => {
    stopping ??= (async () => {
      const service = await (starting ?? Promise.resolve(null));
      try {
        await service?.close();
      } catch (error) {
        return exit(1, error);
      }
      return exit(0);
    })();
  };

  const start = (request: StartRequest) => {
    const { dataFolder } = request;
    starting = startIn(request, clock).then(
      async ({ service, userName }) => {
        await parent.send({ type: 'ready', apiRoot: service.apiRoot, ...(userName !== undefined && { userName }) });
        return service;
      },
      async (error: unknown) => {
        const message = describeStartFailure(error, dataFolder);
        await parent.send({ type: 'failed', message });
        return exit(1, message);
      },
    );
  };

  parent.onMessage((data) => {
    const read = readHostRequest(data);
    if (!read.ok) {
      void parent.send({ type: 'failed', message: `The local service did not understand the app: ${read.error}` });
      return;
    }
    if (read.value.type === 'stop') stop();
    else if (starting === null && stopping === null) start(read.value);
    else void parent.send({ type: 'failed', message: 'The local service was already asked to start; stop it first.' });
  });
  parent.onDisconnect(stop);
  process.once('SIGTERM', stop);
}

/** Serves the parent process that started this one, with the service reading `clock`. */
export function runServiceHost(clock: Clock): void {
  const parent = parentChannel();
  if (parent) host(parent, clock);
  else {
    console.error('perch local service host: start it from the Perch app (or `npm run service` for a standalone service).');
    process.exitCode = 2;
  }
}
