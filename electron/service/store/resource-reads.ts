import type { Store } from './database.js';
import { visibleResourceIds, type Viewer } from './permissions.js';
import { resourceIdsInGroupTrees } from './resource-groups.js';
import type { ResourceRow } from '../tables.js';

/** Narrows a resource list; null: no narrowing. */
export interface ResourceListFilter {
  scheduleIds: readonly number[] | null;
  /** Resources in these groups or any group below them. */
  groupIds: readonly number[] | null;
}

/** The resources the viewer may see, in the resources' order. */
export function listVisibleResources(store: Store, viewer: Viewer, filter: ResourceListFilter): Promise<ResourceRow[]> {
  const { scheduleIds, groupIds } = filter;
  return store
    .selectFrom('resources')
    .selectAll()
    .where('id', 'in', visibleResourceIds(store, viewer))
    .$if(scheduleIds !== null, (select) => select.where('scheduleId', 'in', [...scheduleIds!]))
    .$if(groupIds !== null, (select) => select.where('id', 'in', resourceIdsInGroupTrees(store, groupIds!)))
    .orderBy('sortOrder')
    .orderBy('name')
    .orderBy('id')
    .execute();
}

/** One resource, when the viewer may see it. */
export function findVisibleResource(store: Store, viewer: Viewer, resourceId: number): Promise<ResourceRow | undefined> {
  return store
    .selectFrom('resources')
    .selectAll()
    .where('id', '=', resourceId)
    .where('id', 'in', visibleResourceIds(store, viewer))
    .executeTakeFirst();
}

/**
 * Where each resource the viewer may see hangs in the group tree (one row per group it is in, a
 * null group when in none), with what the tree shows of it, in the resources' order.
 */
export function visibleResourcePlacements(store: Store, viewer: Viewer) {
  return store
    .selectFrom('resources')
    .leftJoin('resourceGroupMembers', 'resources.id', 'resourceGroupMembers.resourceId')
    .innerJoin('schedules', 'schedules.id', 'resources.scheduleId')
    .select([
      'resourceGroupMembers.groupId',
      'resources.id',
      'resources.name',
      'resources.adminGroupId',
      'resources.scheduleId',
      'resources.statusId',
      'resources.requiresApproval',
      'resources.requiresCheckIn',
      'resources.autoReleaseMinutes',
      'resources.minLength',
      'resources.typeId',
      'resources.color',
      'resources.maxConcurrentReservations',
      'schedules.adminGroupId as scheduleAdminGroupId',
    ])
    .where('resources.id', 'in', visibleResourceIds(store, viewer))
    .orderBy('resources.sortOrder')
    .orderBy('resources.name')
    .orderBy('resources.id')
    .execute();
}

export function listStatusReasons(store: Store) {
  return store.selectFrom('resourceStatusReasons').select(['id', 'description', 'statusId']).orderBy('statusId').orderBy('id').execute();
}

export function listResourceTypes(store: Store) {
  return store.selectFrom('resourceTypes').select(['id', 'description']).orderBy('description').orderBy('id').execute();
}
