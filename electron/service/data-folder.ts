import { accessSync, constants, mkdirSync } from 'node:fs';
import { join } from 'node:path';

/** The service's database inside its data folder; the command line and the app's host agree on it. */
export const databaseFile = (dataFolder: string) => join(dataFolder, 'perch.db');

/** Creates the data folder when missing; throws the file system's error when it cannot be written to. */
export function prepareDataFolder(dataFolder: string): void {
  mkdirSync(dataFolder, { recursive: true });
  accessSync(dataFolder, constants.W_OK);
}
