import { execFile } from 'node:child_process';
import { systemProgramEnv } from '../system-program-env.js';
import { messageOf } from '../../core/errors.js';
import { KeychainLockedError, memorySecretStore, type SecretStore } from '../../core/storage/secret-store.js';

/** The part of keytar Perch uses. */
export interface KeytarModule {
  getPassword(service: string, account: string): Promise<string | null>;
  setPassword(service: string, account: string, password: string): Promise<void>;
  deletePassword(service: string, account: string): Promise<boolean>;
}

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
/** Asked every `lockPollMs` this many times (the first minute: an unlock right after login)… */
const QUICK_LOCK_POLLS = 6;
/** …then this many times less often: a keychain left locked all day wakes Perch at most twice a minute (issue 23). */
const SLOW_LOCK_POLL_FACTOR = 3;
/** Written and removed when the keychain is first used; real accounts are `<apiRoot>|<username>`, so it never meets one. */
export const probeAccount = 'perch-keychain-probe';
const consequence = 'you will need to sign in again after Perch restarts.';
const waiting = 'Perch reads your sign-in from it once it is unlocked, and keeps anything new there then.';

export const keychainReasons = {
  moduleMissing: `No keychain is available (the keychain module could not be loaded); ${consequence}`,
  noBus: `No keychain is available (there is no D-Bus session bus to reach it); ${consequence}`,
  noSecretService: `No keychain is available (no Secret Service on the session bus); ${consequence}`,
  locked: `The keychain is locked or has no default keyring yet. ${waiting}`,
  timeout: `The keychain did not answer in time (it may be waiting for you to unlock it). ${waiting}`,
  mismatch: `The keychain did not give back what Perch stored in it; ${consequence}`,
  failed: (detail: string) => `The keychain could not be used (${detail}); ${consequence}`,
} as const;

/** Reasons that pass once the user unlocks the keychain; every other one lasts for the run. */
const passingReasons: ReadonlySet<string> = new Set([keychainReasons.locked, keychainReasons.timeout]);

class KeychainTimeout extends Error {}

/** Turns what libsecret (through keytar) says into a sentence for the user. */
export function reasonForKeychainError(error: unknown): string {
  const message = messageOf(error);
  if (error instanceof KeychainTimeout) return keychainReasons.timeout;
  // "Cannot autolaunch D-Bus without X11 $DISPLAY", "Could not connect: No such file or directory".
  if (/autolaunch D-Bus|Could not connect|DBUS_SESSION_BUS_ADDRESS/i.test(message)) return keychainReasons.noBus;
  // "The name org.freedesktop.secrets was not provided by any .service files".
  if (/not provided by any \.service files|ServiceUnknown|NameHasNoOwner/i.test(message)) {
    return keychainReasons.noSecretService;
  }
  // "Cannot create an item in a locked collection"; "Object does not exist at path
  // /org/freedesktop/secrets/collection/login" (no keyring yet, and no prompt to create one).
  if (/locked|collection|prompt|dismissed/i.test(message)) return keychainReasons.locked;
  return keychainReasons.failed(message);
}

function withTimeout<T>(work: Promise<T>, timeoutMs: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    // A real timer, not the core's Clock: this guards an I/O call, it is not part of the app's timeline.
    timer = setTimeout(() => reject(new KeychainTimeout(`The keychain did not answer ${what} within ${timeoutMs} ms`)), timeoutMs);
    timer.unref();
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/** keytar is CommonJS: its functions arrive on `default`, and (by Node's detection) sometimes also by name. */
function keytarFunctions(loaded: unknown): KeytarModule {
  const hasFunctions = (candidate: unknown): candidate is KeytarModule =>
    typeof candidate === 'object' &&
    candidate !== null &&
    ['getPassword', 'setPassword', 'deletePassword'].every((name) => typeof (candidate as Record<string, unknown>)[name] === 'function');
  if (hasFunctions(loaded)) return loaded;
  const fallback = typeof loaded === 'object' && loaded !== null ? (loaded as { default?: unknown }).default : undefined;
  if (hasFunctions(fallback)) return fallback;
  throw new Error('keytar does not export getPassword, setPassword and deletePassword');
}

/**
 * Whether the Secret Service's default collection is locked, read as a D-Bus property: unlike any
 * keytar call, this never brings up an unlock prompt. Null when it cannot be told (no dbus-send,
 * no bus, no default collection).
 */
export function secretServiceLocked(env: NodeJS.ProcessEnv = process.env): Promise<boolean | null> {
  const args = [
    '--session',
    '--print-reply',
    '--reply-timeout=2000',
    '--dest=org.freedesktop.secrets',
    '/org/freedesktop/secrets/aliases/default',
    'org.freedesktop.DBus.Properties.Get',
    'string:org.freedesktop.Secret.Collection',
    'string:Locked',
  ];
  return new Promise((resolve) => {
    execFile('dbus-send', args, { env: systemProgramEnv(env), timeout: 3000 }, (error, stdout) => {
      const answer = error ? null : /boolean (true|false)/.exec(stdout);
      resolve(answer ? answer[1] === 'true' : null);
    });
  });
}

const defaultIsLocked = (): Promise<boolean | null> => (process.platform === 'linux' ? secretServiceLocked() : Promise.resolve(null));

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
  const lockPollMs = options.lockPollMs ?? DEFAULT_LOCK_POLL_MS;
  const isLocked = options.isLocked ?? defaultIsLocked;
  const log = options.log ?? ((message: string) => console.warn(message));
  const listeners = new Set<() => void>();
  /** What was set (a secret) or deleted (null) while the keychain was locked, to write once it opens. */
  const waitingChanges = new Map<string, string | null>();
  /** Null until the keychain is first used. */
  let phase: KeychainPhase | null = null;
  /** The attempt under way to open the keychain (first use, or again once it may be unlocked). */
  let opening: Promise<void> | null = null;
  let pollTimer: NodeJS.Timeout | null = null;
  /** Polls since the keychain was found locked. */
  let lockPolls = 0;
  /** Whether the keychain was found locked since it was last open: its opening then is news to the listeners. */
  let lockedSinceOpen = false;

  // Promise.resolve().then: a keytar call that throws synchronously becomes a rejection too.
  const call = <T>(what: string, work: () => Promise<T>): Promise<T> => withTimeout(Promise.resolve().then(work), timeoutMs, what);

  function useMemory(reason: string): void {
    stopPolling();
    phase = { kind: 'memory', store: memorySecretStore(reason) };
  }

  function stopPolling(): void {
    if (pollTimer) clearTimeout(pollTimer);
    pollTimer = null;
    lockPolls = 0;
  }

  function becomeLocked(keytar: KeytarModule, reason: string): void {
    phase = { kind: 'locked', keytar, reason };
    lockedSinceOpen = true;
    if (pollTimer === null) pollLock();
  }

  /**
   * Asks, without a prompt, whether the keychain was unlocked, and again while it is locked, the
   * quick polls first. Where that cannot be told it stops asking: the screen's unlock (`retry`)
   * and a late answer to the unlock prompt still open it.
   */
  function pollLock(): void {
    const delay = lockPolls < QUICK_LOCK_POLLS ? lockPollMs : lockPollMs * SLOW_LOCK_POLL_FACTOR;
    const timer: NodeJS.Timeout = setTimeout(() => {
      lockPolls += 1;
      void isLocked().then((locked) => {
        if (pollTimer !== timer) return;
        pollTimer = null;
        if (locked === false) void reopen();
        if (locked !== null && phase?.kind === 'locked') pollLock();
      });
    }, delay);
    timer.unref();
    pollTimer = timer;
  }

  /**
   * A locked keyring reads as empty without complaint and only refuses writes, so only a full
   * write-read-delete round trip proves the keychain can keep a session.
   */
  async function probe(keytar: KeytarModule): Promise<void> {
    const probeSecret = `probe-${Math.random().toString(36).slice(2)}`;
    const probeWrite = Promise.resolve().then(() => keytar.setPassword(service, probeAccount, probeSecret));
    try {
      await withTimeout(probeWrite, timeoutMs, 'a probe write');
      const readBack = await call('a probe read', () => keytar.getPassword(service, probeAccount));
      await call('a probe delete', () => keytar.deletePassword(service, probeAccount));
      if (readBack !== probeSecret) {
        log('Perch: the keychain returned something other than the probe secret');
        useMemory(keychainReasons.mismatch);
        return;
      }
    } catch (error) {
      log(`Perch: the keychain is not usable: ${messageOf(error)}`);
      const reason = reasonForKeychainError(error);
      if (!passingReasons.has(reason)) {
        useMemory(reason);
        return;
      }
      becomeLocked(keytar, reason);
      // An unlock prompt answered late: the write lands, so the keychain is open now.
      if (error instanceof KeychainTimeout) probeWrite.then(() => reopen()).catch(() => {});
      return;
    }
    await opened(keytar);
  }

  /** Writes what waited for the keychain, then tells the listeners it can be read. */
  async function opened(keytar: KeytarModule): Promise<void> {
    for (const [account, secret] of waitingChanges) {
      try {
        if (secret === null) await call('a delete', () => keytar.deletePassword(service, account));
        else await call('a write', () => keytar.setPassword(service, account, secret));
        waitingChanges.delete(account);
      } catch (error) {
        failed(keytar, error, 'to write what waited for it');
        return;
      }
    }
    stopPolling();
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
      keytar = keytarFunctions(await (options.loadKeytar ?? (() => import('keytar')))());
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
    if (passingReasons.has(reason)) {
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
      if (secret === null) await call('a delete', () => now.keytar.deletePassword(service, account));
      else await call('a write', () => now.keytar.setPassword(service, account, secret));
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
