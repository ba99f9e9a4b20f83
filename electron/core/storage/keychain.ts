import type { KeychainStatus } from '../../bridge.js';
import { messageOf } from '../errors.js';

/** Where the session token and, when the user asks for it, the password are kept. */
export interface SecretStore {
  get(account: string): Promise<string | null>;
  set(account: string, secret: string): Promise<void>;
  delete(account: string): Promise<void>;
  status(): KeychainStatus;
}

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
  /** keytar answers in milliseconds, even when it fails; this only guards against a keychain that hangs. */
  timeoutMs?: number;
  log?: (message: string) => void;
}

const DEFAULT_TIMEOUT_MS = 3000;
/** Written and removed at open time; real accounts are `<apiRoot>|<username>`, so it never meets one. */
export const probeAccount = 'perch-keychain-probe';
const consequence = 'you will need to sign in again after Perch restarts.';

export const keychainReasons = {
  moduleMissing: `No keychain is available (the keychain module could not be loaded); ${consequence}`,
  noBus: `No keychain is available (there is no D-Bus session bus to reach it); ${consequence}`,
  noSecretService: `No keychain is available (no Secret Service on the session bus); ${consequence}`,
  locked: `The keychain is locked or has no default keyring, so Perch cannot keep your sign-in there; ${consequence}`,
  timeout: `The keychain did not answer in time; ${consequence}`,
  mismatch: `The keychain did not give back what Perch stored in it; ${consequence}`,
  failed: (detail: string) => `The keychain could not be used (${detail}); ${consequence}`,
} as const;

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

/** Secrets held for this run only, with the reason the keychain is not used. */
export function memorySecretStore(reason: string): SecretStore {
  const secrets = new Map<string, string>();
  return {
    get: async (account) => secrets.get(account) ?? null,
    set: async (account, secret) => {
      secrets.set(account, secret);
    },
    delete: async (account) => {
      secrets.delete(account);
    },
    status: () => ({ available: false, reason }),
  };
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
 * The OS keychain through keytar, or, when it cannot be used, an in-memory store whose status
 * says why. A keychain that works at open time but fails later (locked meanwhile, daemon gone)
 * switches the store to memory from then on. Never throws.
 */
export async function openKeychain(service = 'Perch', options: KeychainOptions = {}): Promise<SecretStore> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const log = options.log ?? ((message: string) => console.warn(message));

  let keytar: KeytarModule;
  try {
    keytar = keytarFunctions(await (options.loadKeytar ?? (() => import('keytar')))());
  } catch (error) {
    log(`Perch: keytar could not be loaded: ${messageOf(error)}`);
    return memorySecretStore(keychainReasons.moduleMissing);
  }

  // Promise.resolve().then: a keytar call that throws synchronously becomes a rejection too.
  const call = <T>(what: string, work: () => Promise<T>): Promise<T> => withTimeout(Promise.resolve().then(work), timeoutMs, what);

  // A locked keyring reads as empty without complaint and only refuses writes, so only a full
  // write-read-delete round trip proves the keychain can keep a session.
  const probeSecret = `probe-${Math.random().toString(36).slice(2)}`;
  const probeWrite = Promise.resolve().then(() => keytar.setPassword(service, probeAccount, probeSecret));
  try {
    await withTimeout(probeWrite, timeoutMs, 'a probe write');
    const readBack = await call('a probe read', () => keytar.getPassword(service, probeAccount));
    await call('a probe delete', () => keytar.deletePassword(service, probeAccount));
    if (readBack !== probeSecret) {
      log('Perch: the keychain returned something other than the probe secret');
      return memorySecretStore(keychainReasons.mismatch);
    }
  } catch (error) {
    log(`Perch: the keychain is not usable: ${messageOf(error)}`);
    // A write that was only slow (an unlock prompt the user answered late) must not leave the probe behind.
    if (error instanceof KeychainTimeout) {
      probeWrite.then(() => keytar.deletePassword(service, probeAccount)).catch(() => {});
    }
    return memorySecretStore(reasonForKeychainError(error));
  }

  let fallback: SecretStore | null = null;
  const fallBack = (error: unknown, what: string): SecretStore => {
    log(`Perch: the keychain failed ${what}, keeping secrets in memory from now on: ${messageOf(error)}`);
    fallback ??= memorySecretStore(reasonForKeychainError(error));
    return fallback;
  };

  return {
    async get(account) {
      if (fallback) return fallback.get(account);
      try {
        return await call('a read', () => keytar.getPassword(service, account));
      } catch (error) {
        return fallBack(error, 'to read').get(account);
      }
    },
    async set(account, secret) {
      if (fallback) return fallback.set(account, secret);
      try {
        await call('a write', () => keytar.setPassword(service, account, secret));
      } catch (error) {
        await fallBack(error, 'to write').set(account, secret);
      }
    },
    async delete(account) {
      if (fallback) return fallback.delete(account);
      try {
        await call('a delete', () => keytar.deletePassword(service, account));
      } catch (error) {
        await fallBack(error, 'to delete').delete(account);
      }
    },
    status: () => (fallback ? fallback.status() : { available: true, reason: null }),
  };
}
