import { DateTime } from 'luxon';
import type { ApiClient } from '../../../electron/api/client.js';
import { formatWireDateTime } from '../../../electron/api/dates.js';
import type { WireAttribute } from '../../../electron/api/wire.js';
import type { Recorder } from './recorder.js';
import { dateTime, flag, items, members, number, type Members } from './raw.js';

export interface Credentials {
  username: string;
  password: string;
}

/** A resource the journey books, chosen by what the server says about it. */
export interface Bookable {
  id: number;
  scheduleId: number;
  name: string;
}

/** The resources the journey needs, by the behaviour each one shows. */
export interface Roles {
  plain: Bookable;
  checkIn: Bookable | null;
  autoRelease: Bookable | null;
  approval: Bookable | null;
}

export interface Journey {
  recorder: Recorder;
  user: ApiClient;
  /** Signed in as an administrator, when the recorder was given one. */
  admin: ApiClient | null;
  userId: number;
  zone: string;
  roles: Roles;
  /** The server's reservation attributes: Perch's bodies carry every one (release 2.8.6.1 needs them all). */
  reservationAttributes: WireAttribute[];
}

/** The wire form of a moment in the user's timezone, as Perch sends it. */
export const wire = (moment: DateTime): string => formatWireDateTime(moment);

/** Signs in, reading the user's id from the answer as sent (a string on real servers). */
export async function signIn(recorder: Recorder, client: ApiClient, credentials: Credentials, variant: string): Promise<number> {
  const answer = await recorder.record(client, 'authenticate', variant, `${variant} signs in with the right password`, {
    body: credentials,
  });
  const userId = number(members(answer.body)['userId']);
  if (answer.status !== 200 || userId === null) throw new Error(`${credentials.username} could not sign in (HTTP ${answer.status})`);
  return userId;
}

function bookable(resource: Members): Bookable {
  return { id: number(resource['resourceId'])!, scheduleId: number(resource['scheduleId'])!, name: String(resource['name']) };
}

/** Picks one resource per behaviour from GetAllResources as sent. */
export function chooseRoles(resources: Members[]): Roles {
  const available = resources.filter((resource) => number(resource['statusId']) === 1);
  const find = (test: (resource: Members) => boolean): Bookable | null => {
    const found = available.find(test);
    return found === undefined ? null : bookable(found);
  };
  const autoReleases = (resource: Members) => (number(resource['autoReleaseMinutes']) ?? 0) > 0;
  const plain = find((resource) => !flag(resource['requiresCheckIn']) && !flag(resource['requiresApproval']));
  if (plain === null) throw new Error('The server has no available resource without check-in and approval to book.');
  return {
    plain,
    checkIn: find((resource) => flag(resource['requiresCheckIn']) && !autoReleases(resource) && !flag(resource['requiresApproval'])),
    autoRelease: find((resource) => flag(resource['requiresCheckIn']) && autoReleases(resource) && !flag(resource['requiresApproval'])),
    approval: find((resource) => flag(resource['requiresApproval'])),
  };
}

export interface Slot {
  start: DateTime;
  end: DateTime;
}

/** The resource's free slots from yesterday to three days ahead, read from GetSlots as sent. */
export async function freeSlots(journey: Journey, resource: Bookable, variant: string): Promise<Slot[]> {
  const today = DateTime.now().setZone(journey.zone).startOf('day');
  const answer = await journey.recorder.record(
    journey.user,
    'getSlots',
    variant,
    `${resource.name}'s slots from yesterday to three days ahead`,
    {
      params: { scheduleId: resource.scheduleId },
      query: { resourceId: String(resource.id), startDateTime: wire(today.minus({ days: 1 })), endDateTime: wire(today.plus({ days: 3 })) },
    },
  );
  return items(members(answer.body)['dates'])
    .flatMap((day) => items(day['resources']))
    .filter((entry) => number(entry['resourceId']) === resource.id)
    .flatMap((entry) => items(entry['slots']))
    .filter((slot) => flag(slot['isReservable']) && !flag(slot['isReserved']))
    .flatMap((slot) => {
      const start = dateTime(slot['startDateTime'], journey.zone);
      const end = dateTime(slot['endDateTime'], journey.zone);
      return start === null || end === null ? [] : [{ start, end }];
    });
}

/** The first free slot starting at or after `from`. */
export function slotFrom(slots: Slot[], from: DateTime): Slot | null {
  return slots.find((slot) => slot.start >= from) ?? null;
}
