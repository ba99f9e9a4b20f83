import type { FastifyInstance } from 'fastify';
import { apiRootPath } from '../api/operations.js';
import { systemClock, type Clock } from './clock.js';
import { defaultServiceConfig, type ServiceConfig } from './config.js';
import { createServer } from './http/server.js';
import { startAutoRelease } from './jobs/auto-release.js';
import { checkpointInBackground } from './store/checkpoints.js';
import { openStore, type Store } from './store/database.js';

export interface StartOptions {
  /** A database file path; `:memory:` for a throwaway one. */
  database: string;
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  clock?: Clock;
  config?: Partial<ServiceConfig>;
  logger?: boolean;
}

export interface RunningService {
  app: FastifyInstance;
  store: Store;
  apiRoot: string;
  close(): Promise<void>;
}

/** Opens the store and serves the API on loopback; the same entry for tests, the CLI and the app. */
export async function startService(options: StartOptions): Promise<RunningService> {
  const store = await openStore(options.database);
  const checkpointer = options.database === ':memory:' ? null : await checkpointInBackground(store, options.database);
  const clock = options.clock ?? systemClock;
  const app = await createServer({
    store,
    clock,
    config: { ...defaultServiceConfig, ...options.config },
    logger: options.logger ?? false,
  });
  const host = options.host ?? '127.0.0.1';
  try {
    await app.listen({ host, port: options.port ?? 0 });
  } catch (error) {
    // A taken port must not leave the store and its checkpoint thread open: a process that exits
    // with libsql's worker connection still live can abort in native code instead of exiting 1.
    await app.close();
    await checkpointer?.stop();
    await store.destroy();
    throw error;
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  // Catches up on releases that fell due while the service was down before anyone reads the calendar.
  const autoRelease = startAutoRelease({ store, clock, onError: (error) => app.log.error(error) });
  await autoRelease.settled();
  return {
    app,
    store,
    apiRoot: `http://${host}:${port}${apiRootPath}`,
    async close() {
      await autoRelease.stop();
      await app.close();
      await checkpointer?.stop();
      await store.destroy();
    },
  };
}
