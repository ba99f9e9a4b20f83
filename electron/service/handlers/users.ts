import { checkNewPassword } from '../domain/profile.js';
import { invalid, Violations } from '../errors.js';
import { readUserDetails, userAttributeValues } from '../store/user-details.js';
import { deleteUser, findUser, listUsers, registerUser, setPassword, updateUserProfile } from '../store/users.js';
import { deletionEnvelope } from './deletion.js';
import type { HandlerMap, LinkBuilder } from './types.js';
import { userAnswer, userLinks, userListItemAnswers } from './user-answers.js';

const reference = (links: LinkBuilder, userId: number) => ({ userId, links: userLinks(links, userId, true), message: null });

export const userHandlers = {
  /** An administrator's creation: `groups`, when given, replaces the default groups. */
  async createUser({ body }, { store, clock, links }) {
    const userId = await registerUser(
      store,
      clock,
      { profile: body, password: body.password, customAttributes: body.customAttributes, groupIds: body.groups },
      { isAdmin: true },
    );
    return reference(links, userId);
  },

  async updateUser({ params, body }, { store, links }) {
    const user = await findUser(store, params.userId);
    await updateUserProfile(
      store,
      user.id,
      { profile: body, customAttributes: body.customAttributes, groupIds: body.groups },
      { isAdmin: true },
    );
    return reference(links, user.id);
  },

  async updateUserPassword({ params, body }, { store, links }) {
    const user = await findUser(store, params.userId);
    const violations = new Violations();
    const password = checkNewPassword('password', body.password, violations);
    violations.throwIfAny();
    await setPassword(store, user.id, password!);
    return reference(links, user.id);
  },

  /** Everyone sees every user, as on real servers; private attribute values stay with their owner. */
  async getAllUsers({ query }, { store, links, caller }) {
    const rows = await listUsers(store, query, caller);
    const attributes = await userAttributeValues(
      store,
      rows.map((row) => row.id),
      caller,
    );
    return { users: userListItemAnswers(links, rows, attributes, caller), links: [], message: null };
  },

  async getUser({ params }, { store, links, caller }) {
    const user = await findUser(store, params.userId);
    return userAnswer(links, user, await readUserDetails(store, user.id, caller), caller);
  },

  async deleteUser({ params }, { store, caller }) {
    const user = await findUser(store, params.userId);
    // The service would otherwise lose the administrator it is being run by.
    if (user.id === caller.user.id) throw invalid('You cannot delete your own account.');
    await deleteUser(store, user.id);
    return deletionEnvelope();
  },
} satisfies Pick<HandlerMap, 'createUser' | 'updateUser' | 'updateUserPassword' | 'getAllUsers' | 'getUser' | 'deleteUser'>;
