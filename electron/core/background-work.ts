/** Work the core starts without waiting for it (polls, notifications, cache writes): failures are logged, never thrown. */
export interface BackgroundWork {
  track(work: Promise<unknown>): void;
  /** Resolves once all tracked work, and any work it started, has settled: for stopping, tests and benchmarks. */
  idle(): Promise<void>;
}

export function createBackgroundWork(log: (message: string, error?: unknown) => void): BackgroundWork {
  const pending = new Set<Promise<unknown>>();
  return {
    track(work) {
      const guarded = work.catch((error: unknown) => log('background work failed', error));
      pending.add(guarded);
      void guarded.finally(() => pending.delete(guarded));
    },
    async idle() {
      // A timer callback starts its work a few microtasks later; let it begin before looking.
      do {
        await new Promise<void>((resolve) => setImmediate(resolve));
        await Promise.allSettled([...pending]);
        await new Promise<void>((resolve) => setImmediate(resolve));
      } while (pending.size > 0);
    },
  };
}
