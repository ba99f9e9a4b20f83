import type { Static } from '@sinclair/typebox';
import { DateTime } from 'luxon';
import { formatWireDateTime } from '../../api/dates.js';
import type { Account } from '../../api/schemas/accounts.js';
import type { CustomAttributeValue } from '../../api/schemas/common.js';
import type { User, UserListItem } from '../../api/schemas/users.js';
import type { AttributeValueRecord } from '../store/attribute-values.js';
import type { Viewer } from '../store/permissions.js';
import type { UserRow } from '../tables.js';
import type { UserDetails } from '../store/user-details.js';
import { customAttributeAnswers } from './custom-attribute-answers.js';
import type { LinkBuilder } from './types.js';

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

function identity(row: UserRow, customAttributes: Static<typeof CustomAttributeValue>[]) {
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

export function userListItemAnswers(
  links: LinkBuilder,
  rows: readonly UserRow[],
  attributes: ReadonlyMap<number, readonly AttributeValueRecord[]>,
  viewer: Viewer,
): UserListItemWire[] {
  return rows.map((row) => ({
    ...identity(row, customAttributeAnswers(links, attributes.get(row.id) ?? [])),
    dateCreated: storedInstant(row.dateCreated),
    links: userLinks(links, row.id, viewer.isAdmin),
    message: null,
  }));
}

export function userAnswer(links: LinkBuilder, row: UserRow, details: UserDetails, viewer: Viewer): UserWire {
  return {
    ...identity(row, customAttributeAnswers(links, details.attributes)),
    // No calendar feed is served here, so there is no subscription address (the spec types it as a string).
    icsUrl: '',
    defaultScheduleId: row.defaultScheduleId,
    permissions: details.bookableResources.map((resource) => ({
      id: resource.id,
      name: resource.name,
      type: null,
      groups: null,
      links: [links.to('getResource', { resourceId: resource.id }, 'get_resource')],
      message: null,
    })),
    groups: details.groups.map((group) => ({
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

/** The account form of a user, as its owner (or an administrator) sees it. */
export function accountAnswer(links: LinkBuilder, row: UserRow, attributes: readonly AttributeValueRecord[]): AccountWire {
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
    customAttributes: customAttributeAnswers(links, attributes),
    icsUrl: '',
    links: accountLinks(links, row.id),
    message: null,
  };
}
