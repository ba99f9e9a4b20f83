import type { Static } from '@sinclair/typebox';
import { sql } from 'kysely';
import { AttributeCategory } from '../../api/schemas/attributes.js';
import type { CustomAttributeInput } from '../../api/schemas/common.js';
import type { Clock } from '../clock.js';
import { checkNewPassword, newProfile, profileChanges, type ProfileInput, UserStatus } from '../domain/profile.js';
import { notFound, Violations } from '../errors.js';
import { hashPassword } from '../passwords.js';
import { checkAttributeInputs, writeAttributeValues } from './attribute-values.js';
import { connectionOf, type Store } from './database.js';
import type { Viewer } from './permissions.js';
import { keepAnAdministrator } from './roles.js';
import type { UserRow } from '../tables.js';

type AttributeInput = Static<typeof CustomAttributeInput>;

const userCategory = AttributeCategory.user;

export async function findUser(store: Store, userId: number): Promise<UserRow> {
  const row = await store.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirst();
  if (!row) throw notFound();
  return row;
}

/** Which of the given user ids exist. */
export async function existingUserIds(store: Store, userIds: readonly number[]): Promise<Set<number>> {
  if (userIds.length === 0) return new Set();
  const rows = await store
    .selectFrom('users')
    .select('id')
    .where('id', 'in', [...userIds])
    .execute();
  return new Set(rows.map((row) => row.id));
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
  if (groupIds.length)
    await store
      .insertInto('groupMembers')
      .values(groupIds.map((groupId) => ({ groupId, userId })))
      .execute();
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
      merge(
        violations,
        checkAttributeInputs(connectionOf(trx), userCategory, userId, update.customAttributes, { isAdmin: options.isAdmin }),
      );
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
      .where(
        'id',
        'in',
        attributeFilters.map((filter) => filter.attributeId),
      )
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
