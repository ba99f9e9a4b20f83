/**
 * Failed sign-ins, counted per account and per client over a sliding window, so that a password
 * cannot be guessed at the speed of a loop. A success clears the account's count, not the
 * client's: one right password does not pay for many wrong ones elsewhere.
 */
export interface ThrottleLimits {
  windowMs: number;
  perAccount: number;
  perClient: number;
}

export const defaultThrottleLimits: ThrottleLimits = { windowMs: 15 * 60_000, perAccount: 5, perClient: 20 };

export type ThrottleVerdict = { allowed: true } | { allowed: false; retryAtMs: number };

// Enough keys for any real use; past it, keys whose failures have all aged out are forgotten.
const MAX_KEYS = 10_000;

export interface SignInThrottle {
  verdict(account: string, client: string, nowMs: number): ThrottleVerdict;
  failed(account: string, client: string, nowMs: number): void;
  succeeded(account: string): void;
}

export function createSignInThrottle(limits: ThrottleLimits = defaultThrottleLimits): SignInThrottle {
  const failures = new Map<string, number[]>();
  const accountKey = (account: string) => `account:${account.trim().toLowerCase()}`;
  const clientKey = (client: string) => `client:${client}`;

  function recent(key: string, nowMs: number): number[] {
    const kept = (failures.get(key) ?? []).filter((at) => at > nowMs - limits.windowMs);
    if (kept.length === 0) failures.delete(key);
    else failures.set(key, kept);
    return kept;
  }

  /** When the oldest failure that keeps the key at its limit leaves the window; null while under it. */
  function blockedUntil(key: string, limit: number, nowMs: number): number | null {
    const kept = recent(key, nowMs);
    return kept.length < limit ? null : kept[kept.length - limit]! + limits.windowMs;
  }

  function forgetExpired(nowMs: number) {
    for (const key of [...failures.keys()]) recent(key, nowMs);
  }

  return {
    verdict(account, client, nowMs) {
      const until = [blockedUntil(accountKey(account), limits.perAccount, nowMs), blockedUntil(clientKey(client), limits.perClient, nowMs)];
      const latest = Math.max(...until.map((at) => at ?? -Infinity));
      return latest === -Infinity ? { allowed: true } : { allowed: false, retryAtMs: latest };
    },
    failed(account, client, nowMs) {
      if (failures.size >= MAX_KEYS) forgetExpired(nowMs);
      for (const key of [accountKey(account), clientKey(client)]) failures.set(key, [...recent(key, nowMs), nowMs]);
    },
    succeeded(account) {
      failures.delete(accountKey(account));
    },
  };
}
