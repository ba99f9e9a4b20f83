import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** "Flat": the heap in use after a full collection grows less than this over a working day. */
export const heapGrowthBudgetMb = 5;

/** `global.gc` when node runs with --expose-gc; otherwise the flag is set now and gc fetched from a fresh context. */
export function collector(): () => void {
  const exposed = (globalThis as { gc?: () => void }).gc;
  if (exposed) return exposed;
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

/** Heap in use after full collections, in MB: what stays, not what waits to be collected. */
export function settledHeapMb(gc: () => void): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed / 1024 / 1024;
}
