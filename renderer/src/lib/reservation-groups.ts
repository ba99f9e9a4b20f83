/**
 * My reservations by day: every reservation, and every occurrence of a series, under the day it
 * falls on in the user's zone, so a daily series shows in Today, Tomorrow and each day after.
 */
import type { ReservationView } from '$bridge/contract.js';
import type { DateFormat } from './format.js';

export interface ReservationDay {
  /** `YYYY-MM-DD` in the user's zone. */
  key: string;
  /** `Today`, `Tomorrow`, `Wednesday 26 November`. */
  heading: string;
  reservations: ReservationView[];
}

/** `reservations` in any order; the days and each day's reservations come soonest first. */
export function reservationDays(reservations: readonly ReservationView[], format: DateFormat, nowMs: number): ReservationDay[] {
  const days = new Map<string, ReservationDay>();
  const soonestFirst = [...reservations].sort((a, b) => Date.parse(a.start) - Date.parse(b.start));
  for (const reservation of soonestFirst) {
    const key = format.dayKey(reservation.start);
    const day = days.get(key);
    if (day) day.reservations.push(reservation);
    else days.set(key, { key, heading: format.dayHeading(reservation.start, nowMs), reservations: [reservation] });
  }
  return [...days.values()].sort((a, b) => a.key.localeCompare(b.key));
}
