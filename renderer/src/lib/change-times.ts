/**
 * The times Change time offers: the day's slots that are free, or held by the reservation being
 * moved (it may move within or across its own time), from now on.
 */
import type { SlotView } from '$bridge/contract.js';

export interface HeldSpan {
  startMs: number;
  endMs: number;
}

const usable = (slot: SlotView, own: HeldSpan) =>
  slot.isReservable || (Date.parse(slot.start) >= own.startMs && Date.parse(slot.end) <= own.endMs);

/** Starts of the usable slots that have not begun. */
export function startsOf(slots: readonly SlotView[], own: HeldSpan, nowMs: number): string[] {
  return slots.filter((slot) => usable(slot, own) && Date.parse(slot.start) >= nowMs - 60_000).map((slot) => slot.start);
}

/** The ends reachable from `start` over usable slots without a gap. */
export function endsFrom(slots: readonly SlotView[], start: string, own: HeldSpan): string[] {
  const first = slots.findIndex((slot) => Date.parse(slot.start) === Date.parse(start));
  if (first < 0) return [];
  const ends: string[] = [];
  let reached = Date.parse(start);
  for (const slot of slots.slice(first)) {
    if (!usable(slot, own) || Date.parse(slot.start) !== reached) break;
    reached = Date.parse(slot.end);
    ends.push(slot.end);
  }
  return ends;
}
