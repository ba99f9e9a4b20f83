/**
 * The cache of the signed-in account's last good data, without secrets, so a restart shows
 * something at once: each part written only when its own content changed, adopted only by the
 * account it belongs to.
 */
import { DateTime } from 'luxon';
import {
  cachePartText,
  digestOf,
  loadCache,
  removeCache,
  removeLegacyCache,
  writeCachePart,
  type CachedAccount,
  type CachePartName,
  type CacheParts,
  type LoadedPart,
} from '../storage/cache.js';
import { clearAccountData, emptyData, type CoreState } from '../core-state.js';
import { accountView, type AccountIdentity } from '../session/account-identity.js';
import type { AccountSession } from '../session/session.js';

/**
 * Every poll stamps its moment on the reservations part, even when the answer is the same; the
 * moment alone is written at most this often (and when the core stops or the computer sleeps), so
 * that a restart while offline says "known at" within this of the truth, and a day of unchanged
 * answers costs a few small writes.
 */
export const pollTimeRefreshMinutes = 30;

export interface AccountCacheOptions {
  dataDir: string;
  state: CoreState;
  session: Pick<AccountSession, 'account'>;
  track(work: Promise<unknown>): void;
  log(message: string, error?: unknown): void;
}

export interface AccountCache {
  /** Writes each part of the signed-in account's data that differs from what was written last. */
  persist(): void;
  /** As persist, and the latest poll's moment too, however recent the one written: before the app stops or the computer sleeps. */
  flush(): void;
  remove(): Promise<void>;
  /** Starts the account afresh, with the cached data when it belongs to this account. */
  adopt(account: AccountIdentity): Promise<void>;
}

function instantOrNull(text: string | null): DateTime | null {
  if (text === null) return null;
  const instant = DateTime.fromISO(text);
  return instant.isValid ? instant : null;
}

const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

const isoOrNull = (instant: DateTime | null) => instant?.toUTC().toISO() ?? null;

/** The reservations part without the moments every poll stamps on it: what decides whether it changed. */
function withoutPollTimes(part: CacheParts['reservations']): unknown {
  return { ...part, fetchedAt: null };
}

function cachedAccount(account: AccountIdentity): CachedAccount {
  const { apiRoot, userId, userName, timezone, isAdmin } = account;
  return { apiRoot, userId, userName, displayName: accountView(account).displayName, timezone, isAdmin };
}

function belongsTo(owner: CachedAccount, account: AccountIdentity): boolean {
  if (owner.userId !== account.userId || owner.userName !== account.userName) return false;
  // The local service's address changes between runs.
  return account.server.kind === 'local' || owner.apiRoot === account.apiRoot;
}

/**
 * The reference data as last looked at. A refresh replaces these objects and nothing changes
 * them in place, so the same objects mean the same content, with no megabytes serialized per poll.
 */
interface ReferenceSeen {
  owner: string;
  resources: unknown;
  resourceTypes: unknown;
  schedules: unknown;
  groups: unknown;
  reservationAttributes: unknown;
}

export function createAccountCache(options: AccountCacheOptions): AccountCache {
  const { dataDir, state, session, log } = options;
  /** The fingerprint of each part as last written (or found on disk); null: not written. */
  const written: Record<CachePartName, string | null> = { reference: null, reservations: null, shown: null };
  let writtenFetchedAt: DateTime | null = null;
  let referenceSeen: ReferenceSeen | null = null;
  let cacheWrites: Promise<void> = Promise.resolve();

  function forgetWritten(): void {
    for (const name of Object.keys(written) as CachePartName[]) written[name] = null;
    writtenFetchedAt = null;
    referenceSeen = null;
  }

  /** One write at a time, in order: the last state is the one left on disk. */
  function queue(work: () => Promise<void>, failure: string, failed: () => void = () => {}): void {
    cacheWrites = cacheWrites.then(work).catch((error: unknown) => {
      failed();
      log(failure, error);
    });
    options.track(cacheWrites);
  }

  function write(name: CachePartName, fingerprint: string, text: string): void {
    written[name] = fingerprint;
    queue(
      () => writeCachePart(dataDir, name, text),
      `could not write the cache (${name})`,
      // Tried again at the next persist.
      () => {
        if (written[name] !== fingerprint) return;
        written[name] = null;
        if (name === 'reference') referenceSeen = null;
      },
    );
  }

  const textOptions = { log: (message: string) => log(message) };

  function referenceNow(owner: CachedAccount): ReferenceSeen {
    const { resources, resourceTypes, schedules, groups, reservationAttributes } = state.data;
    return { owner: JSON.stringify(owner), resources, resourceTypes, schedules, groups, reservationAttributes };
  }

  const sameReference = (a: ReferenceSeen, b: ReferenceSeen | null) =>
    b !== null &&
    a.owner === b.owner &&
    a.resources === b.resources &&
    a.resourceTypes === b.resourceTypes &&
    a.schedules === b.schedules &&
    a.groups === b.groups &&
    a.reservationAttributes === b.reservationAttributes;

  /**
   * In one order whatever order the polls left them in (a narrow poll's answer goes after the
   * kept ones, a full one's replaces them), so the same reservations are the same part; the views sort them anyway.
   */
  function reservationsPart(owner: CachedAccount): CacheParts['reservations'] {
    const { data } = state;
    return {
      account: owner,
      reservations: data.reservations.toSorted((a, b) => compareText(a.referenceNumber, b.referenceNumber)),
      fetchedAt: isoOrNull(data.fetchedAt),
      referenceFetchedAt: isoOrNull(data.referenceFetchedAt),
    };
  }

  const reservationsFingerprint = (part: CacheParts['reservations']) => digestOf(JSON.stringify(withoutPollTimes(part)));
  const shownText = (owner: CachedAccount) =>
    cachePartText('shown', { account: owner, shownNotificationIds: [...state.shown] }, textOptions);

  function pollTimeDue(now: boolean): boolean {
    const { fetchedAt } = state.data;
    if (fetchedAt === null) return false;
    if (writtenFetchedAt === null) return true;
    return now ? !fetchedAt.equals(writtenFetchedAt) : fetchedAt.diff(writtenFetchedAt, 'minutes').minutes >= pollTimeRefreshMinutes;
  }

  function persistFor(account: AccountIdentity, pollTimeNow = false): void {
    const owner = cachedAccount(account);
    const { data } = state;

    const reference = referenceNow(owner);
    if (!sameReference(reference, referenceSeen)) {
      referenceSeen = reference;
      const text = cachePartText(
        'reference',
        {
          account: owner,
          resources: data.resources,
          resourceTypes: data.resourceTypes,
          schedules: data.schedules,
          groups: data.groups,
          reservationAttributes: data.reservationAttributes,
        },
        textOptions,
      );
      const digest = digestOf(text);
      if (digest !== written.reference) write('reference', digest, text);
    }

    const reservations = reservationsPart(owner);
    const fingerprint = reservationsFingerprint(reservations);
    if (fingerprint !== written.reservations || pollTimeDue(pollTimeNow)) {
      writtenFetchedAt = data.fetchedAt;
      write('reservations', fingerprint, cachePartText('reservations', reservations, textOptions));
    }

    const shown = shownText(owner);
    const shownDigest = digestOf(shown);
    if (shownDigest !== written.shown) write('shown', shownDigest, shown);
  }

  return {
    persist() {
      const account = session.account;
      if (account !== null) persistFor(account);
    },
    flush() {
      const account = session.account;
      if (account !== null) persistFor(account, true);
    },
    async remove() {
      forgetWritten();
      await cacheWrites;
      await removeCache(dataDir);
    },
    async adopt(account) {
      clearAccountData(state);
      forgetWritten();
      const loaded = await loadCache(dataDir);
      const own = <N extends CachePartName>(found: LoadedPart<N>): LoadedPart<N> =>
        found !== null && belongsTo(found.part.account, account) ? found : null;
      const reference = own(loaded.reference);
      const reservations = own(loaded.reservations);
      const shown = own(loaded.shown);

      const data = emptyData();
      if (reference !== null) {
        const { resources, resourceTypes = [], schedules, groups, reservationAttributes } = reference.part;
        Object.assign(data, { resources, resourceTypes, schedules, groups, reservationAttributes });
      }
      if (reservations !== null) {
        const part = reservations.part;
        data.reservations = part.reservations;
        data.fetchedAt = instantOrNull(part.fetchedAt);
        // The age of reference data that is not there would stop it being fetched.
        // Reference data written before resource types were kept is fetched again, so icons do not wait 12 hours.
        const whole = reference !== null && reference.part.resourceTypes !== undefined;
        data.referenceFetchedAt = whole ? instantOrNull(part.referenceFetchedAt) : null;
      }
      state.data = data;
      state.shown = new Set(shown?.part.shownNotificationIds);

      // What is on disk already is not written again.
      const owner = cachedAccount(account);
      if (reference?.digest) {
        written.reference = reference.digest;
        referenceSeen = referenceNow(owner);
      }
      if (reservations?.digest) {
        written.reservations = reservationsFingerprint(reservationsPart(owner));
        writtenFetchedAt = data.fetchedAt;
      }
      if (shown?.digest) written.shown = digestOf(shownText(owner));

      if (loaded.legacy) {
        // The parts replace an earlier version's single file, which goes once they are written.
        persistFor(account);
        queue(() => removeLegacyCache(dataDir), 'could not remove the cache of an earlier version');
      }
    },
  };
}
