import type { Static } from '@sinclair/typebox';
import { sql } from 'kysely';
import { DateTime } from 'luxon';
import { formatWireDateTime } from '../../api/dates.js';
import type { Account } from '../../api/schemas/accounts.js';
import { AttributeCategory } from '../../api/schemas/attributes.js';
import type { CustomAttributeInput } from '../../api/schemas/common.js';
import type { User, UserListItem } from '../../api/schemas/users.js';
import type { Clock } from '../clock.js';
import {
  checkNewPassword,
  newProfile,
  profileChanges,
  type ProfileInput,
  UserStatus,
} from '../domain/profile.js';
import { notFound, Violations } from '../errors.js';
import type { LinkBuilder } from '../handlers/types.js';
import { hashPassword } from '../passwords.js';
import { checkAttributeInputs, readAttributeValues, writeAttributeValues } from './attribute-values.js';
import { connectionOf, type Store } from './database.js';
import { permittedResourceIds, type Viewer } from './permissions.js';
import { keepAnAdministrator } from './roles.js';
import type { UserRow } from './tables.js';

type AttributeInput = Static<typeof CustomAttributeInput>;

const userCategory = AttributeCategory.user;

export async function findUser(store: Store, userId: number): Promise<UserRow> {
  const row = await store.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirst();
  if (!row) throw notFound();
  return row;
}

function merge(into: Violations, from: Violations): void {
  for (const error of from.errors) into.add(error);
}

/** User names and e-mail addresses are unique regardless of case (the columns collate NOCASE). */
async function checkNotTaken(
  store: Store,
  profile: { userName?: string; emailAddress?: string },
  exceptUserId: number | null,
  violations: Violations,
): Promise<void> {
  const { userName, emailAddress } = profile;
  if (!userName && !emailAddress) return;
  const taken = await store
    .selectFrom('users')
    .select(['userName', 'emailAddress'])
    .where((where) =>
      where.or([
        ...(userName ? [where('userName', '=', userName)] : []),
        ...(emailAddress ? [where('emailAddress', '=', emailAddress)] : []),
      ]),
    )
    .$if(exceptUserId !== null, (query) => query.where('id', '!=', exceptUserId!))
    .execute();
  const same = (a: string, b: string | undefined) => b !== undefined && a.toLowerCase() === b.toLowerCase();
  if (taken.some((row) => same(row.userName, userName))) violations.add('That user name is already registered.');
  if (taken.some((row) => same(row.emailAddress, emailAddress))) violations.add('That email address is already registered.');
}

async function checkGroupIds(store: Store, groupIds: readonly number[], violations: Violations): Promise<number[]> {
  const unique = [...new Set(groupIds)];
  if (unique.length === 0) return unique;
  const found = await store.selectFrom('userGroups').select('id').where('id', 'in', unique).execute();
  const known = new Set(found.map((row) => row.id));
  for (const id of unique) if (!known.has(id)) violations.add(`Invalid group id ${id}`);
  return unique;
}

async function replaceMemberships(store: Store, userId: number, groupIds: readonly number[]): Promise<void> {
  await store.deleteFrom('groupMembers').where('userId', '=', userId).execute();
  if (groupIds.length) await store.insertInto('groupMembers').values(groupIds.map((groupId) => ({ groupId, userId }))).execute();
}

export interface Registration {
  profile: ProfileInput;
  password: string | undefined;
  customAttributes: readonly AttributeInput[] | undefined;
  /** Groups to join instead of the default groups (an administrator's choice). */
  groupIds?: readonly number[] | undefined;
}

/**
 * Creates an active user after checking every rule at once (all violations in one answer, nothing
 * stored on failure). New users join the default groups unless `groupIds` names others.
 */
export async function registerUser(store: Store, clock: Clock, registration: Registration, options: { isAdmin: boolean }): Promise<number> {
  const violations = new Violations();
  const profile = newProfile(registration.profile, violations);
  const password = checkNewPassword('password', registration.password, violations);
  // Hashing is slow on purpose; only a request that can still succeed pays for it.
  const passwordHash = password !== null && violations.errors.length === 0 ? await hashPassword(password) : null;
  const attributes = registration.customAttributes ?? [];
  return store.transaction().execute(async (trx) => {
    await checkNotTaken(trx, profile, null, violations);
    merge(violations, checkAttributeInputs(connectionOf(trx), userCategory, null, attributes, { isAdmin: options.isAdmin }));
    const groupIds = registration.groupIds
      ? await checkGroupIds(trx, registration.groupIds, violations)
      : (await trx.selectFrom('userGroups').select('id').where('isDefault', '=', 1).execute()).map((row) => row.id);
    violations.throwIfAny();
    const { id } = await trx
      .insertInto('users')
      .values({
        ...profile,
        // Set whenever no violation was found before the transaction, and none was found in it.
        passwordHash: passwordHash!,
        statusId: UserStatus.active,
        dateCreated: clock.now().toUTC().toISO()!,
        lastLogin: null,
        credits: 0,
        reservationColor: '',
        defaultScheduleId: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await replaceMemberships(trx, id, groupIds);
    writeAttributeValues(connectionOf(trx), userCategory, id, attributes);
    return id;
  });
}

export interface ProfileUpdate {
  profile: ProfileInput;
  /** Absent: the values stay as they are; present: they replace the user's values. */
  customAttributes: readonly AttributeInput[] | undefined;
  /** Absent: memberships stay as they are. */
  groupIds?: readonly number[] | undefined;
}

/** Values a non-administrator cannot see or send, so their own edits must not erase them. */
async function adminOnlyValues(store: Store, userId: number): Promise<AttributeInput[]> {
  const rows = await store
    .selectFrom('customAttributeValues')
    .innerJoin('customAttributes', 'customAttributes.id', 'customAttributeValues.attributeId')
    .select(['customAttributeValues.attributeId', 'customAttributeValues.value'])
    .where('customAttributes.categoryId', '=', userCategory)
    .where('customAttributes.adminOnly', '=', 1)
    .where('customAttributeValues.entityId', '=', userId)
    .execute();
  return rows.map((row) => ({ attributeId: row.attributeId, attributeValue: row.value }));
}

/** Applies the members an update carries to an existing user; the caller has checked it exists. */
export async function updateUserProfile(store: Store, userId: number, update: ProfileUpdate, options: { isAdmin: boolean }): Promise<void> {
  const violations = new Violations();
  const changes = profileChanges(update.profile, violations);
  await store.transaction().execute(async (trx) => {
    await checkNotTaken(trx, changes, userId, violations);
    if (update.customAttributes) {
      merge(violations, checkAttributeInputs(connectionOf(trx), userCategory, userId, update.customAttributes, { isAdmin: options.isAdmin }));
    }
    const groupIds = update.groupIds ? await checkGroupIds(trx, update.groupIds, violations) : null;
    violations.throwIfAny();
    if (Object.keys(changes).length > 0) await trx.updateTable('users').set(changes).where('id', '=', userId).execute();
    if (update.customAttributes) {
      const kept = options.isAdmin ? [] : await adminOnlyValues(trx, userId);
      writeAttributeValues(connectionOf(trx), userCategory, userId, [...update.customAttributes, ...kept]);
    }
    if (groupIds) {
      await replaceMemberships(trx, userId, groupIds);
      await keepAnAdministrator(trx);
    }
  });
}

/** Other sessions of the user stay valid: a password change is not a sign-out elsewhere. */
export async function setPassword(store: Store, userId: number, password: string): Promise<void> {
  const passwordHash = await hashPassword(password);
  await store.transaction().execute((trx) => trx.updateTable('users').set({ passwordHash }).where('id', '=', userId).execute());
}

/** Sessions, memberships and direct permissions go with the row (foreign keys cascade). */
export async function deleteUser(store: Store, userId: number): Promise<void> {
  await store.transaction().execute(async (trx) => {
    await trx
      .deleteFrom('customAttributeValues')
      .where('entityId', '=', userId)
      .where('attributeId', 'in', trx.selectFrom('customAttributes').select('id').where('categoryId', '=', userCategory))
      .execute();
    await trx.deleteFrom('users').where('id', '=', userId).execute();
  });
}

const textFilters = {
  username: 'userName',
  email: 'emailAddress',
  firstName: 'firstName',
  lastName: 'lastName',
  phone: 'phone',
  organization: 'organization',
  position: 'position',
} as const;

const attributeFilter = /^att(\d{1,9})$/;

/**
 * Users matching every filter: field filters are case-insensitive substrings (real servers use
 * LIKE '%x%'), `att<id>` filters match a stored value exactly. Blank filters are ignored. A
 * non-administrator filtering on a private or admin-only attribute only ever finds themselves, so
 * the filter cannot reveal values they may not read.
 */
export async function listUsers(store: Store, filters: Record<string, string | undefined>, viewer: Viewer): Promise<UserRow[]> {
  const attributeFilters: { attributeId: number; value: string }[] = [];
  for (const [name, value] of Object.entries(filters)) {
    const match = attributeFilter.exec(name);
    if (match && value?.trim()) attributeFilters.push({ attributeId: Number(match[1]), value: value.trim() });
  }
  const hidden = new Set<number>();
  if (attributeFilters.length > 0 && !viewer.isAdmin) {
    const definitions = await store
      .selectFrom('customAttributes')
      .select('id')
      .where('id', 'in', attributeFilters.map((filter) => filter.attributeId))
      .where((where) => where.or([where('isPrivate', '=', 1), where('adminOnly', '=', 1)]))
      .execute();
    for (const { id } of definitions) hidden.add(id);
  }

  let query = store.selectFrom('users').selectAll();
  for (const [parameter, column] of Object.entries(textFilters)) {
    const value = filters[parameter]?.trim();
    if (value) query = query.where(sql<boolean>`instr(lower(${sql.ref(column)}), lower(${value})) > 0`);
  }
  for (const { attributeId, value } of attributeFilters) {
    query = query.where('id', 'in', (sub) =>
      sub
        .selectFrom('customAttributeValues')
        .innerJoin('customAttributes', 'customAttributes.id', 'customAttributeValues.attributeId')
        .select('customAttributeValues.entityId')
        .where('customAttributes.categoryId', '=', userCategory)
        .where('customAttributeValues.attributeId', '=', attributeId)
        .where('customAttributeValues.value', '=', value),
    );
    if (hidden.has(attributeId)) query = query.where('id', '=', viewer.user.id);
  }
  return query
    .orderBy(sql`${sql.ref('lastName')} collate nocase`)
    .orderBy(sql`${sql.ref('firstName')} collate nocase`)
    .orderBy('id')
    .execute();
}

// ---- wire shapes ----

type UserListItemWire = Static<typeof UserListItem>;
type UserWire = Static<typeof User>;
type AccountWire = Static<typeof Account>;

/** Stored instants are ISO text; the wire wants them in UTC with a colon-less offset. */
const storedInstant = (text: string) => formatWireDateTime(DateTime.fromISO(text, { zone: 'utc' }).toUTC());

export const accountLinks = (links: LinkBuilder, userId: number) => [
  links.to('getAccount', { userId }, 'get_user_account'),
  links.to('updateAccount', { userId }, 'update_user_account'),
];

export const userLinks = (links: LinkBuilder, userId: number, canUpdate: boolean) => [
  links.to('getUser', { userId }, 'get_user'),
  ...(canUpdate ? [links.to('updateUser', { userId }, 'update_user')] : []),
];

/** Private and admin-only attribute values are shown to administrators and to their owner. */
const canSeePrivate = (viewer: Viewer) => (userId: number) => viewer.isAdmin || userId === viewer.user.id;

function identity(row: UserRow, customAttributes: UserListItemWire['customAttributes']) {
  return {
    id: row.id,
    userName: row.userName,
    firstName: row.firstName,
    lastName: row.lastName,
    emailAddress: row.emailAddress,
    phoneNumber: row.phone,
    lastLogin: row.lastLogin ? storedInstant(row.lastLogin) : null,
    statusId: String(row.statusId),
    timezone: row.timezone,
    organization: row.organization,
    position: row.position,
    language: row.language,
    customAttributes,
    currentCredits: row.credits.toFixed(2),
    reservationColor: row.reservationColor,
  };
}

export async function userListItems(store: Store, links: LinkBuilder, rows: readonly UserRow[], viewer: Viewer): Promise<UserListItemWire[]> {
  const attributes = await readAttributeValues(store, links, userCategory, rows.map((row) => row.id), canSeePrivate(viewer));
  return rows.map((row) => ({
    ...identity(row, attributes.get(row.id) ?? []),
    dateCreated: storedInstant(row.dateCreated),
    links: userLinks(links, row.id, viewer.isAdmin),
    message: null,
  }));
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

async function memberships(store: Store, userId: number) {
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
          .where('groupId', 'in', groups.map((group) => group.id))
          .orderBy('roleId')
          .execute();
  return groups.map((group) => ({
    ...group,
    roleIds: roles.filter((role) => role.groupId === group.id).map((role) => role.roleId),
  }));
}

export async function userDetails(store: Store, links: LinkBuilder, row: UserRow, viewer: Viewer): Promise<UserWire> {
  const [attributes, resources, groups] = await Promise.all([
    readAttributeValues(store, links, userCategory, [row.id], canSeePrivate(viewer)),
    bookableResources(store, row.id),
    memberships(store, row.id),
  ]);
  return {
    ...identity(row, attributes.get(row.id) ?? []),
    // No calendar feed is served here, so there is no subscription address (the spec types it as a string).
    icsUrl: '',
    defaultScheduleId: row.defaultScheduleId,
    permissions: resources.map((resource) => ({
      id: resource.id,
      name: resource.name,
      type: null,
      groups: null,
      links: [links.to('getResource', { resourceId: resource.id }, 'get_resource')],
      message: null,
    })),
    groups: groups.map((group) => ({
      id: group.id,
      name: group.name,
      isDefault: group.isDefault === 1,
      roleIds: group.roleIds,
      links: [links.to('getGroup', { groupId: group.id }, 'get_group')],
      message: null,
    })),
    links: userLinks(links, row.id, viewer.isAdmin),
    message: null,
  };
}

/** The account form of a user, as its owner (or an administrator) sees it: private values included. */
export async function accountOf(store: Store, links: LinkBuilder, row: UserRow): Promise<AccountWire> {
  const attributes = await readAttributeValues(store, links, userCategory, [row.id], () => true);
  return {
    userId: row.id,
    firstName: row.firstName,
    lastName: row.lastName,
    emailAddress: row.emailAddress,
    userName: row.userName,
    language: row.language,
    timezone: row.timezone,
    phone: row.phone,
    organization: row.organization,
    position: row.position,
    customAttributes: attributes.get(row.id) ?? [],
    icsUrl: '',
    links: accountLinks(links, row.id),
    message: null,
  };
}
