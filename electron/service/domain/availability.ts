/** What one resource holds: instants are epoch milliseconds; a booking covers [startAt, endAt). */
export interface HeldTime {
  startAt: number;
  endAt: number;
  reservationId: number;
}

/** How long availability looks ahead: `availableUntil` is at most this far after the asked time. */
export const availabilityHorizonDays = 7;

export interface Availability {
  /** Free at the asked time and in service. */
  available: boolean;
  /**
   * When it is (or becomes) free: the asked time itself when free, else the end of the run of
   * overlapping or back-to-back bookings that holds it. Null when it does not become free before
   * the horizon, or is out of service.
   */
  availableAt: number | null;
  /** When that free stretch ends: the next booking's start, else the horizon. Null with availableAt. */
  availableUntil: number | null;
  /** The reservation that holds the resource at the asked time, else the one that ends the free stretch. */
  reservationId: number | null;
}

const outOfService: Availability = { available: false, availableAt: null, availableUntil: null, reservationId: null };

/**
 * The availability of one resource at `at`, looking up to `horizon`. `bookings` are the resource's
 * bookings sorted by start; ones that end by `at` or start at or after `horizon` do not count.
 * A resource whose status is not Available is out of service: never free, whatever its bookings
 * say, so it answers no times at all rather than times it cannot be booked at.
 */
export function availabilityAt(bookings: readonly HeldTime[], at: number, horizon: number, inService: boolean): Availability {
  if (!inService) return outOfService;
  let freeFrom = at;
  let holding: HeldTime | null = null;
  let next: HeldTime | null = null;
  for (const booking of bookings) {
    if (booking.endAt <= at) continue;
    if (booking.startAt >= horizon) break;
    // A booking that starts exactly when the run ends continues it: there is no free moment between.
    if (booking.startAt <= freeFrom) {
      holding ??= booking;
      freeFrom = Math.max(freeFrom, booking.endAt);
    } else {
      next = booking;
      break;
    }
  }
  if (freeFrom >= horizon)
    return { available: false, availableAt: null, availableUntil: null, reservationId: holding?.reservationId ?? null };
  return {
    available: holding === null,
    availableAt: freeFrom,
    availableUntil: next?.startAt ?? horizon,
    reservationId: (holding ?? next)?.reservationId ?? null,
  };
}
