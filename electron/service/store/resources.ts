import type { FoundReferences, ResourceInput, ResourceSettings } from '../domain/resource-body.js';
import type { Store } from './database.js';
import { existingResourceGroupIds } from './resource-groups.js';
import { PermissionType } from './tables.js';

/** Looks up every id a resource body names, one small query per kind. */
export async function findResourceReferences(store: Store, input: ResourceInput): Promise<FoundReferences> {
  const { scheduleId, statusReasonId, typeId } = input.settings;
  const [schedule, reason, type, existingGroupIds] = await Promise.all([
    store.selectFrom('schedules').select('id').where('id', '=', scheduleId).executeTakeFirst(),
    statusReasonId === null
      ? undefined
      : store.selectFrom('resourceStatusReasons').select('statusId').where('id', '=', statusReasonId).executeTakeFirst(),
    typeId === null ? undefined : store.selectFrom('resourceTypes').select('id').where('id', '=', typeId).executeTakeFirst(),
    existingResourceGroupIds(store, input.groupIds),
  ]);
  return {
    scheduleExists: schedule !== undefined,
    statusOfReason: reason?.statusId,
    typeExists: type !== undefined,
    existingGroupIds,
  };
}

/** Call inside a transaction; returns the new id. */
export async function insertResource(store: Store, settings: ResourceSettings): Promise<number> {
  const row = await store
    .insertInto('resources')
    .values(settings)
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Gives every existing user full permission to a new resource, in one INSERT … SELECT. */
export async function grantResourceToAllUsers(store: Store, resourceId: number): Promise<void> {
  await store
    .insertInto('userResourcePermissions')
    .columns(['userId', 'resourceId', 'permissionType'])
    .expression((eb) =>
      eb
        .selectFrom('users')
        .select((select) => [
          'users.id',
          select.val(resourceId).as('resourceId'),
          select.val(PermissionType.full).as('permissionType'),
        ]),
    )
    .execute();
}

export async function resourceExists(store: Store, resourceId: number): Promise<boolean> {
  return (await store.selectFrom('resources').select('id').where('id', '=', resourceId).executeTakeFirst()) !== undefined;
}

/** Which of the given resource ids exist. */
export async function existingResourceIds(store: Store, resourceIds: readonly number[]): Promise<Set<number>> {
  if (resourceIds.length === 0) return new Set();
  const rows = await store.selectFrom('resources').select('id').where('id', 'in', [...resourceIds]).execute();
  return new Set(rows.map((row) => row.id));
}
