import { inTransaction, type Store } from './database.js';
import { keepAnAdministrator } from './roles.js';
import { PermissionType } from '../tables.js';

export function findGroup(store: Store, groupId: number) {
  return store.selectFrom('userGroups').selectAll().where('id', '=', groupId).executeTakeFirst();
}

/** Every group by name. */
export function listGroups(store: Store) {
  return store.selectFrom('userGroups').select(['id', 'name', 'isDefault']).orderBy('name').orderBy('id').execute();
}

/** A group's roles, resource permissions and members, each in id order. */
export async function readGroupDetails(store: Store, groupId: number) {
  const [roles, permissions, members] = await Promise.all([
    store.selectFrom('groupRoles').select('roleId').where('groupId', '=', groupId).orderBy('roleId').execute(),
    store
      .selectFrom('groupResourcePermissions')
      .select(['resourceId', 'permissionType'])
      .where('groupId', '=', groupId)
      .orderBy('resourceId')
      .execute(),
    store.selectFrom('groupMembers').select('userId').where('groupId', '=', groupId).orderBy('userId').execute(),
  ]);
  return { roles, permissions, members };
}

/** A group's own settings. */
export interface GroupSettings {
  name: string;
  isDefault: number;
}

export function insertGroup(store: Store, settings: GroupSettings): Promise<number> {
  return inTransaction(store, async (trx) => {
    const row = await trx.insertInto('userGroups').values(settings).returning('id').executeTakeFirstOrThrow();
    return row.id;
  });
}

export async function updateGroup(store: Store, groupId: number, settings: GroupSettings): Promise<void> {
  await inTransaction(store, async (trx) => {
    await trx.updateTable('userGroups').set(settings).where('id', '=', groupId).execute();
  });
}

/** Replaces a group's roles; refused (nothing changed) when nobody could administer afterwards. */
export async function replaceGroupRoles(store: Store, groupId: number, roleIds: readonly number[]): Promise<void> {
  await inTransaction(store, async (trx) => {
    await trx.deleteFrom('groupRoles').where('groupId', '=', groupId).execute();
    if (roleIds.length > 0) {
      await trx
        .insertInto('groupRoles')
        .values(roleIds.map((roleId) => ({ groupId, roleId })))
        .execute();
    }
    await keepAnAdministrator(trx);
  });
}

/**
 * Sets the resources a group may book (full permission). View-only permissions stay as they are
 * unless a listed resource upgrades one.
 */
export async function replaceGroupBookingPermissions(store: Store, groupId: number, resourceIds: readonly number[]): Promise<void> {
  await inTransaction(store, async (trx) => {
    await trx
      .deleteFrom('groupResourcePermissions')
      .where('groupId', '=', groupId)
      .where('permissionType', '=', PermissionType.full)
      .execute();
    if (resourceIds.length > 0) {
      await trx
        .insertInto('groupResourcePermissions')
        .values(resourceIds.map((resourceId) => ({ groupId, resourceId, permissionType: PermissionType.full })))
        .onConflict((conflict) => conflict.columns(['groupId', 'resourceId']).doUpdateSet({ permissionType: PermissionType.full }))
        .execute();
    }
  });
}

/** Replaces a group's members; refused (nothing changed) when nobody could administer afterwards. */
export async function replaceGroupMembers(store: Store, groupId: number, userIds: readonly number[]): Promise<void> {
  await inTransaction(store, async (trx) => {
    await trx.deleteFrom('groupMembers').where('groupId', '=', groupId).execute();
    if (userIds.length > 0) {
      await trx
        .insertInto('groupMembers')
        .values(userIds.map((userId) => ({ groupId, userId })))
        .execute();
    }
    await keepAnAdministrator(trx);
  });
}

/** Refused (nothing changed) when nobody could administer afterwards. */
export async function deleteGroup(store: Store, groupId: number): Promise<void> {
  await inTransaction(store, async (trx) => {
    await trx.deleteFrom('userGroups').where('id', '=', groupId).execute();
    await keepAnAdministrator(trx);
  });
}
