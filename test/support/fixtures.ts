import type { Insertable } from 'kysely';
import { AttributeCategory, AttributeType } from '../../electron/api/schemas/attributes.js';
import type { Store } from '../../electron/service/store/database.js';
import type {
  AccessoriesTable,
  CustomAttributesTable,
  Database,
  ResourcesTable,
  SchedulePeriodsTable,
  SchedulesTable,
} from '../../electron/service/tables.js';
import { adminCredentials, startTestService, type Session, type TestService } from './service.js';

// Rows the API cannot create (schedules, accessories, …) or that a test wants in place before its calls,
// written straight into the store with the columns' defaults so a test names only what it is about.

export type PeriodSeed = Omit<Insertable<SchedulePeriodsTable>, 'scheduleId'>;

/** A schedule, by default the one default schedule `Main` in UTC, with its periods. */
export async function insertSchedule(
  store: Store,
  values: Partial<Insertable<SchedulesTable>> = {},
  periods: readonly PeriodSeed[] = [],
): Promise<number> {
  const { id } = await store
    .insertInto('schedules')
    .values({ name: 'Main', timezone: 'UTC', isDefault: 1, weekdayStart: 0, daysVisible: 7, ...values })
    .returning('id')
    .executeTakeFirstOrThrow();
  if (periods.length > 0)
    await store
      .insertInto('schedulePeriods')
      .values(periods.map((period) => ({ ...period, scheduleId: id })))
      .execute();
  return id;
}

/** A resource without permissions for anyone, as the table's defaults make it. */
export async function insertResource(
  store: Store,
  values: { name: string; scheduleId: number } & Partial<Insertable<ResourcesTable>>,
): Promise<number> {
  const { id } = await store
    .insertInto('resources')
    .values({
      location: '',
      contact: '',
      notes: '',
      description: '',
      requiresApproval: 0,
      allowMultiday: 0,
      statusId: 1,
      sortOrder: 0,
      requiresCheckIn: 0,
      color: '',
      creditApplicability: 1,
      creditsChargedAllSlots: 0,
      maxConcurrentReservations: 1,
      ...values,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

export async function insertResourceGroup(store: Store, name: string, parentId: number | null = null): Promise<number> {
  const { id } = await store.insertInto('resourceGroups').values({ name, parentId }).returning('id').executeTakeFirstOrThrow();
  return id;
}

export async function insertResourceType(store: Store, description: string): Promise<number> {
  const { id } = await store.insertInto('resourceTypes').values({ description }).returning('id').executeTakeFirstOrThrow();
  return id;
}

export async function insertStatusReason(store: Store, description: string, statusId: number): Promise<number> {
  const { id } = await store
    .insertInto('resourceStatusReasons')
    .values({ description, statusId })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

export async function insertAccessory(
  store: Store,
  values: { name: string; quantityAvailable: number | null } & Partial<Insertable<AccessoriesTable>>,
): Promise<number> {
  const { id } = await store
    .insertInto('accessories')
    .values({ creditCount: 0, peakCreditCount: 0, creditApplicability: 1, creditsChargedAllSlots: 0, ...values })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

/** A custom attribute definition: an optional single-line text unless told otherwise. */
export async function insertAttribute(
  store: Store,
  values: { label: string; categoryId: number } & Partial<Insertable<CustomAttributesTable>>,
): Promise<number> {
  const { id } = await store
    .insertInto('customAttributes')
    .values({
      type: AttributeType.singleLine,
      required: 0,
      adminOnly: 0,
      isPrivate: 0,
      sortOrder: 0,
      possibleValues: '[]',
      secondaryEntityIds: '[]',
      ...values,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

export function insertUserAttribute(store: Store, values: { label: string } & Partial<Insertable<CustomAttributesTable>>): Promise<number> {
  return insertAttribute(store, { categoryId: AttributeCategory.user, ...values });
}

/** Removes definitions with their values, so that later tests do not have to send them. */
export async function deleteAttributes(store: Store, ...ids: number[]): Promise<void> {
  await store.deleteFrom('customAttributes').where('id', 'in', ids).execute();
}

/** A user group, holding the given roles. */
export async function insertUserGroup(
  store: Store,
  name: string,
  options: { isDefault?: 0 | 1; roleIds?: readonly number[] } = {},
): Promise<number> {
  const { id } = await store
    .insertInto('userGroups')
    .values({ name, isDefault: options.isDefault ?? 0 })
    .returning('id')
    .executeTakeFirstOrThrow();
  const roleIds = options.roleIds ?? [];
  if (roleIds.length > 0)
    await store
      .insertInto('groupRoles')
      .values(roleIds.map((roleId) => ({ groupId: id, roleId })))
      .execute();
  return id;
}

/** Removes groups (with their memberships), so that default groups do not reach later tests' users. */
export async function deleteUserGroups(store: Store, ...ids: number[]): Promise<void> {
  await store.deleteFrom('userGroups').where('id', 'in', ids).execute();
}

export async function countRows(store: Store, table: keyof Database): Promise<number> {
  const { count } = await store
    .selectFrom(table)
    .select((eb) => eb.fn.countAll().as('count'))
    .executeTakeFirstOrThrow();
  return Number(count);
}

/** A session of the default administrator apart from `service.admin`, for tests that end or outlive it. */
export function signInAdmin(service: TestService): Promise<Session> {
  return service.signIn(adminCredentials.username, adminCredentials.password);
}

/** A service of the test's own, for what the file's shared service cannot show; always disposed. */
export async function withOwnService<T>(
  run: (service: TestService) => Promise<T>,
  options?: Parameters<typeof startTestService>[0],
): Promise<T> {
  const service = await startTestService(options);
  try {
    return await run(service);
  } finally {
    await service.dispose();
  }
}
