import { Type } from '@sinclair/typebox';
import { Id, IdList, Needed, Nullable, Text, Wire } from './common.js';

export const AttributeType = { singleLine: 1, multiLine: 2, selectList: 3, checkbox: 4, dateTime: 5 } as const;
export const AttributeCategory = { reservation: 1, user: 2, resource: 4, resourceType: 5 } as const;

export const AttributeDefinition = Wire({
  id: Needed(Id),
  label: Type.String(),
  type: Needed(Type.Integer()),
  categoryId: Type.Integer(),
  regex: Nullable(Type.String()),
  required: Type.Boolean(),
  possibleValues: Type.Array(Type.String()),
  sortOrder: Type.Integer(),
  appliesToIds: Type.Array(Type.Integer()),
  adminOnly: Type.Boolean(),
  isPrivate: Type.Boolean(),
  secondaryCategoryId: Nullable(Type.Integer()),
  secondaryEntityIds: Type.Array(Type.Integer()),
});

export const AttributeList = Wire({ attributes: Type.Array(AttributeDefinition) });

export const AttributeBody = Type.Object({
  label: Type.Optional(Text(85)),
  type: Type.Optional(Type.Integer()),
  categoryId: Type.Optional(Type.Integer()),
  regex: Type.Optional(Nullable(Text(500))),
  required: Type.Optional(Type.Boolean({ default: false })),
  possibleValues: Type.Optional(Type.Array(Text(255), { maxItems: 500, default: [] })),
  sortOrder: Type.Optional(Type.Integer({ default: 0 })),
  appliesToIds: Type.Optional(IdList),
  adminOnly: Type.Optional(Type.Boolean({ default: false })),
  isPrivate: Type.Optional(Type.Boolean({ default: false })),
  secondaryCategoryId: Type.Optional(Nullable(Type.Integer())),
  secondaryEntityIds: Type.Optional(IdList),
});

export const AttributeReference = Wire({ attributeId: Id });
