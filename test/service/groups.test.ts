import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { administratorsGroup } from '../../electron/service/seed/bootstrap.js';
import { PermissionType } from '../../electron/service/tables.js';
import { deletedBody, forbiddenBody, invalidBody, notFoundBody } from '../support/answers.js';
import { countRows, insertSchedule, withOwnService } from '../support/fixtures.js';
import { createNormalUser, startTestService, type Session, type TestService } from '../support/service.js';

let service: TestService;
let user: Session;
let scheduleId: number;

beforeAll(async () => {
  service = await startTestService();
  user = await createNormalUser(service, 'gina');
  scheduleId = await insertSchedule(service.store, { timezone: 'Europe/Berlin', weekdayStart: 1 });
});
afterAll(() => service.dispose());

const groupUrl = (groupId: number) => `${service.apiRoot}/Groups/${groupId}`;
const groupLinks = (groupId: number) => [
  { href: groupUrl(groupId), title: 'get_group' },
  { href: groupUrl(groupId), title: 'update_group' },
  { href: groupUrl(groupId), title: 'delete_group' },
];

async function createGroup(name: string, isDefault = false): Promise<number> {
  const answer = await service.call('POST', '/Groups/', { body: { name, isDefault }, session: service.admin });
  expect(answer.status).toBe(201);
  return answer.body.groupId as number;
}

async function getGroup(groupId: number, session: Session = service.admin) {
  const answer = await service.call('GET', `/Groups/${groupId}`, { session });
  expect(answer.status).toBe(200);
  return answer.body;
}

async function createResource(name: string): Promise<number> {
  const answer = await service.call('POST', '/Resources/', {
    body: { name, scheduleId, autoAssignPermissions: false },
    session: service.admin,
  });
  expect(answer.status).toBe(201);
  return answer.body.resourceId as number;
}

const countGroups = () => countRows(service.store, 'userGroups');

describe('CreateGroup', () => {
  it('answers 201 with the new id and its links', async () => {
    const answer = await service.call('POST', '/Groups/', { body: { name: 'Staff', isDefault: true }, session: service.admin });
    expect(answer.status).toBe(201);
    const { groupId } = answer.body;
    expect(answer.body).toEqual({ groupId, links: groupLinks(groupId), message: 'The group was created' });
    expect(await getGroup(groupId)).toEqual({
      id: groupId,
      name: 'Staff',
      isDefault: true,
      adminGroup: null,
      permissions: [],
      viewPermissions: [],
      users: [],
      roles: [],
      links: groupLinks(groupId).slice(1),
      message: null,
    });
  });

  it.each([
    ['without a name', { isDefault: false }],
    ['with a blank name', { name: '   ' }],
  ])('refuses a group %s and stores nothing', async (_case, body) => {
    const before = await countGroups();
    const answer = await service.call('POST', '/Groups/', { body, session: service.admin });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual(invalidBody('name is required'));
    expect(await countGroups()).toBe(before);
  });

  it('is for administrators only', async () => {
    const forbidden = await service.call('POST', '/Groups/', { body: { name: 'Sneaky' }, session: user });
    expect(forbidden.status).toBe(403);
    expect(forbidden.body).toEqual(forbiddenBody);
    const anonymous = await service.call('POST', '/Groups/', { body: { name: 'Sneaky' } });
    expect(anonymous.status).toBe(401);
  });
});

describe('UpdateGroup', () => {
  it('renames a group and changes its default flag', async () => {
    const groupId = await createGroup('Old name', true);
    const answer = await service.call('POST', `/Groups/${groupId}`, {
      body: { name: 'New name', isDefault: false },
      session: service.admin,
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ groupId, links: groupLinks(groupId), message: 'The group was updated' });
    expect(await getGroup(groupId)).toMatchObject({ name: 'New name', isDefault: false });
  });

  it('answers 404 for an unknown group and 400 for a missing name', async () => {
    const missing = await service.call('POST', '/Groups/9999', { body: { name: 'x' }, session: service.admin });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual(notFoundBody);
    const groupId = await createGroup('Keeps its name');
    const unnamed = await service.call('POST', `/Groups/${groupId}`, { body: {}, session: service.admin });
    expect(unnamed.status).toBe(400);
    expect(unnamed.body).toEqual(invalidBody('name is required'));
    expect((await getGroup(groupId)).name).toBe('Keeps its name');
  });
});

describe('ChangeGroupRoles', () => {
  it('replaces the roles', async () => {
    const groupId = await createGroup('Role holders');
    for (const roleIds of [[3, 1, 3], [4]]) {
      const answer = await service.call('POST', `/Groups/${groupId}/Roles`, { body: { roleIds }, session: service.admin });
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({ groupId, links: groupLinks(groupId), message: 'The group was updated' });
    }
    expect((await getGroup(groupId)).roles).toEqual([4]);
  });

  it('refuses unknown roles and a missing list, changing nothing', async () => {
    const groupId = await createGroup('Role refusals');
    await service.call('POST', `/Groups/${groupId}/Roles`, { body: { roleIds: [1] }, session: service.admin });
    const unknown = await service.call('POST', `/Groups/${groupId}/Roles`, { body: { roleIds: [2, 5, 7] }, session: service.admin });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toEqual(invalidBody('Invalid roleId: 5', 'Invalid roleId: 7'));
    const missing = await service.call('POST', `/Groups/${groupId}/Roles`, { body: {}, session: service.admin });
    expect(missing.body).toEqual(invalidBody('roleIds is required'));
    expect((await getGroup(groupId)).roles).toEqual([1]);
  });

  it('makes the members application administrators with role 2', async () => {
    const member = await createNormalUser(service, 'promoted');
    const groupId = await createGroup('Promoted');
    await service.call('POST', `/Groups/${groupId}/Users`, { body: { userIds: [member.userId] }, session: service.admin });
    expect((await service.call('GET', '/Groups/', { session: member })).status).toBe(200);
    expect((await service.call('POST', '/Groups/', { body: { name: 'Nope' }, session: member })).status).toBe(403);
    await service.call('POST', `/Groups/${groupId}/Roles`, { body: { roleIds: [2] }, session: service.admin });
    expect((await service.call('POST', '/Groups/', { body: { name: 'Made by promoted' }, session: member })).status).toBe(201);
  });
});

describe('ChangeGroupPermissions', () => {
  it('sets the full permissions and keeps view-only ones', async () => {
    const groupId = await createGroup('Bookers');
    const [first, second, viewed] = [await createResource('Room 1'), await createResource('Room 2'), await createResource('Room 3')];
    await service.store
      .insertInto('groupResourcePermissions')
      .values({ groupId, resourceId: viewed, permissionType: PermissionType.view })
      .execute();
    const answer = await service.call('POST', `/Groups/${groupId}/Permissions`, {
      body: { permissions: [second, first] },
      session: service.admin,
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ groupId, links: groupLinks(groupId), message: 'The group was updated' });
    const resourceUrl = (id: number) => `${service.apiRoot}/Resources/${id}`;
    expect(await getGroup(groupId)).toMatchObject({
      permissions: [resourceUrl(first), resourceUrl(second)],
      viewPermissions: [resourceUrl(viewed)],
    });
    await service.call('POST', `/Groups/${groupId}/Permissions`, { body: { permissions: [viewed] }, session: service.admin });
    expect(await getGroup(groupId)).toMatchObject({ permissions: [resourceUrl(viewed)], viewPermissions: [] });
  });

  it('refuses unknown resources, changing nothing', async () => {
    const groupId = await createGroup('Permission refusals');
    const resourceId = await createResource('Room 4');
    await service.call('POST', `/Groups/${groupId}/Permissions`, { body: { permissions: [resourceId] }, session: service.admin });
    const answer = await service.call('POST', `/Groups/${groupId}/Permissions`, { body: { permissions: [9999] }, session: service.admin });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual(invalidBody('Invalid resourceId: 9999'));
    expect((await getGroup(groupId)).permissions).toEqual([`${service.apiRoot}/Resources/${resourceId}`]);
  });
});

describe('ChangeGroupUsers', () => {
  it('replaces the members', async () => {
    const groupId = await createGroup('Members');
    const other = await createNormalUser(service, 'member2');
    await service.call('POST', `/Groups/${groupId}/Users`, { body: { userIds: [user.userId] }, session: service.admin });
    const answer = await service.call('POST', `/Groups/${groupId}/Users`, { body: { userIds: [other.userId] }, session: service.admin });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ groupId, links: groupLinks(groupId), message: 'The group was updated' });
    expect((await getGroup(groupId)).users).toEqual([`${service.apiRoot}/Users/${other.userId}`]);
  });

  it('refuses unknown users, changing nothing', async () => {
    const groupId = await createGroup('Member refusals');
    await service.call('POST', `/Groups/${groupId}/Users`, { body: { userIds: [user.userId] }, session: service.admin });
    const answer = await service.call('POST', `/Groups/${groupId}/Users`, {
      body: { userIds: [user.userId, 9999] },
      session: service.admin,
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual(invalidBody('Invalid userId: 9999'));
    expect((await getGroup(groupId)).users).toEqual([`${service.apiRoot}/Users/${user.userId}`]);
  });

  it('answers 404 for an unknown group', async () => {
    const answer = await service.call('POST', '/Groups/9999/Users', { body: { userIds: [] }, session: service.admin });
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual(notFoundBody);
  });
});

describe('GetAllGroups and GetGroup', () => {
  it('lists every group to a signed-in user', async () => {
    const groupId = await createGroup('Listed');
    const answer = await service.call('GET', '/Groups/', { session: user });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ links: [], message: null });
    expect(answer.body.groups).toContainEqual({
      id: groupId,
      name: 'Listed',
      isDefault: false,
      links: [{ href: groupUrl(groupId), title: 'get_group' }],
      message: null,
    });
    const names: string[] = answer.body.groups.map((group: { name: string }) => group.name);
    expect(names).toEqual([...names].sort());
  });

  it('shows the administrators group with its role, members and admin group link', async () => {
    const adminsId = await administratorsGroup(service.store);
    const managed = await createGroup('Managed');
    await service.store.updateTable('userGroups').set({ adminGroupId: adminsId }).where('id', '=', managed).execute();
    const admins = await getGroup(adminsId, user);
    expect(admins).toMatchObject({
      roles: [2],
      users: expect.arrayContaining([`${service.apiRoot}/Users/${service.admin.userId}`]),
      links: [],
    });
    expect((await getGroup(managed, user)).adminGroup).toBe(groupUrl(adminsId));
  });

  it('answers 404 for an unknown group and 401 without a session', async () => {
    const missing = await service.call('GET', '/Groups/9999', { session: user });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual(notFoundBody);
    expect((await service.call('GET', '/Groups/')).status).toBe(401);
  });
});

describe('DeleteGroup', () => {
  it('deletes a group', async () => {
    const groupId = await createGroup('Doomed');
    const answer = await service.call('DELETE', `/Groups/${groupId}`, { session: service.admin });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual(deletedBody);
    expect((await service.call('GET', `/Groups/${groupId}`, { session: service.admin })).status).toBe(404);
    expect((await service.call('DELETE', `/Groups/${groupId}`, { session: service.admin })).status).toBe(404);
  });

  it('is for administrators only', async () => {
    const groupId = await createGroup('Protected');
    expect((await service.call('DELETE', `/Groups/${groupId}`, { session: user })).status).toBe(403);
    expect((await getGroup(groupId)).name).toBe('Protected');
  });

  it('refuses to leave the service without an application administrator', async () => {
    // A service of its own: other tests here promote users, and this needs the admin to be the only one.
    await withOwnService(async (isolated) => {
      const adminsId = await administratorsGroup(isolated.store);
      const before = await isolated.call('GET', `/Groups/${adminsId}`, { session: isolated.admin });
      const lastAdministrator = invalidBody('At least one user must remain an application administrator');
      const deletion = await isolated.call('DELETE', `/Groups/${adminsId}`, { session: isolated.admin });
      expect(deletion.status).toBe(400);
      expect(deletion.body).toEqual(lastAdministrator);
      const emptied = await isolated.call('POST', `/Groups/${adminsId}/Users`, { body: { userIds: [] }, session: isolated.admin });
      expect(emptied.body).toEqual(lastAdministrator);
      const demoted = await isolated.call('POST', `/Groups/${adminsId}/Roles`, { body: { roleIds: [1] }, session: isolated.admin });
      expect(demoted.body).toEqual(lastAdministrator);
      expect((await isolated.call('GET', `/Groups/${adminsId}`, { session: isolated.admin })).body).toEqual(before.body);
    });
  });

  it('lets an administrator delete the group that made them one while another still does', async () => {
    await withOwnService(async (isolated) => {
      const adminsId = await administratorsGroup(isolated.store);
      const create = await isolated.call('POST', '/Groups/', { body: { name: 'Second admins' }, session: isolated.admin });
      const secondId = create.body.groupId as number;
      await isolated.call('POST', `/Groups/${secondId}/Roles`, { body: { roleIds: [2] }, session: isolated.admin });
      await isolated.call('POST', `/Groups/${secondId}/Users`, { body: { userIds: [isolated.admin.userId] }, session: isolated.admin });
      const answer = await isolated.call('DELETE', `/Groups/${adminsId}`, { session: isolated.admin });
      expect(answer.status).toBe(200);
      expect((await isolated.call('POST', '/Groups/', { body: { name: 'Still admin' }, session: isolated.admin })).status).toBe(201);
    });
  });
});
