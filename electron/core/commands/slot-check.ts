/** Whether a booking fits the resource's slots, as the server will demand, with the reason when it does not. */
import { DateTime } from 'luxon';
import { commandMessages, describeTime } from './command-messages.js';
import { resourceSlots } from '../views/resource-views.js';
import type { WireSlots } from '../../api/wire.js';

export interface SlotSpan {
  startMs: number;
  endMs: number;
  isReservable: boolean;
  isReserved: boolean;
  label: string;
}

export function slotSpans(slots: WireSlots, resourceId: number): SlotSpan[] {
  return resourceSlots(slots, resourceId).map(({ start, end, slot }) => ({
    startMs: start.toMillis(),
    endMs: end.toMillis(),
    isReservable: slot.isReservable,
    isReserved: slot.isReserved,
    label: slot.label ?? '',
  }));
}

/** A stretch of time something else holds. */
export interface BusySpan {
  startMs: number;
  endMs: number;
}

const overlaps = (a: BusySpan, startMs: number, endMs: number) => a.startMs < endMs && a.endMs > startMs;

/** Whether a slot the booking needs is already reserved. */
export function isTaken(slots: WireSlots, resourceId: number, start: DateTime, end: DateTime): boolean {
  return slotSpans(slots, resourceId).some((span) => span.isReserved && overlaps(span, start.toMillis(), end.toMillis()));
}

/**
 * The first start at or after `fromMs` where a booking of `lengthMs` fits: it begins and ends on
 * slot boundaries, crosses only bookable slots with no gap between them, and meets nothing busy.
 */
export function nextFreeSpan(spans: readonly SlotSpan[], busy: readonly BusySpan[], fromMs: number, lengthMs: number): BusySpan | null {
  const isFree = (span: SlotSpan) =>
    span.isReservable && !span.isReserved && !busy.some((held) => overlaps(held, span.startMs, span.endMs));
  for (let first = 0; first < spans.length; first += 1) {
    const startMs = spans[first]!.startMs;
    if (startMs < fromMs) continue;
    const endMs = startMs + lengthMs;
    let reachedMs = startMs;
    for (let index = first; index < spans.length && reachedMs < endMs; index += 1) {
      const span = spans[index]!;
      if (span.startMs !== reachedMs || !isFree(span)) break;
      reachedMs = span.endMs;
    }
    if (reachedMs === endMs) return { startMs, endMs };
  }
  return null;
}

/** Null when the booking fits; a time already booked is for the caller (`isTaken`) or the server to refuse. */
export function slotProblem(
  slots: WireSlots,
  resourceId: number,
  start: DateTime,
  end: DateTime,
  name: string,
  zone: string,
): string | null {
  const startMs = start.toMillis();
  const endMs = end.toMillis();
  const overlapping = slotSpans(slots, resourceId).filter((span) => overlaps(span, startMs, endMs));
  if (overlapping.some((span) => span.isReserved)) return null;
  const time = (ms: number) => describeTime(DateTime.fromMillis(ms), zone, start);
  const blocked = overlapping.find((span) => !span.isReservable);
  if (blocked) return commandMessages.blocked(name, time(blocked.startMs), time(blocked.endMs), blocked.label);
  if (!overlapping.some((span) => span.startMs === startMs)) return commandMessages.notSlotStart(name, time(startMs));
  if (!overlapping.some((span) => span.endMs === endMs)) return commandMessages.notSlotEnd(name, time(endMs));
  for (let index = 1; index < overlapping.length; index += 1) {
    // A gap: the schedule's slots do not cover the time in between (days beyond the answer).
    if (overlapping[index]!.startMs !== overlapping[index - 1]!.endMs)
      return commandMessages.notSlotEnd(name, time(overlapping[index - 1]!.endMs));
  }
  return null;
}
