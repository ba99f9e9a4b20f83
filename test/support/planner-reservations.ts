import { DateTime } from 'luxon';
import type { Reservation } from '../../electron/core/reservations.js';

/** The planner's tests' day: Monday 15 June 2026, in Berlin unless another zone is named. */
export function plannerTime(clock: string, zone = 'Europe/Berlin', date = '2026-06-15'): DateTime {
  return DateTime.fromISO(`${date}T${clock}`, { zone });
}

/** 10:00–11:00 in Thames, with nothing special about it unless `overrides` says so. */
export function plannerReservation(overrides: Partial<Reservation> = {}): Reservation {
  return {
    referenceNumber: 'r1',
    title: 'Planning',
    resourceId: 1,
    resourceName: 'Thames (1.01)',
    scheduleId: 1,
    start: plannerTime('10:00'),
    end: plannerTime('11:00'),
    isRecurring: false,
    isPendingApproval: false,
    requiresCheckIn: false,
    checkedInAt: null,
    checkedOutAt: null,
    originalEnd: null,
    autoReleaseMinutes: null,
    startReminderMinutes: null,
    endReminderMinutes: null,
    ownerName: 'Ada Lovelace',
    ownerFirstName: 'Ada',
    ownerId: 1,
    participantIds: [],
    inviteeIds: [],
    owned: true,
    checkInAvailable: null,
    checkOutAvailable: null,
    ...overrides,
  };
}
