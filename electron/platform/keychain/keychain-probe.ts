/**
 * Whether the keychain can keep a session. A locked keyring reads as empty without complaint and
 * only refuses writes, so only a full write-read-delete round trip proves it.
 */
import { callWithTimeout, withTimeout } from './keychain-timeout.js';
import type { KeytarModule } from './keytar.js';

/** Written and removed when the keychain is first used; real accounts are `<apiRoot>|<username>`, so it never meets one. */
export const probeAccount = 'perch-keychain-probe';

export type ProbeOutcome =
  | { kind: 'usable' }
  /** The keychain gave back something other than what was written. */
  | { kind: 'mismatch' }
  /** A call failed or did not answer in time; `write` settles when the probe's write does, however late. */
  | { kind: 'failed'; error: unknown; write: Promise<void> };

export async function probeKeychain(keytar: KeytarModule, service: string, timeoutMs: number): Promise<ProbeOutcome> {
  const probeSecret = `probe-${Math.random().toString(36).slice(2)}`;
  const probeWrite = Promise.resolve().then(() => keytar.setPassword(service, probeAccount, probeSecret));
  try {
    await withTimeout(probeWrite, timeoutMs, 'a probe write');
    const readBack = await callWithTimeout(() => keytar.getPassword(service, probeAccount), timeoutMs, 'a probe read');
    await callWithTimeout(() => keytar.deletePassword(service, probeAccount), timeoutMs, 'a probe delete');
    return readBack === probeSecret ? { kind: 'usable' } : { kind: 'mismatch' };
  } catch (error) {
    return { kind: 'failed', error, write: probeWrite };
  }
}
