import { ResourceStatus } from '../../api/schemas/resources.js';
import { placeholders, withConnection, type Connection, type Store } from './database.js';
import { PermissionType } from '../tables.js';

/** Who is asking, as the store needs to know them: enough to decide what they may see or book. */
export interface Viewer {
  user: { id: number };
  isAdmin: boolean;
}

/** A viewer whose own zone reads the dates and times they send (spec convention 5). */
export interface ZonedViewer extends Viewer {
  user: { id: number; timezone: string };
}

/** `book` needs full permission; `view` is satisfied by a view-only permission too. */
export type ResourceAccess = 'book' | 'view';

const permissionTypesFor = (access: ResourceAccess) =>
  access === 'book' ? [PermissionType.full] : [PermissionType.full, PermissionType.view];

/**
 * Ids of the resources a user holds a permission for, through any of their groups or directly,
 * as one subquery to put behind `where(column, 'in', …)`: a normal user's list is one query,
 * never a loop over resources as on real servers.
 */
export function permittedResourceIds(store: Store, userId: number, access: ResourceAccess) {
  const types = permissionTypesFor(access);
  return store
    .selectFrom('groupMembers')
    .innerJoin('groupResourcePermissions', 'groupResourcePermissions.groupId', 'groupMembers.groupId')
    .select('groupResourcePermissions.resourceId')
    .where('groupMembers.userId', '=', userId)
    .where('groupResourcePermissions.permissionType', 'in', types)
    .union(
      store
        .selectFrom('userResourcePermissions')
        .select('userResourcePermissions.resourceId')
        .where('userResourcePermissions.userId', '=', userId)
        .where('userResourcePermissions.permissionType', 'in', types),
    );
}

/**
 * Ids of the resources a caller may see (resource lists, the group tree, availability):
 * everything for administrators; for everyone else the resources they may view or book that are
 * not hidden.
 */
export function visibleResourceIds(store: Store, viewer: Viewer) {
  const all = store.selectFrom('resources').select('resources.id');
  if (viewer.isAdmin) return all;
  return all
    .where('resources.statusId', '!=', ResourceStatus.hidden)
    .where('resources.id', 'in', permittedResourceIds(store, viewer.user.id, 'view'));
}

/**
 * Which of a few resources the user holds a permission for. Checks each of those ids through the
 * permission tables' keys instead of building the user's whole permitted set, which a booking
 * (one or a few resources) does not need.
 */
export function permittedAmong(
  connection: Connection,
  userId: number,
  access: ResourceAccess,
  resourceIds: readonly number[],
): Set<number> {
  if (resourceIds.length === 0) return new Set();
  const types = permissionTypesFor(access);
  const rows = connection.all<{ id: number }>(
    `SELECT id FROM resources WHERE id IN (${placeholders(resourceIds.length)}) AND (
      EXISTS (SELECT 1 FROM group_members INNER JOIN group_resource_permissions ON group_resource_permissions.group_id = group_members.group_id
        WHERE group_members.user_id = ? AND group_resource_permissions.resource_id = resources.id AND group_resource_permissions.permission_type IN (${placeholders(types.length)}))
      OR EXISTS (SELECT 1 FROM user_resource_permissions
        WHERE user_resource_permissions.user_id = ? AND user_resource_permissions.resource_id = resources.id AND user_resource_permissions.permission_type IN (${placeholders(types.length)})))`,
    ...resourceIds,
    userId,
    ...types,
    userId,
    ...types,
  );
  return new Set(rows.map((row) => row.id));
}

/** A resource as a schedule's rows show it. */
export interface ScheduleResource {
  id: number;
  name: string;
  color: string;
  statusId: number;
}

/**
 * The resources of a schedule a viewer may see (as `visibleResourceIds` decides), in the
 * schedule's order. A schedule holds a few dozen resources: checking those through the
 * permission tables' keys is quicker than building the viewer's whole visible set.
 */
export function visibleScheduleResources(store: Store, scheduleId: number, viewer: Viewer): Promise<ScheduleResource[]> {
  return withConnection(store, (connection) => {
    const resources = connection.all<ScheduleResource>(
      'SELECT id, name, color, status_id AS statusId FROM resources WHERE schedule_id = ? ORDER BY sort_order, name, id',
      scheduleId,
    );
    if (viewer.isAdmin) return resources;
    const shown = resources.filter((resource) => resource.statusId !== ResourceStatus.hidden);
    const permitted = permittedAmong(
      connection,
      viewer.user.id,
      'view',
      shown.map((resource) => resource.id),
    );
    return shown.filter((resource) => permitted.has(resource.id));
  });
}
