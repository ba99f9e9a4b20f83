/** A keychain call that does not answer in time: an unlock prompt nobody answers, or a keychain that hangs. */
export class KeychainTimeout extends Error {}

/** Rejects with `KeychainTimeout` when `work` has not settled within `timeoutMs`. */
export function withTimeout<T>(work: Promise<T>, timeoutMs: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    // A real timer, not the core's Clock: this guards an I/O call, it is not part of the app's timeline.
    timer = setTimeout(() => reject(new KeychainTimeout(`The keychain did not answer ${what} within ${timeoutMs} ms`)), timeoutMs);
    timer.unref();
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/** Runs one keychain call within `timeoutMs`; a call that throws at once becomes a rejection too (Promise.resolve().then). */
export function callWithTimeout<T>(work: () => Promise<T>, timeoutMs: number, what: string): Promise<T> {
  return withTimeout(Promise.resolve().then(work), timeoutMs, what);
}
