/** What the planner is given: the listed reservations, reduced to the facts its notices hang on. */
import type { PlannerReservation } from './planner.js';
import { summaryFacts, type WireSummary } from '../views/state.js';

function plannerReservation(summary: WireSummary): PlannerReservation | null {
  const facts = summaryFacts(summary);
  if (facts === null) return null;
  return {
    referenceNumber: facts.referenceNumber,
    title: facts.title,
    resourceName: facts.resourceName,
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

export function plannerReservations(summaries: readonly WireSummary[]): PlannerReservation[] {
  return summaries.flatMap((summary) => plannerReservation(summary) ?? []);
}
