import { sql } from 'kysely';
import type { Clock } from '../clock.js';
import type { Store } from '../store/database.js';
import { deleteInstances, longestBookingMs } from '../store/reservations.js';

const minuteMs = 60_000;

/**
 * Deletes every occurrence nobody checked in to once its primary resource's `autoReleaseMinutes`
 * have passed since its start, as real servers' job does. Only occurrences still running are
 * released: one already over frees nothing and stays as history. One query finds them, an index
 * range on `reservations_by_start` bounded by the longest booking; answers how many went.
 */
export async function releaseDue(store: Store, nowMs: number): Promise<number> {
  return store.transaction().execute(async (trx) => {
    const longest = await longestBookingMs(trx);
    const due = await trx
      .selectFrom('reservations')
      .innerJoin('reservationSeries', 'reservationSeries.id', 'reservations.seriesId')
      .innerJoin('resources', 'resources.id', 'reservationSeries.resourceId')
      .select('reservations.id')
      .where('reservations.startAt', '>=', nowMs - longest)
      .where('reservations.startAt', '<=', nowMs - minuteMs)
      .where('reservations.endAt', '>', nowMs)
      .where('reservations.checkInAt', 'is', null)
      .where('reservationSeries.isPendingApproval', '=', 0)
      .where('resources.requiresCheckIn', '=', 1)
      .where('resources.autoReleaseMinutes', '>', 0)
      .where(sql<number>`${sql.ref('reservations.startAt')} + ${sql.ref('resources.autoReleaseMinutes')} * ${minuteMs}`, '<=', nowMs)
      .execute();
    await deleteInstances(
      trx,
      due.map((row) => row.id),
    );
    return due.length;
  });
}

export interface AutoRelease {
  /** Resolves when the run under way, if any, has finished. */
  settled(): Promise<void>;
  /** Stops the timer and waits for a run under way, so the store can close after it. */
  stop(): Promise<void>;
}

/**
 * Runs `releaseDue` at once (catching up on what fell due while the service was down) and then
 * every `intervalMs`. Runs never overlap: a tick during a slow run is skipped. The timer does
 * not keep the process alive.
 */
export function startAutoRelease(options: {
  store: Store;
  clock: Clock;
  intervalMs?: number;
  /** A failed run is reported and the next tick tries again. */
  onError?: (error: unknown) => void;
}): AutoRelease {
  const { store, clock, intervalMs = 60_000, onError = (error: unknown) => console.error('auto-release failed', error) } = options;
  let running: Promise<void> | null = null;
  let stopped = false;
  const tick = () => {
    if (stopped || running) return;
    running = releaseDue(store, clock.now().toMillis())
      .then(() => undefined, onError)
      .finally(() => {
        running = null;
      });
  };
  tick();
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  return {
    settled: async () => {
      await running;
    },
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
