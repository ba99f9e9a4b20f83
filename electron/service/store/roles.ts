import { Role } from '../../api/schemas/groups.js';
import type { Store } from './database.js';

/** Role 2 on any of the user's groups makes an application administrator. */
export async function isApplicationAdministrator(store: Store, userId: number): Promise<boolean> {
  const row = await store
    .selectFrom('groupMembers')
    .innerJoin('groupRoles', 'groupRoles.groupId', 'groupMembers.groupId')
    .select('groupRoles.roleId')
    .where('groupMembers.userId', '=', userId)
    .where('groupRoles.roleId', '=', Role.applicationAdministrator)
    .executeTakeFirst();
  return row !== undefined;
}
