/** The headers real LibreBooking servers read the session from. */
export const sessionHeaderNames = { token: 'X-Booked-SessionToken', userId: 'X-Booked-UserId' } as const;

/** The spec's neutral spelling of the same headers, accepted by the local service as an alias. */
export const neutralSessionHeaderNames = { token: 'X-Service-SessionToken', userId: 'X-Service-UserId' } as const;

/** What Authenticate starts: the token, and the user it was started for. */
export interface Session {
  sessionToken: string;
  userId: number;
}

/** What a session or admin operation carries; nothing without a session. */
export type SessionHeaders = Readonly<Record<string, string>>;

/** The headers that send an operation as `session`. */
export function sessionHeaders(session: Session | null): SessionHeaders {
  return session === null ? {} : { [sessionHeaderNames.token]: session.sessionToken, [sessionHeaderNames.userId]: String(session.userId) };
}
