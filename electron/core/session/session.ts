/**
 * The signed-in account: sign-in and sign-out, the session kept in the OS keychain, and the one
 * way every other part of the core talks to the server — `run` (session-renewal.ts), which
 * re-authenticates silently when the session lapsed or the server answers 401, and retries the
 * caller's action once. The session is the one owner of its token: its client asks it for the
 * headers at every call.
 */
import { DateTime } from 'luxon';
import { createClient, type ApiClient, type ApiResult } from '../../api/client.js';
import { sessionHeaders, type Session } from '../../api/session-headers.js';
import type { BridgeError, BridgeResult, ServerChoice, SignInRequest } from '../../bridge/contract.js';
import type { Clock } from '../clock.js';
import { failure, invalidInput, success } from '../errors.js';
import type { SecretStore } from '../storage/secret-store.js';
import type { LocalService } from '../local-service/local-service.js';
import { readIdentity, type AccountIdentity } from './account-identity.js';
import { createKeptSession, keychainAccount, localKeychainAccount, type KeptRead } from './kept-session.js';
import { normaliseServerUrl } from './server-url.js';
import { sessionMessages, signInRefusal, type SessionResult } from './session-errors.js';
import { createSessionRenewal, type ActiveSession } from './session-renewal.js';

export interface SessionOptions {
  dataDir: string;
  clock: Clock;
  secrets: SecretStore;
  /** Where accounts of kind 'local' live; its address changes whenever it restarts. */
  localService?: Pick<LocalService, 'ensureRunning'>;
  fetch?: typeof globalThis.fetch;
  log?: (message: string, error?: unknown) => void;
}

/** What restoring the kept account came to: the keychain may be locked, holding its session back for now. */
export type RestoreOutcome = 'restored' | 'nothingKept' | 'keychainLocked';

export interface SignInOptions {
  /** The account Perch provisioned in the local service ("Try it on this computer"). */
  provisioned?: boolean;
}

export interface AccountSession {
  /** Null when signed out. */
  readonly account: AccountIdentity | null;
  /** Who was signed in when Perch last ran, if anyone: nothing secret, no server asked. */
  keptIdentity(): Promise<AccountIdentity | null>;
  /** The password kept in the keychain for an account of the local service, if any. */
  keptLocalPassword(userName: string): Promise<KeptRead<string>>;
  /** Restores the kept session without asking the server; the first call proves it. */
  restore(): Promise<RestoreOutcome>;
  signIn(request: SignInRequest, how?: SignInOptions): Promise<BridgeResult<AccountIdentity>>;
  signOut(): Promise<void>;
  /** Runs an action with the session; on a lapsed session or a 401, signs in again and retries once. */
  run<T>(action: (client: ApiClient) => Promise<ApiResult<T>>): Promise<SessionResult<T>>;
  /** Keeps what was read again of the resources the account may book, if it is still the one signed in. */
  keepBookable(account: AccountIdentity, bookableResourceIds: number[] | null): Promise<void>;
  /** The session ended without the user asking (re-authentication refused or impossible). */
  onSignedOut(listener: (error: BridgeError) => void): () => void;
}

/** How messages name the local service: not by its loopback address and port. */
const localServiceWording = {
  name: "Perch's service on this computer",
  whenUnreachable: 'Perch starts it again by itself; try again in a moment.',
};

export function createAccountSession(options: SessionOptions): AccountSession {
  const log = options.log ?? ((message: string, error?: unknown) => console.warn(`[session] ${message}`, error ?? ''));
  const kept = createKeptSession({ dataDir: options.dataDir, secrets: options.secrets, log });
  const listeners = new Set<(error: BridgeError) => void>();
  let active: ActiveSession | null = null;

  /** A client that sends the session `current` gives at the moment of each call: a session's own client sends the token it holds now, renewed or not. */
  const newClient = (apiRoot: string, server: ServerChoice, current: () => Session | null) =>
    createClient({
      apiRoot,
      // The person never typed the local service's address; its port changes with every start.
      ...(server.kind === 'local' && { wording: localServiceWording }),
      ...(options.fetch !== undefined && { fetch: options.fetch }),
      sessionHeaders: () => sessionHeaders(current()),
    });

  const renewal = createSessionRenewal({
    clock: options.clock,
    kept,
    active: () => active,
    async ended(session, error) {
      if (active !== session) return;
      active = null;
      await kept.forget(session.identity);
      for (const listener of listeners) listener(error);
    },
    async moved(session) {
      // The local service may have restarted (after a crash) on another port; its sessions live in
      // its database, so the same token works at the new address.
      if (session.identity.server.kind !== 'local') return { ok: true, value: undefined };
      const apiRoot = await apiRootOf(session.identity.server);
      if (!apiRoot.ok) return { ok: false, error: { kind: 'network', message: apiRoot.error.message } };
      if (apiRoot.value !== session.identity.apiRoot) {
        session.identity = { ...session.identity, apiRoot: apiRoot.value };
        session.client = newClient(apiRoot.value, session.identity.server, () => session.secrets);
      }
      return { ok: true, value: undefined };
    },
  });

  async function apiRootOf(server: ServerChoice): Promise<BridgeResult<string>> {
    if (server.kind === 'local') {
      if (!options.localService) return failure(invalidInput(sessionMessages.noLocalService));
      const running = await options.localService.ensureRunning();
      return running.ok ? success(running.value.apiRoot) : running;
    }
    const normalised = normaliseServerUrl(server.url);
    return normalised.ok ? success(normalised.value) : failure(invalidInput(normalised.error));
  }

  /** Tells the server the session is over; it may be unreachable, and the session ends here all the same. */
  const endOnServer = (session: ActiveSession) =>
    session.client.signOut({ body: { userId: session.secrets.userId, sessionToken: session.secrets.sessionToken } });

  return {
    get account() {
      return active?.identity ?? null;
    },

    keptIdentity: () => kept.identity(),

    async keptLocalPassword(userName) {
      const read = await kept.secrets(localKeychainAccount(userName));
      if (read.kind !== 'kept') return read;
      return read.value.password === undefined ? { kind: 'none' } : { kind: 'kept', value: read.value.password };
    },

    async restore() {
      const identity = await kept.identity();
      if (identity === null) return 'nothingKept';
      // A remote account returns to the address it signed in at; the local service's moves.
      const apiRoot = identity.server.kind === 'local' ? await apiRootOf(identity.server) : success(identity.apiRoot);
      if (!apiRoot.ok) {
        log(`could not restore the session: ${apiRoot.error.message}`);
        return 'nothingKept';
      }
      const restored: AccountIdentity = { ...identity, apiRoot: apiRoot.value };
      const read = await kept.secrets(keychainAccount(restored));
      if (read.kind === 'locked') return 'keychainLocked';
      if (read.kind === 'none') return 'nothingKept';
      const session: ActiveSession = {
        identity: restored,
        client: newClient(restored.apiRoot, restored.server, () => session.secrets),
        secrets: read.value,
        persistedExpires: DateTime.fromISO(read.value.sessionExpires).toMillis(),
        memoryPassword: null,
      };
      active = session;
      return 'restored';
    },

    async signIn(request, how = {}) {
      const apiRoot = await apiRootOf(request.server);
      if (!apiRoot.ok) return apiRoot;
      // Until the account is read, the session just started is this sign-in's alone.
      let started: Session | null = null;
      const client = newClient(apiRoot.value, request.server, () => started);
      const answer = await client.authenticate({ body: { username: request.username, password: request.password } });
      if (!answer.ok) return failure(signInRefusal(answer.error, request.server));
      const { sessionToken, userId } = answer.value;
      if (sessionToken === null || userId === null) return failure(invalidInput('The server accepted the sign-in but started no session.'));
      started = { sessionToken, userId };
      const identity = await readIdentity(client, {
        server: request.server,
        apiRoot: apiRoot.value,
        userName: request.username,
        userId,
        provisioned: how.provisioned === true,
      });
      if (!identity.ok) {
        await client.signOut({ body: started });
        return identity;
      }
      const previous = active;
      if (previous !== null) {
        active = null;
        await endOnServer(previous);
        await kept.forget(previous.identity);
      }
      const session: ActiveSession = {
        identity: identity.value,
        client: newClient(identity.value.apiRoot, identity.value.server, () => session.secrets),
        secrets: {
          sessionToken,
          userId,
          sessionExpires: renewal.expiresFromNow(),
          ...(request.staySignedIn && { password: request.password }),
        },
        persistedExpires: 0,
        memoryPassword: request.password,
      };
      active = session;
      await renewal.keep(session);
      await kept.keepIdentity(identity.value);
      return success(identity.value);
    },

    async signOut() {
      const session = active;
      if (session === null) return;
      active = null;
      // The server may be unreachable; the user still asked to be signed out here.
      await endOnServer(session);
      await kept.forget(session.identity);
    },

    run: renewal.run,

    async keepBookable(account, bookableResourceIds) {
      const session = active;
      if (session === null || session.identity !== account) return;
      if (JSON.stringify(account.bookableResourceIds ?? null) === JSON.stringify(bookableResourceIds)) return;
      // In place: whoever holds the account (a poll under way) still holds the signed-in one.
      session.identity.bookableResourceIds = bookableResourceIds;
      await kept.keepIdentity(session.identity);
    },

    onSignedOut(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
