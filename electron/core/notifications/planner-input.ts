/** What the planner is given: the listed reservations, reduced to the facts its notices hang on. */
import type { PlannerReservation } from './planner.js';
import { ownAndMeetings, type CoreData } from '../core-state.js';
import { scheduleZones, summaryFacts, type WireSummary } from '../views/state.js';

function plannerReservation(summary: WireSummary, zones: ReadonlyMap<number, string>, owned: boolean): PlannerReservation | null {
  const facts = summaryFacts(summary);
  if (facts === null) return null;
  const timezone = zones.get(facts.scheduleId);
  return {
    referenceNumber: facts.referenceNumber,
    title: facts.title,
    resourceName: facts.resourceName,
    ...(timezone ? { timezone } : {}),
    start: facts.start,
    end: facts.end,
    startReminderMinutes: summary.startReminder,
    endReminderMinutes: summary.endReminder,
    requiresCheckIn: facts.requiresCheckIn,
    checkedIn: facts.checkedInAt !== null,
    checkedOut: facts.checkedOutAt !== null,
    autoReleaseMinutes: facts.autoReleaseMinutes,
    isPendingApproval: facts.isPendingApproval,
    owned,
  };
}

/** What the notification planner needs of the user's reservations and the meetings they are in. */
export function plannerReservations(data: Pick<CoreData, 'reservations' | 'meetings' | 'schedules'>): PlannerReservation[] {
  const zones = scheduleZones(data.schedules);
  const { own, meetings } = ownAndMeetings(data);
  return [...own.flatMap((summary) => plannerReservation(summary, zones, true) ?? []), ...meetings.flatMap((summary) => plannerReservation(summary, zones, false) ?? [])];
}
