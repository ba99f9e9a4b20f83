/**
 * The cache of the signed-in account's last good data, without secrets, so a restart shows
 * something at once: written whenever it changed, adopted only by the account it belongs to.
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { DateTime } from 'luxon';
import { cacheFileName, loadCache, saveCache, type CachedData } from '../storage/cache.js';
import type { Clock } from '../clock.js';
import { clearAccountData, emptyData, type CoreState } from '../core-state.js';
import { accountView, type AccountIdentity, type AccountSession } from '../session/session.js';

export interface AccountCacheOptions {
  dataDir: string;
  clock: Clock;
  state: CoreState;
  session: Pick<AccountSession, 'account'>;
  track(work: Promise<unknown>): void;
  log(message: string, error?: unknown): void;
}

export interface AccountCache {
  /** Writes the signed-in account's data when it differs from what was written last. */
  persist(): void;
  remove(): Promise<void>;
  /** Starts the account afresh, with the cached data when it belongs to this account. */
  adopt(account: AccountIdentity): Promise<void>;
}

function instantOrNull(text: string | null): DateTime | null {
  if (text === null) return null;
  const instant = DateTime.fromISO(text);
  return instant.isValid ? instant : null;
}

export function createAccountCache(options: AccountCacheOptions): AccountCache {
  const { dataDir, clock, state, session, log } = options;
  let lastSavedCache = '';
  let cacheWrites: Promise<void> = Promise.resolve();

  function cacheOf(account: AccountIdentity): CachedData {
    const view = accountView(account);
    const { data } = state;
    return {
      savedAt: clock.now().toUTC().toISO() ?? '',
      account: { apiRoot: account.apiRoot, userId: account.userId, userName: account.userName, displayName: view.displayName, timezone: account.timezone, isAdmin: account.isAdmin },
      reservations: data.reservations,
      busyNow: data.busyNow.map((entry) => ({ scheduleId: entry.scheduleId, askedAt: entry.askedAt.toUTC().toISO() ?? '', until: entry.until.toUTC().toISO() ?? '', reservations: entry.reservations })),
      resources: data.resources,
      schedules: data.schedules,
      groups: data.groups,
      reservationAttributes: data.reservationAttributes,
      referenceFetchedAt: data.referenceFetchedAt?.toUTC().toISO() ?? null,
      fetchedAt: data.fetchedAt?.toUTC().toISO() ?? null,
      shownNotificationIds: [...state.shown],
    };
  }

  return {
    persist() {
      const account = session.account;
      if (account === null) return;
      const cache = cacheOf(account);
      const fingerprint = JSON.stringify({ ...cache, savedAt: '' });
      if (fingerprint === lastSavedCache) return;
      lastSavedCache = fingerprint;
      // One write at a time, in order: the last state is the one left on disk.
      cacheWrites = cacheWrites.then(() => saveCache(dataDir, cache, { log: (message) => log(message) })).catch((error: unknown) => log('could not write the cache', error));
      options.track(cacheWrites);
    },
    async remove() {
      lastSavedCache = '';
      await cacheWrites;
      await rm(join(dataDir, cacheFileName), { force: true });
    },
    async adopt(account) {
      clearAccountData(state);
      const cache = await loadCache(dataDir);
      const owner = cache?.account;
      if (!cache || !owner || owner.userId !== account.userId || owner.userName !== account.userName) return;
      // The local service's address changes between runs.
      if (account.server.kind !== 'local' && owner.apiRoot !== account.apiRoot) return;
      state.data = {
        ...emptyData(),
        reservations: cache.reservations,
        busyNow: (cache.busyNow ?? []).flatMap((entry) => {
          const askedAt = instantOrNull(entry.askedAt);
          // Older caches kept one-minute answers.
          const until = instantOrNull(entry.until ?? null) ?? askedAt?.plus({ minutes: 1 });
          return askedAt === null || until === undefined ? [] : [{ scheduleId: entry.scheduleId, askedAt, until, reservations: entry.reservations }];
        }),
        resources: cache.resources,
        schedules: cache.schedules,
        groups: cache.groups ?? null,
        reservationAttributes: cache.reservationAttributes ?? [],
        // Without the groups or the attributes, the reference data is fetched again rather than shown half.
        referenceFetchedAt: cache.groups && cache.reservationAttributes ? instantOrNull(cache.referenceFetchedAt ?? null) : null,
        fetchedAt: instantOrNull(cache.fetchedAt),
      };
      state.shown = new Set(cache.shownNotificationIds);
      lastSavedCache = JSON.stringify({ ...cacheOf(account), savedAt: '' });
    },
  };
}
