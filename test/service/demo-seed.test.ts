import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoLogins, demoPassword, seedDemo, type DemoOrganisation } from '../../electron/service/seed/demo.js';
import { countRows, withOwnService } from '../support/fixtures.js';
import { startTestService, type Session, type TestService } from '../support/service.js';

let service: TestService;
let demo: DemoOrganisation;
let user: Session;

beforeAll(async () => {
  service = await startTestService({
    // Schedules answer the week of now: one with no clock change in it, where each day has 24 hours.
    now: DateTime.fromISO('2026-12-02T10:00:00Z'),
    seed: async (store) => {
      demo = await seedDemo(store);
      return { username: 'admin', password: demoPassword };
    },
  });
  user = await service.signIn('user', demoPassword);
}, 30_000);
afterAll(() => service.dispose());

const allResourceNames = [
  'Thames (1.01)',
  'Severn (1.02)',
  'Training room (1.04)',
  'Boardroom',
  'Avon (2.01)',
  'Phone booth (2.02)',
  'Hot desk D1',
  'Hot desk D2',
  'Hot desk D3',
  'Loan laptop',
  'Camera kit',
  '3D printer',
  'Hub desk H1',
  'Hub desk H2',
  'Focus booth',
  'Loan headset',
];

const resourcesAs = async (session: Session) => {
  const answer = await service.call('GET', '/Resources/', { session });
  expect(answer.status).toBe(200);
  return answer.body.resources as Array<Record<string, any>>;
};

describe('the demo organisation', () => {
  it.each([...demoLogins.map((login) => login.userName), 'priya', 'lena'])('lets %s sign in with the demo password', async (username) => {
    const answer = await service.call('POST', '/Authentication/Authenticate', { body: { username, password: demoPassword } });
    expect(answer.status).toBe(200);
    expect(answer.body.isAuthenticated).toBe(true);
  });

  it('makes admin an application administrator and user a normal user', async () => {
    const admin = await service.call('GET', `/Users/${demo.users.admin}`, { session: service.admin });
    expect(admin.status).toBe(200);
    expect(admin.body).toMatchObject({
      userName: 'admin',
      firstName: 'Alex',
      lastName: 'Morgan',
      emailAddress: 'admin@example.com',
      timezone: 'Europe/London',
    });
    expect(admin.body.groups.map((group: { name: string }) => group.name).sort()).toEqual([
      'Application Administrators',
      'Facilities',
      'Staff',
    ]);

    const normal = await service.call('GET', `/Users/${demo.users.user}`, { session: service.admin });
    expect(normal.body).toMatchObject({
      userName: 'user',
      firstName: 'Jonas',
      lastName: 'Weber',
      emailAddress: 'user@example.com',
      timezone: 'Europe/Berlin',
    });
    expect(normal.body.groups.map((group: { name: string }) => group.name)).toEqual(['Staff']);

    // An administrator-only route tells the two apart.
    expect((await service.call('POST', '/Groups/', { session: user, body: { name: 'Nope' } })).status).toBe(403);
  });

  it('shows an administrator the resources with their rules', async () => {
    const resources = await resourcesAs(service.admin);
    expect(resources.map((resource) => resource.name).sort()).toEqual([...allResourceNames].sort());
    const byName = new Map(resources.map((resource) => [resource.name, resource]));

    expect(byName.get('Thames (1.01)')).toMatchObject({
      resourceId: demo.resources.thames,
      scheduleId: demo.schedules.headOffice,
      typeId: demo.resourceTypes.room,
      maxParticipants: 6,
      requiresCheckIn: true,
      autoReleaseMinutes: 15,
      requiresApproval: false,
      statusId: 1,
      color: '#2e7d32',
    });
    expect(byName.get('Boardroom')).toMatchObject({ requiresApproval: true, maxParticipants: 14, requiresCheckIn: false });
    expect(byName.get('Training room (1.04)')).toMatchObject({
      minLength: '30 minutes',
      maxLength: '240 minutes',
      bufferTime: '0 hours 15 minutes',
    });
    expect(byName.get('Hot desk D3')).toMatchObject({
      statusId: 2,
      statusReasonId: demo.statusReasons.underMaintenance,
      typeId: demo.resourceTypes.desk,
    });
    expect(byName.get('3D printer')).toMatchObject({
      scheduleId: demo.schedules.lab,
      typeId: demo.resourceTypes.equipment,
      allowMultiday: true,
    });
    expect(byName.get('Avon (2.01)')?.customAttributes).toEqual([
      expect.objectContaining({ id: demo.attributes.floor, label: 'Floor', value: '2' }),
    ]);
    expect(byName.get('Avon (2.01)')?.groupIds).toEqual([demo.resourceGroups.floor2]);
  });

  it('shows a normal user only the resources Staff may book', async () => {
    const names = (await resourcesAs(user)).map((resource) => resource.name);
    expect(names.sort()).toEqual(allResourceNames.filter((name) => name !== '3D printer').sort());
    const lena = await service.signIn('lena', demoPassword);
    expect((await resourcesAs(lena)).map((resource) => resource.name)).toContain('3D printer');
  });

  it('explains why a resource is out of service', async () => {
    const answer = await service.call('GET', '/Resources/Status/Reasons', { session: user });
    expect(answer.status).toBe(200);
    expect(answer.body.reasons).toContainEqual(
      expect.objectContaining({ id: demo.statusReasons.underMaintenance, description: 'Under maintenance', statusId: 2 }),
    );
  });

  it('names the resource types', async () => {
    const answer = await service.call('GET', '/Resources/Types', { session: user });
    expect(answer.status).toBe(200);
    expect(answer.body.types).toHaveLength(3);
    expect(answer.body.types).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: demo.resourceTypes.room, description: 'Room' }),
        expect.objectContaining({ id: demo.resourceTypes.desk, description: 'Desk' }),
        expect.objectContaining({ id: demo.resourceTypes.equipment, description: 'Equipment' }),
      ]),
    );
  });

  it('arranges the resources in a tree of groups', async () => {
    const answer = await service.call('GET', '/Resources/Groups', { session: service.admin });
    expect(answer.status).toBe(200);
    // The order of siblings is the handler's business; the nesting is the seed's.
    type Shape = { [group: string]: Shape } | string[];
    const shape = (nodes: Array<Record<string, any>>): Shape => {
      const groups = nodes.filter((node) => node.type === 'group');
      if (groups.length === 0) return nodes.map((node) => node.resource_name as string).sort();
      return Object.fromEntries(groups.map((node) => [node.name, shape(node.children)]));
    };
    expect(shape(answer.body.groups)).toEqual({
      'Head office': {
        'Floor 1 rooms': ['Severn (1.02)', 'Thames (1.01)', 'Training room (1.04)'],
        'Floor 2 rooms': ['Avon (2.01)', 'Boardroom', 'Phone booth (2.02)'],
        Desks: ['Hot desk D1', 'Hot desk D2', 'Hot desk D3'],
        'Hub (open 24/7)': ['Focus booth', 'Hub desk H1', 'Hub desk H2'],
      },
      Equipment: ['Camera kit', 'Loan headset', 'Loan laptop'],
      Lab: ['3D printer'],
    });
  });

  it('opens the head office in 30-minute slots from 08:00 to 18:00 on weekdays only', async () => {
    const answer = await service.call('GET', `/Schedules/${demo.schedules.headOffice}`, { session: service.admin });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ name: 'Head office', timezone: 'Europe/London', isDefault: true });
    const days = answer.body.periods as Array<Array<{ startTime: string; endTime: string; isReservable: boolean }>>;
    expect(days).toHaveLength(7);
    const weekday = [
      { startTime: '00:00:00', endTime: '08:00:00', isReservable: false },
      ...Array.from({ length: 20 }, (_, index) => ({
        startTime: `${String(8 + Math.floor(index / 2)).padStart(2, '0')}:${index % 2 ? '30' : '00'}:00`,
        endTime: `${String(8 + Math.floor((index + 1) / 2)).padStart(2, '0')}:${index % 2 ? '00' : '30'}:00`,
        isReservable: true,
      })),
      { startTime: '18:00:00', endTime: '00:00:00', isReservable: false },
    ];
    const layouts = days.map((periods) => periods.map(({ startTime, endTime, isReservable }) => ({ startTime, endTime, isReservable })));
    expect(layouts.filter((layout) => layout.length > 1)).toEqual(Array(5).fill(weekday));
    expect(layouts.filter((layout) => layout.length === 1)).toEqual(
      Array(2).fill([{ startTime: '00:00:00', endTime: '00:00:00', isReservable: false }]),
    );
  });

  it('keeps the lab bookable around the clock', async () => {
    const answer = await service.call('GET', `/Schedules/${demo.schedules.lab}`, { session: service.admin });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ name: 'Lab', timezone: 'Europe/Berlin', isDefault: false });
    for (const periods of answer.body.periods as Array<Array<{ isReservable: boolean }>>) {
      expect(periods).toHaveLength(48);
      expect(periods.every((period) => period.isReservable)).toBe(true);
    }
  });

  it('keeps the hub bookable by Staff around the clock, in London', async () => {
    const answer = await service.call('GET', `/Schedules/${demo.schedules.hub}`, { session: user });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ name: 'Hub (open 24/7)', timezone: 'Europe/London', isDefault: false });
    for (const periods of answer.body.periods as Array<Array<{ isReservable: boolean }>>) {
      expect(periods).toHaveLength(48);
      expect(periods.every((period) => period.isReservable)).toBe(true);
    }
    const hub = (await resourcesAs(user)).filter((resource) => resource.scheduleId === demo.schedules.hub);
    expect(hub.map((resource) => resource.name).sort()).toEqual(['Focus booth', 'Hub desk H1', 'Hub desk H2', 'Loan headset']);
    // One click books them: no approval, no check-in.
    expect(hub.every((resource) => !resource.requiresApproval && !resource.requiresCheckIn && resource.statusId === 1)).toBe(true);
  });

  it('links accessories to the rooms that offer them', async () => {
    const answer = await service.call('GET', `/Accessories/${demo.accessories.projector}`, { session: user });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ name: 'Projector', quantityAvailable: 2 });
    expect(answer.body.associatedResources.map((link: { resourceId: number }) => link.resourceId).sort()).toEqual(
      [demo.resources.thames, demo.resources.severn, demo.resources.trainingRoom].sort(),
    );
  });

  it('asks for a cost centre on Boardroom bookings only, and offers an optional purpose', async () => {
    const answer = await service.call('GET', '/Attributes/Category/1', { session: user });
    expect(answer.status).toBe(200);
    const byLabel = new Map((answer.body.attributes as Array<Record<string, any>>).map((attribute) => [attribute.label, attribute]));
    expect(byLabel.get('Purpose')).toMatchObject({ type: 3, required: false, secondaryCategoryId: null });
    expect(byLabel.get('Purpose')?.possibleValues).toContain('Client meeting');
    expect(byLabel.get('Cost centre')).toMatchObject({
      type: 1,
      required: true,
      regex: '/^[0-9]{4}$/',
      secondaryCategoryId: 4,
      secondaryEntityIds: [demo.resources.boardroom],
    });
  });

  it('records employee numbers as a private user attribute', async () => {
    const answer = await service.call('GET', `/Users/${demo.users.user}`, { session: service.admin });
    expect(answer.body.customAttributes).toEqual([
      expect.objectContaining({ id: demo.attributes.employeeNumber, label: 'Employee number', value: 'E10002' }),
    ]);
  });
});

describe('seedDemo', () => {
  it('adds nothing when it cannot add everything', async () => {
    await withOwnService(async (other) => {
      // The default administrator already holds the user name `admin`.
      await expect(seedDemo(other.store)).rejects.toThrow();
      const counts = await Promise.all(
        (['resources', 'schedules', 'resourceGroups', 'accessories', 'customAttributes'] as const).map((table) =>
          countRows(other.store, table),
        ),
      );
      expect(counts).toEqual([0, 0, 0, 0, 0]);
      const groups = await other.store.selectFrom('userGroups').select('name').execute();
      expect(groups.map((group) => group.name)).toEqual(['Application Administrators']);
    });
  });
});
