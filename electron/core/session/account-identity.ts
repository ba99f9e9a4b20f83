/**
 * Who is signed in where: read from the server at sign-in (GetUser, and the grants of the user's
 * groups), kept between runs, and shown to the UI as the account.
 */
import { Type, type Static } from '@sinclair/typebox';
import { DateTime } from 'luxon';
import type { ApiClient } from '../../api/client.js';
import { isValidTimeZone } from '../../api/dates.js';
import { Role } from '../../api/schemas/groups.js';
import { ServerChoiceSchema, type AccountView, type BridgeResult, type ServerChoice } from '../../bridge/contract.js';
import { bridgeErrorFromApi, failure, success } from '../errors.js';
import { readBookableResourceIds } from './bookable.js';

/** Who is signed in where: everything needed to restore on restart, nothing secret. */
export const AccountIdentitySchema = Type.Object({
  server: ServerChoiceSchema,
  apiRoot: Type.String({ minLength: 1 }),
  userName: Type.String({ minLength: 1 }),
  userId: Type.Integer({ minimum: 1 }),
  firstName: Type.String(),
  lastName: Type.String(),
  timezone: Type.String({ minLength: 1 }),
  /**
   * Where `timezone` came from when the server gave the account none it could use (empty, null or
   * unknown): the server's default schedule, else this computer. Absent when it was the account's.
   */
  timezoneFrom: Type.Optional(Type.Union([Type.Literal('serverDefault'), Type.Literal('thisComputer')])),
  isAdmin: Type.Boolean(),
  /** The resources the user may book (see bookable.ts); null or absent when the server does not say. */
  bookableResourceIds: Type.Optional(Type.Union([Type.Array(Type.Integer({ minimum: 1 })), Type.Null()])),
  /** Perch made this account in the local service for the person at this computer, so it may set its password. */
  provisioned: Type.Optional(Type.Literal(true)),
});
export type AccountIdentity = Static<typeof AccountIdentitySchema>;

/** What Settings says when the account's zone is not the account's own. */
export function timezoneNote(identity: Pick<AccountIdentity, 'timezone' | 'timezoneFrom'>): string | null {
  if (identity.timezoneFrom === undefined) return null;
  const whose = identity.timezoneFrom === 'serverDefault' ? "the server's default" : "this computer's";
  return `Your account on the server has no time zone; Perch shows times in ${identity.timezone}, ${whose}.`;
}

export function accountView(identity: AccountIdentity): AccountView {
  const displayName = `${identity.firstName} ${identity.lastName}`.trim();
  return {
    server: identity.server,
    userId: identity.userId,
    userName: identity.userName,
    displayName: displayName === '' ? identity.userName : displayName,
    timezone: identity.timezone,
    timezoneNote: timezoneNote(identity),
    isAdmin: identity.isAdmin,
  };
}

/**
 * The zone to read a user in whose account has none the server could give: the server's own
 * default. Its configuration is out of a client's reach, so its default schedule's zone stands
 * for it (else the first schedule's); this computer's zone only when there is no schedule to ask.
 */
async function serverDefaultZone(client: ApiClient): Promise<Pick<AccountIdentity, 'timezone' | 'timezoneFrom'>> {
  const listed = await client.getAllSchedules();
  const schedules = listed.ok ? listed.value.schedules.filter((schedule) => isValidTimeZone(schedule.timezone)) : [];
  const schedule = schedules.find((candidate) => candidate.isDefault) ?? schedules[0];
  if (schedule !== undefined) return { timezone: schedule.timezone, timezoneFrom: 'serverDefault' };
  return { timezone: DateTime.local().zoneName ?? 'UTC', timezoneFrom: 'thisComputer' };
}

/** Where and as whom a session was just started. */
export interface SignedInAs {
  server: ServerChoice;
  apiRoot: string;
  /** As typed at sign-in; the server's own spelling wins where it gives one. */
  userName: string;
  userId: number;
  provisioned: boolean;
}

/** The account of a session just started, read with that session's client. */
export async function readIdentity(client: ApiClient, as: SignedInAs): Promise<BridgeResult<AccountIdentity>> {
  const { server, apiRoot, userId, provisioned } = as;
  const user = await client.getUser({ params: { userId } });
  if (!user.ok) return failure(bridgeErrorFromApi(user.error));
  const data = user.value;
  return success({
    server,
    apiRoot,
    userName: data.userName === '' ? as.userName : data.userName,
    userId,
    firstName: data.firstName,
    lastName: data.lastName,
    ...(isValidTimeZone(data.timezone) ? { timezone: data.timezone } : await serverDefaultZone(client)),
    isAdmin: data.groups.some((group) => group.roleIds.includes(Role.applicationAdministrator)),
    // An administrator of any kind comes back as null there, before any group is asked.
    bookableResourceIds: await readBookableResourceIds(data, async (groupId) => {
      const group = await client.getGroup({ params: { groupId } });
      return group.ok ? group.value.permissions : null;
    }),
    ...(provisioned && { provisioned: true as const }),
  });
}
