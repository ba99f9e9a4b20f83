import { DateTime } from 'luxon';
import { Role } from '../../api/schemas/groups.js';
import { generateIcsToken, hashPassword } from '../passwords.js';
import type { Store } from '../store/database.js';

export interface AdministratorSeed {
  userName: string;
  emailAddress: string;
  password: string;
  timezone: string;
  firstName?: string;
  lastName?: string;
}

export const administratorsGroupName = 'Application Administrators';

/** Creates a user in a group holding the application-administrator role; returns the user id. */
export async function createAdministrator(store: Store, seed: AdministratorSeed): Promise<number> {
  const passwordHash = await hashPassword(seed.password);
  return store.transaction().execute(async (trx) => {
    const group =
      (await trx.selectFrom('userGroups').select('id').where('name', '=', administratorsGroupName).executeTakeFirst()) ??
      (await trx.insertInto('userGroups').values({ name: administratorsGroupName, isDefault: 0 }).returning('id').executeTakeFirstOrThrow());
    await trx
      .insertInto('groupRoles')
      .values({ groupId: group.id, roleId: Role.applicationAdministrator })
      .onConflict((conflict) => conflict.doNothing())
      .execute();
    const user = await trx
      .insertInto('users')
      .values({
        userName: seed.userName,
        emailAddress: seed.emailAddress,
        firstName: seed.firstName ?? 'Perch',
        lastName: seed.lastName ?? 'Administrator',
        passwordHash,
        timezone: seed.timezone,
        language: 'en_us',
        phone: '',
        organization: '',
        position: '',
        statusId: 1,
        dateCreated: DateTime.utc().toISO(),
        credits: 0,
        reservationColor: '',
        icsToken: generateIcsToken(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await trx.insertInto('groupMembers').values({ groupId: group.id, userId: user.id }).execute();
    return user.id;
  });
}

export async function hasUsers(store: Store): Promise<boolean> {
  return (await store.selectFrom('users').select('id').limit(1).executeTakeFirst()) !== undefined;
}
