/**
 * The core's side of the keychain: where the session token and a kept password live. The OS
 * keychain that implements it is an adapter (electron/platform/keychain/); the core only knows
 * this interface, and the in-memory store used where no keychain can be.
 */
import type { KeychainStatus } from '../../bridge/contract.js';

/** Where the session token and, when the user asks for it, the password are kept. */
export interface SecretStore {
  /** Null when nothing is kept; rejects with `KeychainLockedError` while the keychain cannot be read. */
  get(account: string): Promise<string | null>;
  set(account: string, secret: string): Promise<void>;
  delete(account: string): Promise<void>;
  status(): KeychainStatus;
  /** Calls back each time a locked keychain becomes readable again. */
  onUnlocked(listener: () => void): () => void;
  /** Asks a locked keychain again now: the user is back (the screen was unlocked). */
  retry(): void;
}

/** The keychain may hold the secret, but it is locked: ask again once it is unlocked. */
export class KeychainLockedError extends Error {
  constructor() {
    super('The keychain is locked.');
    this.name = 'KeychainLockedError';
  }
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
    onUnlocked: () => () => {},
    retry: () => {},
  };
}
