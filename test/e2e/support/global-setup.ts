import { spawn, type ChildProcess } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const vite = fileURLToPath(new URL('../../../node_modules/.bin/vite', import.meta.url));

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

async function waitForHttp(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`vite preview exited with ${child.exitCode}`);
    try {
      const response = await fetch(url);
      if (response.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`vite preview did not answer at ${url} within ${timeoutMs} ms`);
}

export interface ServedPopover {
  url: string;
  stop(): void;
}

/** Builds the renderer and serves dist/renderer with `vite preview` on a free loopback port. */
export async function serveBuiltPopover(): Promise<ServedPopover> {
  execFileSync(vite, ['build', '--config', 'renderer/vite.config.ts', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' });
  const port = await freePort();
  const preview = spawn(
    vite,
    ['preview', '--config', 'renderer/vite.config.ts', '--host', '127.0.0.1', '--port', String(port), '--strictPort'],
    {
      cwd: root,
      stdio: ['ignore', 'ignore', 'inherit'],
      detached: true,
    },
  );
  const url = `http://127.0.0.1:${port}/`;
  await waitForHttp(url, preview, 30_000);
  return {
    url,
    stop() {
      if (preview.pid !== undefined && preview.exitCode === null) process.kill(-preview.pid, 'SIGTERM');
    },
  };
}

/** Builds the renderer once and serves it for every worker. */
export default async function globalSetup(): Promise<() => Promise<void>> {
  const popover = await serveBuiltPopover();
  // Workers start after global setup and inherit this.
  process.env.PERCH_E2E_URL = popover.url;
  return async () => popover.stop();
}
