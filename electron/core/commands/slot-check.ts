/** Whether a booking fits the resource's slots, as the server will demand, with the reason when it does not. */
import { DateTime } from 'luxon';
import { commandMessages, describeTime } from './command-messages.js';
import { resourceSlots, type WireSlots } from '../views/state.js';

interface SlotSpan {
  startMs: number;
  endMs: number;
  isReservable: boolean;
  isReserved: boolean;
  label: string;
}

function slotSpans(slots: WireSlots, resourceId: number): SlotSpan[] {
  return resourceSlots(slots, resourceId).map(({ start, end, slot }) => ({
    startMs: start.toMillis(),
    endMs: end.toMillis(),
    isReservable: slot.isReservable,
    isReserved: slot.isReserved,
    label: slot.label ?? '',
  }));
}

/** Null when the booking fits; a time already booked is left for the server to refuse in its own words. */
export function slotProblem(slots: WireSlots, resourceId: number, start: DateTime, end: DateTime, name: string, zone: string): string | null {
  const startMs = start.toMillis();
  const endMs = end.toMillis();
  const overlapping = slotSpans(slots, resourceId).filter((span) => span.startMs < endMs && span.endMs > startMs);
  if (overlapping.some((span) => span.isReserved)) return null;
  const time = (ms: number) => describeTime(DateTime.fromMillis(ms), zone, start);
  const blocked = overlapping.find((span) => !span.isReservable);
  if (blocked) return commandMessages.blocked(name, time(blocked.startMs), time(blocked.endMs), blocked.label);
  if (!overlapping.some((span) => span.startMs === startMs)) return commandMessages.notSlotStart(name, time(startMs));
  if (!overlapping.some((span) => span.endMs === endMs)) return commandMessages.notSlotEnd(name, time(endMs));
  for (let index = 1; index < overlapping.length; index += 1) {
    // A gap: the schedule's slots do not cover the time in between (days beyond the answer).
    if (overlapping[index]!.startMs !== overlapping[index - 1]!.endMs) return commandMessages.notSlotEnd(name, time(overlapping[index - 1]!.endMs));
  }
  return null;
}
