import { accessSync, chmodSync, constants, mkdirSync } from 'node:fs';
import { join } from 'node:path';

/** The service's database inside its data folder; the command line and the app's host agree on it. */
export const databaseFile = (dataFolder: string) => join(dataFolder, 'perch.db');

/**
 * Creates the data folder when missing, for its owner alone (the database holds everyone's
 * bookings and password hashes); throws the file system's error when it cannot be written to.
 */
export function prepareDataFolder(dataFolder: string): void {
  mkdirSync(dataFolder, { recursive: true, mode: 0o700 });
  chmodSync(dataFolder, 0o700);
  accessSync(dataFolder, constants.W_OK);
}
