/**
 * Which resources the signed-in user may book. GetAllResources also lists the resources granted
 * "view only", and booking one of those is refused (server-facts C), so what Perch offers for
 * booking is checked against the grants: GetUser's `permissions` (read at sign-in anyway) and,
 * because real servers list there only the grants made to the user in person, the `permissions`
 * of each of the user's groups (GetGroup, 12–17 ms each on a real server, server-facts E).
 */
import type { Static } from '@sinclair/typebox';
import { Role } from '../../api/schemas/groups.js';
import type { User } from '../../api/schemas/users.js';

type WireUser = Static<typeof User>;

/** Resource and schedule administrators may book what they administer, which no answer lists. */
const rolesBookingBeyondGrants: readonly number[] = [Role.applicationAdministrator, Role.resourceAdministrator, Role.scheduleAdministrator];

/** A group's grants are resource URLs (`…/Resources/12`). */
function resourceIdOfUrl(url: string): number | null {
  const match = /\/Resources\/(\d+)\/?$/.exec(url.trim());
  return match ? Number(match[1]) : null;
}

/**
 * The ids of the resources the user may book, ascending; null when the server does not say
 * (no `permissions`, a group whose grants could not be read, an administrator of any kind): then
 * nothing is held back, and the server decides, as before.
 */
export async function readBookableResourceIds(
  user: WireUser,
  groupGrants: (groupId: number) => Promise<readonly string[] | null>,
): Promise<number[] | null> {
  if (user.permissions === null) return null;
  if (user.groups.some((group) => group.roleIds.some((roleId) => rolesBookingBeyondGrants.includes(roleId)))) return null;
  const ids = new Set(user.permissions.map((permission) => permission.id).filter((id) => id > 0));
  const groups = await Promise.all(user.groups.filter((group) => group.id > 0).map((group) => groupGrants(group.id)));
  for (const grants of groups) {
    if (grants === null) return null;
    for (const url of grants) {
      const id = resourceIdOfUrl(url);
      if (id !== null) ids.add(id);
    }
  }
  return [...ids].sort((a, b) => a - b);
}

/**
 * Whether Perch offers a resource for booking: an administrator may book everything, and grants
 * that are not known hold nothing back. Built once per list, so a long one is checked quickly.
 */
export function bookableTest(account: {
  isAdmin: boolean;
  bookableResourceIds?: readonly number[] | null;
}): (resourceId: number) => boolean {
  const ids = account.bookableResourceIds;
  if (account.isAdmin || ids === undefined || ids === null) return () => true;
  const bookable = new Set(ids);
  return (resourceId) => bookable.has(resourceId);
}
