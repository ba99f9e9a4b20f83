import { Type } from '@sinclair/typebox';
import { CustomAttributeInputs, CustomAttributeValue, Id, Text, Wire } from './common.js';

export const Account = Wire({
  userId: Id,
  firstName: Type.String(),
  lastName: Type.String(),
  emailAddress: Type.String(),
  userName: Type.String(),
  language: Type.String(),
  timezone: Type.String(),
  phone: Type.String(),
  organization: Type.String(),
  position: Type.String(),
  customAttributes: Type.Array(CustomAttributeValue),
  icsUrl: Type.String(),
});

/** Identity members shared by account and user bodies; which are mandatory is a domain rule. */
export const profileMembers = {
  firstName: Type.Optional(Text(85)),
  lastName: Type.Optional(Text(85)),
  emailAddress: Type.Optional(Text(255)),
  userName: Type.Optional(Text(85)),
  timezone: Type.Optional(Text(85)),
  phone: Type.Optional(Text(85)),
  organization: Type.Optional(Text(85)),
  position: Type.Optional(Text(85)),
  customAttributes: Type.Optional(CustomAttributeInputs),
};

export const Password = Text(255);

export const UpdateAccountBody = Type.Object({ ...profileMembers, language: Type.Optional(Text(10)) });

export const CreateAccountBody = Type.Object({
  ...UpdateAccountBody.properties,
  password: Type.Optional(Password),
  acceptTermsOfService: Type.Optional(Type.Boolean()),
});

export const UpdateAccountPasswordBody = Type.Object({
  currentPassword: Type.Optional(Password),
  newPassword: Type.Optional(Password),
});

export const AccountReference = Wire({ userId: Id });
