/** The headers real LibreBooking servers read the session from. */
export const sessionHeaderNames = { token: 'X-Booked-SessionToken', userId: 'X-Booked-UserId' } as const;

/** The spec's neutral spelling of the same headers, accepted by the local service as an alias. */
export const neutralSessionHeaderNames = { token: 'X-Service-SessionToken', userId: 'X-Service-UserId' } as const;
