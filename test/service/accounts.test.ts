import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attributeValueItem, invalidBody, notFoundBody, unauthenticatedBody } from '../support/answers.js';
import {
  countRows,
  deleteAttributes,
  deleteUserGroups,
  insertUserAttribute,
  insertUserGroup,
  withOwnService,
} from '../support/fixtures.js';
import { createNormalUser, startTestService, type Session, type TestService } from '../support/service.js';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.dispose());

const accountLinks = (userId: number) => [
  { href: `${service.apiRoot}/Accounts/${userId}`, title: 'get_user_account' },
  { href: `${service.apiRoot}/Accounts/${userId}`, title: 'update_user_account' },
];

let sequence = 0;
/** A complete, valid self-registration body with names nobody has used yet in this file. */
function registration(overrides: Record<string, unknown> = {}) {
  sequence += 1;
  return {
    password: 'secret-password',
    acceptTermsOfService: true,
    firstName: 'Ada',
    lastName: 'Lovelace',
    emailAddress: `ada${sequence}@example.org`,
    userName: `ada${sequence}`,
    language: 'en_gb',
    timezone: 'Europe/London',
    phone: '+44 20 7946 0000',
    organization: 'Analytical Engines',
    position: 'Programmer',
    customAttributes: [],
    ...overrides,
  };
}

const userRow = (id: number) => service.store.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const userCount = () => countRows(service.store, 'users');

describe('CreateAccount', () => {
  it('registers a user with 201 and account links, without signing them in', async () => {
    const body = registration();
    const answer = await service.call('POST', '/Accounts/', { body });
    expect(answer.status).toBe(201);
    const userId = answer.body.userId as number;
    expect(answer.body).toEqual({ userId: expect.any(Number), links: accountLinks(userId), message: null });

    const row = await userRow(userId);
    expect(row).toMatchObject({
      userName: body.userName,
      emailAddress: body.emailAddress,
      firstName: 'Ada',
      lastName: 'Lovelace',
      language: 'en_gb',
      timezone: 'Europe/London',
      phone: '+44 20 7946 0000',
      organization: 'Analytical Engines',
      position: 'Programmer',
      statusId: 1,
      lastLogin: null,
    });
    expect(row.passwordHash).not.toContain(body.password);
    const sessions = await service.store.selectFrom('sessions').select('tokenHash').where('userId', '=', userId).execute();
    expect(sessions).toEqual([]);
    await expect(service.signIn(body.userName, body.password)).resolves.toMatchObject({ userId });
  });

  it('defaults the timezone to UTC and the language to en_us, and trims names', async () => {
    const { timezone: _timezone, language: _language, ...body } = registration({ firstName: '  Grace ', lastName: ' Hopper ' });
    const answer = await service.call('POST', '/Accounts/', { body });
    expect(answer.status).toBe(201);
    expect(await userRow(answer.body.userId)).toMatchObject({ timezone: 'UTC', language: 'en_us', firstName: 'Grace', lastName: 'Hopper' });
  });

  it('does not enforce acceptTermsOfService', async () => {
    const answer = await service.call('POST', '/Accounts/', { body: registration({ acceptTermsOfService: false }) });
    expect(answer.status).toBe(201);
  });

  it('joins every default group and no other', async () => {
    const groups = [
      await insertUserGroup(service.store, 'Everyone', { isDefault: 1 }),
      await insertUserGroup(service.store, 'Staff', { isDefault: 1 }),
      await insertUserGroup(service.store, 'Invited'),
    ];
    try {
      const answer = await service.call('POST', '/Accounts/', { body: registration() });
      const memberships = await service.store
        .selectFrom('groupMembers')
        .select('groupId')
        .where('userId', '=', answer.body.userId)
        .orderBy('groupId')
        .execute();
      expect(memberships.map((row) => row.groupId)).toEqual(groups.slice(0, 2));
    } finally {
      await deleteUserGroups(service.store, ...groups);
    }
  });

  it.each([
    [
      'a body without any required member (listing each one)',
      {},
      [
        'firstName is missing or empty',
        'lastName is missing or empty',
        'emailAddress is missing or empty',
        'userName is missing or empty',
        'password is missing or empty',
      ],
    ],
    [
      'blank members as missing ones',
      registration({ firstName: '   ', password: '' }),
      ['firstName is missing or empty', 'password is missing or empty'],
    ],
    ['an invalid e-mail address', registration({ emailAddress: 'not-an-address' }), ['A valid email address is required.']],
    ['an e-mail address without a domain', registration({ emailAddress: 'someone@' }), ['A valid email address is required.']],
    ['an unknown timezone', registration({ timezone: 'Mars/Olympus_Mons' }), ['Invalid timezone: Mars/Olympus_Mons']],
    ['a short password', registration({ password: 'abc12' }), ['Password must be at least 6 characters']],
  ])('refuses %s and stores nothing', async (_case, body, errors) => {
    const before = await userCount();
    const answer = await service.call('POST', '/Accounts/', { body });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual(invalidBody(...errors));
    expect(await userCount()).toBe(before);
  });

  it('refuses a user name or e-mail address already registered, whatever their case', async () => {
    const first = registration();
    expect((await service.call('POST', '/Accounts/', { body: first })).status).toBe(201);
    const before = await userCount();
    const answer = await service.call('POST', '/Accounts/', {
      body: registration({ userName: first.userName.toUpperCase(), emailAddress: first.emailAddress.toUpperCase() }),
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual(invalidBody('That user name is already registered.', 'That email address is already registered.'));
    expect(await userCount()).toBe(before);

    const sameUserName = await service.call('POST', '/Accounts/', { body: registration({ userName: first.userName }) });
    expect(sameUserName.body).toEqual(invalidBody('That user name is already registered.'));
    const sameEmail = await service.call('POST', '/Accounts/', { body: registration({ emailAddress: 'ADMIN@example.org' }) });
    expect(sameEmail.body).toEqual(invalidBody('That email address is already registered.'));
  });

  it('answers 301 without the trailing slash and creates nothing', async () => {
    const before = await userCount();
    const answer = await service.call('POST', '/Accounts', { body: registration() });
    expect(answer.status).toBe(301);
    expect(await userCount()).toBe(before);
  });

  describe('custom attributes', () => {
    it('stores user attribute values', async () => {
      const badge = await insertUserAttribute(service.store, { label: 'Badge', regex: '/^B\\d+$/' });
      try {
        const answer = await service.call('POST', '/Accounts/', {
          body: registration({ customAttributes: [{ attributeId: badge, attributeValue: 'B42' }] }),
        });
        expect(answer.status).toBe(201);
        const values = await service.store
          .selectFrom('customAttributeValues')
          .selectAll()
          .where('entityId', '=', answer.body.userId)
          .execute();
        expect(values).toEqual([{ attributeId: badge, entityId: answer.body.userId, value: 'B42' }]);
      } finally {
        await deleteAttributes(service.store, badge);
      }
    });

    it('refuses invalid, unknown, admin-only and missing required values, and stores nothing', async () => {
      const badge = await insertUserAttribute(service.store, { label: 'Badge', regex: '/^B\\d+$/' });
      const costCentre = await insertUserAttribute(service.store, { label: 'Cost centre', required: 1 });
      const clearance = await insertUserAttribute(service.store, { label: 'Clearance', adminOnly: 1 });
      try {
        const before = await userCount();
        const answer = await service.call('POST', '/Accounts/', {
          body: registration({
            customAttributes: [
              { attributeId: badge, attributeValue: 'X1' },
              { attributeId: clearance, attributeValue: 'top' },
              { attributeId: 99999, attributeValue: 'x' },
            ],
          }),
        });
        expect(answer.status).toBe(400);
        expect(answer.body).toEqual(
          invalidBody(
            'Clearance can only be set by an administrator',
            'Invalid custom attribute id 99999',
            'Badge is not valid',
            'Cost centre is required',
          ),
        );
        expect(await userCount()).toBe(before);
      } finally {
        await deleteAttributes(service.store, badge, costCentre, clearance);
      }
    });
  });

  it('answers 401 with the 400-shaped body when self-registration is off', async () => {
    await withOwnService(
      async (closed) => {
        const before = await countRows(closed.store, 'users');
        const answer = await closed.call('POST', '/Accounts/', { body: registration() });
        expect(answer.status).toBe(401);
        expect(answer.body).toEqual(invalidBody('allow.self.registration is not enabled for the API'));
        expect(await countRows(closed.store, 'users')).toBe(before);
      },
      { config: { allowSelfRegistration: false } },
    );
  });
});

describe('GetAccount', () => {
  let owner: Session & { password: string };
  beforeAll(async () => {
    owner = await createNormalUser(service, 'reader', { firstName: 'Rita', lastName: 'Reader' });
  });

  it('returns the caller’s own account, without a calendar subscription (none is served)', async () => {
    const answer = await service.call('GET', `/Accounts/${owner.userId}`, { session: owner });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      userId: owner.userId,
      firstName: 'Rita',
      lastName: 'Reader',
      emailAddress: 'reader@example.org',
      userName: 'reader',
      language: 'en_us',
      timezone: 'America/New_York',
      phone: '',
      organization: '',
      position: '',
      customAttributes: [],
      icsUrl: '',
      links: accountLinks(owner.userId),
      message: null,
    });
  });

  it('shows the owner their private and admin-only values', async () => {
    const secret = await insertUserAttribute(service.store, { label: 'Locker code', isPrivate: 1 });
    const clearance = await insertUserAttribute(service.store, { label: 'Clearance', adminOnly: 1 });
    try {
      await service.store
        .insertInto('customAttributeValues')
        .values([
          { attributeId: secret, entityId: owner.userId, value: '1234' },
          { attributeId: clearance, entityId: owner.userId, value: 'green' },
        ])
        .execute();
      const answer = await service.call('GET', `/Accounts/${owner.userId}`, { session: owner });
      expect(answer.body.customAttributes).toEqual([
        attributeValueItem(service, secret, 'Locker code', '1234'),
        attributeValueItem(service, clearance, 'Clearance', 'green'),
      ]);
    } finally {
      await deleteAttributes(service.store, secret, clearance);
    }
  });

  it('refuses another user’s account to a normal user with 403', async () => {
    const answer = await service.call('GET', `/Accounts/${service.admin.userId}`, { session: owner });
    expect(answer.status).toBe(403);
    expect(answer.body).toEqual({ links: [], message: 'You are not allowed to view this account.' });
  });

  it('lets an administrator read any account, and answers 404 for an unknown one', async () => {
    const answer = await service.call('GET', `/Accounts/${owner.userId}`, { session: service.admin });
    expect(answer.status).toBe(200);
    expect(answer.body.userName).toBe('reader');
    const missing = await service.call('GET', '/Accounts/987654', { session: service.admin });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual(notFoundBody);
  });

  it('answers 401 without a session', async () => {
    const answer = await service.call('GET', `/Accounts/${owner.userId}`);
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual(unauthenticatedBody);
  });
});

describe('UpdateAccount', () => {
  let owner: Session & { password: string };
  beforeAll(async () => {
    owner = await createNormalUser(service, 'editor', { firstName: 'Ed', lastName: 'Itor' });
  });

  it('changes the members sent and keeps the rest', async () => {
    const answer = await service.call('POST', `/Accounts/${owner.userId}`, {
      session: owner,
      body: { firstName: 'Edna', phone: '555-0100', timezone: 'Asia/Tokyo', language: 'de_de' },
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ userId: owner.userId, links: accountLinks(owner.userId), message: null });
    expect(await userRow(owner.userId)).toMatchObject({
      firstName: 'Edna',
      lastName: 'Itor',
      userName: 'editor',
      emailAddress: 'editor@example.org',
      phone: '555-0100',
      timezone: 'Asia/Tokyo',
      language: 'de_de',
    });
  });

  it('accepts a full body that keeps the caller’s own user name and e-mail address', async () => {
    const answer = await service.call('POST', `/Accounts/${owner.userId}`, {
      session: owner,
      body: {
        firstName: 'Edna',
        lastName: 'Itor',
        emailAddress: 'EDITOR@example.org',
        userName: 'editor',
        language: 'en_us',
        timezone: 'UTC',
        phone: '',
        organization: 'Press',
        position: 'Editor',
        customAttributes: [],
      },
    });
    expect(answer.status).toBe(200);
    expect(await userRow(owner.userId)).toMatchObject({
      emailAddress: 'EDITOR@example.org',
      organization: 'Press',
      phone: '',
      timezone: 'UTC',
    });
  });

  it('refuses blank required members, bad formats and taken names, and changes nothing', async () => {
    const before = await userRow(owner.userId);
    const answer = await service.call('POST', `/Accounts/${owner.userId}`, {
      session: owner,
      body: { firstName: '', lastName: 'Changed', userName: 'ADMIN', emailAddress: 'bad address', timezone: 'Nowhere/Land' },
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual(
      invalidBody(
        'firstName is missing or empty',
        'A valid email address is required.',
        'Invalid timezone: Nowhere/Land',
        'That user name is already registered.',
      ),
    );
    expect(await userRow(owner.userId)).toEqual(before);

    const taken = await service.call('POST', `/Accounts/${owner.userId}`, { session: owner, body: { emailAddress: 'admin@EXAMPLE.org' } });
    expect(taken.body).toEqual(invalidBody('That email address is already registered.'));
  });

  it('keeps admin-only values the user cannot send, and refuses them when sent', async () => {
    const nickname = await insertUserAttribute(service.store, { label: 'Nickname' });
    const clearance = await insertUserAttribute(service.store, { label: 'Clearance', adminOnly: 1 });
    try {
      await service.store
        .insertInto('customAttributeValues')
        .values({ attributeId: clearance, entityId: owner.userId, value: 'green' })
        .execute();
      const refused = await service.call('POST', `/Accounts/${owner.userId}`, {
        session: owner,
        body: { customAttributes: [{ attributeId: clearance, attributeValue: 'red' }] },
      });
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual(invalidBody('Clearance can only be set by an administrator'));

      const answer = await service.call('POST', `/Accounts/${owner.userId}`, {
        session: owner,
        body: { customAttributes: [{ attributeId: nickname, attributeValue: 'Eddie' }] },
      });
      expect(answer.status).toBe(200);
      const values = await service.store
        .selectFrom('customAttributeValues')
        .select(['attributeId', 'value'])
        .where('entityId', '=', owner.userId)
        .orderBy('attributeId')
        .execute();
      expect(values).toEqual([
        { attributeId: nickname, value: 'Eddie' },
        { attributeId: clearance, value: 'green' },
      ]);
    } finally {
      await deleteAttributes(service.store, nickname, clearance);
    }
  });

  it('refuses another user’s account to a normal user with 403 and changes nothing', async () => {
    const answer = await service.call('POST', `/Accounts/${service.admin.userId}`, { session: owner, body: { firstName: 'Mallory' } });
    expect(answer.status).toBe(403);
    expect(answer.body).toEqual({ links: [], message: 'You are not allowed to change this account.' });
    expect((await userRow(service.admin.userId)).firstName).toBe('Perch');
  });

  it('lets an administrator update any account, and answers 404 for an unknown one', async () => {
    const answer = await service.call('POST', `/Accounts/${owner.userId}`, { session: service.admin, body: { position: 'Chief editor' } });
    expect(answer.status).toBe(200);
    expect((await userRow(owner.userId)).position).toBe('Chief editor');
    const missing = await service.call('POST', '/Accounts/987654', { session: service.admin, body: { position: 'x' } });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual(notFoundBody);
  });

  it('answers 401 without a session', async () => {
    const answer = await service.call('POST', `/Accounts/${owner.userId}`, { body: { firstName: 'Anonymous' } });
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual(unauthenticatedBody);
  });
});

describe('UpdatePassword (account)', () => {
  it('changes the password after checking the current one; other sessions stay valid', async () => {
    const owner = await createNormalUser(service, 'changer');
    const otherSession = await service.signIn('changer', owner.password);
    const answer = await service.call('POST', `/Accounts/${owner.userId}/Password`, {
      session: owner,
      body: { currentPassword: owner.password, newPassword: 'brand-new-secret' },
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ userId: owner.userId, links: accountLinks(owner.userId), message: null });

    await expect(service.signIn('changer', 'brand-new-secret')).resolves.toMatchObject({ userId: owner.userId });
    await expect(service.signIn('changer', owner.password)).rejects.toThrow(/sign-in of changer failed/);
    const stillValid = await service.call('GET', `/Accounts/${owner.userId}`, { session: otherSession });
    expect(stillValid.status).toBe(200);
  });

  it('refuses a wrong current password and keeps the old one', async () => {
    const owner = await createNormalUser(service, 'forgetful');
    const answer = await service.call('POST', `/Accounts/${owner.userId}/Password`, {
      session: owner,
      body: { currentPassword: 'not-my-password', newPassword: 'brand-new-secret' },
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual(invalidBody('The current password is incorrect'));
    await expect(service.signIn('forgetful', owner.password)).resolves.toMatchObject({ userId: owner.userId });
  });

  it.each([
    ['an empty body', {}, ['currentPassword is missing or empty', 'newPassword is missing or empty']],
    ['a short new password', { currentPassword: 'x', newPassword: '12345' }, ['Password must be at least 6 characters']],
  ])('refuses %s', async (_case, body, errors) => {
    const owner = await createNormalUser(service, `refused${sequence++}`);
    const answer = await service.call('POST', `/Accounts/${owner.userId}/Password`, { session: owner, body });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual(invalidBody(...errors));
  });

  it('refuses another user’s account with 403, answers 404 to an administrator for an unknown one, 401 without a session', async () => {
    const owner = await createNormalUser(service, 'intruder');
    const body = { currentPassword: 'whatever', newPassword: 'taken-over-1' };
    const forbidden = await service.call('POST', `/Accounts/${service.admin.userId}/Password`, { session: owner, body });
    expect(forbidden.status).toBe(403);
    expect(forbidden.body).toEqual({ links: [], message: 'You are not allowed to change this account.' });
    const missing = await service.call('POST', '/Accounts/987654/Password', { session: service.admin, body });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual(notFoundBody);
    const anonymous = await service.call('POST', `/Accounts/${owner.userId}/Password`, { body });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual(unauthenticatedBody);
  });
});
