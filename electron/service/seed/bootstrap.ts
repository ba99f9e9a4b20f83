import { DateTime } from 'luxon';
import { Role } from '../../api/schemas/groups.js';
import { hashPassword } from '../passwords.js';
import type { Store } from '../store/database.js';

export interface UserSeed {
  userName: string;
  emailAddress: string;
  password: string;
  timezone: string;
  firstName?: string;
  lastName?: string;
  phone?: string;
  organization?: string;
  position?: string;
  /** Ids of user groups to join. */
  groupIds?: number[];
}

export const administratorsGroupName = 'Application Administrators';

/** Joins the caller's transaction when there is one, so several seeds can commit as one. */
export function inTransaction<T>(store: Store, work: (trx: Store) => Promise<T>): Promise<T> {
  return store.isTransaction ? work(store) : store.transaction().execute(work);
}

/** Inserts an active user straight into the store (seeding, bootstrapping); returns the id. */
export async function insertUser(store: Store, seed: UserSeed): Promise<number> {
  const passwordHash = await hashPassword(seed.password);
  return inTransaction(store, async (trx) => {
    const user = await trx
      .insertInto('users')
      .values({
        userName: seed.userName,
        emailAddress: seed.emailAddress,
        firstName: seed.firstName ?? seed.userName,
        lastName: seed.lastName ?? '',
        passwordHash,
        timezone: seed.timezone,
        language: 'en_us',
        phone: seed.phone ?? '',
        organization: seed.organization ?? '',
        position: seed.position ?? '',
        statusId: 1,
        dateCreated: DateTime.utc().toISO(),
        credits: 0,
        reservationColor: '',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    for (const groupId of seed.groupIds ?? []) {
      await trx.insertInto('groupMembers').values({ groupId, userId: user.id }).execute();
    }
    return user.id;
  });
}

/** The group whose members are application administrators (role 2), created when missing. */
export async function administratorsGroup(store: Store): Promise<number> {
  return inTransaction(store, async (trx) => {
    const existing = await trx.selectFrom('userGroups').select('id').where('name', '=', administratorsGroupName).executeTakeFirst();
    const group =
      existing ??
      (await trx
        .insertInto('userGroups')
        .values({ name: administratorsGroupName, isDefault: 0 })
        .returning('id')
        .executeTakeFirstOrThrow());
    await trx
      .insertInto('groupRoles')
      .values({ groupId: group.id, roleId: Role.applicationAdministrator })
      .onConflict((conflict) => conflict.doNothing())
      .execute();
    return group.id;
  });
}

export async function createAdministrator(store: Store, seed: UserSeed): Promise<number> {
  const groupId = await administratorsGroup(store);
  return insertUser(store, {
    firstName: 'Perch',
    lastName: 'Administrator',
    ...seed,
    groupIds: [...(seed.groupIds ?? []), groupId],
  });
}

export async function hasUsers(store: Store): Promise<boolean> {
  return (await store.selectFrom('users').select('id').limit(1).executeTakeFirst()) !== undefined;
}
