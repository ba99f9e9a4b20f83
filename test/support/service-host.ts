/**
 * The local service's host module in a Node child process, as tests start it: the app itself
 * starts the bundled host in an Electron utility process (electron/main.ts).
 */
import { fork } from 'node:child_process';
import { resolve } from 'node:path';
import type { ServiceHostLauncher } from '../../electron/core/local-service/local-service.js';

/** The host's source, run under tsx. */
export const hostModule = resolve(import.meta.dirname, '../../electron/service/host.ts');

export function forkServiceHost(modulePath: string = hostModule): ServiceHostLauncher {
  return () => {
    const child = fork(modulePath, [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'], serialization: 'json' });
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
