/**
 * Keeping a signed-in session alive: every call goes through `run`, which signs in again with the
 * password at hand when the session lapsed or the server answers 401, once for every caller that
 * found the same stale token, and retries the caller's action once. Each success slides the
 * session's expiry, written to the keychain only when it moved far enough to matter.
 */
import { DateTime } from 'luxon';
import type { ApiClient, ApiResult } from '../../api/client.js';
import type { BridgeError } from '../../bridge/contract.js';
import type { Clock } from '../clock.js';
import { signedOutError } from '../errors.js';
import type { AccountIdentity } from './account-identity.js';
import type { KeptSecrets, KeptSession } from './kept-session.js';
import { sessionGone, sessionMessages, type SessionError, type SessionResult } from './session-errors.js';

/** Real servers' inactivity timeout; every successful call slides it (server-facts A). */
const sessionLifetimeMinutes = 30;
// Writing the keychain on every poll would be wasteful; a restart within this much of the real
// expiry merely costs one re-authentication.
const persistSlackMinutes = 5;

/** The session signed in now: its token lives here alone, and its client asks for it at every call. */
export interface ActiveSession {
  identity: AccountIdentity;
  client: ApiClient;
  secrets: KeptSecrets;
  /** What the keychain holds as the expiry, to decide when it is worth writing again. */
  persistedExpires: number;
  /** The password of this run when "stay signed in" is off: re-authentication still works until quit. */
  memoryPassword: string | null;
}

export interface SessionRenewalOptions {
  clock: Clock;
  kept: Pick<KeptSession, 'keepSecrets'>;
  /** The session signed in now, if any: the one every call runs with, and the only one renewed. */
  active(): ActiveSession | null;
  /** The server refused to renew the session: it ends here, and the core is told why. */
  ended(session: ActiveSession, error: BridgeError): Promise<void>;
  /** Before each call: the session follows its server where that may have moved. */
  moved(session: ActiveSession): Promise<SessionResult<void>>;
}

export interface SessionRenewal {
  /** Runs an action with the session signed in now; on a lapsed session or a 401, signs in again and retries once. */
  run<T>(action: (client: ApiClient) => Promise<ApiResult<T>>): Promise<SessionResult<T>>;
  /** Writes the session's secrets to the keychain. */
  keep(session: ActiveSession): Promise<void>;
  /** A new session's expiry, as the keychain keeps it. */
  expiresFromNow(): string;
}

export function createSessionRenewal(options: SessionRenewalOptions): SessionRenewal {
  const { clock, kept } = options;
  const isActive = (session: ActiveSession) => options.active() === session;
  let reauthentication: Promise<SessionResult<void>> | null = null;

  const expires = () => clock.now().plus({ minutes: sessionLifetimeMinutes });
  const expiresFromNow = () => expires().toISO() ?? '';

  async function keep(session: ActiveSession): Promise<void> {
    if (await kept.keepSecrets(session.identity, session.secrets))
      session.persistedExpires = DateTime.fromISO(session.secrets.sessionExpires).toMillis();
  }

  function slide(session: ActiveSession): void {
    const next = expires();
    session.secrets.sessionExpires = next.toISO() ?? session.secrets.sessionExpires;
    if (next.toMillis() - session.persistedExpires >= persistSlackMinutes * 60_000) void keep(session);
  }

  const passwordOf = (session: ActiveSession) => session.memoryPassword ?? session.secrets.password ?? null;

  const lapsed = (session: ActiveSession) => DateTime.fromISO(session.secrets.sessionExpires).toMillis() <= clock.now().toMillis();

  async function endedWith(session: ActiveSession, message: string): Promise<{ ok: false; error: SessionError }> {
    await options.ended(session, signedOutError(message));
    return sessionGone(message);
  }

  async function authenticateAgain(session: ActiveSession): Promise<SessionResult<void>> {
    const password = passwordOf(session);
    if (password === null) return endedWith(session, sessionMessages.sessionEnded);
    const answer = await session.client.authenticate({ body: { username: session.identity.userName, password } });
    if (!isActive(session)) return sessionGone();
    if (!answer.ok) {
      // Unreachable or failing: still signed in, just not now. Refused: the password no longer works.
      if (answer.error.kind !== 'unauthorized') return answer;
      return endedWith(session, sessionMessages.reauthenticationRefused(answer.error.message));
    }
    const { sessionToken, userId } = answer.value;
    session.secrets = {
      ...session.secrets,
      sessionToken: sessionToken ?? '',
      userId: userId ?? session.identity.userId,
      sessionExpires: expiresFromNow(),
    };
    await keep(session);
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

  return {
    keep,
    expiresFromNow,
    async run(action) {
      const session = options.active();
      if (session === null) return sessionGone();
      const moved = await options.moved(session);
      if (!moved.ok) return moved;
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
      if (first.error.kind !== 'unauthorized' || !isActive(session)) return first;
      const renewed = await reauthenticate(session, token);
      if (!renewed.ok) return renewed;
      const second = await action(session.client);
      if (second.ok) slide(session);
      return second;
    },
  };
}
