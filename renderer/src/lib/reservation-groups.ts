/** My reservations by day, with each series as one entry under the day of its next occurrence. */
import type { ReservationView } from '../../../electron/bridge.js';
import type { DateFormat } from './format.js';

export interface ReservationEntry {
  /** The next occurrence, or the one-off reservation. */
  first: ReservationView;
  /** A series' later occurrences, soonest first; empty for a one-off. */
  later: ReservationView[];
}

export interface ReservationDay {
  key: string;
  heading: string;
  entries: ReservationEntry[];
}

/** `reservations` come soonest first, as the core lists them. */
export function reservationDays(reservations: readonly ReservationView[], format: DateFormat, nowMs: number): ReservationDay[] {
  const days: ReservationDay[] = [];
  const series = new Map<string, ReservationEntry>();
  for (const reservation of reservations) {
    const known = reservation.seriesKey === null ? undefined : series.get(reservation.seriesKey);
    if (known) {
      known.later.push(reservation);
      continue;
    }
    const entry: ReservationEntry = { first: reservation, later: [] };
    if (reservation.seriesKey !== null) series.set(reservation.seriesKey, entry);
    const key = format.dayKey(reservation.start);
    const last = days.at(-1);
    if (last?.key === key) last.entries.push(entry);
    else days.push({ key, heading: format.dayHeading(reservation.start, nowMs), entries: [entry] });
  }
  return days;
}
