/**
 * The local service's host module in a Node child process, as tests start it: the app itself
 * starts the bundled host in an Electron utility process (electron/main.ts).
 */
import { fork } from 'node:child_process';
import { resolve } from 'node:path';
import type { ServiceHostLauncher } from '../../electron/core/local-service/local-service.js';
import type { ShiftedClock } from './shifted-clock.js';

/** The host's source, run under tsx. */
export const hostModule = resolve(import.meta.dirname, '../../electron/service/host.ts');

export function forkServiceHost(modulePath: string = hostModule, args: readonly string[] = []): ServiceHostLauncher {
  return () => {
    const child = fork(modulePath, args, {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      serialization: 'json',
    });
    return {
      get pid() {
        return child.pid;
      },
      postMessage(message) {
        if (child.connected) child.send(message);
      },
      onMessage: (listener) => child.on('message', listener),
      onExit: (listener) => child.on('exit', (code) => listener(code)),
      kill: () => child.kill('SIGKILL'),
    };
  };
}

/** The host with its service on `clock` instead of the real time: the same shift in the child process. */
export function forkServiceHostOn(clock: ShiftedClock): ServiceHostLauncher {
  return forkServiceHost(resolve(import.meta.dirname, 'shifted-service-host.ts'), [String(clock.offsetMs)]);
}
