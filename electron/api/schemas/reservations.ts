import { Type } from '@sinclair/typebox';
import {
  CustomAttributeInputs,
  CustomAttributeValue,
  HumanDuration,
  Id,
  IdList,
  Needed,
  Nullable,
  OptionalDateTime,
  Text,
  Wire,
  WireDateTime,
} from './common.js';

export const UpdateScope = Type.Union([Type.Literal('this'), Type.Literal('full'), Type.Literal('future')]);

/** `{"3": "Alex Morgan"}`; real servers write an empty one as `[]`. */
const PeopleById = Type.Record(Type.String({ pattern: '^[0-9]+$' }), Type.String());

export const ReservationSummary = Wire({
  referenceNumber: Needed(Type.String()),
  startDate: Needed(WireDateTime),
  endDate: Needed(WireDateTime),
  firstName: Type.String(),
  lastName: Type.String(),
  resourceName: Type.String(),
  title: Type.String(),
  description: Type.String(),
  requiresApproval: Type.Boolean(),
  isRecurring: Type.Boolean(),
  scheduleId: Id,
  userId: Id,
  resourceId: Needed(Id),
  duration: HumanDuration,
  bufferTime: HumanDuration,
  bufferedStartDate: WireDateTime,
  bufferedEndDate: WireDateTime,
  /** Names keyed by user id, as real servers write them (server-facts C): who takes part, who is invited. */
  participants: PeopleById,
  invitees: PeopleById,
  participatingGuests: Type.Array(Type.String()),
  invitedGuests: Type.Array(Type.String()),
  startReminder: Nullable(Type.Integer()),
  endReminder: Nullable(Type.Integer()),
  color: Type.String(),
  textColor: Type.String(),
  checkInDate: OptionalDateTime,
  checkOutDate: OptionalDateTime,
  originalEndDate: OptionalDateTime,
  isCheckInEnabled: Type.Boolean(),
  autoReleaseMinutes: Nullable(Type.Integer()),
  resourceStatusId: Nullable(Type.Integer()),
  creditsConsumed: Nullable(Type.Integer()),
});

export const ReservationList = Wire({
  reservations: Type.Array(ReservationSummary),
  startDateTime: OptionalDateTime,
  endDateTime: OptionalDateTime,
});

export const Person = Wire({
  userId: Id,
  firstName: Type.String(),
  lastName: Type.String(),
  emailAddress: Type.String(),
});

export const RecurrenceType = Type.Union([
  Type.Literal('none'),
  Type.Literal('daily'),
  Type.Literal('weekly'),
  Type.Literal('monthly'),
  Type.Literal('yearly'),
]);

export const MonthlyType = Nullable(Type.Union([Type.Literal('dayOfMonth'), Type.Literal('dayOfWeek')]));

export const RecurrenceRule = Type.Object({
  type: RecurrenceType,
  interval: Nullable(Type.Integer()),
  monthlyType: MonthlyType,
  weekdays: Nullable(Type.Array(Type.Integer({ minimum: 0, maximum: 6 }))),
  repeatTerminationDate: OptionalDateTime,
});

export const ReminderInterval = Type.Union([Type.Literal('minutes'), Type.Literal('hours'), Type.Literal('days')]);
export const Reminder = Type.Object({ value: Type.Integer({ minimum: 0 }), interval: ReminderInterval });

export const ReservationResource = Wire({
  id: Needed(Id),
  name: Type.String(),
  type: Nullable(Type.Unknown()),
  groups: Nullable(Type.Unknown()),
});

export const ReservationAccessory = Wire({
  id: Id,
  name: Type.String(),
  quantityAvailable: Nullable(Type.Integer()),
  quantityReserved: Type.Integer(),
});

export const Reservation = Wire({
  referenceNumber: Needed(Type.String()),
  startDate: Needed(WireDateTime),
  endDate: Needed(WireDateTime),
  title: Type.String(),
  description: Type.String(),
  requiresApproval: Type.Boolean(),
  isRecurring: Type.Boolean(),
  scheduleId: Id,
  resourceId: Needed(Id),
  owner: Person,
  participants: Type.Array(Person),
  invitees: Type.Array(Person),
  customAttributes: Type.Array(CustomAttributeValue),
  recurrenceRule: RecurrenceRule,
  attachments: Type.Array(Type.Object({ url: Type.String() })),
  resources: Type.Array(ReservationResource),
  accessories: Type.Array(ReservationAccessory),
  startReminder: Nullable(Reminder),
  endReminder: Nullable(Reminder),
  allowParticipation: Nullable(Type.Boolean()),
  checkInDate: OptionalDateTime,
  checkOutDate: OptionalDateTime,
  originalEndDate: OptionalDateTime,
  isCheckInAvailable: Nullable(Type.Boolean()),
  isCheckoutAvailable: Nullable(Type.Boolean()),
  autoReleaseMinutes: Nullable(Type.Integer()),
});

export const RecurrenceRuleInput = Type.Object({
  type: Type.Optional(Text(20)),
  interval: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: 1000 }))),
  monthlyType: Type.Optional(Nullable(Text(20))),
  weekdays: Type.Optional(Nullable(Type.Array(Type.Integer({ minimum: 0, maximum: 6 }), { maxItems: 7 }))),
  repeatTerminationDate: Type.Optional(Nullable(Text(64))),
});

/** Members real servers crash without carry defaults, so a client always sends a full body. */
export const ReservationBody = Type.Object({
  accessories: Type.Optional(
    Type.Array(Type.Object({ accessoryId: Id, quantityRequested: Type.Integer({ minimum: 0 }) }), {
      maxItems: 200,
    }),
  ),
  customAttributes: Type.Optional(CustomAttributeInputs),
  description: Type.Optional(Text(4000, { default: '' })),
  title: Type.Optional(Text(300, { default: '' })),
  startDateTime: Type.Optional(Text(64)),
  endDateTime: Type.Optional(Text(64)),
  invitees: Type.Optional(IdList),
  participants: Type.Optional(IdList),
  participatingGuests: Type.Optional(Type.Array(Text(255), { maxItems: 500 })),
  invitedGuests: Type.Optional(Type.Array(Text(255), { maxItems: 500 })),
  recurrenceRule: Type.Optional(Nullable(RecurrenceRuleInput)),
  resourceId: Type.Optional(Id),
  resources: Type.Optional(IdList),
  userId: Type.Optional(Nullable(Id)),
  startReminder: Type.Optional(Nullable(Reminder)),
  endReminder: Type.Optional(Nullable(Reminder)),
  allowParticipation: Type.Optional(Type.Boolean({ default: false })),
  retryParameters: Type.Optional(Type.Array(Type.Object({ name: Text(100), value: Text(100) }), { maxItems: 20 })),
  termsAccepted: Type.Optional(Type.Boolean({ default: false })),
});

export const ReservationReference = Wire({
  referenceNumber: Needed(Type.String()),
  isPendingApproval: Type.Boolean(),
});

export const ReservationsQuery = Type.Object({
  userId: Type.Optional(Text(64)),
  resourceId: Type.Optional(Text(64)),
  scheduleId: Type.Optional(Text(64)),
  startDateTime: Type.Optional(Text(64)),
  endDateTime: Type.Optional(Text(64)),
});

export const UpdateScopeQuery = Type.Object({ updateScope: Type.Optional(Text(20)) });
