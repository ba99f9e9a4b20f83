import { Type } from '@sinclair/typebox';
import { Id, Needed, Nullable, Text, WireDateTime, Wire } from './common.js';

export const AuthenticateBody = Type.Object({
  username: Text(255),
  password: Text(255),
});

/** A refused login is still a 200 on real servers, with the session members null. */
export const AuthenticateResult = Wire({
  sessionToken: Nullable(Type.String()),
  sessionExpires: Nullable(WireDateTime),
  userId: Nullable(Id),
  isAuthenticated: Needed(Type.Boolean()),
  version: Nullable(Type.String()),
});

export const SignOutBody = Type.Object({
  userId: Id,
  sessionToken: Text(255),
});

export const SignOutResult = Type.Object({ signedOut: Type.Boolean() });
