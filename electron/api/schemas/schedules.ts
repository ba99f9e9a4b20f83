import { Type } from '@sinclair/typebox';
import { Id, Needed, Nullable, Text, Wire, WireDateTime } from './common.js';
import { ReservationSummary } from './reservations.js';

const scheduleMembers = {
  daysVisible: Type.Integer(),
  id: Needed(Id),
  isDefault: Type.Boolean(),
  name: Type.String(),
  timezone: Type.String(),
  weekdayStart: Type.Integer(),
  availabilityEnd: Nullable(WireDateTime),
  maxResourcesPerReservation: Nullable(Type.Integer()),
  totalConcurrentReservationsAllowed: Nullable(Type.Integer()),
};

export const ScheduleListItem = Wire({ ...scheduleMembers, availabilityBegin: Nullable(WireDateTime) });
export const ScheduleList = Wire({ schedules: Type.Array(ScheduleListItem) });

export const Period = Type.Object({
  start: Needed(WireDateTime),
  end: Needed(WireDateTime),
  label: Nullable(Type.String()),
  startTime: Type.String(),
  endTime: Type.String(),
  isReservable: Type.Boolean(),
});

export const Schedule = Wire({
  ...scheduleMembers,
  availabilityStart: Nullable(WireDateTime),
  icsUrl: Nullable(Type.String()),
  /** One array per weekday, Sunday first. */
  periods: Type.Array(Type.Array(Period)),
});

export const Slot = Wire({
  slotSpan: Type.Integer(),
  isReserved: Type.Boolean(),
  label: Nullable(Type.String()),
  isReservable: Type.Boolean(),
  color: Nullable(Type.String()),
  startDateTime: Needed(WireDateTime),
  endDateTime: Needed(WireDateTime),
  reservation: Nullable(ReservationSummary),
});

export const SlotResource = Wire({
  slots: Type.Array(Slot),
  resourceId: Needed(Id),
  resourceName: Type.String(),
});

export const SlotDate = Wire({ date: WireDateTime, resources: Type.Array(SlotResource) });

export const Slots = Wire({ dates: Type.Array(SlotDate) });

export const SlotsQuery = Type.Object({
  resourceId: Type.Optional(Text(64)),
  startDateTime: Type.Optional(Text(64)),
  endDateTime: Type.Optional(Text(64)),
});
