import { Type } from '@sinclair/typebox';
import {
  CustomAttributeInputs,
  CustomAttributeValue,
  HexColor,
  HumanDuration,
  Id,
  IdList,
  Needed,
  Nullable,
  Text,
  Wire,
  WireDateTime,
} from './common.js';

export const ResourceStatus = { hidden: 0, available: 1, unavailable: 2 } as const;
export const CreditApplicability = { perSlot: 1, perReservation: 2 } as const;

export const Resource = Wire({
  resourceId: Needed(Id),
  name: Needed(Type.String()),
  location: Type.String(),
  contact: Type.String(),
  notes: Type.String(),
  description: Type.String(),
  minLength: HumanDuration,
  maxLength: HumanDuration,
  requiresApproval: Type.Boolean(),
  allowMultiday: Type.Boolean(),
  maxParticipants: Nullable(Type.Integer()),
  minNoticeAdd: HumanDuration,
  minNoticeUpdate: HumanDuration,
  minNoticeDelete: HumanDuration,
  maxNotice: HumanDuration,
  scheduleId: Needed(Id),
  icsUrl: Nullable(Type.String()),
  // A server that leaves the status out is serving the resource.
  statusId: Type.Integer({ default: ResourceStatus.available }),
  statusReasonId: Nullable(Type.Integer()),
  customAttributes: Type.Array(CustomAttributeValue),
  typeId: Nullable(Type.Integer()),
  groupIds: Nullable(Type.Array(Type.Integer())),
  bufferTime: HumanDuration,
  autoReleaseMinutes: Nullable(Type.Integer()),
  requiresCheckIn: Type.Boolean(),
  color: Type.String(),
  credits: Nullable(Type.Integer()),
  peakCredits: Nullable(Type.Integer()),
  creditApplicability: Type.Integer({ default: CreditApplicability.perSlot }),
  creditsChargedAllSlots: Type.Boolean(),
  maxConcurrentReservations: Type.Integer({ default: 1 }),
});

export const ResourceList = Wire({ resources: Type.Array(Resource) });

/** `<d>d<h>h<m>m` or a number of seconds; validated by the interval parser, not by a pattern. */
const IntervalValue = Type.Union([Text(40), Type.Integer({ minimum: 0 })]);
const Interval = Type.Optional(Nullable(IntervalValue));
/** Real servers crash without these intervals; the default "" means "no limit". */
const SentInterval = Type.Optional(Type.Union([IntervalValue, Type.Null()], { default: '' }));

/**
 * The spec's members plus the ones real servers crash without (bufferTime, the three
 * minNotice variants, groupIds, typeId): clients always send them all.
 */
export const ResourceBody = Type.Object({
  name: Type.Optional(Text(85)),
  location: Type.Optional(Text(255)),
  contact: Type.Optional(Text(255)),
  notes: Type.Optional(Text()),
  description: Type.Optional(Text()),
  minLength: Interval,
  maxLength: Interval,
  minNotice: Interval,
  minNoticeAdd: SentInterval,
  minNoticeUpdate: SentInterval,
  minNoticeDelete: SentInterval,
  maxNotice: Interval,
  bufferTime: SentInterval,
  requiresApproval: Type.Optional(Type.Boolean({ default: false })),
  allowMultiday: Type.Optional(Type.Boolean({ default: false })),
  autoAssignPermissions: Type.Optional(Type.Boolean({ default: true })),
  requiresCheckIn: Type.Optional(Type.Boolean({ default: false })),
  maxParticipants: Type.Optional(Nullable(Type.Integer({ minimum: 0 }))),
  scheduleId: Type.Optional(Id),
  customAttributes: Type.Optional(CustomAttributeInputs),
  sortOrder: Type.Optional(Nullable(Type.Integer())),
  statusId: Type.Optional(Type.Integer({ minimum: 0, maximum: 2 })),
  statusReasonId: Type.Optional(Nullable(Type.Integer())),
  autoReleaseMinutes: Type.Optional(Nullable(Type.Integer({ minimum: 0 }))),
  color: Type.Optional(Nullable(Type.Union([HexColor, Type.Literal('')]))),
  credits: Type.Optional(Nullable(Type.Integer({ minimum: 0 }))),
  peakCredits: Type.Optional(Nullable(Type.Integer({ minimum: 0 }))),
  creditApplicability: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: 2 }))),
  creditsChargedAllSlots: Type.Optional(Nullable(Type.Union([Type.Integer(), Type.Boolean()]))),
  maxConcurrentReservations: Type.Optional(Nullable(Type.Integer({ minimum: 1 }))),
  groupIds: Type.Optional(Type.Union([IdList, Type.Null()], { default: [] })),
  typeId: Type.Optional(Type.Union([Type.Integer(), Type.Null()], { default: null })),
});

export const ResourceReference = Wire({ resourceId: Id });

export const StatusItem = Type.Object({ id: Type.Integer(), name: Type.String() });
export const StatusList = Wire({ statuses: Type.Array(StatusItem) });

export const StatusReason = Type.Object({ id: Id, description: Type.String(), statusId: Type.Integer() });
export const StatusReasonList = Wire({ reasons: Type.Array(StatusReason) });

export const ResourceType = Type.Object({ id: Id, description: Type.String() });
export const ResourceTypeList = Wire({ types: Type.Array(ResourceType) });

export const ResourceTreeResource = Type.Object({
  type: Needed(Type.Literal('resource')),
  id: Type.String(),
  group_id: Type.Integer(),
  resource_id: Needed(Id),
  resource_name: Type.String(),
  label: Type.String(),
  resourceAdminGroupId: Nullable(Type.Integer()),
  scheduleId: Id,
  statusId: Type.Integer(),
  scheduleAdminGroupId: Nullable(Type.Integer()),
  requiresApproval: Type.Boolean(),
  isCheckInEnabled: Type.Boolean(),
  isAutoReleased: Type.Boolean(),
  autoReleaseMinutes: Nullable(Type.Integer()),
  minLength: Nullable(Type.Integer()),
  resourceTypeId: Nullable(Type.Integer()),
  color: Type.String(),
  textColor: Type.String(),
  maxConcurrentReservations: Type.Integer(),
  requiredResourceIds: Type.Array(Type.Integer()),
});

export const ResourceTreeGroup = Type.Recursive((Node) =>
  Type.Object({
    type: Needed(Type.Literal('group')),
    // Installs without resource groups answer one group "All" with id 0.
    id: Needed(Type.Integer({ minimum: 0 })),
    name: Type.String(),
    label: Type.String(),
    parent: Nullable(Type.Unknown()),
    parent_id: Nullable(Type.Integer()),
    children: Type.Array(Type.Union([Node, ResourceTreeResource])),
  }),
);

export const ResourceGroupTree = Wire({ groups: Type.Array(ResourceTreeGroup) });

export const AvailabilityResource = Wire({
  resourceId: Needed(Id),
  name: Type.String(),
  scheduleId: Id,
  statusId: Type.Integer(),
  statusReasonId: Nullable(Type.Integer()),
});

export const AvailabilityItem = Wire({
  available: Needed(Type.Boolean()),
  resource: Needed(AvailabilityResource),
  availableAt: Nullable(WireDateTime),
  availableUntil: Nullable(WireDateTime),
});

export const AvailabilityList = Wire({ resources: Type.Array(AvailabilityItem) });

export const GetAllResourcesQuery = Type.Object({
  scheduleId: Type.Optional(Text(2000)),
  groupId: Type.Optional(Text(2000)),
});

export const AvailabilityQuery = Type.Object({ dateTime: Type.Optional(Text(64)) });
