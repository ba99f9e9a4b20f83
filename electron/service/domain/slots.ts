import type { Result } from '../../api/result.js';
import type { HeldTime } from './availability.js';

/** A period of a schedule's day, as far as slots care: instants in epoch milliseconds. */
export interface SlotPeriod {
  startAt: number;
  endAt: number;
}

/** One cell of a resource's row: consecutive periods, free or held by one reservation. */
export interface PlannedSlot<P extends SlotPeriod> {
  /** The first and last period the slot spans (the same one when `slotSpan` is 1). */
  first: P;
  last: P;
  slotSpan: number;
  /** The reservation holding every period of the slot; null for a free period. */
  reservationId: number | null;
}

const overlaps = (booking: HeldTime, period: SlotPeriod) => booking.startAt < period.endAt && booking.endAt > period.startAt;

/**
 * A resource's slots for a run of periods (sorted, not overlapping) from its bookings (sorted by
 * start). A free period is a slot of its own; a period a booking touches joins the following
 * periods the same booking touches into one slot. When several bookings touch a period (a
 * resource that allows concurrent reservations) the one that starts first holds it.
 */
export function planSlots<P extends SlotPeriod>(periods: readonly P[], bookings: readonly HeldTime[]): PlannedSlot<P>[] {
  const slots: PlannedSlot<P>[] = [];
  // Bookings before `first` end before the current period starts; periods only move forward.
  let first = 0;
  let index = 0;
  while (index < periods.length) {
    const period = periods[index]!;
    while (first < bookings.length && bookings[first]!.endAt <= period.startAt) first += 1;
    let holder: HeldTime | undefined;
    for (let candidate = first; candidate < bookings.length && bookings[candidate]!.startAt < period.endAt; candidate += 1) {
      if (overlaps(bookings[candidate]!, period)) {
        holder = bookings[candidate];
        break;
      }
    }
    let last = index;
    if (holder) {
      while (last + 1 < periods.length && overlaps(holder, periods[last + 1]!)) last += 1;
    }
    slots.push({ first: period, last: periods[last]!, slotSpan: last - index + 1, reservationId: holder?.reservationId ?? null });
    index = last + 1;
  }
  return slots;
}

/** The longest window GetSlots lays out, in days. */
export const maxSlotDays = 31;

/** The schedule's default window when a schedule does not say: a week. */
const defaultDaysVisible = 7;

/** The dates to lay out. */
export type SlotWindow = Result<string[], 'endBeforeStart' | 'tooLong'>;

const addDays = (isoDate: string, days: number) => {
  const [year, month, day] = isoDate.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(year, month - 1, day + days)).toISOString().slice(0, 10);
};

const daysBetween = (from: string, to: string) => (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000;

/**
 * The calendar dates (`yyyy-MM-dd`, in the caller's zone) GetSlots lays out. Both ends are
 * inclusive dates. Without either, `daysVisible` days from today; with one, `daysVisible` days
 * from the start or up to the end; with both, every date between them. At most `maxSlotDays`.
 */
export function slotWindow(start: string | null, end: string | null, today: string, daysVisible: number): SlotWindow {
  const visible = Math.min(daysVisible >= 1 ? daysVisible : defaultDaysVisible, maxSlotDays);
  const first = start ?? (end === null ? today : addDays(end, 1 - visible));
  const last = end ?? addDays(first, visible - 1);
  const count = daysBetween(first, last) + 1;
  if (count < 1) return { ok: false, error: 'endBeforeStart' };
  if (count > maxSlotDays) return { ok: false, error: 'tooLong' };
  return { ok: true, value: Array.from({ length: count }, (_, index) => addDays(first, index)) };
}
