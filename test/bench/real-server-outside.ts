/**
 * What the real-server bench checks Perch against, read from the server by the bench itself in its
 * own session (never through the core): which resources the user may book (GetUser's and the
 * user's groups' grants), in which schedules, and each schedule's layout (GetSchedule's periods).
 * The layout is read with the core's `openingAt`, whose own tests pin it down; what is checked is
 * what the core made of the same server's answers.
 */
import { DateTime } from 'luxon';
import { sessionKeepingClient } from '../support/session-keeping-client.js';
import { ResourceStatus } from '../../electron/api/schemas/resources.js';
import { readBookableResourceIds } from '../../electron/core/session/bookable.js';
import type { ScheduleHours } from '../../electron/core/core-state.js';
import { openingAt } from '../../electron/core/views/opening-hours.js';

export interface BookableSchedule {
  id: number;
  name: string;
  /** Resources in it the user may book and that are available (not hidden or out of service). */
  bookableResources: number;
  hours: ScheduleHours;
}

export interface OutsideView {
  schedules: BookableSchedule[];
  /** Every resource the user may book, across all schedules. */
  bookableResources: number;
}

function fail(what: string, result: { ok: false; error: { message: string } }): never {
  throw new Error(`reading ${what} for the check from outside: ${result.error.message}`);
}

/** Signs in as the user in a session of its own, reads what the check needs (at `readAt`, the simulated moment), and signs out again. */
export async function readOutsideView(apiRoot: string, username: string, password: string, readAt: DateTime): Promise<OutsideView> {
  const client = sessionKeepingClient({ apiRoot });
  const signedIn = await client.authenticate({ body: { username, password } });
  if (!signedIn.ok) fail('a session', signedIn);
  const userId = client.session!.userId;
  try {
    const user = await client.getUser({ params: { userId } });
    if (!user.ok) fail('the user', user);
    const bookableIds = await readBookableResourceIds(user.value, async (groupId) => {
      const group = await client.getGroup({ params: { groupId } });
      return group.ok ? group.value.permissions : null;
    });
    const resources = await client.getAllResources();
    if (!resources.ok) fail('the resources', resources);
    // null: an administrator, or grants the server does not list; then every resource it shows counts.
    const bookable = resources.value.resources.filter(
      (resource) => resource.statusId === ResourceStatus.available && (bookableIds === null || bookableIds.includes(resource.resourceId)),
    );
    const perSchedule = new Map<number, number>();
    for (const resource of bookable) perSchedule.set(resource.scheduleId, (perSchedule.get(resource.scheduleId) ?? 0) + 1);
    const schedules: BookableSchedule[] = [];
    for (const [scheduleId, bookableResources] of [...perSchedule].sort((a, b) => a[0] - b[0])) {
      const schedule = await client.getSchedule({ params: { scheduleId } });
      if (!schedule.ok) fail(`schedule ${scheduleId}`, schedule);
      const { name, timezone, periods } = schedule.value;
      schedules.push({ id: scheduleId, name, bookableResources, hours: { scheduleId, timezone, periods, fetchedAt: readAt } });
    }
    return { schedules, bookableResources: bookable.length };
  } finally {
    await client.signOut({ body: client.session! });
  }
}

/** The schedules open for booking at `now` that hold a resource the user may book. */
export function openSchedulesAt(view: OutsideView, now: DateTime): BookableSchedule[] {
  return view.schedules.filter((schedule) => openingAt(schedule.hours, now)?.open === true);
}
