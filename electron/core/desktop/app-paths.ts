/**
 * Where a run of Perch keeps its things. A development run (`npm start`, unpackaged) gets a data
 * folder, a log folder and keychain entries of its own, so it never reads or changes the installed
 * app's account, settings or database; and, since Electron's single-instance lock lives in the
 * data folder, it runs beside the installed app instead of handing over to it.
 */
import { join } from 'node:path';

export interface AppPaths {
  /** The app data folder (settings, account, cache, the local service's database, the instance lock). */
  userData: string;
  /** The log folder; null leaves Electron's own choice for the platform. */
  logs: string | null;
  /** The service name the keychain entries are filed under. */
  keychainService: string;
}

export interface AppPathsInput {
  /** Electron's `app.isPackaged`: false for a run from source. */
  packaged: boolean;
  /** The OS's folder for per-user app data (Electron's `appData` path). */
  appData: string;
  /** The product's name (Electron's `app.getName()`). */
  productName: string;
}

export const developmentSuffix = ' (development)';

export function appPaths({ packaged, appData, productName }: AppPathsInput): AppPaths {
  if (packaged) return { userData: join(appData, productName), logs: null, keychainService: productName };
  const name = `${productName}${developmentSuffix}`;
  const userData = join(appData, name);
  // On macOS Electron files logs under the product's name in ~/Library/Logs, which the installed app uses.
  return { userData, logs: join(userData, 'logs'), keychainService: name };
}
