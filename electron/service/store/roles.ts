import { Role } from '../../api/schemas/groups.js';
import { invalid } from '../errors.js';
import type { Connection, Store } from './database.js';
import type { UserRow } from './tables.js';

/**
 * The user a session (named by its token's hash) belongs to, when the session lapses, and whether they are an application
 * administrator (role 2 on any of their groups): one statement, run for every secured request.
 */
export function findSessionUser(connection: Connection, tokenHash: string, userId: number): (UserRow & { expiresAt: number; isAdmin: number }) | undefined {
  return connection.record(
    `SELECT users.*, sessions.expires_at,
      EXISTS (SELECT 1 FROM group_members INNER JOIN group_roles ON group_roles.group_id = group_members.group_id
        WHERE group_members.user_id = users.id AND group_roles.role_id = ?) AS is_admin
    FROM sessions INNER JOIN users ON users.id = sessions.user_id WHERE sessions.token_hash = ? AND sessions.user_id = ?`,
    Role.applicationAdministrator,
    tokenHash,
    userId,
  );
}

/** Whether anyone at all can still administer the service; checked before a change commits. */
export async function hasApplicationAdministrator(store: Store): Promise<boolean> {
  const row = await store
    .selectFrom('groupMembers')
    .innerJoin('groupRoles', 'groupRoles.groupId', 'groupMembers.groupId')
    .select('groupMembers.userId')
    .where('groupRoles.roleId', '=', Role.applicationAdministrator)
    .executeTakeFirst();
  return row !== undefined;
}

/** Rolls the surrounding transaction back when a change leaves nobody able to administer. */
export async function keepAnAdministrator(store: Store): Promise<void> {
  if (!(await hasApplicationAdministrator(store))) throw invalid('At least one user must remain an application administrator');
}
