import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatWireDateTime } from '../../electron/api/dates.js';
import { PermissionType } from '../../electron/service/tables.js';
import { attributeValueItem, deletedBody, forbiddenBody, invalidBody, notFoundBody, unauthenticatedBody } from '../support/answers.js';
import {
  countRows,
  deleteAttributes,
  deleteUserGroups,
  insertResource,
  insertSchedule,
  insertUserAttribute,
  insertUserGroup,
} from '../support/fixtures.js';
import { createNormalUser, startTestService, type Session, type TestService } from '../support/service.js';

let service: TestService;
let normal: Session & { password: string };
let scheduleId: number;
beforeAll(async () => {
  service = await startTestService();
  normal = await createNormalUser(service, 'normal', { firstName: 'Norma', lastName: 'Normal' });
  scheduleId = await insertSchedule(service.store);
});
afterAll(() => service.dispose());

const getUserLink = (userId: number) => ({ href: `${service.apiRoot}/Users/${userId}`, title: 'get_user' });
const updateUserLink = (userId: number) => ({ href: `${service.apiRoot}/Users/${userId}`, title: 'update_user' });
const nowOnWire = () => formatWireDateTime(service.clock.now().toUTC());

let sequence = 0;
function userBody(overrides: Record<string, unknown> = {}) {
  sequence += 1;
  return {
    password: 'user-password-1',
    language: 'en_us',
    firstName: 'Test',
    lastName: `User${sequence}`,
    emailAddress: `person${sequence}@example.org`,
    userName: `person${sequence}`,
    timezone: 'Europe/Paris',
    phone: '',
    organization: '',
    position: '',
    customAttributes: [],
    ...overrides,
  };
}

async function createUser(overrides: Record<string, unknown> = {}): Promise<{ userId: number; body: ReturnType<typeof userBody> }> {
  const body = userBody(overrides);
  const answer = await service.call('POST', '/Users/', { session: service.admin, body });
  if (answer.status !== 201) throw new Error(`CreateUser failed: ${JSON.stringify(answer.body)}`);
  return { userId: answer.body.userId, body };
}

const userRow = (id: number) => service.store.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
const userCount = () => countRows(service.store, 'users');
const groupIdsOf = async (userId: number) =>
  (await service.store.selectFrom('groupMembers').select('groupId').where('userId', '=', userId).orderBy('groupId').execute()).map(
    (row) => row.groupId,
  );

const addResource = (name: string) => insertResource(service.store, { name, scheduleId });

describe('CreateUser', () => {
  it('creates a user with 201 and user links', async () => {
    const body = userBody({
      firstName: 'Katherine',
      lastName: 'Johnson',
      phone: '555-0199',
      organization: 'NASA',
      position: 'Mathematician',
      language: 'en_gb',
    });
    const answer = await service.call('POST', '/Users/', { session: service.admin, body });
    expect(answer.status).toBe(201);
    const userId = answer.body.userId as number;
    expect(answer.body).toEqual({ userId: expect.any(Number), links: [getUserLink(userId), updateUserLink(userId)], message: null });
    expect(await userRow(userId)).toMatchObject({
      userName: body.userName,
      emailAddress: body.emailAddress,
      firstName: 'Katherine',
      lastName: 'Johnson',
      phone: '555-0199',
      organization: 'NASA',
      position: 'Mathematician',
      language: 'en_gb',
      timezone: 'Europe/Paris',
      statusId: 1,
    });
    await expect(service.signIn(body.userName, body.password)).resolves.toMatchObject({ userId });
  });

  it('joins the default groups when no groups are given, exactly the given ones otherwise', async () => {
    const everyone = await insertUserGroup(service.store, 'Everyone', { isDefault: 1 });
    const lab = await insertUserGroup(service.store, 'Lab');
    try {
      const byDefault = await createUser();
      expect(await groupIdsOf(byDefault.userId)).toEqual([everyone]);
      const chosen = await createUser({ groups: [lab, lab] });
      expect(await groupIdsOf(chosen.userId)).toEqual([lab]);
      const none = await createUser({ groups: [] });
      expect(await groupIdsOf(none.userId)).toEqual([]);
    } finally {
      await deleteUserGroups(service.store, everyone, lab);
    }
  });

  it('refuses unknown group ids and stores nothing', async () => {
    const before = await userCount();
    const answer = await service.call('POST', '/Users/', { session: service.admin, body: userBody({ groups: [99999] }) });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual(invalidBody('Invalid group id 99999'));
    expect(await userCount()).toBe(before);
  });

  it('refuses missing members, a bad e-mail address, a short password and taken names, and stores nothing', async () => {
    const before = await userCount();
    const empty = await service.call('POST', '/Users/', { session: service.admin, body: {} });
    expect(empty.status).toBe(400);
    expect(empty.body).toEqual(
      invalidBody(
        'firstName is missing or empty',
        'lastName is missing or empty',
        'emailAddress is missing or empty',
        'userName is missing or empty',
        'password is missing or empty',
      ),
    );
    const bad = await service.call('POST', '/Users/', {
      session: service.admin,
      body: userBody({ emailAddress: 'nobody', password: 'short' }),
    });
    expect(bad.body).toEqual(invalidBody('A valid email address is required.', 'Password must be at least 6 characters'));
    const taken = await service.call('POST', '/Users/', {
      session: service.admin,
      body: userBody({ userName: 'Normal', emailAddress: 'NORMAL@example.org' }),
    });
    expect(taken.body).toEqual(invalidBody('That user name is already registered.', 'That email address is already registered.'));
    expect(await userCount()).toBe(before);
  });

  it('lets an administrator set admin-only attribute values', async () => {
    const clearance = await insertUserAttribute(service.store, { label: 'Clearance', adminOnly: 1 });
    try {
      const { userId } = await createUser({ customAttributes: [{ attributeId: clearance, attributeValue: 'blue' }] });
      const values = await service.store
        .selectFrom('customAttributeValues')
        .select(['attributeId', 'value'])
        .where('entityId', '=', userId)
        .execute();
      expect(values).toEqual([{ attributeId: clearance, value: 'blue' }]);
    } finally {
      await deleteAttributes(service.store, clearance);
    }
  });

  it('answers 403 to a normal user and 401 without a session, creating nothing', async () => {
    const before = await userCount();
    const forbidden = await service.call('POST', '/Users/', { session: normal, body: userBody() });
    expect(forbidden.status).toBe(403);
    expect(forbidden.body).toEqual(forbiddenBody);
    const anonymous = await service.call('POST', '/Users/', { body: userBody() });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual(unauthenticatedBody);
    expect(await userCount()).toBe(before);
  });
});

describe('UpdateUser', () => {
  it('replaces the members sent and keeps the rest', async () => {
    const { userId, body } = await createUser({ organization: 'Old Org', phone: '123' });
    const answer = await service.call('POST', `/Users/${userId}`, {
      session: service.admin,
      body: { firstName: 'Renamed', organization: 'New Org', timezone: 'Asia/Kolkata' },
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ userId, links: [getUserLink(userId), updateUserLink(userId)], message: null });
    expect(await userRow(userId)).toMatchObject({
      firstName: 'Renamed',
      lastName: body.lastName,
      userName: body.userName,
      emailAddress: body.emailAddress,
      organization: 'New Org',
      phone: '123',
      timezone: 'Asia/Kolkata',
    });
  });

  it('replaces groups when given and keeps them when not', async () => {
    const first = await insertUserGroup(service.store, 'First');
    const second = await insertUserGroup(service.store, 'Second');
    try {
      const { userId } = await createUser({ groups: [first] });
      await service.call('POST', `/Users/${userId}`, { session: service.admin, body: { position: 'Lead' } });
      expect(await groupIdsOf(userId)).toEqual([first]);
      const answer = await service.call('POST', `/Users/${userId}`, { session: service.admin, body: { groups: [second] } });
      expect(answer.status).toBe(200);
      expect(await groupIdsOf(userId)).toEqual([second]);
    } finally {
      await deleteUserGroups(service.store, first, second);
    }
  });

  it('replaces custom attribute values when given', async () => {
    const team = await insertUserAttribute(service.store, { label: 'Team' });
    try {
      const { userId } = await createUser({ customAttributes: [{ attributeId: team, attributeValue: 'Blue' }] });
      await service.call('POST', `/Users/${userId}`, {
        session: service.admin,
        body: { customAttributes: [{ attributeId: team, attributeValue: 'Green' }] },
      });
      const values = await service.store.selectFrom('customAttributeValues').select('value').where('entityId', '=', userId).execute();
      expect(values).toEqual([{ value: 'Green' }]);
      await service.call('POST', `/Users/${userId}`, { session: service.admin, body: { customAttributes: [] } });
      expect(await service.store.selectFrom('customAttributeValues').select('value').where('entityId', '=', userId).execute()).toEqual([]);
    } finally {
      await deleteAttributes(service.store, team);
    }
  });

  it('refuses blank required members, taken names and unknown groups, and changes nothing', async () => {
    const { userId } = await createUser();
    const before = await userRow(userId);
    const groupsBefore = await groupIdsOf(userId);
    const answer = await service.call('POST', `/Users/${userId}`, {
      session: service.admin,
      body: { lastName: ' ', firstName: 'Changed', emailAddress: 'normal@example.org', groups: [99999] },
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual(
      invalidBody('lastName is missing or empty', 'That email address is already registered.', 'Invalid group id 99999'),
    );
    expect(await userRow(userId)).toEqual(before);
    expect(await groupIdsOf(userId)).toEqual(groupsBefore);
  });

  it('refuses to leave the service without an application administrator', async () => {
    const groupsBefore = await groupIdsOf(service.admin.userId);
    const answer = await service.call('POST', `/Users/${service.admin.userId}`, { session: service.admin, body: { groups: [] } });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual(invalidBody('At least one user must remain an application administrator'));
    expect(await groupIdsOf(service.admin.userId)).toEqual(groupsBefore);
  });

  it('answers 404 for an unknown user, 403 to a normal user, 401 without a session', async () => {
    const missing = await service.call('POST', '/Users/987654', { session: service.admin, body: { firstName: 'x' } });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual(notFoundBody);
    const forbidden = await service.call('POST', `/Users/${normal.userId}`, { session: normal, body: { firstName: 'Self-promoted' } });
    expect(forbidden.status).toBe(403);
    expect(forbidden.body).toEqual(forbiddenBody);
    const anonymous = await service.call('POST', `/Users/${normal.userId}`, { body: { firstName: 'x' } });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual(unauthenticatedBody);
    expect((await userRow(normal.userId))?.firstName).toBe('Norma');
  });
});

describe('UpdatePassword (user)', () => {
  it('sets a new password without asking for the old one', async () => {
    const { userId, body } = await createUser();
    const answer = await service.call('POST', `/Users/${userId}/Password`, {
      session: service.admin,
      body: { password: 'reset-by-admin' },
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ userId, links: [getUserLink(userId), updateUserLink(userId)], message: null });
    await expect(service.signIn(body.userName, 'reset-by-admin')).resolves.toMatchObject({ userId });
    await expect(service.signIn(body.userName, body.password)).rejects.toThrow(/failed/);
  });

  it.each([
    ['a missing password', {}, 'password is missing or empty'],
    ['a blank password', { password: '      ' }, 'password is missing or empty'],
    ['a short password', { password: '12345' }, 'Password must be at least 6 characters'],
  ])('refuses %s', async (_case, body, error) => {
    const { userId } = await createUser();
    const answer = await service.call('POST', `/Users/${userId}/Password`, { session: service.admin, body });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual(invalidBody(error));
  });

  it('answers 404 for an unknown user, 403 to a normal user, 401 without a session', async () => {
    const body = { password: 'new-password-1' };
    const missing = await service.call('POST', '/Users/987654/Password', { session: service.admin, body });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual(notFoundBody);
    const forbidden = await service.call('POST', `/Users/${normal.userId}/Password`, { session: normal, body });
    expect(forbidden.status).toBe(403);
    expect(forbidden.body).toEqual(forbiddenBody);
    const anonymous = await service.call('POST', `/Users/${normal.userId}/Password`, { body });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual(unauthenticatedBody);
  });
});

describe('GetAllUsers', () => {
  let alice: number;
  let bob: number;
  let carol: number;
  let team: number;
  let secret: number;
  let caller: Session;
  const listed = async (query: string, session: Session = service.admin) => {
    const answer = await service.call('GET', `/Users/${query}`, { session });
    expect(answer.status).toBe(200);
    return (answer.body.users as { id: number }[]).map((user) => user.id);
  };

  beforeAll(async () => {
    team = await insertUserAttribute(service.store, { label: 'Team', sortOrder: 1 });
    secret = await insertUserAttribute(service.store, { label: 'Shoe size', isPrivate: 1, sortOrder: 2 });
    const filterCoUser = async (person: Record<string, string>, teamValue: string, shoeSize?: string) => {
      const customAttributes = [{ attributeId: team, attributeValue: teamValue }];
      if (shoeSize !== undefined) customAttributes.push({ attributeId: secret, attributeValue: shoeSize });
      return (await createUser({ organization: 'Filter Co', ...person, customAttributes })).userId;
    };
    alice = await filterCoUser(
      {
        userName: 'alice.archer',
        emailAddress: 'alice@filter.example',
        firstName: 'Alice',
        lastName: 'Archer',
        phone: '+1 555 0001',
        position: 'Engineer',
      },
      'Red',
      '38',
    );
    bob = await filterCoUser(
      {
        userName: 'bob.baker',
        emailAddress: 'bob@filter.example',
        firstName: 'Bob',
        lastName: 'Baker',
        phone: '+1 555 0002',
        position: 'Engineer',
      },
      'Blue',
      '44',
    );
    carol = await filterCoUser(
      {
        userName: 'carol_100%',
        emailAddress: 'carol@other.example',
        firstName: 'Carol',
        lastName: 'Carter',
        phone: '+44 555 0003',
        position: 'Manager',
      },
      'Red',
    );
    caller = await service.signIn('alice.archer', 'user-password-1');
  });
  afterAll(async () => {
    await deleteAttributes(service.store, team, secret);
  });

  it('lists users with the list item shape, ordered by last name', async () => {
    const answer = await service.call('GET', '/Users/?organization=Filter%20Co', { session: service.admin });
    expect(answer.status).toBe(200);
    expect(answer.body.links).toEqual([]);
    expect(answer.body.message).toBeNull();
    expect(answer.body.users.map((user: { id: number }) => user.id)).toEqual([alice, bob, carol]);
    expect(answer.body.users[1]).toEqual({
      id: bob,
      userName: 'bob.baker',
      firstName: 'Bob',
      lastName: 'Baker',
      emailAddress: 'bob@filter.example',
      phoneNumber: '+1 555 0002',
      dateCreated: nowOnWire(),
      lastLogin: null,
      statusId: '1',
      timezone: 'Europe/Paris',
      organization: 'Filter Co',
      position: 'Engineer',
      language: 'en_us',
      customAttributes: [attributeValueItem(service, team, 'Team', 'Blue'), attributeValueItem(service, secret, 'Shoe size', '44')],
      currentCredits: '0.00',
      reservationColor: '',
      links: [getUserLink(bob), updateUserLink(bob)],
      message: null,
    });
    expect(answer.body.users[0].lastLogin).toBe(nowOnWire());
  });

  it.each([
    ['username', 'username=ALICE', ['alice']],
    ['email', 'email=FILTER.example', ['alice', 'bob']],
    ['firstName', 'firstName=aro', ['carol']],
    ['lastName', 'lastName=bAkEr', ['bob']],
    ['phone', 'phone=%2B1%20555', ['alice', 'bob']],
    ['organization', 'organization=filter', ['alice', 'bob', 'carol']],
    ['position', 'position=engineer', ['alice', 'bob']],
    ['several filters together', 'organization=filter&position=Engineer&email=bob', ['bob']],
    ['a wildcard character taken literally', 'organization=filter&username=%25', ['carol']],
    ['a blank filter (ignored)', 'organization=filter&lastName=', ['alice', 'bob', 'carol']],
  ])('filters by %s (case-insensitive substring)', async (_case, query, expected) => {
    const ids = { alice, bob, carol } as Record<string, number>;
    expect(await listed(`?${query}`)).toEqual(expected.map((name) => ids[name]));
  });

  it('filters by custom attribute value (exact match), ANDed with the others', async () => {
    expect(await listed(`?att${team}=Red`)).toEqual([alice, carol]);
    expect(await listed(`?att${team}=red`)).toEqual([]);
    expect(await listed(`?att${team}=Red&position=manager`)).toEqual([carol]);
    expect(await listed(`?att${team}=Red&att${secret}=38`)).toEqual([alice]);
    expect(await listed('?att999999=Red')).toEqual([]);
  });

  it('shows every user to a normal user, with only the get_user link and without others’ private values', async () => {
    const answer = await service.call('GET', '/Users/?organization=filter', { session: caller });
    expect(answer.status).toBe(200);
    const [own, other] = answer.body.users;
    expect(own.id).toBe(alice);
    expect(own.links).toEqual([getUserLink(alice)]);
    expect(own.customAttributes).toEqual([
      attributeValueItem(service, team, 'Team', 'Red'),
      attributeValueItem(service, secret, 'Shoe size', '38'),
    ]);
    expect(other.id).toBe(bob);
    expect(other.links).toEqual([getUserLink(bob)]);
    expect(other.customAttributes).toEqual([attributeValueItem(service, team, 'Team', 'Blue')]);
    const everyone = await listed('', caller);
    expect(everyone).toEqual(expect.arrayContaining([service.admin.userId, normal.userId, alice, bob, carol]));
  });

  it('lets a private attribute filter find only the normal user themselves', async () => {
    expect(await listed(`?att${secret}=44`, caller)).toEqual([]);
    expect(await listed(`?att${secret}=38`, caller)).toEqual([alice]);
    expect(await listed(`?att${secret}=44`)).toEqual([bob]);
  });

  it('answers 401 without a session', async () => {
    const answer = await service.call('GET', '/Users/');
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual(unauthenticatedBody);
  });
});

describe('GetUser', () => {
  it('returns the full user with groups, bookable resources and a calendar URL', async () => {
    const viaGroup = await addResource('Room via group');
    const direct = await addResource('Desk direct');
    const viewOnly = await addResource('Room view only');
    await addResource('Room without permission');
    const staff = await insertUserGroup(service.store, 'Staff', { isDefault: 1, roleIds: [3, 1] });
    const viewers = await insertUserGroup(service.store, 'Viewers');
    await service.store
      .insertInto('groupResourcePermissions')
      .values([
        { groupId: staff, resourceId: viaGroup, permissionType: PermissionType.full },
        { groupId: viewers, resourceId: viewOnly, permissionType: PermissionType.view },
      ])
      .execute();
    const team = await insertUserAttribute(service.store, { label: 'Team' });
    try {
      const { userId, body } = await createUser({
        groups: [staff, viewers],
        phone: '555-0123',
        customAttributes: [{ attributeId: team, attributeValue: 'Gold' }],
      });
      await service.store
        .insertInto('userResourcePermissions')
        .values({ userId, resourceId: direct, permissionType: PermissionType.full })
        .execute();
      await service.store.updateTable('users').set({ credits: 12.5, reservationColor: '#336699' }).where('id', '=', userId).execute();

      const answer = await service.call('GET', `/Users/${userId}`, { session: service.admin });
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({
        id: userId,
        userName: body.userName,
        firstName: 'Test',
        lastName: body.lastName,
        emailAddress: body.emailAddress,
        phoneNumber: '555-0123',
        lastLogin: null,
        statusId: '1',
        timezone: 'Europe/Paris',
        organization: '',
        position: '',
        language: 'en_us',
        customAttributes: [attributeValueItem(service, team, 'Team', 'Gold')],
        currentCredits: '12.50',
        reservationColor: '#336699',
        icsUrl: '',
        defaultScheduleId: null,
        permissions: [
          {
            id: direct,
            name: 'Desk direct',
            type: null,
            groups: null,
            links: [{ href: `${service.apiRoot}/Resources/${direct}`, title: 'get_resource' }],
            message: null,
          },
          {
            id: viaGroup,
            name: 'Room via group',
            type: null,
            groups: null,
            links: [{ href: `${service.apiRoot}/Resources/${viaGroup}`, title: 'get_resource' }],
            message: null,
          },
        ],
        groups: [
          {
            id: staff,
            name: 'Staff',
            isDefault: true,
            roleIds: [1, 3],
            links: [{ href: `${service.apiRoot}/Groups/${staff}`, title: 'get_group' }],
            message: null,
          },
          {
            id: viewers,
            name: 'Viewers',
            isDefault: false,
            roleIds: [],
            links: [{ href: `${service.apiRoot}/Groups/${viewers}`, title: 'get_group' }],
            message: null,
          },
        ],
        links: [getUserLink(userId), updateUserLink(userId)],
        message: null,
      });

      await service.signIn(body.userName, body.password);
      const signedIn = await service.call('GET', `/Users/${userId}`, { session: service.admin });
      expect(signedIn.body.lastLogin).toBe(nowOnWire());
    } finally {
      await deleteAttributes(service.store, team);
      await deleteUserGroups(service.store, staff, viewers);
    }
  });

  it('shows a normal user anyone, with only the get_user link and without others’ private values', async () => {
    const secret = await insertUserAttribute(service.store, { label: 'Badge number', isPrivate: 1 });
    try {
      const { userId } = await createUser({ customAttributes: [{ attributeId: secret, attributeValue: '42' }] });
      await service.store
        .insertInto('customAttributeValues')
        .values({ attributeId: secret, entityId: normal.userId, value: '7' })
        .execute();
      const other = await service.call('GET', `/Users/${userId}`, { session: normal });
      expect(other.status).toBe(200);
      expect(other.body.links).toEqual([getUserLink(userId)]);
      expect(other.body.customAttributes).toEqual([]);
      const own = await service.call('GET', `/Users/${normal.userId}`, { session: normal });
      expect(own.body.customAttributes).toEqual([attributeValueItem(service, secret, 'Badge number', '7')]);
      const asAdmin = await service.call('GET', `/Users/${userId}`, { session: service.admin });
      expect(asAdmin.body.customAttributes).toEqual([attributeValueItem(service, secret, 'Badge number', '42')]);
    } finally {
      await deleteAttributes(service.store, secret);
    }
  });

  it('shows the administrator’s own group with role 2', async () => {
    const answer = await service.call('GET', `/Users/${service.admin.userId}`, { session: service.admin });
    expect(answer.body.groups).toEqual([expect.objectContaining({ name: 'Application Administrators', isDefault: false, roleIds: [2] })]);
    expect(answer.body).not.toHaveProperty('dateCreated');
  });

  it('answers 404 for an unknown user and 401 without a session', async () => {
    const missing = await service.call('GET', '/Users/987654', { session: normal });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual(notFoundBody);
    const anonymous = await service.call('GET', `/Users/${normal.userId}`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual(unauthenticatedBody);
  });
});

describe('DeleteUser', () => {
  it('deletes the user with their sessions, memberships, permissions and attribute values', async () => {
    const group = await insertUserGroup(service.store, 'Leavers');
    const team = await insertUserAttribute(service.store, { label: 'Team' });
    const resource = await addResource('Leaver desk');
    try {
      const { userId, body } = await createUser({ groups: [group], customAttributes: [{ attributeId: team, attributeValue: 'Gone' }] });
      await service.store
        .insertInto('userResourcePermissions')
        .values({ userId, resourceId: resource, permissionType: PermissionType.full })
        .execute();
      const session = await service.signIn(body.userName, body.password);

      const answer = await service.call('DELETE', `/Users/${userId}`, { session: service.admin });
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual(deletedBody);

      expect(await userRow(userId)).toBeUndefined();
      expect(await service.store.selectFrom('sessions').select('tokenHash').where('userId', '=', userId).execute()).toEqual([]);
      expect(await service.store.selectFrom('groupMembers').select('groupId').where('userId', '=', userId).execute()).toEqual([]);
      expect(await service.store.selectFrom('userResourcePermissions').select('resourceId').where('userId', '=', userId).execute()).toEqual(
        [],
      );
      expect(await service.store.selectFrom('customAttributeValues').select('value').where('entityId', '=', userId).execute()).toEqual([]);
      const signedOut = await service.call('GET', `/Users/${userId}`, { session });
      expect(signedOut.status).toBe(401);
      const gone = await service.call('GET', `/Users/${userId}`, { session: service.admin });
      expect(gone.status).toBe(404);
      expect(gone.body).toEqual(notFoundBody);
      const again = await service.call('DELETE', `/Users/${userId}`, { session: service.admin });
      expect(again.status).toBe(404);
    } finally {
      await deleteAttributes(service.store, team);
      await deleteUserGroups(service.store, group);
    }
  });

  it('refuses to let an administrator delete themselves', async () => {
    const answer = await service.call('DELETE', `/Users/${service.admin.userId}`, { session: service.admin });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual(invalidBody('You cannot delete your own account.'));
    expect(await userRow(service.admin.userId)).toBeDefined();
  });

  it('answers 404 for an unknown user, 403 to a normal user, 401 without a session', async () => {
    const missing = await service.call('DELETE', '/Users/987654', { session: service.admin });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual(notFoundBody);
    const forbidden = await service.call('DELETE', `/Users/${service.admin.userId}`, { session: normal });
    expect(forbidden.status).toBe(403);
    expect(forbidden.body).toEqual(forbiddenBody);
    const anonymous = await service.call('DELETE', `/Users/${normal.userId}`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual(unauthenticatedBody);
    expect(await userRow(normal.userId)).toBeDefined();
  });
});
