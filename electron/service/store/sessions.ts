import { Role } from '../../api/schemas/groups.js';
import { inTransaction, withConnection, type Store } from './database.js';
import type { UserRow } from '../tables.js';

/** The account a sign-in names by user name or e-mail address, with what decides whether it may sign in. */
export function findSignInAccount(store: Store, login: string) {
  return store
    .selectFrom('users')
    .select(['id', 'passwordHash', 'statusId'])
    .where((where) => where.or([where('userName', '=', login), where('emailAddress', '=', login)]))
    .executeTakeFirst();
}

/** Stores a new session (lapsed ones go first) and records the sign-in as the user's last login. */
export async function openSession(
  store: Store,
  session: { tokenHash: string; userId: number; expiresAt: number },
  now: { ms: number; iso: string },
): Promise<void> {
  await inTransaction(store, async (trx) => {
    await trx.deleteFrom('sessions').where('expiresAt', '<=', now.ms).execute();
    await trx.insertInto('sessions').values(session).execute();
    await trx.updateTable('users').set({ lastLogin: now.iso }).where('id', '=', session.userId).execute();
  });
}

/** Ends a session; one already gone is no error. */
export async function closeSession(store: Store, tokenHash: string, userId: number): Promise<void> {
  await store.deleteFrom('sessions').where('tokenHash', '=', tokenHash).where('userId', '=', userId).execute();
}

/**
 * The user a session (named by its token's hash) belongs to, when the session lapses, and whether they are an application
 * administrator (role 2 on any of their groups): one statement, run for every secured request.
 */
export function findSessionUser(
  store: Store,
  tokenHash: string,
  userId: number,
): Promise<(UserRow & { expiresAt: number; isAdmin: number }) | undefined> {
  return withConnection(store, (connection) =>
    connection.record(
      `SELECT users.*, sessions.expires_at,
        EXISTS (SELECT 1 FROM group_members INNER JOIN group_roles ON group_roles.group_id = group_members.group_id
          WHERE group_members.user_id = users.id AND group_roles.role_id = ?) AS is_admin
      FROM sessions INNER JOIN users ON users.id = sessions.user_id WHERE sessions.token_hash = ? AND sessions.user_id = ?`,
      Role.applicationAdministrator,
      tokenHash,
      userId,
    ),
  );
}

/** Moves a session's end to `expiresAt`. */
export async function slideSession(store: Store, tokenHash: string, expiresAt: number): Promise<void> {
  await store.updateTable('sessions').set({ expiresAt }).where('tokenHash', '=', tokenHash).execute();
}
