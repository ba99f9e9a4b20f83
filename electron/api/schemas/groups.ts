import { Type } from '@sinclair/typebox';
import { Id, IdList, Nullable, Text, Wire } from './common.js';

export const Role = {
  groupAdministrator: 1,
  applicationAdministrator: 2,
  resourceAdministrator: 3,
  scheduleAdministrator: 4,
} as const;

export const GroupListItem = Wire({ id: Id, name: Type.String(), isDefault: Type.Boolean() });
export const GroupList = Wire({ groups: Type.Array(GroupListItem) });

export const Group = Wire({
  id: Id,
  name: Type.String(),
  isDefault: Type.Boolean(),
  adminGroup: Nullable(Type.String()),
  permissions: Type.Array(Type.String()),
  viewPermissions: Type.Array(Type.String()),
  users: Type.Array(Type.String()),
  roles: Type.Array(Type.Integer()),
});

export const GroupBody = Type.Object({
  name: Type.Optional(Text(85)),
  isDefault: Type.Optional(Type.Boolean({ default: false })),
});

export const GroupRolesBody = Type.Object({ roleIds: Type.Optional(IdList) });
export const GroupPermissionsBody = Type.Object({ permissions: Type.Optional(IdList) });
export const GroupUsersBody = Type.Object({ userIds: Type.Optional(IdList) });

export const GroupReference = Wire({ groupId: Id });
