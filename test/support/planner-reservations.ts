import { DateTime } from 'luxon';
import type { PlannerReservation } from '../../electron/core/notifications/planner.js';

/** The planner's tests' day: Monday 15 June 2026, in Berlin unless another zone is named. */
export function plannerTime(clock: string, zone = 'Europe/Berlin', date = '2026-06-15'): DateTime {
  return DateTime.fromISO(`${date}T${clock}`, { zone });
}

/** 10:00–11:00 in Thames, with nothing special about it unless `overrides` says so. */
export function plannerReservation(overrides: Partial<PlannerReservation> = {}): PlannerReservation {
  return {
    referenceNumber: 'r1',
    title: 'Planning',
    resourceName: 'Thames (1.01)',
    start: plannerTime('10:00'),
    end: plannerTime('11:00'),
    startReminderMinutes: null,
    endReminderMinutes: null,
    requiresCheckIn: false,
    checkedIn: false,
    checkedOut: false,
    autoReleaseMinutes: null,
    isPendingApproval: false,
    owned: true,
    ...overrides,
  };
}
