/**
 * The OS keychain as the core's `SecretStore`: the keychain's life (opened on first use, locked,
 * unlocked, given up on for the run). What it is made of, one job a file: keytar.ts loads the
 * native module, keychain-probe.ts proves the keychain can keep a session, keychain-timeout.ts
 * bounds each call, keychain-reasons.ts words why the keychain is not used, lock-poll.ts and
 * secret-service-lock.ts notice a locked keychain being unlocked.
 */
import { messageOf } from '../../core/errors.js';
import { KeychainLockedError, memorySecretStore, type SecretStore } from '../../core/storage/secret-store.js';
import { keychainReasons, passesOnUnlock, reasonForKeychainError } from './keychain-reasons.js';
import { probeKeychain } from './keychain-probe.js';
import { callWithTimeout, KeychainTimeout } from './keychain-timeout.js';
import { importKeytar, keytarFunctions, type KeytarModule } from './keytar.js';
import { lockPoll } from './lock-poll.js';
import { keychainLockedWithoutPrompt } from './secret-service-lock.js';

export interface KeychainOptions {
  /**
   * Answers keytar's module (or anything with its three functions); injectable so a test can make
   * loading fail. The default imports keytar, an optional dependency that may be missing.
   */
  loadKeytar?: () => Promise<unknown>;
  /** keytar answers in milliseconds, even when it fails; this only guards against a keychain that hangs (an unlock prompt nobody answers). */
  timeoutMs?: number;
  /**
   * Whether the keychain is locked, asked without prompting the user; null when that cannot be
   * told. The default asks the Secret Service on Linux and cannot tell elsewhere.
   */
  isLocked?: () => Promise<boolean | null>;
  /** How often a locked keychain is asked whether it was unlocked. */
  lockPollMs?: number;
  log?: (message: string) => void;
}

const DEFAULT_TIMEOUT_MS = 3000;
const DEFAULT_LOCK_POLL_MS = 10_000;

type KeychainPhase =
  | { kind: 'open'; keytar: KeytarModule }
  | { kind: 'locked'; keytar: KeytarModule; reason: string }
  /** Unusable for this run: secrets live in memory. */
  | { kind: 'memory'; store: SecretStore };

/**
 * The OS keychain through keytar. Nothing is loaded or asked until the first use, so opening it
 * never holds start-up back. A keychain that cannot be used at all (no module, no bus, no Secret
 * Service) gives way to an in-memory store whose status says why. A locked one (at login, or
 * locked while Perch runs) keeps what it holds: reads reject with `KeychainLockedError`, writes and
 * deletes wait in memory, and once it is unlocked (found by asking it without a prompt, by a
 * late answer to its unlock prompt, or by `retry`) they are written and `onUnlocked` listeners run.
 * Never throws, except `KeychainLockedError` from `get`.
 */
export function openKeychain(service = 'Perch', options: KeychainOptions = {}): SecretStore {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const log = options.log ?? ((message: string) => console.warn(message));
  const listeners = new Set<() => void>();
  /** What was set (a secret) or deleted (null) while the keychain was locked, to write once it opens. */
  const waitingChanges = new Map<string, string | null>();
  /** Null until the keychain is first used. */
  let phase: KeychainPhase | null = null;
  /** The attempt under way to open the keychain (first use, or again once it may be unlocked). */
  let opening: Promise<void> | null = null;
  /** Whether the keychain was found locked since it was last open: its opening then is news to the listeners. */
  let lockedSinceOpen = false;
  const unlockPoll = lockPoll({
    isLocked: options.isLocked ?? keychainLockedWithoutPrompt,
    intervalMs: options.lockPollMs ?? DEFAULT_LOCK_POLL_MS,
    onUnlocked: () => void reopen(),
    stillLocked: () => phase?.kind === 'locked',
  });

  const call = <T>(what: string, work: () => Promise<T>): Promise<T> => callWithTimeout(work, timeoutMs, what);

  /** Writes the secret, or deletes it where it is null. */
  function keep(keytar: KeytarModule, account: string, secret: string | null): Promise<unknown> {
    if (secret === null) return call('a delete', () => keytar.deletePassword(service, account));
    return call('a write', () => keytar.setPassword(service, account, secret));
  }

  function useMemory(reason: string): void {
    unlockPoll.stop();
    phase = { kind: 'memory', store: memorySecretStore(reason) };
  }

  function becomeLocked(keytar: KeytarModule, reason: string): void {
    phase = { kind: 'locked', keytar, reason };
    lockedSinceOpen = true;
    unlockPoll.start();
  }

  async function probe(keytar: KeytarModule): Promise<void> {
    const outcome = await probeKeychain(keytar, service, timeoutMs);
    if (outcome.kind === 'mismatch') {
      log('Perch: the keychain returned something other than the probe secret');
      useMemory(keychainReasons.mismatch);
      return;
    }
    if (outcome.kind === 'failed') {
      const { error } = outcome;
      log(`Perch: the keychain is not usable: ${messageOf(error)}`);
      const reason = reasonForKeychainError(error);
      if (!passesOnUnlock(reason)) {
        useMemory(reason);
        return;
      }
      becomeLocked(keytar, reason);
      // An unlock prompt answered late: the write lands, so the keychain is open now.
      if (error instanceof KeychainTimeout) outcome.write.then(() => reopen()).catch(() => {});
      return;
    }
    await opened(keytar);
  }

  /** Writes what waited for the keychain, then tells the listeners it can be read. */
  async function opened(keytar: KeytarModule): Promise<void> {
    for (const [account, secret] of waitingChanges) {
      try {
        await keep(keytar, account, secret);
        waitingChanges.delete(account);
      } catch (error) {
        failed(keytar, error, 'to write what waited for it');
        return;
      }
    }
    unlockPoll.stop();
    phase = { kind: 'open', keytar };
    if (!lockedSinceOpen) return;
    lockedSinceOpen = false;
    for (const listener of listeners) listener();
  }

  function attempt(work: () => Promise<void>): Promise<void> {
    // Deferred, so that whatever `work` decides lands after `opening` is set, not before.
    const attempted: Promise<void> = Promise.resolve()
      .then(work)
      .finally(() => {
        if (opening === attempted) opening = null;
      });
    opening = attempted;
    return attempted;
  }

  function reopen(): Promise<void> {
    if (phase?.kind !== 'locked' || opening !== null) return opening ?? Promise.resolve();
    const { keytar } = phase;
    return attempt(() => probe(keytar));
  }

  async function load(): Promise<void> {
    let keytar: KeytarModule;
    try {
      keytar = keytarFunctions(await (options.loadKeytar ?? importKeytar)());
    } catch (error) {
      log(`Perch: keytar could not be loaded: ${messageOf(error)}`);
      useMemory(keychainReasons.moduleMissing);
      return;
    }
    await probe(keytar);
  }

  /** The keychain as it is now, opening it on first use. */
  async function current(): Promise<KeychainPhase> {
    if (phase === null && opening === null) void attempt(load);
    while (opening !== null) await opening;
    if (phase === null) throw new Error('The keychain was neither opened nor given up on.');
    return phase;
  }

  /** A call that failed on an open keychain: a locked one waits for unlocking, anything else gives way to memory. */
  function failed(keytar: KeytarModule, error: unknown, what: string): void {
    const reason = reasonForKeychainError(error);
    if (passesOnUnlock(reason)) {
      log(`Perch: the keychain failed ${what}; changes wait until it is unlocked: ${messageOf(error)}`);
      becomeLocked(keytar, reason);
      return;
    }
    log(`Perch: the keychain failed ${what}, keeping secrets in memory from now on: ${messageOf(error)}`);
    useMemory(reason);
  }

  async function change(account: string, secret: string | null): Promise<void> {
    const now = await current();
    if (now.kind === 'memory') {
      if (secret === null) await now.store.delete(account);
      else await now.store.set(account, secret);
      return;
    }
    if (now.kind === 'locked') {
      waitingChanges.set(account, secret);
      return;
    }
    try {
      await keep(now.keytar, account, secret);
    } catch (error) {
      failed(now.keytar, error, secret === null ? 'to delete' : 'to write');
      if (phase?.kind === 'locked') waitingChanges.set(account, secret);
      else if (phase?.kind === 'memory' && secret !== null) await phase.store.set(account, secret);
    }
  }

  return {
    async get(account) {
      if (waitingChanges.has(account)) return waitingChanges.get(account) ?? null;
      const now = await current();
      if (now.kind === 'memory') return now.store.get(account);
      if (now.kind === 'locked') throw new KeychainLockedError();
      try {
        return await call('a read', () => now.keytar.getPassword(service, account));
      } catch (error) {
        failed(now.keytar, error, 'to read');
        if (phase?.kind === 'locked') throw new KeychainLockedError();
        return null;
      }
    },
    set: (account, secret) => change(account, secret),
    delete: (account) => change(account, null),
    status() {
      if (phase?.kind === 'memory') return phase.store.status();
      if (phase?.kind === 'locked') return { available: false, reason: phase.reason };
      return { available: true, reason: null };
    },
    onUnlocked(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    retry() {
      void reopen();
    },
  };
}
