import { Role } from '../../api/schemas/groups.js';
import { invalid, notFound, Violations } from '../errors.js';
import type { Store } from '../store/database.js';
import {
  deleteGroup,
  findGroup,
  insertGroup,
  listGroups,
  readGroupDetails,
  replaceGroupBookingPermissions,
  replaceGroupMembers,
  replaceGroupRoles,
  updateGroup,
} from '../store/groups.js';
import { existingResourceIds } from '../store/resources.js';
import { PermissionType } from '../tables.js';
import { existingUserIds } from '../store/users.js';
import type { HandlerMap, LinkBuilder } from './types.js';
import { deletionEnvelope } from './deletion.js';

const messages = {
  created: 'The group was created',
  updated: 'The group was updated',
  nameRequired: 'name is required',
} as const;

const knownRoles = new Set<number>(Object.values(Role));

function groupReference(links: LinkBuilder, groupId: number, message: string) {
  return {
    groupId,
    links: [
      links.to('getGroup', { groupId }, 'get_group'),
      links.to('updateGroup', { groupId }, 'update_group'),
      links.to('deleteGroup', { groupId }, 'delete_group'),
    ],
    message,
  };
}

async function requireGroup(store: Store, groupId: number) {
  const group = await findGroup(store, groupId);
  if (!group) throw notFound();
  return group;
}

function requiredName(name: string | undefined): string {
  const trimmed = name?.trim() ?? '';
  if (trimmed === '') throw invalid(messages.nameRequired);
  return trimmed;
}

/** A list member the Change operations replace wholesale: leaving it out must not wipe the group. */
function requiredList(list: readonly number[] | undefined, member: string): number[] {
  if (list === undefined) throw invalid(`${member} is required`);
  return [...new Set(list)];
}

export const groupHandlers = {
  async createGroup({ body }, { store, links }) {
    const name = requiredName(body.name);
    const groupId = await insertGroup(store, { name, isDefault: body.isDefault ? 1 : 0 });
    return groupReference(links, groupId, messages.created);
  },

  async updateGroup({ params, body }, { store, links }) {
    await requireGroup(store, params.groupId);
    const name = requiredName(body.name);
    await updateGroup(store, params.groupId, { name, isDefault: body.isDefault ? 1 : 0 });
    return groupReference(links, params.groupId, messages.updated);
  },

  async changeGroupRoles({ params, body }, { store, links }) {
    await requireGroup(store, params.groupId);
    const roleIds = requiredList(body.roleIds, 'roleIds');
    const violations = new Violations();
    for (const roleId of roleIds) violations.check(knownRoles.has(roleId), `Invalid roleId: ${roleId}`);
    violations.throwIfAny();
    await replaceGroupRoles(store, params.groupId, roleIds);
    return groupReference(links, params.groupId, messages.updated);
  },

  /**
   * Sets the resources the group may book. View-only permissions cannot be expressed through the
   * API, so they are left as they are unless a listed resource upgrades one to full permission.
   */
  async changeGroupPermissions({ params, body }, { store, links }) {
    await requireGroup(store, params.groupId);
    const resourceIds = requiredList(body.permissions, 'permissions');
    const existing = await existingResourceIds(store, resourceIds);
    const violations = new Violations();
    for (const resourceId of resourceIds) violations.check(existing.has(resourceId), `Invalid resourceId: ${resourceId}`);
    violations.throwIfAny();
    await replaceGroupBookingPermissions(store, params.groupId, resourceIds);
    return groupReference(links, params.groupId, messages.updated);
  },

  async changeGroupUsers({ params, body }, { store, links }) {
    await requireGroup(store, params.groupId);
    const userIds = requiredList(body.userIds, 'userIds');
    const existing = await existingUserIds(store, userIds);
    const violations = new Violations();
    for (const userId of userIds) violations.check(existing.has(userId), `Invalid userId: ${userId}`);
    violations.throwIfAny();
    await replaceGroupMembers(store, params.groupId, userIds);
    return groupReference(links, params.groupId, messages.updated);
  },

  async getAllGroups(_input, { store, links }) {
    const rows = await listGroups(store);
    return {
      groups: rows.map((row) => ({
        id: row.id,
        name: row.name,
        isDefault: row.isDefault === 1,
        links: [links.to('getGroup', { groupId: row.id }, 'get_group')],
        message: null,
      })),
      links: [],
      message: null,
    };
  },

  async getGroup({ params }, { store, links, caller }) {
    const group = await requireGroup(store, params.groupId);
    const { roles, permissions, members } = await readGroupDetails(store, group.id);
    const resourceUrls = (type: number) =>
      permissions
        .filter((permission) => permission.permissionType === type)
        .map((permission) => links.url('getResource', { resourceId: permission.resourceId }));
    return {
      id: group.id,
      name: group.name,
      isDefault: group.isDefault === 1,
      adminGroup: group.adminGroupId === null ? null : links.url('getGroup', { groupId: group.adminGroupId }),
      permissions: resourceUrls(PermissionType.full),
      viewPermissions: resourceUrls(PermissionType.view),
      users: members.map((member) => links.url('getUser', { userId: member.userId })),
      roles: roles.map((role) => role.roleId),
      links: caller.isAdmin
        ? [links.to('updateGroup', { groupId: group.id }, 'update_group'), links.to('deleteGroup', { groupId: group.id }, 'delete_group')]
        : [],
      message: null,
    };
  },

  async deleteGroup({ params }, { store }) {
    await requireGroup(store, params.groupId);
    await deleteGroup(store, params.groupId);
    return deletionEnvelope();
  },
} satisfies Pick<
  HandlerMap,
  | 'createGroup'
  | 'updateGroup'
  | 'changeGroupRoles'
  | 'changeGroupPermissions'
  | 'changeGroupUsers'
  | 'getAllGroups'
  | 'getGroup'
  | 'deleteGroup'
>;
