import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { createClient, type ApiError, type ApiResult } from '../../electron/api/client.js';
import { sessionHeaders } from '../../electron/api/session-headers.js';
import { operations, type OperationName } from '../../electron/api/operations.js';
import { publicOrigin, recordedSessionToken } from './recorder/anonymise.js';
import { readAllRecordings, readRecording, recordedResponse, type Recording } from './recorder/recording.js';
import { readBookableResourceIds } from '../../electron/core/session/bookable.js';
import { summaryRole } from '../../electron/core/reservations.js';
import type { WireSummary } from '../../electron/api/wire.js';
import type { User } from '../../electron/api/schemas/users.js';
import type { Static } from '@sinclair/typebox';

// Every answer a real LibreBooking 2.9 gave `npm run record:server`, replayed through the client:
// what Perch must read, and how it must fail where the server refused or answered nothing.

const apiRoot = `${publicOrigin}/Web/Services/index.php`;

/** The operations Perch's core calls; the rest were recorded where safe and are decoded all the same. */
const operationsPerchCalls = new Set<OperationName>([
  'authenticate',
  'signOut',
  'getUser',
  'getGroup',
  'getAllResources',
  'getResource',
  'getAllSchedules',
  'getSchedule',
  'getSlots',
  'getResourceGroups',
  'getAvailability',
  'getResourceAvailability',
  'getCategoryAttributes',
  'getReservations',
  'getReservation',
  'createReservation',
  'updateReservation',
  'checkinReservation',
  'checkoutReservation',
  'deleteReservation',
]);

const referenceNumber = /^[0-9a-f]{13}\d{9}$/;
const wireDateTime = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d{4}$/;
/**
 * Whose zone each recorded server runs in: the sample users and schedules in New York, except on
 * the variant with users in Tokyo and every schedule in London (the user's date runs a day ahead
 * of the schedules' from 15:00 to 24:00 UTC).
 */
const zonesOf = (state: string) =>
  state === 'tokyo-london' ? { user: 'Asia/Tokyo', schedule: 'Europe/London' } : { user: 'America/New_York', schedule: 'America/New_York' };

const errorKinds: Record<number, ApiError['kind']> = { 400: 'validation', 401: 'unauthorized', 403: 'forbidden', 404: 'notFound' };

/** `/Resources/:resourceId` against `/Resources/5`: the values, and anything recorded before the route. */
function routeOf(recording: Recording): { prefix: string; params: Record<string, string> } {
  const template = operations[recording.operation].path.split('/').slice(1);
  const sent = recording.request.path.split('/').slice(1);
  const tail = sent.slice(sent.length - template.length);
  const params = Object.fromEntries(
    template.flatMap((segment, index) => (segment.startsWith(':') ? [[segment.slice(1), decodeURIComponent(tail[index]!)]] : [])),
  );
  return {
    prefix: sent
      .slice(0, sent.length - template.length)
      .map((segment) => `/${segment}`)
      .join(''),
    params,
  };
}

/** Asks the client for the recorded request and answers it with the recorded answer. */
async function replay(recording: Recording): Promise<{ result: ApiResult<unknown>; sent: URL }> {
  const { prefix, params } = routeOf(recording);
  const sent: URL[] = [];
  const fetch: typeof globalThis.fetch = async (input) => {
    sent.push(new URL(String(input)));
    return recordedResponse(recording);
  };
  const client = createClient({
    apiRoot: `${apiRoot}${prefix}`,
    fetch,
    sessionHeaders: () => sessionHeaders({ sessionToken: recordedSessionToken, userId: 1 }),
  });
  const call = client[recording.operation] as (input: unknown) => Promise<ApiResult<unknown>>;
  const hasBody = 'body' in operations[recording.operation];
  const result = await call({ params, query: recording.request.query, ...(hasBody && { body: {} }) });
  return { result, sent: sent[0]! };
}

/** The outcome a liberal client must reach: data, or the error kind a person can act on. */
function expectedOutcome({ operation, status, body }: Recording): 'ok' | ApiError['kind'] {
  if (status < 200 || status > 299) return errorKinds[status] ?? (status >= 500 ? 'server' : 'unexpectedStatus');
  // An empty or HTML 200 (unknown reference, approval refused) is never success; the API switched
  // off is the server's problem, said as such.
  if (typeof body === 'string') return /configured as disabled/.test(body) ? 'server' : 'unexpectedBody';
  if (operation === 'authenticate' && (body as { isAuthenticated?: unknown }).isAuthenticated === false) return 'unauthorized';
  return 'ok';
}

type Data = Record<string, any>;

const ids = (items: Data[], member: string) => items.map((item) => item[member]);

/** Meaningful values of each operation's decoded answer, checked where the operation answered data. */
const spotChecks: Partial<Record<OperationName, (data: Data, recording: Recording) => void>> = {
  authenticate: (data) =>
    expect(data).toMatchObject({ sessionToken: recordedSessionToken, userId: expect.any(Number), isAuthenticated: true, version: '2.9' }),
  signOut: (data) => expect(data['signedOut']).toBe(true),
  getUser: (data, recording) => {
    expect(data).toMatchObject({ id: expect.any(Number), timezone: zonesOf(recording.state).user, userName: expect.any(String) });
    if (recording.request.path === `/Users/${data['id']}`) expect(data['id']).toBe(Number(routeOf(recording).params['userId']));
  },
  getAccount: (data, recording) => expect(data).toMatchObject({ userId: 1, timezone: zonesOf(recording.state).user }),
  getAllUsers: (data) => ids(data['users'], 'id').forEach((id) => expect(id).toEqual(expect.any(Number))),
  getAllResources: (data) => {
    ids(data['resources'], 'resourceId').forEach((id) => expect(id).toEqual(expect.any(Number)));
    expect(ids(data['resources'], 'name')).toContain('Conference Room 1');
  },
  getResource: (data, recording) =>
    expect(data).toMatchObject({
      resourceId: Number(routeOf(recording).params['resourceId']),
      name: expect.stringMatching(/\S/),
      scheduleId: expect.any(Number),
    }),
  getAllSchedules: (data, recording) =>
    expect(data['schedules']).toContainEqual(
      expect.objectContaining({ id: 2, name: 'Round The Clock', timezone: zonesOf(recording.state).schedule }),
    ),
  getSchedule: (data, recording) => {
    expect(data).toMatchObject({ id: Number(routeOf(recording).params['scheduleId']), timezone: zonesOf(recording.state).schedule });
    expect(data['periods']).toHaveLength(7);
  },
  getSlots: (data, recording) => {
    expect(data['dates'].length).toBeGreaterThan(0);
    for (const day of data['dates']) ids(day.resources, 'resourceId').forEach((id) => expect(id).toEqual(expect.any(Number)));
    // Convention 5: a bare date names the user's day, whatever the schedule's zone: one day, from
    // the user's midnight to the next, every slot inside it.
    const bare = recording.request.query['startDateTime'];
    if (bare !== undefined && /^\d{4}-\d\d-\d\d$/.test(bare)) {
      const userDay = DateTime.fromISO(bare, { zone: zonesOf(recording.state).user });
      expect(data['dates']).toHaveLength(1);
      expect(DateTime.fromISO(data['dates'][0].date).toMillis()).toBe(userDay.toMillis());
      for (const slot of data['dates'][0].resources.flatMap((resource: Data) => resource['slots'])) {
        expect(DateTime.fromISO(slot.startDateTime).toMillis()).toBeGreaterThanOrEqual(userDay.toMillis());
        expect(DateTime.fromISO(slot.endDateTime).toMillis()).toBeLessThanOrEqual(userDay.plus({ days: 1 }).toMillis());
      }
    }
  },
  getResourceGroups: (data) => expect(data['groups'][0]).toMatchObject({ id: 0, name: 'All', type: 'group' }),
  getAvailability: (data, recording) => {
    const resourceIds = data['resources'].map((item: Data) => item['resource']['resourceId']);
    resourceIds.forEach((id: unknown) => expect(id).toEqual(expect.any(Number)));
    const filter = recording.request.query['resourceId'];
    if (filter !== undefined) expect(resourceIds).toEqual([Number(filter)]);
  },
  getResourceAvailability: (data) => expect(data['resources'].length).toBeGreaterThan(1),
  getCategoryAttributes: (data) => ids(data['attributes'], 'id').forEach((id) => expect(id).toEqual(expect.any(Number))),
  getReservations: (data) => {
    for (const reservation of data['reservations']) {
      expect(reservation).toMatchObject({
        referenceNumber: expect.stringMatching(referenceNumber),
        resourceId: expect.any(Number),
        userId: expect.any(Number),
        startDate: expect.stringMatching(wireDateTime),
      });
    }
  },
  getReservation: (data, recording) => {
    expect(data).toMatchObject({
      referenceNumber: routeOf(recording).params['referenceNumber'],
      owner: { userId: 1 },
      resourceId: expect.any(Number),
    });
    ids(data['resources'], 'id').forEach((id) => expect(id).toEqual(expect.any(Number)));
  },
  createReservation: (data) => expect(data['referenceNumber']).toMatch(referenceNumber),
  updateReservation: (data) => expect(data['referenceNumber']).toMatch(referenceNumber),
  approveReservation: (data) => expect(data['referenceNumber']).toMatch(referenceNumber),
  checkinReservation: (data) => expect(data['referenceNumber']).toMatch(referenceNumber),
  checkoutReservation: (data) => expect(data['referenceNumber']).toMatch(referenceNumber),
  deleteReservation: (data) => expect(data['message']).toBe('The item was deleted'),
};

const recordings = readAllRecordings();

describe('recorded answers of real LibreBooking 2.9 servers', () => {
  it('hold at least 40 answers to operations Perch calls, from several server states', () => {
    expect(recordings.filter(({ recording }) => operationsPerchCalls.has(recording.operation)).length).toBeGreaterThanOrEqual(40);
    expect(new Set(recordings.map(({ recording }) => recording.state)).size).toBeGreaterThanOrEqual(3);
  });

  it.each(recordings)('$name: the client sends the recorded request and reads the answer', async ({ recording }) => {
    const { result, sent } = await replay(recording);
    expect(sent.pathname).toBe(new URL(`${apiRoot}${recording.request.path}`).pathname);
    expect(Object.fromEntries(sent.searchParams)).toEqual(recording.request.query);

    const outcome = expectedOutcome(recording);
    if (outcome === 'ok') {
      expect(result.ok ? 'ok' : `${result.error.kind}: ${result.error.message}`).toBe('ok');
      if (result.ok) spotChecks[recording.operation]?.(result.value as Data, recording);
      return;
    }
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.kind).toBe(outcome);
    // One readable sentence: words, no markup, short enough for a notification.
    expect(result.error.message).toMatch(/\w/);
    expect(result.error.message).not.toMatch(/<\/?[a-z]/i);
    expect(result.error.message.length).toBeLessThanOrEqual(250);
    if (outcome === 'validation') expect(result.error.errors?.length).toBeGreaterThan(0);
  });
});

describe('what a real server tells of permissions and of meetings the user is in', () => {
  const decoded = async (name: string): Promise<Data> => {
    const { result } = await replay(readRecording('permissions-and-meetings', name));
    if (!result.ok) throw new Error(result.error.message);
    return result.value as Data;
  };

  it('GetUser leaves out a resource granted view only and one granted through a group; the group lists the latter', async () => {
    const user = await decoded('getUser-view-only-and-group-grant');
    const resources = await decoded('getAllResources-view-only');
    expect(ids(resources['resources'], 'resourceId')).toEqual([1, 2, 3, 4, 5, 6]);
    expect(ids(user['permissions'], 'id')).toEqual([1, 3, 4, 5]);
    const group = await decoded('getGroup-member');
    const bookable = await readBookableResourceIds(user as Static<typeof User>, async (groupId) =>
      groupId === group['id'] ? group['permissions'] : null,
    );
    // Conference Room 2 (view only) is the one left out; the Hot Desk comes through the group.
    expect(bookable).toEqual([1, 3, 4, 5, 6]);
  });

  it('lists by schedule carry who takes part and who is invited, keyed by user id; the user’s own list holds neither', async () => {
    const bySchedule = await decoded('getReservations-schedule-until-tomorrow');
    expect(bySchedule['reservations'].map((summary: Data) => [summary['title'], summaryRole(summary as WireSummary, 1)])).toEqual([
      ['Design review', 'participant'],
      ['Budget', 'invitee'],
    ]);
    expect((await decoded('getReservations-user-owns-none'))['reservations']).toEqual([]);
  });
});
