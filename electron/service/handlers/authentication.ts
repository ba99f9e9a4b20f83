import { formatWireDateTime } from '../../api/dates.js';
import { UserStatus } from '../domain/profile.js';
import { generateSessionToken, sessionTokenHash, verifyPassword } from '../passwords.js';
import { throttled } from '../errors.js';
import { closeSession, findSignInAccount, openSession } from '../store/sessions.js';
import type { HandlerMap } from './types.js';

const loginFailed = 'Login failed. Invalid username or password.';

const tooManyAttempts = (waitMs: number) =>
  `Too many failed sign-ins. Try again in ${Math.max(1, Math.ceil(waitMs / 60_000))} minute${waitMs > 60_000 ? 's' : ''}.`;

export const authenticationHandlers = {
  /** A refused login answers 200 with isAuthenticated false, as real servers do. */
  async authenticate({ body }, { store, clock, config, signIns, client }) {
    const login = body.username.trim();
    const nowMs = clock.now().toMillis();
    const verdict = signIns.verdict(login, client, nowMs);
    if (!verdict.allowed) throw throttled(tooManyAttempts(verdict.retryAtMs - nowMs));
    const user = await findSignInAccount(store, login);
    const accepted = user !== undefined && user.statusId === UserStatus.active && (await verifyPassword(body.password, user.passwordHash));
    if (!accepted) {
      signIns.failed(login, client, nowMs);
      return {
        sessionToken: null,
        sessionExpires: null,
        userId: null,
        isAuthenticated: false,
        version: null,
        links: [],
        message: loginFailed,
      };
    }
    signIns.succeeded(login);
    const now = clock.now();
    const expires = now.plus({ minutes: config.sessionMinutes });
    const sessionToken = generateSessionToken();
    await openSession(
      store,
      { tokenHash: sessionTokenHash(sessionToken), userId: user.id, expiresAt: expires.toMillis() },
      { ms: now.toMillis(), iso: now.toUTC().toISO()! },
    );
    return {
      sessionToken,
      sessionExpires: formatWireDateTime(expires.toUTC()),
      userId: user.id,
      isAuthenticated: true,
      version: config.version,
      links: [],
      message: null,
    };
  },

  /** Answers signedOut for a token already gone too, so signing out twice is harmless. */
  async signOut({ body }, { store }) {
    await closeSession(store, sessionTokenHash(body.sessionToken), body.userId);
    return { signedOut: true };
  },
} satisfies Pick<HandlerMap, 'authenticate' | 'signOut'>;
