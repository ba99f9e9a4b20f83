/** What a call through the session fails with, and the words for a refused or ended session. */
import type { ApiError } from '../../api/client.js';
import type { Result } from '../../api/result.js';
import type { BridgeError, ServerChoice } from '../../bridge/contract.js';
import { bridgeErrorFromApi, signedOutError } from '../errors.js';

/** What a call through the session fails with: the server's error, or the session is gone. */
export type SessionError = ApiError | { kind: 'signedOut'; message: string };
export type SessionResult<T> = Result<T, SessionError>;

export function bridgeErrorFromSession(error: SessionError): BridgeError {
  return error.kind === 'signedOut' ? signedOutError(error.message) : bridgeErrorFromApi(error);
}

export const sessionMessages = {
  noLocalService: 'The local Perch service is not running, so there is nothing to sign in to on this computer.',
  sessionEnded: 'Your session on the server ended. Sign in again to continue.',
  reauthenticationRefused: (reason: string) =>
    `Your session on the server ended and signing in again failed: ${reason} Sign in again to continue.`,
  /**
   * Added to an organisation's server's refusal of a password. Accounts made by single sign-on
   * (SAML, CAS, Shibboleth, the Google / Microsoft / OAuth2 buttons) have no password the API
   * takes; directory accounts (LDAP, Active Directory) do.
   */
  singleSignOn:
    "If you sign in to the website through your organisation's single sign-on, Perch needs an API password from the server's administrator, or your directory (LDAP or Active Directory) account where the site uses one.",
} as const;

/**
 * A refused sign-in, in words that say what to do. Real servers answer a typo and an account
 * without an API password alike, so a refused password keeps the server's words and adds what
 * a single sign-on user must do; the local service has no single sign-on.
 */
export function signInRefusal(error: ApiError, server: ServerChoice): BridgeError {
  const bridged = bridgeErrorFromApi(error);
  if (error.kind !== 'unauthorized' || server.kind === 'local') return bridged;
  return { ...bridged, message: `${error.message} ${sessionMessages.singleSignOn}` };
}

/** What a call through a session that has ended answers. */
export const sessionGone = (message: string = sessionMessages.sessionEnded): { ok: false; error: SessionError } => ({
  ok: false,
  error: { kind: 'signedOut', message },
});
