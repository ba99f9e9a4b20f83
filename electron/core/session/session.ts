/**
 * The signed-in account: sign-in and sign-out, the session kept in the OS keychain, and the one
 * way every other part of the core talks to the server — `run`, which re-authenticates silently
 * when the session lapsed or the server answers 401, and retries the caller's action once.
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Type, type Static } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { DateTime } from 'luxon';
import { createClient, type ApiClient, type ApiError, type ApiResult } from '../../api/client.js';
import { isValidTimeZone } from '../../api/dates.js';
import type { Result } from '../../api/result.js';
import { Role } from '../../api/schemas/groups.js';
import { ServerChoiceSchema, type AccountView, type BridgeError, type BridgeResult, type ServerChoice, type SignInRequest } from '../../bridge/contract.js';
import type { Clock } from '../clock.js';
import { bridgeErrorFromApi, failure, invalidInput, signedOutError, success } from '../errors.js';
import { readJsonFile, writeJsonAtomic } from '../storage/files.js';
import { KeychainLockedError, type SecretStore } from '../storage/secret-store.js';
import type { LocalService } from '../local-service/local-service.js';
import { readBookableResourceIds } from './bookable.js';
import { normaliseServerUrl } from './server-url.js';

/** Real servers' inactivity timeout; every successful call slides it (server-facts A). */
const sessionLifetimeMinutes = 30;
// Writing the keychain on every poll would be wasteful; a restart within this much of the real
// expiry merely costs one re-authentication.
const persistSlackMinutes = 5;

const accountFileName = 'account.json';

/** Who is signed in where: everything needed to restore on restart, nothing secret. */
const AccountIdentitySchema = Type.Object({
  server: ServerChoiceSchema,
  apiRoot: Type.String({ minLength: 1 }),
  userName: Type.String({ minLength: 1 }),
  userId: Type.Integer({ minimum: 1 }),
  firstName: Type.String(),
  lastName: Type.String(),
  timezone: Type.String({ minLength: 1 }),
  /**
   * Where `timezone` came from when the server gave the account none it could use (empty, null or
   * unknown): the server's default schedule, else this computer. Absent when it was the account's.
   */
  timezoneFrom: Type.Optional(Type.Union([Type.Literal('serverDefault'), Type.Literal('thisComputer')])),
  isAdmin: Type.Boolean(),
  /** The resources the user may book (see bookable.ts); null or absent when the server does not say. */
  bookableResourceIds: Type.Optional(Type.Union([Type.Array(Type.Integer({ minimum: 1 })), Type.Null()])),
  /** Perch made this account in the local service for the person at this computer, so it may set its password. */
  provisioned: Type.Optional(Type.Literal(true)),
});
export type AccountIdentity = Static<typeof AccountIdentitySchema>;

/** One keychain entry per server and user, as JSON. */
const KeptSecretsSchema = Type.Object({
  sessionToken: Type.String({ minLength: 1 }),
  sessionExpires: Type.String({ minLength: 1 }),
  userId: Type.Integer({ minimum: 1 }),
  password: Type.Optional(Type.String({ minLength: 1 })),
});
type KeptSecrets = Static<typeof KeptSecretsSchema>;

/** What a call through the session fails with: the server's error, or the session is gone. */
export type SessionError = ApiError | { kind: 'signedOut'; message: string };
export type SessionResult<T> = Result<T, SessionError>;

export function bridgeErrorFromSession(error: SessionError): BridgeError {
  return error.kind === 'signedOut' ? signedOutError(error.message) : bridgeErrorFromApi(error);
}

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

/** A kept secret, none, or the keychain cannot be read until it is unlocked. */
export type KeptRead<T> = { kind: 'kept'; value: T } | { kind: 'none' } | { kind: 'locked' };

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

export const sessionMessages = {
  noLocalService: 'The local Perch service is not running, so there is nothing to sign in to on this computer.',
  sessionEnded: 'Your session on the server ended. Sign in again to continue.',
  reauthenticationRefused: (reason: string) => `Your session on the server ended and signing in again failed: ${reason} Sign in again to continue.`,
  /**
   * Added to an organisation's server's refusal of a password. Accounts made by single sign-on
   * (SAML, CAS, Shibboleth, the Google / Microsoft / OAuth2 buttons) have no password the API
   * takes; directory accounts (LDAP, Active Directory) do.
   */
  singleSignOn:
    "If you sign in to the website through your organisation's single sign-on, Perch needs an API password from the server's administrator, or your directory (LDAP or Active Directory) account where the site uses one.",
} as const;

/**
 * A refused sign-in, in words that say what to do. Real servers answer a typo and an account
 * without an API password alike, so a refused password keeps the server's words and adds what
 * a single sign-on user must do; the local service has no single sign-on.
 */
export function signInRefusal(error: ApiError, server: ServerChoice): BridgeError {
  const bridged = bridgeErrorFromApi(error);
  if (error.kind !== 'unauthorized' || server.kind === 'local') return bridged;
  return { ...bridged, message: `${error.message} ${sessionMessages.singleSignOn}` };
}

/** How messages name the local service: not by its loopback address and port. */
const localServiceWording = {
  name: "Perch's service on this computer",
  whenUnreachable: 'Perch starts it again by itself; try again in a moment.',
};

/** What a call through a session that has ended answers. */
const sessionGone = (message: string = sessionMessages.sessionEnded): { ok: false; error: SessionError } => ({ ok: false, error: { kind: 'signedOut', message } });

/** What Settings says when the account's zone is not the account's own. */
export function timezoneNote(identity: Pick<AccountIdentity, 'timezone' | 'timezoneFrom'>): string | null {
  if (identity.timezoneFrom === undefined) return null;
  const whose = identity.timezoneFrom === 'serverDefault' ? "the server's default" : "this computer's";
  return `Your account on the server has no time zone; Perch shows times in ${identity.timezone}, ${whose}.`;
}

export function accountView(identity: AccountIdentity): AccountView {
  const displayName = `${identity.firstName} ${identity.lastName}`.trim();
  return {
    server: identity.server,
    userId: identity.userId,
    userName: identity.userName,
    displayName: displayName === '' ? identity.userName : displayName,
    timezone: identity.timezone,
    timezoneNote: timezoneNote(identity),
    isAdmin: identity.isAdmin,
  };
}

/**
 * The zone to read a user in whose account has none the server could give: the server's own
 * default. Its configuration is out of a client's reach, so its default schedule's zone stands
 * for it (else the first schedule's); this computer's zone only when there is no schedule to ask.
 */
async function serverDefaultZone(client: ApiClient): Promise<Pick<AccountIdentity, 'timezone' | 'timezoneFrom'>> {
  const listed = await client.getAllSchedules();
  const schedules = listed.ok ? listed.value.schedules.filter((schedule) => isValidTimeZone(schedule.timezone)) : [];
  const schedule = schedules.find((candidate) => candidate.isDefault) ?? schedules[0];
  if (schedule !== undefined) return { timezone: schedule.timezone, timezoneFrom: 'serverDefault' };
  return { timezone: DateTime.local().zoneName ?? 'UTC', timezoneFrom: 'thisComputer' };
}

interface ActiveSession {
  identity: AccountIdentity;
  client: ApiClient;
  secrets: KeptSecrets;
  /** What the keychain holds as the expiry, to decide when it is worth writing again. */
  persistedExpires: number;
  /** The password of this run when "stay signed in" is off: re-authentication still works until quit. */
  memoryPassword: string | null;
}

/** The local service's port changes between runs, so its accounts are keyed by kind, not URL. */
export const localKeychainAccount = (userName: string) => `local|${userName}`;

function keychainAccount(identity: Pick<AccountIdentity, 'server' | 'apiRoot' | 'userName'>): string {
  return identity.server.kind === 'local' ? localKeychainAccount(identity.userName) : `${identity.apiRoot}|${identity.userName}`;
}

export function createAccountSession(options: SessionOptions): AccountSession {
  const { clock, secrets } = options;
  const log = options.log ?? ((message: string, error?: unknown) => console.warn(`[session] ${message}`, error ?? ''));
  const accountPath = join(options.dataDir, accountFileName);
  const listeners = new Set<(error: BridgeError) => void>();
  let active: ActiveSession | null = null;
  let reauthentication: Promise<SessionResult<void>> | null = null;

  const newClient = (apiRoot: string, server: ServerChoice) =>
    createClient({
      apiRoot,
      // The person never typed the local service's address; its port changes with every start.
      ...(server.kind === 'local' && { wording: localServiceWording }),
      ...(options.fetch !== undefined && { fetch: options.fetch }),
    });

  const expiresFromNow = () => clock.now().plus({ minutes: sessionLifetimeMinutes });

  async function keepSecrets(session: ActiveSession): Promise<void> {
    try {
      await secrets.set(keychainAccount(session.identity), JSON.stringify(session.secrets));
      session.persistedExpires = DateTime.fromISO(session.secrets.sessionExpires).toMillis();
    } catch (error) {
      // The keychain store reports its own state; the session still works for this run.
      log('could not keep the session in the keychain', error);
    }
  }

  async function forget(identity: AccountIdentity): Promise<void> {
    try {
      await secrets.delete(keychainAccount(identity));
    } catch (error) {
      log('could not delete the keychain entry', error);
    }
    await rm(accountPath, { force: true });
  }

  /** Ends the session locally after the server refused us, and tells the core why. */
  async function endSession(session: ActiveSession, error: BridgeError): Promise<void> {
    if (active !== session) return;
    active = null;
    await forget(session.identity);
    for (const listener of listeners) listener(error);
  }

  async function endedWith(session: ActiveSession, message: string): Promise<{ ok: false; error: SessionError }> {
    await endSession(session, signedOutError(message));
    return sessionGone(message);
  }

  function slide(session: ActiveSession): void {
    const expires = expiresFromNow();
    session.secrets.sessionExpires = expires.toISO() ?? session.secrets.sessionExpires;
    if (expires.toMillis() - session.persistedExpires >= persistSlackMinutes * 60_000) void keepSecrets(session);
  }

  async function readKeptSecrets(entry: string): Promise<KeptRead<KeptSecrets>> {
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
  }

  async function keptIdentity(): Promise<AccountIdentity | null> {
    const read = await readJsonFile(accountPath);
    return read.kind === 'ok' && Value.Check(AccountIdentitySchema, read.value) ? read.value : null;
  }

  const passwordOf = (session: ActiveSession) => session.memoryPassword ?? session.secrets.password ?? null;

  const lapsed = (session: ActiveSession) => DateTime.fromISO(session.secrets.sessionExpires).toMillis() <= clock.now().toMillis();

  async function authenticateAgain(session: ActiveSession): Promise<SessionResult<void>> {
    const password = passwordOf(session);
    if (password === null) return endedWith(session, sessionMessages.sessionEnded);
    const answer = await session.client.authenticate({ body: { username: session.identity.userName, password } });
    if (active !== session) return sessionGone();
    if (!answer.ok) {
      // Unreachable or failing: still signed in, just not now. Refused: the password no longer works.
      if (answer.error.kind !== 'unauthorized') return answer;
      return endedWith(session, sessionMessages.reauthenticationRefused(answer.error.message));
    }
    const { sessionToken, userId } = answer.value;
    session.secrets = { ...session.secrets, sessionToken: sessionToken ?? '', userId: userId ?? session.identity.userId, sessionExpires: expiresFromNow().toISO() ?? '' };
    await keepSecrets(session);
    return { ok: true, value: undefined };
  }

  /** One re-authentication for every caller that found the same stale token. */
  function reauthenticate(session: ActiveSession, staleToken: string): Promise<SessionResult<void>> {
    if (session.secrets.sessionToken !== staleToken) return Promise.resolve({ ok: true, value: undefined });
    reauthentication ??= authenticateAgain(session).finally(() => {
      reauthentication = null;
    });
    return reauthentication;
  }

  /**
   * The local service may have restarted (after a crash) on another port; its sessions live in its
   * database, so the same token works at the new address.
   */
  async function followLocalService(session: ActiveSession): Promise<SessionResult<void>> {
    const apiRoot = await apiRootOf(session.identity.server);
    if (!apiRoot.ok) return { ok: false, error: { kind: 'network', message: apiRoot.error.message } };
    if (apiRoot.value !== session.identity.apiRoot) {
      const client = newClient(apiRoot.value, session.identity.server);
      client.session = session.client.session;
      session.identity = { ...session.identity, apiRoot: apiRoot.value };
      session.client = client;
    }
    return { ok: true, value: undefined };
  }

  async function readIdentity(
    client: ApiClient,
    request: SignInRequest,
    server: ServerChoice,
    apiRoot: string,
    userId: number,
    provisioned: boolean,
  ): Promise<BridgeResult<AccountIdentity>> {
    const user = await client.getUser({ params: { userId } });
    if (!user.ok) return failure(bridgeErrorFromApi(user.error));
    const data = user.value;
    return success({
      server,
      apiRoot,
      userName: data.userName === '' ? request.username : data.userName,
      userId,
      firstName: data.firstName,
      lastName: data.lastName,
      ...(isValidTimeZone(data.timezone) ? { timezone: data.timezone } : await serverDefaultZone(client)),
      isAdmin: data.groups.some((group) => group.roleIds.includes(Role.applicationAdministrator)),
      // An administrator of any kind comes back as null there, before any group is asked.
      bookableResourceIds: await readBookableResourceIds(data, async (groupId) => {
        const group = await client.getGroup({ params: { groupId } });
        return group.ok ? group.value.permissions : null;
      }),
      ...(provisioned && { provisioned: true as const }),
    });
  }

  async function apiRootOf(server: ServerChoice): Promise<BridgeResult<string>> {
    if (server.kind === 'local') {
      if (!options.localService) return failure(invalidInput(sessionMessages.noLocalService));
      const running = await options.localService.ensureRunning();
      return running.ok ? success(running.value.apiRoot) : running;
    }
    const normalised = normaliseServerUrl(server.url);
    return normalised.ok ? success(normalised.value) : failure(invalidInput(normalised.error));
  }

  return {
    get account() {
      return active?.identity ?? null;
    },

    keptIdentity,

    async keptLocalPassword(userName) {
      const kept = await readKeptSecrets(localKeychainAccount(userName));
      if (kept.kind !== 'kept') return kept;
      return kept.value.password === undefined ? { kind: 'none' } : { kind: 'kept', value: kept.value.password };
    },

    async restore() {
      const kept = await keptIdentity();
      if (kept === null) return 'nothingKept';
      // A remote account returns to the address it signed in at; the local service's moves.
      const apiRoot = kept.server.kind === 'local' ? await apiRootOf(kept.server) : success(kept.apiRoot);
      if (!apiRoot.ok) {
        log(`could not restore the session: ${apiRoot.error.message}`);
        return 'nothingKept';
      }
      const identity: AccountIdentity = { ...kept, apiRoot: apiRoot.value };
      const read = await readKeptSecrets(keychainAccount(identity));
      if (read.kind === 'locked') return 'keychainLocked';
      if (read.kind === 'none') return 'nothingKept';
      const parsed = read.value;
      const client = newClient(identity.apiRoot, identity.server);
      client.session = { sessionToken: parsed.sessionToken, userId: parsed.userId };
      active = {
        identity,
        client,
        secrets: parsed,
        persistedExpires: DateTime.fromISO(parsed.sessionExpires).toMillis(),
        memoryPassword: null,
      };
      return 'restored';
    },

    async signIn(request, how = {}) {
      const apiRoot = await apiRootOf(request.server);
      if (!apiRoot.ok) return apiRoot;
      const client = newClient(apiRoot.value, request.server);
      const answer = await client.authenticate({ body: { username: request.username, password: request.password } });
      if (!answer.ok) return failure(signInRefusal(answer.error, request.server));
      const { sessionToken, userId } = answer.value;
      if (sessionToken === null || userId === null) return failure(invalidInput('The server accepted the sign-in but started no session.'));
      const identity = await readIdentity(client, request, request.server, apiRoot.value, userId, how.provisioned === true);
      if (!identity.ok) {
        await client.signOut({ body: { userId, sessionToken } });
        return identity;
      }
      const previous = active;
      if (previous !== null) {
        active = null;
        await previous.client.signOut({ body: { userId: previous.secrets.userId, sessionToken: previous.secrets.sessionToken } });
        await forget(previous.identity);
      }
      const session: ActiveSession = {
        identity: identity.value,
        client,
        secrets: {
          sessionToken,
          userId,
          sessionExpires: expiresFromNow().toISO() ?? '',
          ...(request.staySignedIn && { password: request.password }),
        },
        persistedExpires: 0,
        memoryPassword: request.password,
      };
      active = session;
      await keepSecrets(session);
      await writeJsonAtomic(accountPath, identity.value);
      return success(identity.value);
    },

    async signOut() {
      const session = active;
      if (session === null) return;
      active = null;
      // The server may be unreachable; the user still asked to be signed out here.
      await session.client.signOut({ body: { userId: session.secrets.userId, sessionToken: session.secrets.sessionToken } });
      await forget(session.identity);
    },

    async run(action) {
      const session = active;
      if (session === null) return sessionGone();
      if (session.identity.server.kind === 'local') {
        const moved = await followLocalService(session);
        if (!moved.ok) return moved;
      }
      // A lapsed session would only earn a 401; with no password to hand, the server decides.
      if (lapsed(session) && passwordOf(session) !== null) {
        const renewed = await reauthenticate(session, session.secrets.sessionToken);
        if (!renewed.ok) return renewed;
      }
      const token = session.secrets.sessionToken;
      const first = await action(session.client);
      if (first.ok) {
        slide(session);
        return first;
      }
      if (first.error.kind !== 'unauthorized' || active !== session) return first;
      const renewed = await reauthenticate(session, token);
      if (!renewed.ok) return renewed;
      const second = await action(session.client);
      if (second.ok) slide(session);
      return second;
    },

    async keepBookable(account, bookableResourceIds) {
      const session = active;
      if (session === null || session.identity !== account) return;
      if (JSON.stringify(account.bookableResourceIds ?? null) === JSON.stringify(bookableResourceIds)) return;
      // In place: whoever holds the account (a poll under way) still holds the signed-in one.
      session.identity.bookableResourceIds = bookableResourceIds;
      await writeJsonAtomic(accountPath, session.identity);
    },

    onSignedOut(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
