import { DateTime } from 'luxon';
import type { Journey } from './journey.js';
import { wire } from './journey.js';
import { items, members, number } from './raw.js';

// An id no sample or test install reaches.
const MISSING_ID = 9999;

/** Everything Perch reads when it syncs, plus the read-only operations that are safe to call. */
export async function recordReads(journey: Journey, resourceList: unknown): Promise<void> {
  const { recorder, user, admin, userId, roles } = journey;
  const now = DateTime.now().setZone(journey.zone);

  await recorder.record(user, 'getUser', 'other', 'a normal user reads another user', { params: { userId: userId === 1 ? 2 : 1 } });
  await recorder.record(user, 'getAccount', 'self', 'the signed-in user’s own account', { params: { userId } });

  for (const resource of items(members(resourceList)['resources'])) {
    const id = number(resource['resourceId'])!;
    await recorder.record(user, 'getResource', String(id), `resource ${String(resource['name'])}`, { params: { resourceId: id } });
  }
  await recorder.record(user, 'getResource', 'missing', 'an id no resource has', { params: { resourceId: MISSING_ID } });

  const schedules = await recorder.record(user, 'getAllSchedules', 'all', 'every schedule the user sees');
  for (const schedule of items(members(schedules.body)['schedules'])) {
    const id = number(schedule['id'])!;
    await recorder.record(user, 'getSchedule', String(id), `schedule ${String(schedule['name'])} with its periods`, {
      params: { scheduleId: id },
    });
  }
  await recorder.record(user, 'getSchedule', 'missing', 'an id no schedule has', { params: { scheduleId: MISSING_ID } });
  const today = now.startOf('day');
  await recorder.record(user, 'getSlots', 'schedule-two-days', 'every resource of the plain resource’s schedule, today and tomorrow', {
    params: { scheduleId: roles.plain.scheduleId },
    query: { startDateTime: wire(today), endDateTime: wire(today.plus({ days: 1 }).endOf('day')) },
  });
  // Convention 5: a date without a time names the user's day, whichever zone the schedule runs in.
  await recorder.record(user, 'getSlots', 'user-today-bare-date', 'the user’s today as a bare date (read in the user’s zone)', {
    params: { scheduleId: roles.plain.scheduleId },
    query: { startDateTime: today.toISODate()!, endDateTime: today.toISODate()! },
  });
  await recorder.record(user, 'getSlots', 'without-dates', 'no dates: real servers answer without slots', {
    params: { scheduleId: roles.plain.scheduleId },
  });

  await recorder.record(user, 'getResourceGroups', 'all', 'the resource group tree');
  await recorder.record(user, 'getResourceTypes', 'all', 'resource types (no such route on 2.9)');
  await recorder.record(user, 'getStatuses', 'all', 'resource statuses, called without session headers');
  await recorder.record(user, 'getStatusReasons', 'all', 'resource status reasons');
  await recorder.record(user, 'getAllAccessories', 'all', 'accessories');
  await recorder.record(user, 'getAllGroups', 'user', 'user groups as a normal user');
  for (const [categoryId, category] of [
    [1, 'reservation'],
    [2, 'user'],
    [4, 'resource'],
  ] as const) {
    await recorder.record(user, 'getCategoryAttributes', category, `custom attributes of the ${category} category`, {
      params: { categoryId },
    });
  }
  await recorder.record(user, 'getAllUsers', 'user', 'the users a normal user may see');
  if (admin !== null) await recorder.record(admin, 'getAllUsers', 'admin', 'every user, as an administrator');

  await recordAvailability(journey, now);
  await recorder.record(recorder.client('/Unknown'), 'getStatuses', 'unknown-path', 'a path the API does not have');
}

async function recordAvailability(journey: Journey, now: DateTime): Promise<void> {
  const { recorder, user, roles } = journey;
  await recorder.record(user, 'getAvailability', 'all', 'every resource, now (no dateTime)');
  await recorder.record(
    user,
    'getAvailability',
    'tomorrow',
    'every resource at a dateTime tomorrow: real servers judge `available` by their own clock',
    {
      query: { dateTime: wire(now.plus({ days: 1 })) },
    },
  );
  // The spec names no `resourceId` on this route, yet real servers filter by it (server-facts D);
  // it goes through the client's query like any member, so the request is what Perch would send.
  const byResource = { dateTime: undefined, resourceId: String(roles.plain.id) };
  await recorder.record(user, 'getAvailability', 'resource-filter', `?resourceId= filters to ${roles.plain.name}`, { query: byResource });
  await recorder.record(user, 'getResourceAvailability', 'path', `the path names ${roles.plain.name}; real servers answer every resource`, {
    params: { resourceId: roles.plain.id },
  });
}
