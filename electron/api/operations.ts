import { Type, type TObject, type TSchema } from '@sinclair/typebox';
import { Accessory, AccessoryList } from './schemas/accessories.js';
import { Account, AccountReference, CreateAccountBody, UpdateAccountBody, UpdateAccountPasswordBody } from './schemas/accounts.js';
import { AttributeBody, AttributeDefinition, AttributeList, AttributeReference } from './schemas/attributes.js';
import { AuthenticateBody, AuthenticateResult, SignOutBody, SignOutResult } from './schemas/authentication.js';
import { DeletionEnvelope, Id, Text } from './schemas/common.js';
import { Group, GroupBody, GroupList, GroupPermissionsBody, GroupReference, GroupRolesBody, GroupUsersBody } from './schemas/groups.js';
import {
  Reservation,
  ReservationBody,
  ReservationList,
  ReservationReference,
  ReservationsQuery,
  UpdateScopeQuery,
} from './schemas/reservations.js';
import {
  AvailabilityList,
  AvailabilityQuery,
  GetAllResourcesQuery,
  Resource,
  ResourceBody,
  ResourceGroupTree,
  ResourceList,
  ResourceReference,
  ResourceTypeList,
  StatusList,
  StatusReasonList,
} from './schemas/resources.js';
import { Schedule, ScheduleList, Slots, SlotsQuery } from './schemas/schedules.js';
import { CreateUserBody, UpdateUserBody, UpdateUserPasswordBody, User, UserList, UserReference, UsersQuery } from './schemas/users.js';

/** Every route hangs below this prefix; it has no version segment. */
export const apiRootPath = '/Web/Services/index.php';

export type AuthLevel = 'none' | 'session' | 'admin';
export type HttpMethod = 'GET' | 'POST' | 'DELETE';
export type ApiGroup =
  'Accessories' | 'Accounts' | 'Attributes' | 'Authentication' | 'Groups' | 'Reservations' | 'Resources' | 'Schedules' | 'Users';

export interface OperationDefinition {
  readonly group: ApiGroup;
  /** The operation's name as the spec writes it (two are called UpdatePassword). */
  readonly specName: string;
  readonly method: HttpMethod;
  /** Exactly as the spec writes it, trailing slash included. */
  readonly path: string;
  readonly auth: AuthLevel;
  readonly query?: TObject;
  readonly body?: TObject;
  readonly response: TSchema;
  readonly successStatus: 200 | 201;
  /** The spec promises no body (SignOut); real servers send one anyway. */
  readonly bodyOptional?: true;
}

/** Path parameters by name; every `:name` in a path must be listed here. */
export const pathParameters = {
  accessoryId: Id,
  attributeId: Id,
  categoryId: Type.Integer(),
  groupId: Id,
  referenceNumber: Text(64),
  resourceId: Id,
  scheduleId: Id,
  userId: Id,
} as const;

export type PathParameterName = keyof typeof pathParameters;

const define = <const O extends OperationDefinition>(operation: O) => operation;

const read = { method: 'GET', successStatus: 200 } as const;
const write = { method: 'POST', successStatus: 200 } as const;
const create = { method: 'POST', successStatus: 201 } as const;
const remove = { method: 'DELETE', successStatus: 200, response: DeletionEnvelope } as const;

export const operations = {
  getAllAccessories: define({
    group: 'Accessories',
    specName: 'GetAllAccessories',
    ...read,
    path: '/Accessories/',
    auth: 'session',
    response: AccessoryList,
  }),
  getAccessory: define({
    group: 'Accessories',
    specName: 'GetAccessory',
    ...read,
    path: '/Accessories/:accessoryId',
    auth: 'session',
    response: Accessory,
  }),

  createAccount: define({
    group: 'Accounts',
    specName: 'CreateAccount',
    ...create,
    path: '/Accounts/',
    auth: 'none',
    body: CreateAccountBody,
    response: AccountReference,
  }),
  updateAccount: define({
    group: 'Accounts',
    specName: 'UpdateAccount',
    ...write,
    path: '/Accounts/:userId',
    auth: 'session',
    body: UpdateAccountBody,
    response: AccountReference,
  }),
  updateAccountPassword: define({
    group: 'Accounts',
    specName: 'UpdatePassword',
    ...write,
    path: '/Accounts/:userId/Password',
    auth: 'session',
    body: UpdateAccountPasswordBody,
    response: AccountReference,
  }),
  getAccount: define({ group: 'Accounts', specName: 'GetAccount', ...read, path: '/Accounts/:userId', auth: 'session', response: Account }),

  createCustomAttribute: define({
    group: 'Attributes',
    specName: 'CreateCustomAttribute',
    ...create,
    path: '/Attributes/',
    auth: 'admin',
    body: AttributeBody,
    response: AttributeReference,
  }),
  updateCustomAttribute: define({
    group: 'Attributes',
    specName: 'UpdateCustomAttribute',
    ...write,
    path: '/Attributes/:attributeId',
    auth: 'admin',
    body: AttributeBody,
    response: AttributeReference,
  }),
  getCategoryAttributes: define({
    group: 'Attributes',
    specName: 'GetCategoryAttributes',
    ...read,
    path: '/Attributes/Category/:categoryId',
    auth: 'session',
    response: AttributeList,
  }),
  getAttribute: define({
    group: 'Attributes',
    specName: 'GetAttribute',
    ...read,
    path: '/Attributes/:attributeId',
    auth: 'session',
    response: AttributeDefinition,
  }),
  deleteCustomAttribute: define({
    group: 'Attributes',
    specName: 'DeleteCustomAttribute',
    ...remove,
    path: '/Attributes/:attributeId',
    auth: 'admin',
  }),

  authenticate: define({
    group: 'Authentication',
    specName: 'Authenticate',
    ...write,
    path: '/Authentication/Authenticate',
    auth: 'none',
    body: AuthenticateBody,
    response: AuthenticateResult,
  }),
  signOut: define({
    group: 'Authentication',
    specName: 'SignOut',
    ...write,
    path: '/Authentication/SignOut',
    auth: 'none',
    body: SignOutBody,
    response: SignOutResult,
    bodyOptional: true,
  }),

  createGroup: define({
    group: 'Groups',
    specName: 'CreateGroup',
    ...create,
    path: '/Groups/',
    auth: 'admin',
    body: GroupBody,
    response: GroupReference,
  }),
  updateGroup: define({
    group: 'Groups',
    specName: 'UpdateGroup',
    ...write,
    path: '/Groups/:groupId',
    auth: 'admin',
    body: GroupBody,
    response: GroupReference,
  }),
  changeGroupRoles: define({
    group: 'Groups',
    specName: 'ChangeGroupRoles',
    ...write,
    path: '/Groups/:groupId/Roles',
    auth: 'admin',
    body: GroupRolesBody,
    response: GroupReference,
  }),
  changeGroupPermissions: define({
    group: 'Groups',
    specName: 'ChangeGroupPermissions',
    ...write,
    path: '/Groups/:groupId/Permissions',
    auth: 'admin',
    body: GroupPermissionsBody,
    response: GroupReference,
  }),
  changeGroupUsers: define({
    group: 'Groups',
    specName: 'ChangeGroupUsers',
    ...write,
    path: '/Groups/:groupId/Users',
    auth: 'admin',
    body: GroupUsersBody,
    response: GroupReference,
  }),
  getAllGroups: define({ group: 'Groups', specName: 'GetAllGroups', ...read, path: '/Groups/', auth: 'session', response: GroupList }),
  getGroup: define({ group: 'Groups', specName: 'GetGroup', ...read, path: '/Groups/:groupId', auth: 'session', response: Group }),
  deleteGroup: define({ group: 'Groups', specName: 'DeleteGroup', ...remove, path: '/Groups/:groupId', auth: 'admin' }),

  createReservation: define({
    group: 'Reservations',
    specName: 'CreateReservation',
    ...create,
    path: '/Reservations/',
    auth: 'session',
    body: ReservationBody,
    response: ReservationReference,
  }),
  updateReservation: define({
    group: 'Reservations',
    specName: 'UpdateReservation',
    ...write,
    path: '/Reservations/:referenceNumber',
    auth: 'session',
    query: UpdateScopeQuery,
    body: ReservationBody,
    response: ReservationReference,
  }),
  approveReservation: define({
    group: 'Reservations',
    specName: 'ApproveReservation',
    ...write,
    path: '/Reservations/:referenceNumber/Approval',
    auth: 'session',
    response: ReservationReference,
  }),
  checkinReservation: define({
    group: 'Reservations',
    specName: 'CheckinReservation',
    ...write,
    path: '/Reservations/:referenceNumber/CheckIn',
    auth: 'session',
    response: ReservationReference,
  }),
  checkoutReservation: define({
    group: 'Reservations',
    specName: 'CheckoutReservation',
    ...write,
    path: '/Reservations/:referenceNumber/CheckOut',
    auth: 'session',
    response: ReservationReference,
  }),
  getReservations: define({
    group: 'Reservations',
    specName: 'GetReservations',
    ...read,
    path: '/Reservations/',
    auth: 'session',
    query: ReservationsQuery,
    response: ReservationList,
  }),
  getReservation: define({
    group: 'Reservations',
    specName: 'GetReservation',
    ...read,
    path: '/Reservations/:referenceNumber',
    auth: 'session',
    response: Reservation,
  }),
  deleteReservation: define({
    group: 'Reservations',
    specName: 'DeleteReservation',
    ...remove,
    path: '/Reservations/:referenceNumber',
    auth: 'session',
    query: UpdateScopeQuery,
  }),

  createResource: define({
    group: 'Resources',
    specName: 'CreateResource',
    ...create,
    path: '/Resources/',
    auth: 'admin',
    body: ResourceBody,
    response: ResourceReference,
  }),
  updateResource: define({
    group: 'Resources',
    specName: 'UpdateResource',
    ...write,
    path: '/Resources/:resourceId',
    auth: 'admin',
    body: ResourceBody,
    response: ResourceReference,
  }),
  getStatuses: define({
    group: 'Resources',
    specName: 'GetStatuses',
    ...read,
    path: '/Resources/Status',
    auth: 'none',
    response: StatusList,
  }),
  getStatusReasons: define({
    group: 'Resources',
    specName: 'GetStatusReasons',
    ...read,
    path: '/Resources/Status/Reasons',
    auth: 'session',
    response: StatusReasonList,
  }),
  getAllResources: define({
    group: 'Resources',
    specName: 'GetAllResources',
    ...read,
    path: '/Resources/',
    auth: 'session',
    query: GetAllResourcesQuery,
    response: ResourceList,
  }),
  getAvailability: define({
    group: 'Resources',
    specName: 'GetAvailability',
    ...read,
    path: '/Resources/Availability',
    auth: 'session',
    query: AvailabilityQuery,
    response: AvailabilityList,
  }),
  getResourceGroups: define({
    group: 'Resources',
    specName: 'GetGroups',
    ...read,
    path: '/Resources/Groups',
    auth: 'session',
    response: ResourceGroupTree,
  }),
  getResourceTypes: define({
    group: 'Resources',
    specName: 'GetResourceTypes',
    ...read,
    path: '/Resources/Types',
    auth: 'session',
    response: ResourceTypeList,
  }),
  getResource: define({
    group: 'Resources',
    specName: 'GetResource',
    ...read,
    path: '/Resources/:resourceId',
    auth: 'session',
    response: Resource,
  }),
  getResourceAvailability: define({
    group: 'Resources',
    specName: 'GetResourceAvailability',
    ...read,
    path: '/Resources/:resourceId/Availability',
    auth: 'session',
    query: AvailabilityQuery,
    response: AvailabilityList,
  }),
  deleteResource: define({ group: 'Resources', specName: 'DeleteResource', ...remove, path: '/Resources/:resourceId', auth: 'admin' }),

  getAllSchedules: define({
    group: 'Schedules',
    specName: 'GetAllSchedules',
    ...read,
    path: '/Schedules/',
    auth: 'session',
    response: ScheduleList,
  }),
  getSchedule: define({
    group: 'Schedules',
    specName: 'GetSchedule',
    ...read,
    path: '/Schedules/:scheduleId',
    auth: 'session',
    response: Schedule,
  }),
  getSlots: define({
    group: 'Schedules',
    specName: 'GetSlots',
    ...read,
    path: '/Schedules/:scheduleId/Slots',
    auth: 'session',
    query: SlotsQuery,
    response: Slots,
  }),

  createUser: define({
    group: 'Users',
    specName: 'CreateUser',
    ...create,
    path: '/Users/',
    auth: 'admin',
    body: CreateUserBody,
    response: UserReference,
  }),
  updateUser: define({
    group: 'Users',
    specName: 'UpdateUser',
    ...write,
    path: '/Users/:userId',
    auth: 'admin',
    body: UpdateUserBody,
    response: UserReference,
  }),
  updateUserPassword: define({
    group: 'Users',
    specName: 'UpdatePassword',
    ...write,
    path: '/Users/:userId/Password',
    auth: 'admin',
    body: UpdateUserPasswordBody,
    response: UserReference,
  }),
  getAllUsers: define({
    group: 'Users',
    specName: 'GetAllUsers',
    ...read,
    path: '/Users/',
    auth: 'session',
    query: UsersQuery,
    response: UserList,
  }),
  getUser: define({ group: 'Users', specName: 'GetUser', ...read, path: '/Users/:userId', auth: 'session', response: User }),
  deleteUser: define({ group: 'Users', specName: 'DeleteUser', ...remove, path: '/Users/:userId', auth: 'admin' }),
} as const satisfies Record<string, OperationDefinition>;

export type Operations = typeof operations;
export type OperationName = keyof Operations;

export const operationNames = Object.keys(operations) as OperationName[];

/** `:name` segments of a path, as a union of their names. */
export type PathParameterNames<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? Name | PathParameterNames<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? Name
    : never;

export function pathParameterNames(path: string): PathParameterName[] {
  return [...path.matchAll(/:(\w+)/g)].map(([, name]) => {
    if (!(name! in pathParameters)) throw new Error(`Path parameter ${name} has no schema`);
    return name as PathParameterName;
  });
}
