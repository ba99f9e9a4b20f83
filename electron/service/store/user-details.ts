import { AttributeCategory } from '../../api/schemas/attributes.js';
import { readAttributeValues, type AttributeValueRecord } from './attribute-values.js';
import type { Store } from './database.js';
import { permittedResourceIds, type Viewer } from './permissions.js';

/** Private and admin-only attribute values are shown to administrators and to their owner. */
const canSeePrivate = (viewer: Viewer) => (userId: number) => viewer.isAdmin || userId === viewer.user.id;

/** Users' attribute values as `viewer` may see them, keyed by user id. */
export const userAttributeValues = (store: Store, userIds: readonly number[], viewer: Viewer) =>
  readAttributeValues(store, AttributeCategory.user, userIds, canSeePrivate(viewer));

/** A user's attribute values as their account shows them to its owner: private ones included. */
export async function accountAttributeValues(store: Store, userId: number): Promise<AttributeValueRecord[]> {
  const attributes = await readAttributeValues(store, AttributeCategory.user, [userId], () => true);
  return attributes.get(userId) ?? [];
}

/** Resources the user may book: full permission through any of their groups, or given to them directly. */
const bookableResources = (store: Store, userId: number) =>
  store
    .selectFrom('resources')
    .select(['id', 'name'])
    .where('id', 'in', permittedResourceIds(store, userId, 'book'))
    .orderBy('name')
    .orderBy('id')
    .execute();

/** A group a user belongs to, with the roles it gives. */
export interface Membership {
  id: number;
  name: string;
  isDefault: number;
  roleIds: number[];
}

async function memberships(store: Store, userId: number): Promise<Membership[]> {
  const groups = await store
    .selectFrom('userGroups')
    .innerJoin('groupMembers', 'groupMembers.groupId', 'userGroups.id')
    .select(['userGroups.id', 'userGroups.name', 'userGroups.isDefault'])
    .where('groupMembers.userId', '=', userId)
    .orderBy('userGroups.name')
    .orderBy('userGroups.id')
    .execute();
  const roles =
    groups.length === 0
      ? []
      : await store
          .selectFrom('groupRoles')
          .select(['groupId', 'roleId'])
          .where(
            'groupId',
            'in',
            groups.map((group) => group.id),
          )
          .orderBy('roleId')
          .execute();
  return groups.map((group) => ({
    ...group,
    roleIds: roles.filter((role) => role.groupId === group.id).map((role) => role.roleId),
  }));
}

/** What the single form of a user shows beyond its row. */
export interface UserDetails {
  attributes: AttributeValueRecord[];
  bookableResources: { id: number; name: string }[];
  groups: Membership[];
}

export async function readUserDetails(store: Store, userId: number, viewer: Viewer): Promise<UserDetails> {
  const [attributes, resources, groups] = await Promise.all([
    userAttributeValues(store, [userId], viewer),
    bookableResources(store, userId),
    memberships(store, userId),
  ]);
  return { attributes: attributes.get(userId) ?? [], bookableResources: resources, groups };
}
