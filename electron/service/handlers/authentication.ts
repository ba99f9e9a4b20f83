import { formatWireDateTime } from '../../api/dates.js';
import { UserStatus } from '../domain/profile.js';
import { generateSessionToken, verifyPassword } from '../passwords.js';
import type { HandlerMap } from './types.js';

const loginFailed = 'Login failed. Invalid username or password.';

export const authenticationHandlers = {
  /** A refused login answers 200 with isAuthenticated false, as real servers do. */
  async authenticate({ body }, { store, clock, config }) {
    const login = body.username.trim();
    const user = await store
      .selectFrom('users')
      .select(['id', 'passwordHash', 'statusId'])
      .where((where) => where.or([where('userName', '=', login), where('emailAddress', '=', login)]))
      .executeTakeFirst();
    const accepted = user !== undefined && user.statusId === UserStatus.active && (await verifyPassword(body.password, user.passwordHash));
    if (!accepted) {
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
    const now = clock.now();
    const expires = now.plus({ minutes: config.sessionMinutes });
    const sessionToken = generateSessionToken();
    await store.transaction().execute(async (trx) => {
      await trx.deleteFrom('sessions').where('expiresAt', '<=', now.toMillis()).execute();
      await trx.insertInto('sessions').values({ token: sessionToken, userId: user.id, expiresAt: expires.toMillis() }).execute();
      await trx.updateTable('users').set({ lastLogin: now.toUTC().toISO() }).where('id', '=', user.id).execute();
    });
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
    await store.deleteFrom('sessions').where('token', '=', body.sessionToken).where('userId', '=', body.userId).execute();
    return { signedOut: true };
  },
} satisfies Pick<HandlerMap, 'authenticate' | 'signOut'>;
