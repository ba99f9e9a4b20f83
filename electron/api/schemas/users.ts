import { Type } from '@sinclair/typebox';
import { profileMembers, Password } from './accounts.js';
import { CustomAttributeValue, Id, IdList, Needed, Nullable, Text, Wire, WireDateTime } from './common.js';

const identityMembers = {
  id: Needed(Id),
  userName: Type.String(),
  firstName: Type.String(),
  lastName: Type.String(),
  emailAddress: Type.String(),
  phoneNumber: Type.String(),
  lastLogin: Nullable(WireDateTime),
  statusId: Type.String(),
  // Servers leave it empty or null for accounts nobody gave one; the client reads those in the server's default zone.
  timezone: Type.String(),
  organization: Type.String(),
  position: Type.String(),
  language: Type.String(),
  customAttributes: Type.Array(CustomAttributeValue),
  currentCredits: Type.String(),
  reservationColor: Type.String(),
};

export const UserListItem = Wire({ ...identityMembers, dateCreated: Nullable(WireDateTime) });
export const UserList = Wire({ users: Type.Array(UserListItem) });

export const UserPermission = Wire({
  id: Id,
  name: Type.String(),
  type: Nullable(Type.Unknown()),
  groups: Nullable(Type.Unknown()),
});

export const UserGroup = Wire({
  id: Id,
  name: Type.String(),
  isDefault: Type.Boolean(),
  roleIds: Type.Array(Type.Integer()),
});

export const User = Wire({
  ...identityMembers,
  icsUrl: Nullable(Type.String()),
  defaultScheduleId: Nullable(Type.Integer()),
  /** Null when a server leaves it out: then which resources the user may book is not known. */
  permissions: Nullable(Type.Array(UserPermission)),
  groups: Type.Array(UserGroup),
});

export const UpdateUserBody = Type.Object({ ...profileMembers, groups: Type.Optional(IdList) });

export const CreateUserBody = Type.Object({
  ...UpdateUserBody.properties,
  password: Type.Optional(Password),
  language: Type.Optional(Text(10)),
});

export const UpdateUserPasswordBody = Type.Object({ password: Type.Optional(Password) });

export const UserReference = Wire({ userId: Nullable(Id) });

/** Field filters plus `att<attributeId>=<value>` custom-attribute filters. */
export const UsersQuery = Type.Object(
  {
    username: Type.Optional(Text(255)),
    email: Type.Optional(Text(255)),
    firstName: Type.Optional(Text(255)),
    lastName: Type.Optional(Text(255)),
    phone: Type.Optional(Text(255)),
    organization: Type.Optional(Text(255)),
    position: Type.Optional(Text(255)),
  },
  { additionalProperties: Text(255) },
);
