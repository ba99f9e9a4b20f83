import { AttributeCategory, AttributeType } from '../../api/schemas/attributes.js';
import { Role } from '../../api/schemas/groups.js';
import { CreditApplicability, ResourceStatus } from '../../api/schemas/resources.js';
import type { Store } from '../store/database.js';
import { PermissionType, type NewResource } from '../tables.js';
import { administratorsGroup, inTransaction, insertUser } from './bootstrap.js';

/** Everyone in the demo organisation signs in with this password. */
export const demoPassword = 'password';

/** The two accounts a person trying Perch needs; the colleagues exist to fill the calendars. */
export const demoLogins = [
  { userName: 'admin', password: demoPassword, description: 'application administrator' },
  { userName: 'user', password: demoPassword, description: 'normal user' },
] as const;

type GroupKey = 'administrators' | 'staff' | 'labTechnicians' | 'facilities';
type ScheduleKey = 'headOffice' | 'lab' | 'hub';
type ResourceGroupKey = 'headOffice' | 'floor1' | 'floor2' | 'desks' | 'hub' | 'equipment' | 'lab';
type ResourceTypeKey = 'room' | 'desk' | 'equipment';
type StatusReasonKey = 'underMaintenance' | 'awaitingRepair' | 'retired';
type AccessoryKey = 'projector' | 'whiteboardMarkers' | 'videoConferenceKit' | 'flipChart';
type AttributeKey = 'purpose' | 'costCentre' | 'employeeNumber' | 'floor';

interface UserDefinition {
  userName: string;
  firstName: string;
  lastName: string;
  timezone: string;
  position: string;
  phone: string;
  employeeNumber: string;
  groups: readonly GroupKey[];
}

const users = [
  {
    userName: 'admin',
    firstName: 'Alex',
    lastName: 'Morgan',
    timezone: 'Europe/London',
    position: 'Office manager',
    phone: '+44 20 7946 0100',
    employeeNumber: 'E10001',
    groups: ['administrators', 'staff', 'facilities'],
  },
  {
    userName: 'user',
    firstName: 'Jonas',
    lastName: 'Weber',
    timezone: 'Europe/Berlin',
    position: 'Software engineer',
    phone: '+49 30 901820 11',
    employeeNumber: 'E10002',
    groups: ['staff'],
  },
  {
    userName: 'priya',
    firstName: 'Priya',
    lastName: 'Shah',
    timezone: 'Europe/London',
    position: 'Facilities coordinator',
    phone: '+44 20 7946 0123',
    employeeNumber: 'E10003',
    groups: ['staff', 'facilities'],
  },
  {
    userName: 'tom',
    firstName: 'Tom',
    lastName: 'Becker',
    timezone: 'Europe/London',
    position: 'Sales lead',
    phone: '+44 20 7946 0145',
    employeeNumber: 'E10004',
    groups: ['staff'],
  },
  {
    userName: 'sofia',
    firstName: 'Sofia',
    lastName: 'Rossi',
    timezone: 'Europe/Rome',
    position: 'Product designer',
    phone: '+39 02 1234 5678',
    employeeNumber: 'E10005',
    groups: ['staff'],
  },
  {
    userName: 'lena',
    firstName: 'Lena',
    lastName: 'Fischer',
    timezone: 'Europe/Berlin',
    position: 'Lab technician',
    phone: '+49 30 901820 42',
    employeeNumber: 'E10006',
    groups: ['staff', 'labTechnicians'],
  },
  {
    userName: 'sam',
    firstName: 'Sam',
    lastName: 'Okafor',
    timezone: 'America/New_York',
    position: 'Account manager',
    phone: '+1 212 555 0147',
    employeeNumber: 'E10007',
    groups: ['staff'],
  },
] as const satisfies readonly UserDefinition[];

type UserKey = (typeof users)[number]['userName'];

interface ResourceDefinition {
  key: string;
  name: string;
  group: ResourceGroupKey;
  schedule: ScheduleKey;
  type: ResourceTypeKey;
  location: string;
  description: string;
  color: string;
  /** Groups allowed to book it; every bookable resource is open to Staff unless said otherwise. */
  permittedGroups: readonly GroupKey[];
  floor?: string;
  settings?: Partial<NewResource>;
}

/** Every column a resource row needs; the definitions above override what makes each one different. */
const resourceDefaults = {
  notes: '',
  minLength: null,
  maxLength: null,
  minNoticeAdd: null,
  minNoticeUpdate: null,
  minNoticeDelete: null,
  maxNotice: null,
  bufferTime: null,
  requiresApproval: 0,
  allowMultiday: 0,
  maxParticipants: null,
  statusId: ResourceStatus.available,
  autoReleaseMinutes: null,
  requiresCheckIn: 0,
  credits: null,
  peakCredits: null,
  creditApplicability: CreditApplicability.perSlot,
  creditsChargedAllSlots: 0,
  maxConcurrentReservations: 1,
} satisfies Partial<NewResource>;

const headOfficeRoom = { schedule: 'headOffice', type: 'room', permittedGroups: ['staff'] } as const;
const checkIn = { requiresCheckIn: 1, autoReleaseMinutes: 15 } as const;
const hubResource = {
  schedule: 'hub',
  type: 'room',
  group: 'hub',
  location: 'Head office, hub by the entrance',
  permittedGroups: ['staff'],
} as const;

const resources = [
  {
    ...headOfficeRoom,
    key: 'thames',
    name: 'Thames (1.01)',
    group: 'floor1',
    floor: '1',
    location: 'Head office, floor 1',
    description: 'Meeting room with a screen and a whiteboard.',
    color: '#2e7d32',
    settings: { maxParticipants: 6, ...checkIn },
  },
  {
    ...headOfficeRoom,
    key: 'severn',
    name: 'Severn (1.02)',
    group: 'floor1',
    floor: '1',
    location: 'Head office, floor 1',
    description: 'Small meeting room for four.',
    color: '#00838f',
    settings: { maxParticipants: 4, ...checkIn },
  },
  {
    ...headOfficeRoom,
    key: 'trainingRoom',
    name: 'Training room (1.04)',
    group: 'floor1',
    floor: '1',
    location: 'Head office, floor 1',
    description: 'Classroom layout; book it for half an hour to four hours, with 15 minutes to reset between sessions.',
    color: '#6a1b9a',
    settings: { maxParticipants: 16, minLength: 30, maxLength: 240, bufferTime: 15 },
  },
  {
    ...headOfficeRoom,
    key: 'boardroom',
    name: 'Boardroom',
    group: 'floor2',
    floor: '2',
    location: 'Head office, floor 2',
    description: 'Bookings are approved by Facilities and need a cost centre.',
    color: '#c62828',
    settings: { maxParticipants: 14, requiresApproval: 1 },
  },
  {
    ...headOfficeRoom,
    key: 'avon',
    name: 'Avon (2.01)',
    group: 'floor2',
    floor: '2',
    location: 'Head office, floor 2',
    description: 'Meeting room with video conferencing.',
    color: '#1565c0',
    settings: { maxParticipants: 8, ...checkIn },
  },
  {
    ...headOfficeRoom,
    key: 'phoneBooth',
    name: 'Phone booth (2.02)',
    group: 'floor2',
    floor: '2',
    location: 'Head office, floor 2',
    description: 'Soundproof booth for calls.',
    color: '#ef6c00',
    settings: { maxParticipants: 1, maxLength: 60 },
  },
  {
    ...headOfficeRoom,
    type: 'desk',
    key: 'deskD1',
    name: 'Hot desk D1',
    group: 'desks',
    floor: '1',
    location: 'Head office, floor 1, by the windows',
    description: 'Desk with a docking station and two monitors.',
    color: '#5d4037',
    settings: { ...checkIn },
  },
  {
    ...headOfficeRoom,
    type: 'desk',
    key: 'deskD2',
    name: 'Hot desk D2',
    group: 'desks',
    floor: '1',
    location: 'Head office, floor 1',
    description: 'Desk with a docking station.',
    color: '#6d4c41',
    settings: { ...checkIn },
  },
  {
    ...headOfficeRoom,
    type: 'desk',
    key: 'deskD3',
    name: 'Hot desk D3',
    group: 'desks',
    floor: '1',
    location: 'Head office, floor 1',
    description: 'Standing desk.',
    color: '#795548',
    settings: { ...checkIn, statusId: ResourceStatus.unavailable },
  },
  {
    ...headOfficeRoom,
    type: 'equipment',
    key: 'loanLaptop',
    name: 'Loan laptop',
    group: 'equipment',
    location: 'Head office, reception',
    description: 'Collect from reception; may be kept over several days.',
    color: '#455a64',
    settings: { allowMultiday: 1 },
  },
  {
    ...headOfficeRoom,
    type: 'equipment',
    key: 'cameraKit',
    name: 'Camera kit',
    group: 'equipment',
    location: 'Head office, reception',
    description: 'Camera, tripod and microphone for recordings.',
    color: '#37474f',
    settings: { allowMultiday: 1 },
  },
  {
    schedule: 'lab',
    type: 'equipment',
    permittedGroups: ['labTechnicians'],
    key: 'printer3d',
    name: '3D printer',
    group: 'lab',
    location: 'Lab, bench 3',
    description: 'Long prints run overnight; only trained lab technicians may book it.',
    color: '#ad1457',
    settings: { allowMultiday: 1 },
  },
  // The hub never closes, so whoever tries Perch, at whatever hour, has something to book with one click.
  {
    ...hubResource,
    type: 'desk',
    key: 'deskH1',
    name: 'Hub desk H1',
    description: 'Desk with a docking station, open around the clock.',
    color: '#4e342e',
    settings: {},
  },
  {
    ...hubResource,
    type: 'desk',
    key: 'deskH2',
    name: 'Hub desk H2',
    description: 'Desk with a monitor, open around the clock.',
    color: '#3e2723',
    settings: {},
  },
  {
    ...hubResource,
    key: 'focusBooth',
    name: 'Focus booth',
    description: 'Quiet booth for one, open around the clock.',
    color: '#283593',
    settings: {},
  },
  {
    ...hubResource,
    type: 'equipment',
    key: 'loanHeadset',
    name: 'Loan headset',
    group: 'equipment',
    location: 'Head office, hub lockers',
    description: 'Noise-cancelling headset from the hub lockers, any hour; may be kept over several days.',
    color: '#546e7a',
    settings: { allowMultiday: 1 },
  },
] as const satisfies readonly ResourceDefinition[];

type ResourceKey = (typeof resources)[number]['key'];

/** The ids of everything `seedDemo` created, by name, for tests and for later seeds. */
export interface DemoOrganisation {
  users: Record<UserKey, number>;
  groups: Record<GroupKey, number>;
  schedules: Record<ScheduleKey, number>;
  resourceGroups: Record<ResourceGroupKey, number>;
  resourceTypes: Record<ResourceTypeKey, number>;
  statusReasons: Record<StatusReasonKey, number>;
  resources: Record<ResourceKey, number>;
  accessories: Record<AccessoryKey, number>;
  attributes: Record<AttributeKey, number>;
}

interface PeriodSeed {
  weekday: number | null;
  startTime: string;
  endTime: string;
  label: string;
  isReservable: number;
}

const minutesOf = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));
const timeOf = (minutes: number) => `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

/** Reservable slots of `length` minutes from `from` to `to`, closed (blocked) before and after. */
function dayLayout(weekday: number | null, from: string, to: string, length: number): PeriodSeed[] {
  const periods: PeriodSeed[] = [];
  const closed = (startTime: string, endTime: string) => ({ weekday, startTime, endTime, label: 'Closed', isReservable: 0 });
  if (from !== '00:00') periods.push(closed('00:00', from));
  for (let start = minutesOf(from); start < minutesOf(to); start += length) {
    periods.push({ weekday, startTime: timeOf(start), endTime: timeOf(start + length), label: '', isReservable: 1 });
  }
  if (to !== '24:00') periods.push(closed(to, '24:00'));
  return periods;
}

const weekdays = [1, 2, 3, 4, 5];
const weekend = [0, 6];

/**
 * Seeds a small, realistic organisation into an empty store in one transaction: a London head
 * office open on weekdays with a hub open around the clock (so there is something to book at any
 * hour), a Berlin lab open around the clock, rooms, desks and equipment with the
 * rules real deployments use (check-in with auto-release, approval, length limits, a resource out of
 * service), accessories, custom attributes and two groups of users. Joins the caller's transaction
 * when given one.
 */
export async function seedDemo(store: Store): Promise<DemoOrganisation> {
  return inTransaction(store, async (trx) => {
    const insertId = async (query: { executeTakeFirstOrThrow(): Promise<{ id: number }> }) => (await query.executeTakeFirstOrThrow()).id;

    const administrators = await administratorsGroup(trx);
    const staff = await insertId(trx.insertInto('userGroups').values({ name: 'Staff', isDefault: 1 }).returning('id'));
    const facilities = await insertId(trx.insertInto('userGroups').values({ name: 'Facilities', isDefault: 0 }).returning('id'));
    const labTechnicians = await insertId(
      trx.insertInto('userGroups').values({ name: 'Lab technicians', isDefault: 0, adminGroupId: facilities }).returning('id'),
    );
    await trx.insertInto('groupRoles').values({ groupId: facilities, roleId: Role.resourceAdministrator }).execute();
    const groups: Record<GroupKey, number> = { administrators, staff, facilities, labTechnicians };

    const schedule = (name: string, timezone: string, isDefault: number) =>
      insertId(
        trx
          .insertInto('schedules')
          .values({ name, timezone, isDefault, weekdayStart: 1, daysVisible: 7, availabilityBegin: null, availabilityEnd: null })
          .returning('id'),
      );
    const schedules: Record<ScheduleKey, number> = {
      headOffice: await schedule('Head office', 'Europe/London', 1),
      lab: await schedule('Lab', 'Europe/Berlin', 0),
      hub: await schedule('Hub (open 24/7)', 'Europe/London', 0),
    };
    const periods = [
      ...weekdays
        .flatMap((weekday) => dayLayout(weekday, '08:00', '18:00', 30))
        .map((period) => ({ ...period, scheduleId: schedules.headOffice })),
      ...weekend.map((weekday) => ({
        weekday,
        startTime: '00:00',
        endTime: '24:00',
        label: 'Closed',
        isReservable: 0,
        scheduleId: schedules.headOffice,
      })),
      ...dayLayout(null, '00:00', '24:00', 30).map((period) => ({ ...period, scheduleId: schedules.lab })),
      ...dayLayout(null, '00:00', '24:00', 30).map((period) => ({ ...period, scheduleId: schedules.hub })),
    ];
    await trx.insertInto('schedulePeriods').values(periods).execute();

    const resourceGroup = (name: string, parentId: number | null) =>
      insertId(trx.insertInto('resourceGroups').values({ name, parentId }).returning('id'));
    const headOfficeGroup = await resourceGroup('Head office', null);
    const resourceGroups: Record<ResourceGroupKey, number> = {
      headOffice: headOfficeGroup,
      floor1: await resourceGroup('Floor 1 rooms', headOfficeGroup),
      floor2: await resourceGroup('Floor 2 rooms', headOfficeGroup),
      desks: await resourceGroup('Desks', headOfficeGroup),
      hub: await resourceGroup('Hub (open 24/7)', headOfficeGroup),
      equipment: await resourceGroup('Equipment', null),
      lab: await resourceGroup('Lab', null),
    };

    const resourceType = (description: string) => insertId(trx.insertInto('resourceTypes').values({ description }).returning('id'));
    const resourceTypes: Record<ResourceTypeKey, number> = {
      room: await resourceType('Room'),
      desk: await resourceType('Desk'),
      equipment: await resourceType('Equipment'),
    };

    const statusReason = (description: string, statusId: number) =>
      insertId(trx.insertInto('resourceStatusReasons').values({ description, statusId }).returning('id'));
    const statusReasons: Record<StatusReasonKey, number> = {
      underMaintenance: await statusReason('Under maintenance', ResourceStatus.unavailable),
      awaitingRepair: await statusReason('Awaiting repair', ResourceStatus.unavailable),
      retired: await statusReason('Retired', ResourceStatus.hidden),
    };

    const resourceIds = {} as Record<ResourceKey, number>;
    for (const [index, definition] of resources.entries()) {
      const settings: Partial<NewResource> = definition.settings;
      resourceIds[definition.key] = await insertId(
        trx
          .insertInto('resources')
          .values({
            name: definition.name,
            location: definition.location,
            contact: 'facilities@example.com',
            description: definition.description,
            scheduleId: schedules[definition.schedule],
            typeId: resourceTypes[definition.type],
            color: definition.color,
            sortOrder: index + 1,
            adminGroupId: definition.schedule === 'lab' ? labTechnicians : facilities,
            ...resourceDefaults,
            ...settings,
            statusReasonId: settings.statusId === ResourceStatus.unavailable ? statusReasons.underMaintenance : null,
          })
          .returning('id'),
      );
    }
    await trx
      .insertInto('resourceGroupMembers')
      .values(resources.map((definition) => ({ groupId: resourceGroups[definition.group], resourceId: resourceIds[definition.key] })))
      .execute();
    await trx
      .insertInto('groupResourcePermissions')
      .values(
        resources.flatMap((definition) =>
          definition.permittedGroups.map((group) => ({
            groupId: groups[group],
            resourceId: resourceIds[definition.key],
            permissionType: PermissionType.full,
          })),
        ),
      )
      .execute();

    const accessory = (name: string, quantityAvailable: number | null) =>
      insertId(
        trx
          .insertInto('accessories')
          .values({
            name,
            quantityAvailable,
            creditCount: 0,
            peakCreditCount: 0,
            creditApplicability: CreditApplicability.perSlot,
            creditsChargedAllSlots: 0,
          })
          .returning('id'),
      );
    const accessories: Record<AccessoryKey, number> = {
      projector: await accessory('Projector', 2),
      whiteboardMarkers: await accessory('Whiteboard markers', null),
      videoConferenceKit: await accessory('Video-conference kit', 1),
      flipChart: await accessory('Flip chart', 3),
    };
    const meetingRooms: ResourceKey[] = ['thames', 'severn', 'trainingRoom', 'boardroom', 'avon'];
    await trx
      .insertInto('accessoryResources')
      .values([
        ...(['thames', 'severn', 'trainingRoom'] as const).map((key) => ({
          accessoryId: accessories.projector,
          resourceId: resourceIds[key],
          minQuantity: null,
          maxQuantity: 1,
        })),
        ...meetingRooms.map((key) => ({
          accessoryId: accessories.whiteboardMarkers,
          resourceId: resourceIds[key],
          minQuantity: null,
          maxQuantity: null,
        })),
        ...(['boardroom', 'avon'] as const).map((key) => ({
          accessoryId: accessories.videoConferenceKit,
          resourceId: resourceIds[key],
          minQuantity: null,
          maxQuantity: 1,
        })),
        ...(['trainingRoom', 'boardroom'] as const).map((key) => ({
          accessoryId: accessories.flipChart,
          resourceId: resourceIds[key],
          minQuantity: null,
          maxQuantity: 2,
        })),
      ])
      .execute();

    const attribute = (values: {
      label: string;
      type: number;
      categoryId: number;
      sortOrder: number;
      regex?: string;
      required?: boolean;
      possibleValues?: string[];
      isPrivate?: boolean;
      secondaryEntityIds?: number[];
    }) =>
      insertId(
        trx
          .insertInto('customAttributes')
          .values({
            label: values.label,
            type: values.type,
            categoryId: values.categoryId,
            sortOrder: values.sortOrder,
            regex: values.regex ?? null,
            required: values.required ? 1 : 0,
            possibleValues: JSON.stringify(values.possibleValues ?? []),
            adminOnly: 0,
            isPrivate: values.isPrivate ? 1 : 0,
            secondaryCategoryId: values.secondaryEntityIds ? AttributeCategory.resource : null,
            secondaryEntityIds: JSON.stringify(values.secondaryEntityIds ?? []),
          })
          .returning('id'),
      );
    const attributes: Record<AttributeKey, number> = {
      purpose: await attribute({
        label: 'Purpose',
        type: AttributeType.selectList,
        categoryId: AttributeCategory.reservation,
        sortOrder: 1,
        possibleValues: ['Internal meeting', 'Client meeting', 'Interview', 'Training', 'Focus work'],
      }),
      // Required only where it matters, so that everyday demo bookings stay one click away.
      costCentre: await attribute({
        label: 'Cost centre',
        type: AttributeType.singleLine,
        categoryId: AttributeCategory.reservation,
        sortOrder: 2,
        regex: '/^[0-9]{4}$/',
        required: true,
        secondaryEntityIds: [resourceIds.boardroom],
      }),
      employeeNumber: await attribute({
        label: 'Employee number',
        type: AttributeType.singleLine,
        categoryId: AttributeCategory.user,
        sortOrder: 1,
        regex: '/^E[0-9]{5}$/',
        isPrivate: true,
      }),
      floor: await attribute({
        label: 'Floor',
        type: AttributeType.selectList,
        categoryId: AttributeCategory.resource,
        sortOrder: 1,
        possibleValues: ['1', '2'],
      }),
    };
    const onFloors = resources.filter((definition) => 'floor' in definition);
    await trx
      .insertInto('customAttributeAppliesTo')
      .values(onFloors.map((definition) => ({ attributeId: attributes.floor, entityId: resourceIds[definition.key] })))
      .execute();
    await trx
      .insertInto('customAttributeValues')
      .values(
        onFloors.map((definition) => ({ attributeId: attributes.floor, entityId: resourceIds[definition.key], value: definition.floor })),
      )
      .execute();

    const userIds = {} as Record<UserKey, number>;
    for (const definition of users) {
      userIds[definition.userName] = await insertUser(trx, {
        userName: definition.userName,
        emailAddress: `${definition.userName}@example.com`,
        password: demoPassword,
        timezone: definition.timezone,
        firstName: definition.firstName,
        lastName: definition.lastName,
        phone: definition.phone,
        organization: 'Perch Demo Ltd',
        position: definition.position,
        groupIds: definition.groups.map((group) => groups[group]),
      });
    }
    await trx
      .insertInto('customAttributeValues')
      .values(
        users.map((definition) => ({
          attributeId: attributes.employeeNumber,
          entityId: userIds[definition.userName],
          value: definition.employeeNumber,
        })),
      )
      .execute();
    await trx.updateTable('users').set({ defaultScheduleId: schedules.lab }).where('id', '=', userIds.lena).execute();

    return {
      users: userIds,
      groups,
      schedules,
      resourceGroups,
      resourceTypes,
      statusReasons,
      resources: resourceIds,
      accessories,
      attributes,
    };
  });
}
