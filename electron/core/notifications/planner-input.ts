/** What the planner is given: the listed reservations, reduced to the facts its notices hang on. */
import type { PlannerReservation } from './planner.js';
import { summaryFacts, type WireSummary } from '../views/state.js';

function plannerReservation(summary: WireSummary, zones: ReadonlyMap<number, string>): PlannerReservation | null {
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
  };
}

/** What the notification planner needs of the listed reservations; `zones` names each schedule's zone. */
export function plannerReservations(summaries: readonly WireSummary[], zones: ReadonlyMap<number, string>): PlannerReservation[] {
  return summaries.flatMap((summary) => plannerReservation(summary, zones) ?? []);
}
