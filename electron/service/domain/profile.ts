import { isValidTimeZone } from '../../api/dates.js';
import type { Violations } from '../errors.js';

/** What account and user bodies may carry about a person; every member optional on the wire. */
export interface ProfileInput {
  firstName?: string;
  lastName?: string;
  emailAddress?: string;
  userName?: string;
  timezone?: string;
  language?: string;
  phone?: string;
  organization?: string;
  position?: string;
}

export type ProfileValues = Required<ProfileInput>;

/** Only active users may sign in; new users are active at once (no e-mail activation). */
export const UserStatus = { active: 1 } as const;

export const defaultTimezone = 'UTC';
export const defaultLanguage = 'en_us';
export const minimumPasswordLength = 6;

const requiredFields = ['firstName', 'lastName', 'emailAddress', 'userName'] as const;
const freeTextFields = ['phone', 'organization', 'position'] as const;

export const missingOrEmpty = (field: string) => `${field} is missing or empty`;

const isBlank = (value: string | undefined): value is undefined | '' => value === undefined || value.trim() === '';

// Deliberately loose (like PHP's filter_var): a local part, an @, and a dotted host name.
const emailAddressPattern = /^[^\s@<>()[\],;:"]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+$/;

export const isValidEmailAddress = (text: string) => emailAddressPattern.test(text);

function checkFormats(profile: Partial<ProfileValues>, violations: Violations): void {
  if (profile.emailAddress !== undefined && !isValidEmailAddress(profile.emailAddress)) {
    violations.add('A valid email address is required.');
  }
  if (profile.timezone !== undefined && !isValidTimeZone(profile.timezone)) {
    violations.add(`Invalid timezone: ${profile.timezone}`);
  }
}

/** A new person: the four identity fields are required; the rest fall back to defaults. */
export function newProfile(input: ProfileInput, violations: Violations): ProfileValues {
  for (const field of requiredFields) if (isBlank(input[field])) violations.add(missingOrEmpty(field));
  const profile: ProfileValues = {
    firstName: input.firstName?.trim() ?? '',
    lastName: input.lastName?.trim() ?? '',
    emailAddress: input.emailAddress?.trim() ?? '',
    userName: input.userName?.trim() ?? '',
    timezone: isBlank(input.timezone) ? defaultTimezone : input.timezone.trim(),
    language: isBlank(input.language) ? defaultLanguage : input.language.trim(),
    phone: input.phone?.trim() ?? '',
    organization: input.organization?.trim() ?? '',
    position: input.position?.trim() ?? '',
  };
  checkFormats({ ...(!isBlank(profile.emailAddress) && { emailAddress: profile.emailAddress }), timezone: profile.timezone }, violations);
  return profile;
}

/**
 * Changes to an existing person. A member left out stays as it is (clients that send partial
 * bodies must not wipe names); a required one sent blank is refused; a blank timezone or
 * language means "unchanged" because neither can be empty.
 */
export function profileChanges(input: ProfileInput, violations: Violations): Partial<ProfileValues> {
  const changes: Partial<ProfileValues> = {};
  for (const field of requiredFields) {
    const value = input[field];
    if (value === undefined) continue;
    if (isBlank(value)) violations.add(missingOrEmpty(field));
    else changes[field] = value.trim();
  }
  for (const field of freeTextFields) {
    const value = input[field];
    if (value !== undefined) changes[field] = value.trim();
  }
  if (!isBlank(input.timezone)) changes.timezone = input.timezone.trim();
  if (!isBlank(input.language)) changes.language = input.language.trim();
  checkFormats(changes, violations);
  return changes;
}

/** The password a person is about to set, or null after adding why it cannot be used. */
export function checkNewPassword(field: string, password: string | undefined, violations: Violations): string | null {
  if (isBlank(password)) {
    violations.add(missingOrEmpty(field));
    return null;
  }
  if (password.length < minimumPasswordLength) {
    violations.add(`Password must be at least ${minimumPasswordLength} characters`);
    return null;
  }
  return password;
}
