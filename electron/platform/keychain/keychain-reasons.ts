/** Why the keychain is not used, in the user's words, from what libsecret (through keytar) says. */
import { messageOf } from '../../core/errors.js';
import { KeychainTimeout } from './keychain-timeout.js';

const consequence = 'you will need to sign in again after Perch restarts.';
const waiting = 'Perch reads your sign-in from it once it is unlocked, and keeps anything new there then.';

export const keychainReasons = {
  moduleMissing: `No keychain is available (the keychain module could not be loaded); ${consequence}`,
  noBus: `No keychain is available (there is no D-Bus session bus to reach it); ${consequence}`,
  noSecretService: `No keychain is available (no Secret Service on the session bus); ${consequence}`,
  locked: `The keychain is locked or has no default keyring yet. ${waiting}`,
  timeout: `The keychain did not answer in time (it may be waiting for you to unlock it). ${waiting}`,
  mismatch: `The keychain did not give back what Perch stored in it; ${consequence}`,
  failed: (detail: string) => `The keychain could not be used (${detail}); ${consequence}`,
} as const;

/** Reasons that pass once the user unlocks the keychain; every other one lasts for the run. */
const passingReasons: ReadonlySet<string> = new Set([keychainReasons.locked, keychainReasons.timeout]);

/** Whether the reason passes once the user unlocks the keychain (else the keychain is given up on for the run). */
export function passesOnUnlock(reason: string): boolean {
  return passingReasons.has(reason);
}

/** Turns what libsecret (through keytar) says into a sentence for the user. */
export function reasonForKeychainError(error: unknown): string {
  const message = messageOf(error);
  if (error instanceof KeychainTimeout) return keychainReasons.timeout;
  // "Cannot autolaunch D-Bus without X11 $DISPLAY", "Could not connect: No such file or directory".
  if (/autolaunch D-Bus|Could not connect|DBUS_SESSION_BUS_ADDRESS/i.test(message)) return keychainReasons.noBus;
  // "The name org.freedesktop.secrets was not provided by any .service files".
  if (/not provided by any \.service files|ServiceUnknown|NameHasNoOwner/i.test(message)) {
    return keychainReasons.noSecretService;
  }
  // "Cannot create an item in a locked collection"; "Object does not exist at path
  // /org/freedesktop/secrets/collection/login" (no keyring yet, and no prompt to create one).
  if (/locked|collection|prompt|dismissed/i.test(message)) return keychainReasons.locked;
  return keychainReasons.failed(message);
}
