/**
 * What outlives a run: who was signed in, in the data folder (nothing secret), and the session's
 * token, expiry and (when asked to stay signed in) password, in the OS keychain.
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Type, type Static } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { readJsonFile, writeJsonAtomic } from '../storage/files.js';
import { KeychainLockedError, type SecretStore } from '../storage/secret-store.js';
import { AccountIdentitySchema, type AccountIdentity } from './account-identity.js';

const accountFileName = 'account.json';

/** One keychain entry per server and user, as JSON. */
const KeptSecretsSchema = Type.Object({
  sessionToken: Type.String({ minLength: 1 }),
  sessionExpires: Type.String({ minLength: 1 }),
  userId: Type.Integer({ minimum: 1 }),
  password: Type.Optional(Type.String({ minLength: 1 })),
});
export type KeptSecrets = Static<typeof KeptSecretsSchema>;

/** A kept secret, none, or the keychain cannot be read until it is unlocked. */
export type KeptRead<T> = { kind: 'kept'; value: T } | { kind: 'none' } | { kind: 'locked' };

/** The local service's port changes between runs, so its accounts are keyed by kind, not URL. */
export const localKeychainAccount = (userName: string) => `local|${userName}`;

export function keychainAccount(identity: Pick<AccountIdentity, 'server' | 'apiRoot' | 'userName'>): string {
  return identity.server.kind === 'local' ? localKeychainAccount(identity.userName) : `${identity.apiRoot}|${identity.userName}`;
}

export interface KeptSession {
  /** Who was signed in when Perch last ran, if anyone. */
  identity(): Promise<AccountIdentity | null>;
  keepIdentity(identity: AccountIdentity): Promise<void>;
  /** The secrets kept under a keychain entry (keychainAccount). */
  secrets(entry: string): Promise<KeptRead<KeptSecrets>>;
  /** False when the keychain would not keep them (it reports its own state); the session still works for this run. */
  keepSecrets(identity: AccountIdentity, secrets: KeptSecrets): Promise<boolean>;
  /** Both gone: the keychain entry and the account file. */
  forget(identity: AccountIdentity): Promise<void>;
}

export function createKeptSession(options: {
  dataDir: string;
  secrets: SecretStore;
  log(message: string, error?: unknown): void;
}): KeptSession {
  const { secrets, log } = options;
  const accountPath = join(options.dataDir, accountFileName);
  return {
    async identity() {
      const read = await readJsonFile(accountPath);
      return read.kind === 'ok' && Value.Check(AccountIdentitySchema, read.value) ? read.value : null;
    },

    keepIdentity: (identity) => writeJsonAtomic(accountPath, identity),

    async secrets(entry) {
      let stored: string | null = null;
      try {
        stored = await secrets.get(entry);
      } catch (error) {
        if (error instanceof KeychainLockedError) return { kind: 'locked' };
        log('could not read the keychain', error);
      }
      let parsed: unknown = null;
      try {
        parsed = stored === null ? null : JSON.parse(stored);
      } catch {
        parsed = null;
      }
      return Value.Check(KeptSecretsSchema, parsed) ? { kind: 'kept', value: parsed } : { kind: 'none' };
    },

    async keepSecrets(identity, kept) {
      try {
        await secrets.set(keychainAccount(identity), JSON.stringify(kept));
        return true;
      } catch (error) {
        log('could not keep the session in the keychain', error);
        return false;
      }
    },

    async forget(identity) {
      try {
        await secrets.delete(keychainAccount(identity));
      } catch (error) {
        log('could not delete the keychain entry', error);
      }
      await rm(accountPath, { force: true });
    },
  };
}
