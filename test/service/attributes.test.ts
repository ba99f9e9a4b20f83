import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deletedBody, forbiddenBody, invalidBody, notFoundBody, unauthenticatedBody } from '../support/answers.js';
import { insertResource, insertResourceType, insertSchedule } from '../support/fixtures.js';
import { createNormalUser, startTestService, type Session, type TestService } from '../support/service.js';

let service: TestService;
let user: Session;
let room: number;
let deskType: number;

const typeInvalid =
  'type is invalid. Allowed values for type: 1 (single line), 2 (multi line), 3 (select list), 4 (checkbox), 5 (date time)';
const categoryInvalid = 'categoryId is invalid. Allowed values for category: 1 (reservation), 2 (user), 4 (resource), 5 (resource type)';

const link = (path: string, title: string) => ({ href: `${service.apiRoot}${path}`, title });
const attributeLinks = (id: number) => [
  link(`/Attributes/${id}`, 'get_custom_attribute'),
  link(`/Attributes/${id}`, 'update_custom_attribute'),
];

/** A definition as GetAttribute answers it; `members` are those that differ from what an empty body leaves. */
const definition = (id: number, members: { label: string; type: number; categoryId: number } & Record<string, unknown>) => ({
  id,
  regex: null,
  required: false,
  possibleValues: [],
  sortOrder: 0,
  appliesToIds: [],
  adminOnly: false,
  isPrivate: false,
  secondaryCategoryId: null,
  secondaryEntityIds: [],
  ...members,
  links: attributeLinks(id),
  message: null,
});

/** What the store holds, to show that a refused call changed nothing. */
async function storedState() {
  const definitions = await service.store.selectFrom('customAttributes').selectAll().orderBy('id').execute();
  const scopes = await service.store
    .selectFrom('customAttributeAppliesTo')
    .selectAll()
    .orderBy('attributeId')
    .orderBy('entityId')
    .execute();
  return { definitions, scopes };
}

async function create(body: object): Promise<number> {
  const answer = await service.call('POST', '/Attributes/', { session: service.admin, body });
  if (answer.status !== 201) throw new Error(`create failed: ${JSON.stringify(answer.body)}`);
  return answer.body.attributeId;
}

beforeAll(async () => {
  service = await startTestService();
  user = await createNormalUser(service, 'member');
  room = await insertResource(service.store, { name: 'Room', scheduleId: await insertSchedule(service.store) });
  deskType = await insertResourceType(service.store, 'Desk');
});
afterAll(() => service.dispose());

describe('CreateCustomAttribute', () => {
  it('creates a definition with defaults for what the body leaves out', async () => {
    const answer = await service.call('POST', '/Attributes/', {
      session: service.admin,
      body: { label: 'Cost centre', type: 1, categoryId: 1 },
    });
    expect(answer.status).toBe(201);
    const id = answer.body.attributeId;
    expect(answer.body).toEqual({ attributeId: id, links: attributeLinks(id), message: 'The attribute was created' });

    const read = await service.call('GET', `/Attributes/${id}`, { session: service.admin });
    expect(read.status).toBe(200);
    expect(read.body).toEqual(definition(id, { label: 'Cost centre', type: 1, categoryId: 1 }));
  });

  it('stores every member and reads booleans, lists and ids back as such', async () => {
    const id = await create({
      label: '  Seating  ',
      type: 3,
      categoryId: 4,
      regex: '/^[a-z]+$/i',
      required: true,
      possibleValues: ['theatre', ' boardroom ', 'theatre'],
      sortOrder: 3,
      appliesToIds: [room, room],
      adminOnly: true,
      isPrivate: true,
    });
    const read = await service.call('GET', `/Attributes/${id}`, { session: user });
    expect(read.status).toBe(200);
    expect(read.body).toEqual(
      definition(id, {
        label: 'Seating',
        type: 3,
        categoryId: 4,
        regex: '/^[a-z]+$/i',
        required: true,
        possibleValues: ['theatre', 'boardroom'],
        sortOrder: 3,
        appliesToIds: [room],
        adminOnly: true,
        isPrivate: true,
      }),
    );
  });

  it('limits a reservation attribute to reservations of some resources', async () => {
    const id = await create({ label: 'Catering', type: 4, categoryId: 1, secondaryCategoryId: 4, secondaryEntityIds: [room] });
    const read = await service.call('GET', `/Attributes/${id}`, { session: user });
    expect(read.body).toMatchObject({ categoryId: 1, secondaryCategoryId: 4, secondaryEntityIds: [room], appliesToIds: [] });
  });

  it('refuses numbers and flags written as strings, naming each member', async () => {
    const answer = await service.call('POST', '/Attributes/', {
      session: service.admin,
      body: { label: 'Badge', type: '1', categoryId: 1, required: 'true', sortOrder: 7 },
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual(invalidBody('type must be integer', 'required must be boolean'));
  });

  it.each([
    ['an empty body', {}, ['label is required', typeInvalid, categoryInvalid]],
    ['a blank label', { label: '   ', type: 1, categoryId: 1 }, ['label is required']],
    ['an unknown type', { label: 'x', type: 6, categoryId: 1 }, [typeInvalid]],
    ['type 0', { label: 'x', type: 0, categoryId: 1 }, [typeInvalid]],
    ['an unknown category', { label: 'x', type: 1, categoryId: 3 }, [categoryInvalid]],
    ['a select list without values', { label: 'x', type: 3, categoryId: 1 }, ['possibleValues is required when the type is a select list']],
    [
      'a select list with empty values',
      { label: 'x', type: 3, categoryId: 1, possibleValues: [] },
      ['possibleValues is required when the type is a select list'],
    ],
    [
      'values on a text attribute',
      { label: 'x', type: 1, categoryId: 1, possibleValues: ['a'] },
      ['possibleValues is only valid when the type is a select list'],
    ],
    ['a blank value', { label: 'x', type: 3, categoryId: 1, possibleValues: ['a', ' '] }, ['possibleValues cannot hold empty values']],
    ['a broken delimited regex', { label: 'x', type: 1, categoryId: 1, regex: '/[a-/' }, ['regex is not a valid regular expression']],
    ['a broken bare regex', { label: 'x', type: 1, categoryId: 1, regex: '(' }, ['regex is not a valid regular expression']],
    [
      'appliesToIds on a reservation attribute',
      { label: 'x', type: 1, categoryId: 1, appliesToIds: [1] },
      ['appliesToIds is not valid when the category is reservation'],
    ],
    [
      'a secondary category on a resource attribute',
      { label: 'x', type: 1, categoryId: 4, secondaryCategoryId: 2 },
      ['secondaryCategoryId is only valid when the category is reservation'],
    ],
    [
      'secondary entities on a user attribute',
      { label: 'x', type: 1, categoryId: 2, secondaryEntityIds: [1] },
      ['secondaryEntityIds is only valid when the category is reservation'],
    ],
    [
      'an unknown secondary category',
      { label: 'x', type: 1, categoryId: 1, secondaryCategoryId: 3 },
      ['secondaryCategoryId is invalid. Allowed values for secondary category: 2 (user), 4 (resource), 5 (resource type)'],
    ],
    [
      'secondary entities without their category',
      { label: 'x', type: 1, categoryId: 1, secondaryEntityIds: [1] },
      ['secondaryEntityIds needs a secondaryCategoryId'],
    ],
  ])('refuses %s with 400 and stores nothing', async (_case, body, errors) => {
    const before = await storedState();
    const answer = await service.call('POST', '/Attributes/', { session: service.admin, body });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual(invalidBody(...errors));
    expect(await storedState()).toEqual(before);
  });

  it.each([
    [
      'resources',
      () => ({ label: 'x', type: 1, categoryId: 4, appliesToIds: [9999, room, 9998] }),
      ['appliesToIds holds unknown resource ids: 9999, 9998'],
    ],
    [
      'users',
      () => ({ label: 'x', type: 1, categoryId: 2, appliesToIds: [user.userId, 9999] }),
      ['appliesToIds holds unknown user ids: 9999'],
    ],
    [
      'resource types',
      () => ({ label: 'x', type: 1, categoryId: 5, appliesToIds: [deskType, 77] }),
      ['appliesToIds holds unknown resource type ids: 77'],
    ],
    [
      'secondary users',
      () => ({ label: 'x', type: 1, categoryId: 1, secondaryCategoryId: 2, secondaryEntityIds: [9999] }),
      ['secondaryEntityIds holds unknown user ids: 9999'],
    ],
    [
      'secondary resource types',
      () => ({ label: 'x', type: 1, categoryId: 1, secondaryCategoryId: 5, secondaryEntityIds: [78] }),
      ['secondaryEntityIds holds unknown resource type ids: 78'],
    ],
  ])('refuses unknown %s with 400 and stores nothing', async (_case, body, errors) => {
    const before = await storedState();
    const answer = await service.call('POST', '/Attributes/', { session: service.admin, body: body() });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual(invalidBody(...errors));
    expect(await storedState()).toEqual(before);
  });

  it('refuses a body of the wrong shape with 400', async () => {
    const answer = await service.call('POST', '/Attributes/', {
      session: service.admin,
      body: { label: 'x', type: 'single', categoryId: 1 },
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ links: [], message: 'There were errors processing your request' });
  });
});

describe('UpdateCustomAttribute', () => {
  it('replaces the definition and its scope', async () => {
    const id = await create({ label: 'Floor', type: 1, categoryId: 4, appliesToIds: [room], required: true });
    const answer = await service.call('POST', `/Attributes/${id}`, {
      session: service.admin,
      body: { label: 'Level', type: 3, categoryId: 4, possibleValues: ['1', '2'], sortOrder: 2, appliesToIds: [], isPrivate: true },
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ attributeId: id, links: attributeLinks(id), message: 'The attribute was updated' });
    const read = await service.call('GET', `/Attributes/${id}`, { session: user });
    expect(read.body).toEqual(
      definition(id, { label: 'Level', type: 3, categoryId: 4, possibleValues: ['1', '2'], sortOrder: 2, isPrivate: true }),
    );
  });

  it.each([
    ['a changed category', { label: 'Floor', type: 1, categoryId: 2 }, ['categoryId cannot be changed']],
    ['a blank label', { label: '', type: 1, categoryId: 4 }, ['label is required']],
    [
      'an unknown resource in the scope',
      { label: 'Floor', type: 1, categoryId: 4, appliesToIds: [4242] },
      ['appliesToIds holds unknown resource ids: 4242'],
    ],
  ])('refuses %s with 400 and changes nothing', async (_case, body, errors) => {
    const id = await create({ label: 'Floor', type: 1, categoryId: 4, appliesToIds: [room] });
    const before = await storedState();
    const answer = await service.call('POST', `/Attributes/${id}`, { session: service.admin, body });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual(invalidBody(...errors));
    expect(await storedState()).toEqual(before);
  });
});

describe('DeleteCustomAttribute', () => {
  it('deletes the definition with its values and scope', async () => {
    const id = await create({ label: 'Asset tag', type: 1, categoryId: 4, appliesToIds: [room] });
    await service.store.insertInto('customAttributeValues').values({ attributeId: id, entityId: room, value: 'A-17' }).execute();
    const answer = await service.call('DELETE', `/Attributes/${id}`, { session: service.admin });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual(deletedBody);
    expect((await service.call('GET', `/Attributes/${id}`, { session: service.admin })).status).toBe(404);
    const values = await service.store.selectFrom('customAttributeValues').selectAll().where('attributeId', '=', id).execute();
    const scope = await service.store.selectFrom('customAttributeAppliesTo').selectAll().where('attributeId', '=', id).execute();
    expect(values).toEqual([]);
    expect(scope).toEqual([]);
  });
});

describe('what every attribute route refuses', () => {
  it.each([
    ['UpdateCustomAttribute', 'POST', '/Attributes/9999'],
    ['UpdateCustomAttribute', 'POST', '/Attributes/floor'],
    ['DeleteCustomAttribute', 'DELETE', '/Attributes/9999'],
    ['DeleteCustomAttribute', 'DELETE', '/Attributes/tag'],
    ['GetAttribute', 'GET', '/Attributes/9999'],
    ['GetAttribute', 'GET', '/Attributes/abc'],
    ['GetAttribute', 'GET', '/Attributes/0'],
  ])('%s answers 404 to %s %s', async (_operation, method, path) => {
    // Anyone may read; a write must come from an administrator to get as far as the id.
    const options =
      method === 'GET'
        ? { session: user }
        : { session: service.admin, ...(method === 'POST' && { body: { label: 'x', type: 1, categoryId: 4 } }) };
    const answer = await service.call(method, path, options);
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual(notFoundBody);
  });

  it.each([
    ['CreateCustomAttribute', 'POST', () => '/Attributes/', { label: 'Sneaky', type: 1, categoryId: 1 }],
    ['UpdateCustomAttribute', 'POST', (id: number) => `/Attributes/${id}`, { label: 'Changed', type: 1, categoryId: 1 }],
    ['DeleteCustomAttribute', 'DELETE', (id: number) => `/Attributes/${id}`, undefined],
  ])('%s answers 401 without a session and 403 for a normal user, changing nothing', async (_operation, method, pathTo, body) => {
    const id = await create({ label: 'Locked', type: 1, categoryId: 1 });
    const before = await storedState();
    const withBody = body === undefined ? {} : { body };
    const anonymous = await service.call(method, pathTo(id), withBody);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual(unauthenticatedBody);
    const normal = await service.call(method, pathTo(id), { ...withBody, session: user });
    expect(normal.status).toBe(403);
    expect(normal.body).toEqual(forbiddenBody);
    expect(await storedState()).toEqual(before);
    expect((await service.call('GET', `/Attributes/${id}`, { session: user })).status).toBe(200);
  });

  it('GetAttribute answers 401 without a session', async () => {
    const id = await create({ label: 'Visible', type: 1, categoryId: 1 });
    const answer = await service.call('GET', `/Attributes/${id}`);
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual(unauthenticatedBody);
  });
});

describe('GetCategoryAttributes', () => {
  // Category 5 (resource type) is used by no other test that succeeds.
  it('lists the definitions of one category by sort order', async () => {
    const late = await create({ label: 'Late', type: 1, categoryId: 5, sortOrder: 9 });
    const early = await create({ label: 'Early', type: 2, categoryId: 5, sortOrder: 1, appliesToIds: [deskType] });
    const tied = await create({ label: 'Tied', type: 4, categoryId: 5, sortOrder: 9 });
    const answer = await service.call('GET', '/Attributes/Category/5', { session: user });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      attributes: [
        definition(early, { label: 'Early', type: 2, categoryId: 5, sortOrder: 1, appliesToIds: [deskType] }),
        definition(late, { label: 'Late', type: 1, categoryId: 5, sortOrder: 9 }),
        definition(tied, { label: 'Tied', type: 4, categoryId: 5, sortOrder: 9 }),
      ],
      links: [],
      message: null,
    });
  });

  it('lists nothing for a category without definitions', async () => {
    const answer = await service.call('GET', '/Attributes/Category/2', { session: user });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ attributes: [], links: [], message: null });
  });

  it.each(['0', '3', '6', '-1'])('refuses category %s with 400', async (category) => {
    const answer = await service.call('GET', `/Attributes/Category/${category}`, { session: user });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual(invalidBody(categoryInvalid));
  });

  it('answers 404 for a category that is not a number', async () => {
    const answer = await service.call('GET', '/Attributes/Category/user', { session: user });
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual(notFoundBody);
  });

  it('answers 401 without a session', async () => {
    const answer = await service.call('GET', '/Attributes/Category/1');
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual(unauthenticatedBody);
  });
});
