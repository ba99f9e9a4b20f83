import type { FastifyRequest } from 'fastify';
import type { AuthLevel } from '../../api/operations.js';
import { neutralSessionHeaderNames, sessionHeaderNames } from '../../api/session-headers.js';
import type { Clock } from '../clock.js';
import type { ServiceConfig } from '../config.js';
import { forbidden, unauthenticated } from '../errors.js';
import type { Caller } from '../handlers/types.js';
import { sessionTokenHash } from '../passwords.js';
import type { Store } from '../store/database.js';
import { findSessionUser, slideSession } from '../store/sessions.js';

/** Real servers read `X-Booked-*`; the spec's neutral `X-Service-*` spelling is accepted too. */
const sessionHeaders = {
  token: [sessionHeaderNames.token, neutralSessionHeaderNames.token].map((name) => name.toLowerCase()),
  userId: [sessionHeaderNames.userId, neutralSessionHeaderNames.userId].map((name) => name.toLowerCase()),
};

const sessionSlideGranularityMs = 60_000;

function header(request: FastifyRequest, names: readonly string[]): string | undefined {
  for (const name of names) {
    const value = request.headers[name];
    if (typeof value === 'string' && value !== '') return value;
  }
  return undefined;
}

/**
 * Finds the caller of a secured operation and slides their session. Answers 401 for a missing,
 * unknown or lapsed session, 403 for a signed-in user on an administrator's route.
 */
export async function authorise(
  request: FastifyRequest,
  auth: AuthLevel,
  deps: { store: Store; clock: Clock; config: ServiceConfig },
): Promise<Caller | null> {
  const token = header(request, sessionHeaders.token);
  const userId = Number(header(request, sessionHeaders.userId));
  if (auth === 'none' && token === undefined) return null;
  if (token === undefined || !Number.isSafeInteger(userId)) {
    if (auth === 'none') return null;
    throw unauthenticated();
  }
  const now = deps.clock.now().toMillis();
  const tokenHash = sessionTokenHash(token);
  const row = await findSessionUser(deps.store, tokenHash, userId);
  if (!row || row.expiresAt <= now) {
    if (auth === 'none') return null;
    throw unauthenticated();
  }
  // Sliding on every request would add a write to every read; a session that lapses up to a
  // minute early is indistinguishable from one slid a minute ago.
  const slidExpiry = now + deps.config.sessionMinutes * 60_000;
  if (slidExpiry - row.expiresAt > sessionSlideGranularityMs) {
    await slideSession(deps.store, tokenHash, slidExpiry);
  }
  const { expiresAt: _expiresAt, isAdmin, ...user } = row;
  if (auth === 'admin' && !isAdmin) throw forbidden('You must be an application administrator to access this service.');
  return { user, sessionToken: token, isAdmin: isAdmin === 1 };
}
