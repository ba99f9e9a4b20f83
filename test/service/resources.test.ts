import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AttributeCategory } from '../../electron/api/schemas/attributes.js';
import { PermissionType } from '../../electron/service/tables.js';
import { attributeValueItem, deletedBody, invalidBody, notFoundBody, resourceStatusesBody } from '../support/answers.js';
import {
  countRows,
  deleteAttributes,
  insertAttribute,
  insertResourceGroup,
  insertResourceType,
  insertSchedule,
  insertStatusReason,
  withOwnService,
} from '../support/fixtures.js';
import { createNormalUser, startTestService, type Session, type TestService } from '../support/service.js';

let service: TestService;
let user: Session;
let scheduleId: number;
let otherScheduleId: number;

const resourceUrl = (resourceId: number) => `${service.apiRoot}/Resources/${resourceId}`;
const resourceLinks = (resourceId: number) => [
  { href: resourceUrl(resourceId), title: 'get_resource' },
  { href: resourceUrl(resourceId), title: 'update_resource' },
];

async function createResource(body: Record<string, unknown>): Promise<number> {
  const answer = await service.call('POST', '/Resources/', { body: { scheduleId, ...body }, session: service.admin });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body.resourceId as number;
}

const countResources = () => countRows(service.store, 'resources');

const listIds = async (query: string, session: Session = service.admin) => {
  const answer = await service.call('GET', `/Resources/${query}`, { session });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return (answer.body.resources as { resourceId: number }[]).map((resource) => resource.resourceId);
};

beforeAll(async () => {
  service = await startTestService();
  user = await createNormalUser(service, 'rita');
  const office = { timezone: 'Europe/Berlin', isDefault: 0, weekdayStart: 1 };
  scheduleId = await insertSchedule(service.store, { name: 'Head office', ...office });
  otherScheduleId = await insertSchedule(service.store, { name: 'Lab', ...office });
});
afterAll(() => service.dispose());

describe('CreateResource and GetResource', () => {
  it('creates a resource with defaults and reads it back in the read form', async () => {
    const answer = await service.call('POST', '/Resources/', { body: { name: 'Plain room', scheduleId }, session: service.admin });
    expect(answer.status).toBe(201);
    const { resourceId } = answer.body;
    expect(answer.body).toEqual({
      resourceId,
      links: resourceLinks(resourceId),
      message: 'The resource was created',
    });
    const read = await service.call('GET', `/Resources/${resourceId}`, { session: service.admin });
    expect(read.status).toBe(200);
    expect(read.body).toEqual({
      resourceId,
      name: 'Plain room',
      location: '',
      contact: '',
      notes: '',
      description: '',
      minLength: '',
      maxLength: '',
      requiresApproval: false,
      allowMultiday: false,
      maxParticipants: null,
      minNoticeAdd: '',
      minNoticeUpdate: '',
      minNoticeDelete: '',
      maxNotice: '',
      scheduleId,
      icsUrl: null,
      statusId: 1,
      statusReasonId: null,
      customAttributes: [],
      typeId: null,
      groupIds: [],
      bufferTime: '',
      autoReleaseMinutes: null,
      requiresCheckIn: false,
      color: '',
      credits: null,
      peakCredits: null,
      creditApplicability: 1,
      creditsChargedAllSlots: false,
      maxConcurrentReservations: 1,
      links: [...resourceLinks(resourceId), { href: `${service.apiRoot}/Schedules/${scheduleId}`, title: 'get_schedule' }],
      message: null,
    });
  });

  it('stores every setting, reading intervals in both wire forms', async () => {
    const typeId = await insertResourceType(service.store, 'Room');
    const reasonId = await insertStatusReason(service.store, 'Being painted', 2);
    const groupId = await insertResourceGroup(service.store, 'Floor 1');
    const readBackAsSent = {
      location: 'Floor 1',
      contact: 'facilities@example.org',
      notes: 'Ask for the key',
      description: 'Seats twelve',
      requiresApproval: true,
      allowMultiday: true,
      requiresCheckIn: true,
      maxParticipants: 12,
      statusId: 2,
      statusReasonId: reasonId,
      typeId,
      groupIds: [groupId],
      autoReleaseMinutes: 15,
      color: '#1a2b3c',
      credits: 2,
      peakCredits: 3,
      creditApplicability: 2,
      maxConcurrentReservations: 2,
    };
    const resourceId = await createResource({
      ...readBackAsSent,
      name: '  Board room  ',
      minLength: '0d0h30m',
      maxLength: 5400,
      minNotice: '1d',
      minNoticeUpdate: '2h',
      minNoticeDelete: '3600',
      maxNotice: '30d',
      bufferTime: '0d0h15m',
      creditsChargedAllSlots: 1,
    });
    const read = await service.call('GET', `/Resources/${resourceId}`, { session: service.admin });
    expect(read.body).toMatchObject({
      ...readBackAsSent,
      name: 'Board room',
      minLength: '30 minutes',
      maxLength: '90 minutes',
      minNoticeAdd: '1 days',
      minNoticeUpdate: '2 hours',
      minNoticeDelete: '1 hours',
      maxNotice: '30 days',
      bufferTime: '0 hours 15 minutes',
      creditsChargedAllSlots: true,
    });
  });

  it('takes the explicit nulls full bodies carry for "not set"', async () => {
    const resourceId = await createResource({
      name: 'Null-filled',
      statusReasonId: null,
      typeId: null,
      maxParticipants: null,
      groupIds: null,
      minLength: null,
      bufferTime: '',
      color: '',
      maxConcurrentReservations: null,
      creditApplicability: null,
    });
    const read = await service.call('GET', `/Resources/${resourceId}`, { session: service.admin });
    expect(read.body).toMatchObject({
      statusReasonId: null,
      typeId: null,
      maxParticipants: null,
      groupIds: [],
      minLength: '',
      bufferTime: '',
      maxConcurrentReservations: 1,
      creditApplicability: 1,
    });
  });

  it.each([
    ['a missing name', { name: '' }, ['name is missing or empty']],
    ['a missing schedule', { name: 'No schedule', scheduleId: undefined }, ['scheduleId is missing or empty']],
    [
      'unreadable intervals',
      { name: 'Bad times', minLength: 'half an hour', minNotice: '1x', bufferTime: 90 },
      ['Invalid time specified for minLength', 'Invalid time specified for minNotice', 'Invalid time specified for bufferTime'],
    ],
    ['an unknown schedule', { name: 'Lost', scheduleId: 999 }, ['Invalid scheduleId: 999']],
    ['an unknown status reason', { name: 'Reasonless', statusReasonId: 999 }, ['Invalid statusReasonId: 999']],
    ['an unknown type', { name: 'Typeless', typeId: 999 }, ['Invalid typeId: 999']],
    ['unknown groups', { name: 'Groupless', groupIds: [998, 999] }, ['Invalid groupId: 998', 'Invalid groupId: 999']],
  ])('refuses %s with 400 and stores nothing', async (_case, body, errors) => {
    const before = await countResources();
    const answer = await service.call('POST', '/Resources/', { body: { scheduleId, ...body }, session: service.admin });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual(invalidBody(...errors));
    expect(await countResources()).toBe(before);
  });

  it('refuses a color that is not #rrggbb, storing nothing', async () => {
    const before = await countResources();
    const answer = await service.call('POST', '/Resources/', { body: { name: 'Red', scheduleId, color: 'red' }, session: service.admin });
    expect(answer.status).toBe(400);
    // The schema check answers; the other lines it adds for the nullable union are not pinned here.
    expect(answer.body.errors).toContain('color must match format "hex-color"');
    expect(await countResources()).toBe(before);
  });

  it('refuses a status reason that belongs to another status', async () => {
    const reasonId = await insertStatusReason(service.store, 'Retired', 0);
    const answer = await service.call('POST', '/Resources/', {
      body: { name: 'Mismatch', scheduleId, statusId: 1, statusReasonId: reasonId },
      session: service.admin,
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual(invalidBody(`statusReasonId ${reasonId} is not a reason for statusId 1`));
  });

  it('stores custom attribute values and enforces required ones', async () => {
    const floor = await insertAttribute(service.store, { label: 'Floor', categoryId: AttributeCategory.resource, sortOrder: 1 });
    const resourceId = await createResource({ name: 'With floor', customAttributes: [{ attributeId: floor, attributeValue: '3' }] });
    const read = await service.call('GET', `/Resources/${resourceId}`, { session: service.admin });
    expect(read.body.customAttributes).toEqual([attributeValueItem(service, floor, 'Floor', '3')]);

    await service.store.updateTable('customAttributes').set({ required: 1 }).where('id', '=', floor).execute();
    try {
      const before = await countResources();
      const answer = await service.call('POST', '/Resources/', { body: { name: 'Floorless', scheduleId }, session: service.admin });
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual(invalidBody('Floor is required'));
      expect(await countResources()).toBe(before);
    } finally {
      await deleteAttributes(service.store, floor);
    }
  });

  it('is for administrators only', async () => {
    const forbidden = await service.call('POST', '/Resources/', { body: { name: 'Sneaky', scheduleId }, session: user });
    expect(forbidden.status).toBe(403);
    expect((await service.call('POST', '/Resources/', { body: { name: 'Sneaky', scheduleId } })).status).toBe(401);
  });

  it('answers 404 for an unknown resource', async () => {
    const answer = await service.call('GET', '/Resources/9999', { session: service.admin });
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual(notFoundBody);
  });
});

describe('UpdateResource', () => {
  it('replaces the settings', async () => {
    const groupId = await insertResourceGroup(service.store, 'Updated group');
    const resourceId = await createResource({ name: 'Before', location: 'Somewhere', minLength: '1h', requiresApproval: true });
    const answer = await service.call('POST', `/Resources/${resourceId}`, {
      body: { name: 'After', scheduleId: otherScheduleId, groupIds: [groupId], maxLength: '4h' },
      session: service.admin,
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      resourceId,
      links: resourceLinks(resourceId),
      message: 'The resource was updated',
    });
    const read = await service.call('GET', `/Resources/${resourceId}`, { session: service.admin });
    expect(read.body).toMatchObject({
      name: 'After',
      location: '',
      scheduleId: otherScheduleId,
      minLength: '',
      maxLength: '240 minutes',
      requiresApproval: false,
      groupIds: [groupId],
    });
  });

  it('answers 404 for an unknown resource and 400 for a bad body, changing nothing', async () => {
    const missing = await service.call('POST', '/Resources/9999', { body: { name: 'x', scheduleId }, session: service.admin });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual(notFoundBody);
    const resourceId = await createResource({ name: 'Unchanged' });
    const bad = await service.call('POST', `/Resources/${resourceId}`, {
      body: { name: '', scheduleId, maxLength: 'long' },
      session: service.admin,
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual(invalidBody('name is missing or empty', 'Invalid time specified for maxLength'));
    expect((await service.call('GET', `/Resources/${resourceId}`, { session: service.admin })).body.name).toBe('Unchanged');
  });
});

describe('DeleteResource', () => {
  it('deletes a resource with its permissions and group places', async () => {
    const groupId = await insertResourceGroup(service.store, 'Deletion group');
    const resourceId = await createResource({ name: 'Doomed', groupIds: [groupId] });
    expect((await service.call('DELETE', `/Resources/${resourceId}`, { session: user })).status).toBe(403);
    const answer = await service.call('DELETE', `/Resources/${resourceId}`, { session: service.admin });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual(deletedBody);
    expect((await service.call('GET', `/Resources/${resourceId}`, { session: service.admin })).status).toBe(404);
    const leftovers = await service.store
      .selectFrom('userResourcePermissions')
      .select('userId')
      .where('resourceId', '=', resourceId)
      .execute();
    expect(leftovers).toEqual([]);
    const again = await service.call('DELETE', `/Resources/${resourceId}`, { session: service.admin });
    expect(again.status).toBe(404);
    expect(again.body).toEqual(notFoundBody);
  });
});

describe('GetAllResources', () => {
  it('filters by schedules and by groups including their sub-groups', async () => {
    const building = await insertResourceGroup(service.store, 'Building');
    const floor = await insertResourceGroup(service.store, 'Building floor', building);
    const wing = await insertResourceGroup(service.store, 'Building wing', floor);
    const elsewhere = await insertResourceGroup(service.store, 'Elsewhere');
    const inBuilding = await createResource({ name: 'F lobby', groupIds: [building] });
    const inWing = await createResource({ name: 'F wing desk', scheduleId: otherScheduleId, groupIds: [wing] });
    const inElsewhere = await createResource({ name: 'F remote', groupIds: [elsewhere] });

    expect(await listIds(`?groupId=${building}`)).toEqual([inBuilding, inWing]);
    expect(await listIds(`?groupId=${floor}`)).toEqual([inWing]);
    expect(await listIds(`?groupId=${wing},${elsewhere}`)).toEqual([inElsewhere, inWing]);
    expect(await listIds(`?groupId=${building}&scheduleId=${otherScheduleId}`)).toEqual([inWing]);
    const bothSchedules = await listIds(`?scheduleId=${scheduleId},${otherScheduleId}`);
    expect(bothSchedules).toEqual(expect.arrayContaining([inBuilding, inWing, inElsewhere]));
    expect(await listIds(`?scheduleId=${otherScheduleId}`)).not.toContain(inBuilding);
  });

  it.each([
    ['scheduleId=0', ['Invalid scheduleId: 0']],
    ['scheduleId=abc', ['Invalid scheduleId: abc']],
    ['scheduleId=1.5', ['Invalid scheduleId: 1.5']],
    ['groupId=1,x', ['Invalid groupId: x']],
    ['scheduleId=-1&groupId=0', ['Invalid scheduleId: -1', 'Invalid groupId: 0']],
  ])('answers 400 for %s', async (query, errors) => {
    const answer = await service.call('GET', `/Resources/?${query}`, { session: service.admin });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual(invalidBody(...errors));
  });

  it.each(['scheduleId=999', 'groupId=999'])('answers 404 for an unknown id: %s', async (query) => {
    const answer = await service.call('GET', `/Resources/?${query}`, { session: service.admin });
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual(notFoundBody);
  });

  it('also answers 404 when only one id of a list is unknown', async () => {
    const answer = await service.call('GET', `/Resources/?scheduleId=${scheduleId},999`, { session: service.admin });
    expect(answer.status).toBe(404);
  });

  it('answers 401 without a session', async () => {
    expect((await service.call('GET', '/Resources/')).status).toBe(401);
  });
});

describe('what a normal user sees', () => {
  let viewer: Session;
  let open: number;
  let hidden: number;
  let unpermitted: number;
  let viewOnly: number;
  let groupId: number;

  beforeAll(async () => {
    viewer = await createNormalUser(service, 'vera');
    groupId = await insertResourceGroup(service.store, 'Visible tree');
    open = await createResource({ name: 'V open', groupIds: [groupId] });
    hidden = await createResource({ name: 'V hidden', statusId: 0, groupIds: [groupId] });
    unpermitted = await createResource({ name: 'V locked', autoAssignPermissions: false, groupIds: [groupId] });
    viewOnly = await createResource({ name: 'V view only', autoAssignPermissions: false, groupIds: [groupId] });
    const userGroup = await service.call('POST', '/Groups/', { body: { name: 'Viewers' }, session: service.admin });
    await service.call('POST', `/Groups/${userGroup.body.groupId}/Users`, { body: { userIds: [viewer.userId] }, session: service.admin });
    await service.store
      .insertInto('groupResourcePermissions')
      .values({ groupId: userGroup.body.groupId, resourceId: viewOnly, permissionType: PermissionType.view })
      .execute();
  });

  it('lists only permitted resources that are not hidden', async () => {
    const ids = await listIds(`?groupId=${groupId}`, viewer);
    expect(ids).toEqual([open, viewOnly]);
    expect(await listIds(`?groupId=${groupId}`)).toEqual([hidden, unpermitted, open, viewOnly]);
  });

  it('answers 404 for a resource it may not see, and hides the update link', async () => {
    for (const resourceId of [hidden, unpermitted]) {
      const answer = await service.call('GET', `/Resources/${resourceId}`, { session: viewer });
      expect(answer.status).toBe(404);
      expect(answer.body).toEqual(notFoundBody);
    }
    const visible = await service.call('GET', `/Resources/${open}`, { session: viewer });
    expect(visible.body.links.map((link: { title: string }) => link.title)).toEqual(['get_resource', 'get_schedule']);
  });

  it('gets a resource created later only when permissions were auto-assigned', async () => {
    const granted = await createResource({ name: 'V later', groupIds: [groupId] });
    expect(await listIds(`?groupId=${groupId}`, viewer)).toEqual([granted, open, viewOnly]);
  });

  it('sees only its resources in the group tree', async () => {
    const answer = await service.call('GET', '/Resources/Groups', { session: viewer });
    expect(answer.status).toBe(200);
    const node = (answer.body.groups as { id: number; children: { resource_id?: number }[] }[]).find((group) => group.id === groupId);
    expect(node?.children.map((child) => child.resource_id)).not.toContain(hidden);
    expect(node?.children.map((child) => child.resource_id)).not.toContain(unpermitted);
    expect(node?.children.map((child) => child.resource_id)).toContain(open);
  });
});

describe('GetStatuses, GetStatusReasons, GetResourceTypes', () => {
  it('lists the statuses without a session', async () => {
    const answer = await service.call('GET', '/Resources/Status');
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual(resourceStatusesBody);
  });

  it('lists status reasons and resource types', async () => {
    await withOwnService(async (isolated) => {
      const reasonId = await insertStatusReason(isolated.store, 'Broken', 2);
      const typeId = await insertResourceType(isolated.store, 'Desk');
      const reasons = await isolated.call('GET', '/Resources/Status/Reasons', { session: isolated.admin });
      expect(reasons.status).toBe(200);
      expect(reasons.body).toEqual({ reasons: [{ id: reasonId, description: 'Broken', statusId: 2 }], links: [], message: null });
      const types = await isolated.call('GET', '/Resources/Types', { session: isolated.admin });
      expect(types.status).toBe(200);
      expect(types.body).toEqual({ types: [{ id: typeId, description: 'Desk' }], links: [], message: null });
      expect((await isolated.call('GET', '/Resources/Types')).status).toBe(401);
    });
  });
});

describe('GetGroups (resource group tree)', () => {
  it('hangs resources of no group under a last group with id 0, so none is left out', async () => {
    await withOwnService(async (isolated) => {
      const scheduleId = await insertSchedule(isolated.store, { name: 'Tree' });
      const floor = await insertResourceGroup(isolated.store, 'Floor');
      const create = async (name: string, groupIds: number[]) =>
        (await isolated.call('POST', '/Resources/', { body: { name, scheduleId, groupIds }, session: isolated.admin })).body
          .resourceId as number;
      const grouped = await create('Grouped desk', [floor]);
      const loose = await create('Loose desk', []);
      const answer = await isolated.call('GET', '/Resources/Groups', { session: isolated.admin });
      const groups = answer.body.groups as {
        id: number;
        name: string;
        parent_id: number | null;
        children: { resource_id: number; group_id: number; id: string }[];
      }[];
      expect(groups.map((group) => [group.id, group.name])).toEqual([
        [floor, 'Floor'],
        [0, 'Ungrouped'],
      ]);
      expect(groups[0]!.children.map((child) => child.resource_id)).toEqual([grouped]);
      expect(groups[1]).toMatchObject({ parent_id: null, children: [{ resource_id: loose, group_id: 0, id: `resource-0-${loose}` }] });
    });
  });

  it('answers the whole tree with resource nodes under their groups', async () => {
    await withOwnService(async (isolated) => {
      const treeSchedule = await insertSchedule(isolated.store, { name: 'Tree' });
      const top = await insertResourceGroup(isolated.store, 'Top');
      const child = await insertResourceGroup(isolated.store, 'Child', top);
      const created = await isolated.call('POST', '/Resources/', {
        body: {
          name: 'Desk 1',
          scheduleId: treeSchedule,
          groupIds: [top, child],
          color: '#ffffff',
          minLength: '0h30m',
          autoReleaseMinutes: 10,
          requiresCheckIn: true,
        },
        session: isolated.admin,
      });
      const resourceId = created.body.resourceId as number;
      const answer = await isolated.call('GET', '/Resources/Groups', { session: isolated.admin });
      expect(answer.status).toBe(200);
      const resourceNode = (groupId: number) => ({
        type: 'resource',
        id: `resource-${groupId}-${resourceId}`,
        group_id: groupId,
        resource_id: resourceId,
        resource_name: 'Desk 1',
        label: 'Desk 1',
        resourceAdminGroupId: null,
        scheduleId: treeSchedule,
        statusId: 1,
        scheduleAdminGroupId: null,
        requiresApproval: false,
        isCheckInEnabled: true,
        isAutoReleased: true,
        autoReleaseMinutes: 10,
        minLength: 1800,
        resourceTypeId: null,
        color: '#ffffff',
        textColor: '#000000',
        maxConcurrentReservations: 1,
        requiredResourceIds: [],
      });
      expect(answer.body).toEqual({
        groups: [
          {
            type: 'group',
            id: top,
            name: 'Top',
            label: 'Top',
            parent: null,
            parent_id: null,
            children: [
              { type: 'group', id: child, name: 'Child', label: 'Child', parent: null, parent_id: top, children: [resourceNode(child)] },
              resourceNode(top),
            ],
          },
        ],
        links: [],
        message: null,
      });
    });
  });
});
