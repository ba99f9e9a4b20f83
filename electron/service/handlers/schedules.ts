import { DateTime } from 'luxon';
import { formatWireDateTime } from '../../api/dates.js';
import { periodsOn, weekContaining } from '../domain/schedule-layout.js';
import { notFound } from '../errors.js';
import { findSchedule, listSchedules, loadLayout } from '../store/schedules.js';
import type { ScheduleRow } from '../tables.js';
import type { HandlerMap } from './types.js';

/** Availability bounds are stored as ISO instants; one that cannot be read counts as no bound. */
function storedInstant(text: string | null): string | null {
  if (text === null || text.trim() === '') return null;
  const instant = DateTime.fromISO(text, { zone: 'UTC' });
  return instant.isValid ? formatWireDateTime(instant.toUTC()) : null;
}

function commonMembers(schedule: ScheduleRow) {
  return {
    daysVisible: schedule.daysVisible,
    id: schedule.id,
    isDefault: Boolean(schedule.isDefault),
    name: schedule.name,
    timezone: schedule.timezone,
    weekdayStart: schedule.weekdayStart,
    availabilityEnd: storedInstant(schedule.availabilityEnd),
    // The spec types these as integers; 0 is "no limit", as LibreBooking itself reads 0.
    maxResourcesPerReservation: schedule.maxResourcesPerReservation ?? 0,
    totalConcurrentReservationsAllowed: schedule.totalConcurrentReservationsAllowed ?? 0,
  };
}

export const scheduleHandlers = {
  async getAllSchedules(_input, { store, links }) {
    const schedules = await listSchedules(store);
    return {
      schedules: schedules.map((schedule) => ({
        ...commonMembers(schedule),
        availabilityBegin: storedInstant(schedule.availabilityBegin),
        links: [links.to('getSchedule', { scheduleId: schedule.id }, 'get_schedule')],
        message: null,
      })),
      links: [],
      message: null,
    };
  },

  /** `periods` lays out the week (Sunday first) that holds today in the schedule's own zone. */
  async getSchedule({ params }, { store, clock }) {
    const schedule = await findSchedule(store, params.scheduleId);
    if (!schedule) throw notFound();
    const layout = await loadLayout(store, schedule.id);
    const zone = schedule.timezone;
    const periods = weekContaining(clock.now(), zone).map((date) =>
      periodsOn(layout, date, zone).map((period) => ({
        start: formatWireDateTime(period.start),
        end: formatWireDateTime(period.end),
        label: period.label ?? '',
        startTime: period.start.toFormat('HH:mm:ss'),
        endTime: period.end.toFormat('HH:mm:ss'),
        isReservable: period.isReservable,
      })),
    );
    return {
      ...commonMembers(schedule),
      availabilityStart: storedInstant(schedule.availabilityBegin),
      // No calendar feed is served here; the spec types the member as a string.
      icsUrl: '',
      periods,
      links: [],
      message: null,
    };
  },
} satisfies Pick<HandlerMap, 'getAllSchedules' | 'getSchedule'>;
