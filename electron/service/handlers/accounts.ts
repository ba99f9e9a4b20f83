import { checkNewPassword, missingOrEmpty } from '../domain/profile.js';
import { forbidden, invalid, selfRegistrationDisabled, Violations } from '../errors.js';
import { verifyPassword } from '../passwords.js';
import type { Store } from '../store/database.js';
import { accountAttributeValues } from '../store/user-details.js';
import { findUser, registerUser, setPassword, updateUserProfile } from '../store/users.js';
import type { Caller, HandlerMap, LinkBuilder } from './types.js';
import { accountAnswer, accountLinks } from './user-answers.js';

const reference = (links: LinkBuilder, userId: number) => ({ userId, links: accountLinks(links, userId), message: null });

/**
 * People work on their own account, administrators on anyone's. Refused before the lookup, so a
 * normal user learns nothing about which other ids exist.
 */
async function accessibleAccount(store: Store, caller: Caller, userId: number, refusal: string) {
  if (userId !== caller.user.id && !caller.isAdmin) throw forbidden(refusal);
  return findUser(store, userId);
}

export const accountHandlers = {
  /** Self-registration: joins the default groups and does not sign the new user in. */
  async createAccount({ body }, { store, clock, config, links, caller }) {
    if (!config.allowSelfRegistration) throw selfRegistrationDisabled();
    // acceptTermsOfService is taken as sent: real servers do not enforce it over the API.
    const userId = await registerUser(
      store,
      clock,
      { profile: body, password: body.password, customAttributes: body.customAttributes },
      { isAdmin: caller?.isAdmin ?? false },
    );
    return reference(links, userId);
  },

  async updateAccount({ params, body }, { store, links, caller }) {
    const account = await accessibleAccount(store, caller, params.userId, 'You are not allowed to change this account.');
    await updateUserProfile(store, account.id, { profile: body, customAttributes: body.customAttributes }, { isAdmin: caller.isAdmin });
    return reference(links, account.id);
  },

  async updateAccountPassword({ params, body }, { store, links, caller }) {
    const account = await accessibleAccount(store, caller, params.userId, 'You are not allowed to change this account.');
    const violations = new Violations();
    const currentPassword = body.currentPassword ?? '';
    if (currentPassword === '') violations.add(missingOrEmpty('currentPassword'));
    const newPassword = checkNewPassword('newPassword', body.newPassword, violations);
    violations.throwIfAny();
    if (!(await verifyPassword(currentPassword, account.passwordHash))) throw invalid('The current password is incorrect');
    await setPassword(store, account.id, newPassword!);
    return reference(links, account.id);
  },

  async getAccount({ params }, { store, links, caller }) {
    const account = await accessibleAccount(store, caller, params.userId, 'You are not allowed to view this account.');
    return accountAnswer(links, account, await accountAttributeValues(store, account.id));
  },
} satisfies Pick<HandlerMap, 'createAccount' | 'updateAccount' | 'updateAccountPassword' | 'getAccount'>;
