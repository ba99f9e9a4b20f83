import autocannon from 'autocannon';
import { parentPort, workerData } from 'node:worker_threads';
import { createBody, type FreeSlot } from './generate.js';

/**
 * One autocannon run, in a worker thread of its own so that making the load does not share the
 * event loop (and the core) with the service being measured.
 */
export interface LoadJob {
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  connections: number;
  durationSeconds: number;
  /** For CreateReservation: one slot per request, in turn; after the last one the list starts again. */
  slots?: FreeSlot[];
}

export interface LoadResult {
  requests: number;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
  bytesPerSecond: number;
}

/** In a worker thread autocannon answers raw histograms; this is its own step that summarises them. */
const aggregate = (autocannon as unknown as { aggregateResult(results: unknown[], options: autocannon.Options): autocannon.Result })
  .aggregateResult;

async function run(job: LoadJob): Promise<LoadResult> {
  const { slots } = job;
  let next = 0;
  const options: autocannon.Options = {
    url: job.url,
    method: job.method,
    headers: job.headers,
    connections: job.connections,
    duration: job.durationSeconds,
    ...(slots && {
      requests: [
        {
          method: job.method,
          setupRequest: (request) => {
            // Written here, in the load's thread: formatting dates is not the service's time.
            const body = createBody(slots[next % slots.length]!);
            next += 1;
            return { ...request, body };
          },
        },
      ],
    }),
  };
  const result = aggregate([await autocannon(options)], options);
  const statusCodes: Record<string, number> = {};
  for (const [code, stats] of Object.entries(result.statusCodeStats ?? {})) statusCodes[code] = stats.count ?? 0;
  return {
    requests: result.requests.total,
    // Summed from per-second samples, which a worker's raw result does not carry: total over time.
    requestsPerSecond: result.requests.total / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    statusCodes,
    bytesPerSecond: result.throughput.average,
  };
}

if (parentPort) {
  const port = parentPort;
  run(workerData as LoadJob).then(
    (result) => port.postMessage({ result }),
    (error: unknown) => port.postMessage({ error: String(error) }),
  );
}
