import type { Store } from './database.js';

/**
 * Ids of the given resource groups and of every group below them, in one recursive query.
 * UNION (not UNION ALL) also ends the walk should a parent chain ever loop.
 */
export function groupSubtreeIds(store: Store, groupIds: readonly number[]) {
  return store
    .withRecursive('subtree(id)', (db) =>
      db
        .selectFrom('resourceGroups')
        .select('resourceGroups.id')
        .where('resourceGroups.id', 'in', [...groupIds])
        .union(db.selectFrom('resourceGroups').innerJoin('subtree', 'subtree.id', 'resourceGroups.parentId').select('resourceGroups.id')),
    )
    .selectFrom('subtree')
    .select('subtree.id');
}

/** Ids of the resources placed in the given groups or in any of their sub-groups. */
export function resourceIdsInGroupTrees(store: Store, groupIds: readonly number[]) {
  return store
    .selectFrom('resourceGroupMembers')
    .select('resourceGroupMembers.resourceId')
    .where('resourceGroupMembers.groupId', 'in', groupSubtreeIds(store, groupIds));
}

/** Each resource's own groups (not their ancestors), keyed by resource id. */
export async function groupIdsOfResources(store: Store, resourceIds: readonly number[]): Promise<Map<number, number[]>> {
  const result = new Map<number, number[]>(resourceIds.map((id) => [id, []]));
  if (resourceIds.length === 0) return result;
  const rows = await store
    .selectFrom('resourceGroupMembers')
    .select(['resourceId', 'groupId'])
    .where('resourceId', 'in', [...resourceIds])
    .orderBy('groupId')
    .execute();
  for (const row of rows) result.get(row.resourceId)?.push(row.groupId);
  return result;
}

/** Which of the given group ids exist. */
export async function existingResourceGroupIds(store: Store, groupIds: readonly number[]): Promise<Set<number>> {
  if (groupIds.length === 0) return new Set();
  const rows = await store
    .selectFrom('resourceGroups')
    .select('id')
    .where('id', 'in', [...groupIds])
    .execute();
  return new Set(rows.map((row) => row.id));
}

/** Replaces a resource's group memberships. Call inside a transaction. */
export async function setResourceGroups(store: Store, resourceId: number, groupIds: readonly number[]): Promise<void> {
  await store.deleteFrom('resourceGroupMembers').where('resourceId', '=', resourceId).execute();
  if (groupIds.length > 0) {
    await store
      .insertInto('resourceGroupMembers')
      .values(groupIds.map((groupId) => ({ groupId, resourceId })))
      .execute();
  }
}

export async function allResourceGroups(store: Store) {
  return store.selectFrom('resourceGroups').select(['id', 'name', 'parentId']).orderBy('name').orderBy('id').execute();
}
