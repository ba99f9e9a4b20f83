/**
 * Who the person at this computer is to the local service: a user name from their login name, names
 * read from it, the machine's timezone, and a password nobody types (kept in the keychain).
 */
import { randomBytes } from 'node:crypto';
import { userInfo } from 'node:os';
import { DateTime } from 'luxon';
import type { LocalAccount } from '../../api/local-host.js';

export type LocalProfile = Omit<LocalAccount, 'password'>;

const fallbackUserName = 'me';
const userNameLength = 32;

/** Letters, digits, dots, dashes and underscores: what every server accepts and a URL keeps as it is. */
export function localUserName(loginName: string): string {
  const plain = loginName.normalize('NFKD').replace(/[\u0300-\u036f]/g, '');
  const name = plain
    .replace(/[^A-Za-z0-9._-]+/g, '.')
    .replace(/^[._-]+|[._-]+$/g, '')
    .slice(0, userNameLength)
    .replace(/[._-]+$/, '');
  return name === '' ? fallbackUserName : name;
}

const capitalised = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

/** `jane.doe` reads as Jane Doe; a single word is a first name. */
export function localProfile(loginName: string, timezone: string): LocalProfile {
  const userName = localUserName(loginName);
  const [first = userName, ...rest] = userName
    .split(/[._-]+/)
    .filter((part) => part !== '')
    .map(capitalised);
  return { userName, firstName: first, lastName: rest.join(' '), timezone };
}

export function thisComputersProfile(): LocalProfile {
  let loginName = '';
  try {
    loginName = userInfo().username;
  } catch {
    // No entry in the user database (some containers): the fallback name will do.
  }
  return localProfile(loginName, DateTime.local().zoneName ?? 'UTC');
}

/** 24 random bytes, URL-safe: strong, and never typed by anyone. */
export const generateLocalPassword = () => randomBytes(24).toString('base64url');
