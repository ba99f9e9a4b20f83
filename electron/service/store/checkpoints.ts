import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { withConnection, type Store } from './database.js';

/** SQLite's own threshold, in WAL pages. */
const inlineCheckpointPages = 1000;
/** While the worker checkpoints, SQLite's own only steps in if the WAL somehow grows this far. */
const backstopCheckpointPages = 20_000;
/** Busy: a few checkpoints a second. Idle: backing off to this, so a tray app's service barely wakes. */
export const checkpointEveryMs = { busy: 250, idle: 4_000 };

/** CommonJS, evaluated by the worker: no file to find or to package. */
const checkpointerSource = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const database = new Database(workerData.file);
let delay = workerData.busyMs;
let lastLog = -1;
let timer;
const checkpoint = () => {
  const [{ log }] = database.pragma('wal_checkpoint(PASSIVE)');
  delay = log === lastLog ? Math.min(delay * 2, workerData.idleMs) : workerData.busyMs;
  lastLog = log;
  timer = setTimeout(checkpoint, delay);
};
timer = setTimeout(checkpoint, delay);
parentPort.once('message', () => {
  clearTimeout(timer);
  database.close();
  parentPort.close();
});
`;

export interface Checkpointer {
  stop(): Promise<void>;
}

/**
 * A checkpoint copies the WAL into the database file and waits for the disk (5–12 ms). Left to
 * SQLite, it runs inside whichever COMMIT crosses a thousand pages, on the service's one thread,
 * every hundred bookings or so. Here a worker thread with a connection of its own checkpoints a
 * few times a second instead, beside the writes (a passive checkpoint never blocks them), and
 * less and less often while the WAL does not grow. Should the worker fail, SQLite checkpoints
 * inline again.
 */
export async function checkpointInBackground(store: Store, file: string): Promise<Checkpointer> {
  const setInlineThreshold = (pages: number) =>
    withConnection(store, (connection) => connection.sqlite.pragma(`wal_autocheckpoint = ${pages}`));
  await setInlineThreshold(backstopCheckpointPages);
  const worker = new Worker(checkpointerSource, {
    eval: true,
    workerData: {
      driver: createRequire(import.meta.url).resolve('libsql'),
      file,
      busyMs: checkpointEveryMs.busy,
      idleMs: checkpointEveryMs.idle,
    },
  });
  worker.unref();
  const exited = new Promise((resolve) => worker.once('exit', resolve));
  let stopping = false;
  worker.once('error', () => {
    if (!stopping) void setInlineThreshold(inlineCheckpointPages);
  });
  return {
    async stop() {
      stopping = true;
      // Unreferenced, the worker would let a process with nothing else to do end before it has.
      worker.ref();
      worker.postMessage('stop');
      await exited;
    },
  };
}
