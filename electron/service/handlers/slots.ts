import type { Static } from '@sinclair/typebox';
import type { ReservationSummary } from '../../api/schemas/reservations.js';
import type { Slot } from '../../api/schemas/schedules.js';
import { readQueryDateTime, usableZone, wireFormatter } from '../domain/query-dates.js';
import { instantOf, periodsBetween, type LaidOutPeriod } from '../domain/schedule-layout.js';
import { maxSlotDays, planSlots, slotWindow, type PlannedSlot } from '../domain/slots.js';
import { notFound, Violations } from '../errors.js';
import { holding, repeated } from './repeated-parts.js';
import { bookingsByResource } from '../store/availability.js';
import { visibleScheduleResources, type ScheduleResource } from '../store/permissions.js';
import { overlappingBookings } from '../store/reservations.js';
import { findSchedule, loadLayout } from '../store/schedules.js';
import { fullName, summariesById } from './reservation-summaries.js';
import type { HandlerMap } from './types.js';

type WireSlot = Static<typeof Slot>;
type WireSummary = Static<typeof ReservationSummary>;

const POSITIVE_ID = /^[1-9]\d{0,14}$/;

/** An absent or empty parameter is no parameter, as real servers read them. */
const given = (text: string | undefined): text is string => text !== undefined && text.trim() !== '';

/**
 * The caller's date a window end names (convention 5): a plain date is that day of the caller's
 * (read at its midnight there); a date-time is an instant (offset-less read in the caller's zone)
 * and names the caller's date at that instant, as real servers read both.
 */
function windowDate(name: string, text: string | undefined, callerZone: string, violations: Violations): string | null {
  if (!given(text)) return null;
  const instant = readQueryDateTime(text, callerZone);
  if (instant === null) {
    violations.add(`Invalid ${name}: ${text}`);
    return null;
  }
  return instant.setZone(callerZone).toISODate();
}

const secondsPerDay = 24 * 60 * 60;

const calendarDate = (isoDate: string) => {
  const [year, month, day] = isoDate.split('-').map(Number) as [number, number, number];
  return { year, month, day };
};

interface DayPeriod {
  startAt: number;
  endAt: number;
  period: LaidOutPeriod;
}

const ownerName = (summary: WireSummary) => fullName(summary.firstName, summary.lastName);

export const slotHandlers = {
  /**
   * One `dates` entry per day of the caller's, as real servers answer: each holds, per resource of
   * the schedule the caller may see (or the one `resourceId` names), a row of the slots that start
   * that day, the schedule's periods (laid out per day in its own zone) as the caller's clock
   * meets them. Without dates the window is the schedule's `daysVisible` days from the caller's
   * today; `startDateTime`/`endDateTime` name its first and last day (both inclusive, at most 31
   * days; a bare date is read in the caller's zone, as convention 5 says). For a caller hours
   * ahead of the schedule, one day is the end of the schedule's day before and the start of the
   * same date. All instants are in the caller's zone.
   * A fixed number of queries: the resources, one bookings range scan, the reservations' summaries.
   */
  async getSlots({ params, query }, { store, clock, links, caller }) {
    const schedule = await findSchedule(store, params.scheduleId);
    if (!schedule) throw notFound();
    const zone = usableZone(schedule.timezone);
    const callerZone = usableZone(caller.user.timezone);

    const violations = new Violations();
    let resourceId: number | undefined;
    if (given(query.resourceId)) {
      if (POSITIVE_ID.test(query.resourceId.trim())) resourceId = Number(query.resourceId.trim());
      else violations.add(`Invalid resourceId: ${query.resourceId}`);
    }
    const start = windowDate('startDateTime', query.startDateTime, callerZone, violations);
    const end = windowDate('endDateTime', query.endDateTime, callerZone, violations);
    violations.throwIfAny();

    const window = slotWindow(start, end, clock.now().setZone(callerZone).toISODate()!, schedule.daysVisible);
    if (!window.ok) {
      violations.add(
        window.error === 'endBeforeStart'
          ? 'endDateTime must not be before startDateTime'
          : `The date range cannot be longer than ${maxSlotDays} days`,
      );
    }
    const visible = await visibleScheduleResources(store, schedule.id, caller);
    const resources = resourceId === undefined ? visible : visible.filter((resource) => resource.id === resourceId);
    // A resource of another schedule, or one the caller may not see, is refused alike.
    if (resourceId !== undefined && resources.length === 0) violations.add(`Invalid resourceId: ${query.resourceId}`);
    violations.throwIfAny();

    const layout = await loadLayout(store, schedule.id);
    const days = (window.ok ? window.value : []).map((date) => {
      const from = instantOf(calendarDate(date), 0, callerZone);
      const to = instantOf(calendarDate(date), secondsPerDay, callerZone);
      return {
        startAt: from.toMillis(),
        periods: periodsBetween(layout, from, to, zone)
          .filter((period) => period.start >= from)
          .map((period): DayPeriod => ({ startAt: period.start.toMillis(), endAt: period.end.toMillis(), period })),
      };
    });
    const allPeriods = days.flatMap((day) => day.periods);
    const from = Math.min(...allPeriods.map((period) => period.startAt));
    const to = Math.max(...allPeriods.map((period) => period.endAt));
    const bookings =
      allPeriods.length === 0
        ? new Map()
        : bookingsByResource(
            await overlappingBookings(
              store,
              resources.map((resource) => resource.id),
              from,
              to,
            ),
          );

    const plans = days.map((day) => resources.map((resource) => planSlots(day.periods, bookings.get(resource.id) ?? [])));
    const reservationIds = [...new Set(plans.flat(2).flatMap((slot) => (slot.reservationId === null ? [] : [slot.reservationId])))];
    const resourcesSeen = visible.map((resource) => resource.id);
    const summaries = await summariesById(store, links, { from, to, reservationIds, viewer: caller, resourcesSeen });

    const wire = wireFormatter(callerZone);
    // A free period's slot is the same for every resource, and a resource's link the same every
    // day: one object each serves the whole answer (it is only serialised, a free slot once).
    const freeSlots = new Map<DayPeriod, WireSlot>();
    const freeSlotOf = (period: DayPeriod): WireSlot => {
      let slot = freeSlots.get(period);
      if (!slot) {
        slot = repeated({
          slotSpan: 1,
          isReserved: false,
          label: period.period.label ?? '',
          isReservable: period.period.isReservable,
          color: '',
          startDateTime: wire(period.startAt),
          endDateTime: wire(period.endAt),
          reservation: null,
          links: [],
          message: null,
        });
        freeSlots.set(period, slot);
      }
      return slot;
    };
    const rowOf = (resource: ScheduleResource, plan: readonly PlannedSlot<DayPeriod>[]): WireSlot[] =>
      plan.map((slot): WireSlot => {
        if (slot.reservationId === null) return freeSlotOf(slot.first);
        const summary = summaries.get(slot.reservationId);
        return {
          slotSpan: slot.slotSpan,
          isReserved: true,
          label: summary ? summary.title || ownerName(summary) : '',
          isReservable: false,
          color: resource.color,
          startDateTime: wire(slot.first.startAt),
          endDateTime: wire(slot.last.endAt),
          reservation: summary ?? null,
          links: [],
          message: null,
        };
      });
    const resourceLinks = resources.map((resource) => [links.to('getResource', { resourceId: resource.id }, 'get_resource')]);
    return holding({
      dates: days.map((day, dayIndex) =>
        holding({
          date: wire(day.startAt),
          resources: resources.map((resource, resourceIndex) =>
            holding({
              slots: rowOf(resource, plans[dayIndex]![resourceIndex]!),
              resourceId: resource.id,
              resourceName: resource.name,
              links: resourceLinks[resourceIndex]!,
              message: null,
            }),
          ),
          links: [],
          message: null,
        }),
      ),
      links: [],
      message: null,
    });
  },
} satisfies Pick<HandlerMap, 'getSlots'>;
