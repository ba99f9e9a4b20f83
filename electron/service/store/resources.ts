import { AttributeCategory } from '../../api/schemas/attributes.js';
import type { FoundReferences, ResourceInput, ResourceSettings } from '../domain/resource-body.js';
import { deleteAttributeValues, writeAttributeValues } from './attribute-values.js';
import { connectionOf, inTransaction, type Store } from './database.js';
import { existingResourceGroupIds, setResourceGroups } from './resource-groups.js';
import { PermissionType } from '../tables.js';

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
async function insertResource(store: Store, settings: ResourceSettings): Promise<number> {
  const row = await store.insertInto('resources').values(settings).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

/** Gives every existing user full permission to a new resource, in one INSERT … SELECT. */
async function grantResourceToAllUsers(store: Store, resourceId: number): Promise<void> {
  await store
    .insertInto('userResourcePermissions')
    .columns(['userId', 'resourceId', 'permissionType'])
    .expression((eb) =>
      eb
        .selectFrom('users')
        .select((select) => ['users.id', select.val(resourceId).as('resourceId'), select.val(PermissionType.full).as('permissionType')]),
    )
    .execute();
}

export async function resourceExists(store: Store, resourceId: number): Promise<boolean> {
  return (await store.selectFrom('resources').select('id').where('id', '=', resourceId).executeTakeFirst()) !== undefined;
}

/** Which of the given resource ids exist. */
export async function existingResourceIds(store: Store, resourceIds: readonly number[]): Promise<Set<number>> {
  if (resourceIds.length === 0) return new Set();
  const rows = await store
    .selectFrom('resources')
    .select('id')
    .where('id', 'in', [...resourceIds])
    .execute();
  return new Set(rows.map((row) => row.id));
}

/** Stores a checked resource body as a new resource; returns its id. */
export function createResource(store: Store, input: ResourceInput): Promise<number> {
  return inTransaction(store, async (trx) => {
    const id = await insertResource(trx, input.settings);
    await setResourceGroups(trx, id, input.groupIds);
    writeAttributeValues(connectionOf(trx), AttributeCategory.resource, id, input.customAttributes);
    if (input.autoAssignPermissions) await grantResourceToAllUsers(trx, id);
    return id;
  });
}

/** Replaces every setting, group and attribute value of a resource with a checked body's; permissions stay. */
export async function replaceResource(store: Store, resourceId: number, input: ResourceInput): Promise<void> {
  await inTransaction(store, async (trx) => {
    await trx.updateTable('resources').set(input.settings).where('id', '=', resourceId).execute();
    await setResourceGroups(trx, resourceId, input.groupIds);
    writeAttributeValues(connectionOf(trx), AttributeCategory.resource, resourceId, input.customAttributes);
  });
}

/** Permissions, group places and bookings go with the row (foreign keys cascade). */
export async function deleteResource(store: Store, resourceId: number): Promise<void> {
  await inTransaction(store, async (trx) => {
    deleteAttributeValues(connectionOf(trx), AttributeCategory.resource, resourceId);
    await trx.deleteFrom('resources').where('id', '=', resourceId).execute();
  });
}
