import type { Generated, Insertable, Selectable, Updateable } from 'kysely';

/** Booleans are stored as SQLite integers (0/1). */
type Flag = number;

export interface UsersTable {
  id: Generated<number>;
  userName: string;
  emailAddress: string;
  firstName: string;
  lastName: string;
  passwordHash: string;
  timezone: string;
  language: string;
  phone: string;
  organization: string;
  position: string;
  statusId: number;
  dateCreated: string;
  lastLogin: string | null;
  credits: number;
  reservationColor: string;
  defaultScheduleId: number | null;
}

export interface SessionsTable {
  /** `sessionTokenHash` of the token the client holds; the token itself is never stored. */
  tokenHash: string;
  userId: number;
  /** Epoch milliseconds; slides forward on every authenticated call. */
  expiresAt: number;
}

export interface UserGroupsTable {
  id: Generated<number>;
  name: string;
  isDefault: Flag;
  adminGroupId: number | null;
}

export interface GroupRolesTable {
  groupId: number;
  roleId: number;
}

export interface GroupMembersTable {
  groupId: number;
  userId: number;
}

export const PermissionType = { full: 0, view: 1 } as const;

export interface GroupResourcePermissionsTable {
  groupId: number;
  resourceId: number;
  permissionType: number;
}

export interface UserResourcePermissionsTable {
  userId: number;
  resourceId: number;
  permissionType: number;
}

export interface SchedulesTable {
  id: Generated<number>;
  name: string;
  timezone: string;
  isDefault: Flag;
  weekdayStart: number;
  daysVisible: number;
  availabilityBegin: string | null;
  availabilityEnd: string | null;
  maxResourcesPerReservation: number | null;
  totalConcurrentReservationsAllowed: number | null;
  adminGroupId: number | null;
}

export interface SchedulePeriodsTable {
  id: Generated<number>;
  scheduleId: number;
  /** 0 = Sunday … 6 = Saturday; null = the same layout every day. */
  weekday: number | null;
  /** Local wall-clock times in the schedule's timezone, `HH:mm`; `24:00` ends the day. */
  startTime: string;
  endTime: string;
  label: string;
  isReservable: Flag;
}

export interface ResourcesTable {
  id: Generated<number>;
  name: string;
  location: string;
  contact: string;
  notes: string;
  description: string;
  /** Durations in minutes; null means no limit. */
  minLength: number | null;
  maxLength: number | null;
  minNoticeAdd: number | null;
  minNoticeUpdate: number | null;
  minNoticeDelete: number | null;
  maxNotice: number | null;
  bufferTime: number | null;
  requiresApproval: Flag;
  allowMultiday: Flag;
  maxParticipants: number | null;
  scheduleId: number;
  statusId: number;
  statusReasonId: number | null;
  typeId: number | null;
  sortOrder: number;
  autoReleaseMinutes: number | null;
  requiresCheckIn: Flag;
  color: string;
  credits: number | null;
  peakCredits: number | null;
  creditApplicability: number;
  creditsChargedAllSlots: Flag;
  maxConcurrentReservations: number;
  adminGroupId: number | null;
}

export interface ResourceGroupsTable {
  id: Generated<number>;
  name: string;
  parentId: number | null;
}

export interface ResourceGroupMembersTable {
  groupId: number;
  resourceId: number;
}

export interface ResourceTypesTable {
  id: Generated<number>;
  description: string;
}

export interface ResourceStatusReasonsTable {
  id: Generated<number>;
  description: string;
  statusId: number;
}

export interface AccessoriesTable {
  id: Generated<number>;
  name: string;
  quantityAvailable: number | null;
  creditCount: number;
  peakCreditCount: number;
  creditApplicability: number;
  creditsChargedAllSlots: Flag;
}

export interface AccessoryResourcesTable {
  accessoryId: number;
  resourceId: number;
  minQuantity: number | null;
  maxQuantity: number | null;
}

export interface CustomAttributesTable {
  id: Generated<number>;
  label: string;
  type: number;
  categoryId: number;
  regex: string | null;
  required: Flag;
  /** JSON array of strings. */
  possibleValues: string;
  sortOrder: number;
  adminOnly: Flag;
  isPrivate: Flag;
  secondaryCategoryId: number | null;
  /** JSON array of ids. */
  secondaryEntityIds: string;
}

export interface CustomAttributeAppliesToTable {
  attributeId: number;
  entityId: number;
}

export interface CustomAttributeValuesTable {
  attributeId: number;
  entityId: number;
  value: string;
}

export interface SettingsTable {
  key: string;
  value: string;
}

export const ReservationRole = { participant: 2, invitee: 3 } as const;

export interface ReservationSeriesTable {
  id: Generated<number>;
  ownerId: number;
  /** The primary resource; additional ones are in reservation_series_resources. */
  resourceId: number;
  title: string;
  description: string;
  allowParticipation: Flag;
  termsAccepted: Flag;
  /** JSON of the series' recurrence rule, as domain/recurrence.ts reads it. */
  recurrence: string;
  startReminderMinutes: number | null;
  endReminderMinutes: number | null;
  isPendingApproval: Flag;
  createdAt: number;
  updatedAt: number;
}

export interface ReservationSeriesResourcesTable {
  seriesId: number;
  resourceId: number;
}

export interface ReservationPeopleTable {
  seriesId: number;
  userId: number;
  role: number;
}

export interface ReservationGuestsTable {
  seriesId: number;
  email: string;
  role: number;
}

export interface ReservationAccessoriesTable {
  seriesId: number;
  accessoryId: number;
  quantity: number;
}

/** One occurrence of a series. Instants are epoch milliseconds (UTC). */
export interface ReservationsTable {
  id: Generated<number>;
  seriesId: number;
  referenceNumber: string;
  startAt: number;
  endAt: number;
  originalEndAt: number | null;
  checkInAt: number | null;
  checkOutAt: number | null;
  creditsConsumed: number;
}

export interface ReservationBookingsTable {
  resourceId: number;
  startAt: number;
  endAt: number;
  reservationId: number;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  userGroups: UserGroupsTable;
  groupRoles: GroupRolesTable;
  groupMembers: GroupMembersTable;
  groupResourcePermissions: GroupResourcePermissionsTable;
  userResourcePermissions: UserResourcePermissionsTable;
  schedules: SchedulesTable;
  schedulePeriods: SchedulePeriodsTable;
  resources: ResourcesTable;
  resourceGroups: ResourceGroupsTable;
  resourceGroupMembers: ResourceGroupMembersTable;
  resourceTypes: ResourceTypesTable;
  resourceStatusReasons: ResourceStatusReasonsTable;
  accessories: AccessoriesTable;
  accessoryResources: AccessoryResourcesTable;
  customAttributes: CustomAttributesTable;
  customAttributeAppliesTo: CustomAttributeAppliesToTable;
  customAttributeValues: CustomAttributeValuesTable;
  settings: SettingsTable;
  reservationSeries: ReservationSeriesTable;
  reservationSeriesResources: ReservationSeriesResourcesTable;
  reservationPeople: ReservationPeopleTable;
  reservationGuests: ReservationGuestsTable;
  reservationAccessories: ReservationAccessoriesTable;
  reservations: ReservationsTable;
  reservationBookings: ReservationBookingsTable;
}

export type UserRow = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type ResourceRow = Selectable<ResourcesTable>;
export type NewResource = Insertable<ResourcesTable>;
export type ScheduleRow = Selectable<SchedulesTable>;
export type SchedulePeriodRow = Selectable<SchedulePeriodsTable>;
export type AttributeRow = Selectable<CustomAttributesTable>;
export type AccessoryRow = Selectable<AccessoriesTable>;
export type ReservationSeriesRow = Selectable<ReservationSeriesTable>;
export type ReservationRow = Selectable<ReservationsTable>;
