/** keytar, the native module through which Perch reaches the OS keychain: an optional dependency that may be missing. */

/** The part of keytar Perch uses. */
export interface KeytarModule {
  getPassword(service: string, account: string): Promise<string | null>;
  setPassword(service: string, account: string, password: string): Promise<void>;
  deletePassword(service: string, account: string): Promise<boolean>;
}

/** Loads keytar; rejects where it is not installed or its binary does not load. */
export const importKeytar = (): Promise<unknown> => import('keytar');

/** keytar is CommonJS: its functions arrive on `default`, and (by Node's detection) sometimes also by name. */
export function keytarFunctions(loaded: unknown): KeytarModule {
  const hasFunctions = (candidate: unknown): candidate is KeytarModule =>
    typeof candidate === 'object' &&
    candidate !== null &&
    ['getPassword', 'setPassword', 'deletePassword'].every((name) => typeof (candidate as Record<string, unknown>)[name] === 'function');
  if (hasFunctions(loaded)) return loaded;
  const fallback = typeof loaded === 'object' && loaded !== null ? (loaded as { default?: unknown }).default : undefined;
  if (hasFunctions(fallback)) return fallback;
  throw new Error('keytar does not export getPassword, setPassword and deletePassword');
}
