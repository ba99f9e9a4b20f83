import { Role } from '../../api/schemas/groups.js';
import { invalid } from '../errors.js';
import type { Store } from './database.js';

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
