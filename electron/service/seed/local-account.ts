import type { LocalAccount } from '../../api/local-host.js';
import { UserStatus } from '../domain/profile.js';
import { hashPassword } from '../passwords.js';
import type { Store } from '../store/database.js';
import { inTransaction, insertUser } from './bootstrap.js';

/** Whose groups the local account joins: the demo's normal user, so approval and permission rules apply as in an organisation. */
const groupModelUserName = 'user';

/** Which user is the person at this computer, so a demo colleague with the same name is never taken over. */
const localAccountSetting = 'localAccountUserId';

export interface EnsuredAccount {
  userId: number;
  userName: string;
  created: boolean;
}

async function recordedAccount(store: Store): Promise<{ id: number; userName: string } | undefined> {
  const setting = await store.selectFrom('settings').select('value').where('key', '=', localAccountSetting).executeTakeFirst();
  if (!setting) return undefined;
  return store.selectFrom('users').select(['id', 'userName']).where('id', '=', Number(setting.value)).executeTakeFirst();
}

/** The wanted name, or the first of name2, name3… that nobody has (names compare without case). */
async function freeUserName(store: Store, wanted: string): Promise<string> {
  const taken = new Set(
    (await store.selectFrom('users').select('userName').where('userName', 'like', `${wanted}%`).execute()).map((row) =>
      row.userName.toLowerCase(),
    ),
  );
  if (!taken.has(wanted.toLowerCase())) return wanted;
  let suffix = 2;
  while (taken.has(`${wanted}${suffix}`.toLowerCase())) suffix += 1;
  return `${wanted}${suffix}`;
}

async function modelGroupIds(store: Store): Promise<number[]> {
  const model = await store
    .selectFrom('groupMembers')
    .innerJoin('users', 'users.id', 'groupMembers.userId')
    .select('groupMembers.groupId')
    .where('users.userName', '=', groupModelUserName)
    .execute();
  if (model.length > 0) return model.map((row) => row.groupId);
  return (await store.selectFrom('userGroups').select('id').where('isDefault', '=', 1).execute()).map((row) => row.id);
}

/**
 * Makes sure the person at this computer has their account in the local service, with the password
 * the app keeps in the keychain: created on the first start, its password (re)set on every start,
 * because the app generates a new one when the keychain lost it and the service is the person's own.
 * Names and timezone are the person's to change later, so an existing account keeps them.
 */
export async function ensureLocalAccount(store: Store, account: LocalAccount): Promise<EnsuredAccount> {
  return inTransaction(store, async (trx) => {
    const existing = await recordedAccount(trx);
    if (existing) {
      const passwordHash = await hashPassword(account.password);
      await trx.updateTable('users').set({ passwordHash, statusId: UserStatus.active }).where('id', '=', existing.id).execute();
      return { userId: existing.id, userName: existing.userName, created: false };
    }
    const userName = await freeUserName(trx, account.userName);
    const userId = await insertUser(trx, {
      userName,
      emailAddress: `${userName}@this-computer.invalid`,
      password: account.password,
      firstName: account.firstName,
      lastName: account.lastName,
      timezone: account.timezone,
      groupIds: await modelGroupIds(trx),
    });
    await trx
      .insertInto('settings')
      .values({ key: localAccountSetting, value: String(userId) })
      .onConflict((conflict) => conflict.column('key').doUpdateSet({ value: String(userId) }))
      .execute();
    return { userId, userName, created: true };
  });
}

/** No scrypt hash looks like this, so no password ever verifies against it. */
const noPassword = '!';

/**
 * The app's own service is the person's alone: every other account (the demo's administrator and
 * staff, whose passwords are printed in the README) gets a password nobody has and loses its
 * sessions, so no other program or user of this machine can sign in as them. Idempotent: every
 * start makes it true again, for services seeded before this rule too.
 */
export async function lockOtherPeople(store: Store): Promise<void> {
  await inTransaction(store, async (trx) => {
    const local = await recordedAccount(trx);
    await trx
      .updateTable('users')
      .set({ passwordHash: noPassword })
      .where('passwordHash', '!=', noPassword)
      .$if(local !== undefined, (update) => update.where('id', '!=', local!.id))
      .execute();
    await trx
      .deleteFrom('sessions')
      .$if(local !== undefined, (remove) => remove.where('userId', '!=', local!.id))
      .execute();
  });
}
