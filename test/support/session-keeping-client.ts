/**
 * A client for tests and tools that talk to a server directly, outside the core: it keeps the
 * session its own Authenticate started and forgets it at its SignOut, as a caller of the stateless
 * client must (in the app, the core's session does).
 */
import { createClient, type ApiClient, type ClientOptions } from '../../electron/api/client.js';
import { sessionHeaders, type Session } from '../../electron/api/session-headers.js';

export type SessionKeepingClient = ApiClient & {
  /** Sent on every session and admin operation; set it to use a session started elsewhere. */
  session: Session | null;
};

export function sessionKeepingClient(options: Omit<ClientOptions, 'sessionHeaders'>): SessionKeepingClient {
  let session: Session | null = null;
  const client = createClient({ ...options, sessionHeaders: () => sessionHeaders(session) });
  return {
    ...client,
    async authenticate(input) {
      const answer = await client.authenticate(input);
      if (answer.ok && answer.value.sessionToken !== null && answer.value.userId !== null)
        session = { sessionToken: answer.value.sessionToken, userId: answer.value.userId };
      return answer;
    },
    async signOut(input) {
      const answer = await client.signOut(input);
      if (input.body.sessionToken === session?.sessionToken) session = null;
      return answer;
    },
    get session() {
      return session;
    },
    set session(value: Session | null) {
      session = value;
    },
  };
}
