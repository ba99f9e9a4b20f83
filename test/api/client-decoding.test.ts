import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { createClient, type ApiClient } from '../../electron/api/client.js';
import { sessionHeaders, type Session } from '../../electron/api/session-headers.js';
import { decode } from '../../electron/api/decode.js';
import { Needed, Nullable, WireDateTime } from '../../electron/api/schemas/common.js';
import { ResourceGroupTree } from '../../electron/api/schemas/resources.js';
import { publicOrigin, recordedSessionToken } from './recorder/anonymise.js';
import { readRecording, recordedResponse } from './recorder/recording.js';

// Answers come from recordings of a real LibreBooking 2.9 (fixtures/librebooking-2.9/<state>/);
// the few no recorded server gave are written here, each labelled synthetic with its reason.

const apiRoot = `${publicOrigin}/Web/Services/index.php`;
const link = (path: string, title: string) => ({ href: `${apiRoot}${path}`, title });

interface SentRequest {
  url: string;
  method: string;
  headers: Headers;
  body: string | undefined;
}

/** A client whose every request gets `answer()`, sent as `session`; the requests are kept for inspection. */
function answeredBy(answer: () => Response, session: Session | null = null): { client: ApiClient; sent: SentRequest[] } {
  const sent: SentRequest[] = [];
  const fetch: typeof globalThis.fetch = async (input, init) => {
    sent.push({
      url: String(input),
      method: init?.method ?? 'GET',
      headers: new Headers(init?.headers),
      body: typeof init?.body === 'string' ? init.body : undefined,
    });
    return answer();
  };
  return { client: createClient({ apiRoot, fetch, sessionHeaders: () => sessionHeaders(session) }), sent };
}

const session = { sessionToken: 'a'.repeat(50), userId: 2 };

/** A client answered by the recording `<state>/<name>`. */
const replay = (state: string, name: string, sentAs: Session | null = null) => {
  const recording = readRecording(state, name);
  return answeredBy(() => recordedResponse(recording), sentAs);
};

/** An answer no recorded server gave; each use says why it is kept. */
const synthetic = (status: number, contentType: string, body: string, sentAs: Session | null = null) =>
  answeredBy(() => new Response(body, { status, headers: { 'content-type': contentType } }), sentAs);

describe('decoding real servers’ success bodies', () => {
  it('Authenticate: userId as a string becomes a number', async () => {
    const { client } = replay('as-installed', 'authenticate-user');
    const result = await client.authenticate({ body: { username: 'user', password: 'password' } });
    expect(result).toEqual({
      ok: true,
      value: {
        sessionToken: recordedSessionToken,
        sessionExpires: '2026-11-25T04:15:55+0000',
        userId: 1,
        isAuthenticated: true,
        version: '2.9',
        links: [link('/Authentication/SignOut', 'logout')],
        message: null,
      },
    });
  });

  it('Authenticate: a refused login (200, isAuthenticated false) is an unauthorized error', async () => {
    const { client } = replay('as-installed', 'authenticate-wrong-password');
    const result = await client.authenticate({ body: { username: 'user', password: 'wrong' } });
    expect(result).toEqual({
      ok: false,
      error: { kind: 'unauthorized', message: 'Login failed. Invalid username or password.' },
    });
  });

  it('GetReservation: keyed resources become an array, string ids numbers, "" dates null', async () => {
    const { client } = replay('as-installed', 'getReservation-recurring');
    const result = await client.getReservation({ params: { referenceNumber: '6b0659f3ce5c6212817311' } });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const reservation = result.value;
    expect(reservation).toMatchObject({
      referenceNumber: '6b0659f3ce5c6212817311',
      startDate: '2026-11-27T08:00:00-0500',
      endDate: '2026-11-27T08:30:00-0500',
      title: 'Recorded series',
      isRecurring: true,
      scheduleId: 1,
      resourceId: 1,
      checkInDate: null,
      checkOutDate: null,
      originalEndDate: null,
      endReminder: null,
    });
    expect(reservation.owner).toEqual({
      userId: 1,
      firstName: 'User',
      lastName: 'User',
      emailAddress: 'user1@example.org',
      links: [link('/Users/1', 'get_user')],
      message: null,
    });
    expect(reservation.customAttributes[0]).toEqual({
      id: 1,
      label: 'Test Number',
      value: null,
      links: [link('/Attributes/1', 'get_custom_attribute')],
      message: null,
    });
    expect(reservation.recurrenceRule).toEqual({
      type: 'daily',
      interval: 1,
      monthlyType: null,
      weekdays: null,
      repeatTerminationDate: '2026-11-29T05:00:00+0000',
    });
    expect(reservation.resources).toEqual([
      { id: 1, name: 'Conference Room 1', type: null, groups: [], links: [link('/Resources/1', 'get_resource')], message: null },
    ]);
  });

  it('GetReservation: a single booking’s rule of type none with "" for its termination', async () => {
    const { client } = replay('as-installed', 'getReservation-single');
    const result = await client.getReservation({ params: { referenceNumber: 'x' } });
    expect(result.ok && result.value).toMatchObject({
      isRecurring: false,
      recurrenceRule: { type: 'none', interval: null, monthlyType: null, weekdays: null, repeatTerminationDate: null },
      isCheckInAvailable: false,
      isCheckoutAvailable: false,
      allowParticipation: false,
    });
  });

  it('GetReservation: a checked-out booking keeps its original end, in UTC', async () => {
    const { client } = replay('as-installed', 'getReservation-checked-out');
    const result = await client.getReservation({ params: { referenceNumber: 'x' } });
    expect(result.ok && result.value).toMatchObject({
      checkInDate: expect.stringMatching(/\+0000$/),
      checkOutDate: expect.stringMatching(/\+0000$/),
      originalEndDate: expect.stringMatching(/\+0000$/),
      isCheckInAvailable: false,
      isCheckoutAvailable: false,
    });
  });

  it('GetReservations: string ids, "" dates, empty buffer time', async () => {
    const { client } = replay('as-installed', 'getReservations-user-14-days');
    const result = await client.getReservations({ query: { userId: '1' } });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value.startDateTime).toBe('2026-11-25T03:45:55+0000');
    expect(result.value.endDateTime).toBe('2026-12-09T03:45:55+0000');
    expect(result.value.reservations[0]).toMatchObject({
      referenceNumber: '6b0659f3bb656262783810',
      startDate: '2026-11-26T13:00:00+0000',
      endDate: '2026-11-26T13:30:00+0000',
      resourceName: 'Conference Room 1',
      title: 'Recorded single',
      isRecurring: false,
      scheduleId: 1,
      userId: 1,
      resourceId: 1,
      duration: '30 minutes',
      bufferTime: '',
      checkInDate: null,
      isCheckInEnabled: false,
      autoReleaseMinutes: null,
      resourceStatusId: 1,
      creditsConsumed: null,
    });
  });

  it('GetReservations: no matches answer null dates', async () => {
    const { client } = replay('as-installed', 'getReservations-nothing');
    const result = await client.getReservations({ query: { userId: '1' } });
    expect(result).toEqual({ ok: true, value: { reservations: [], startDateTime: null, endDateTime: null, links: [], message: null } });
  });

  it('GetAvailability: the one nested array is unwrapped', async () => {
    const { client } = replay('as-installed', 'getAvailability-resource-filter');
    const result = await client.getAvailability();
    expect(result).toEqual({
      ok: true,
      value: {
        resources: [
          {
            available: true,
            resource: {
              resourceId: 1,
              name: 'Conference Room 1',
              scheduleId: 1,
              statusId: 1,
              statusReasonId: null,
              links: [link('/Resources/1', 'get_resource'), link('/Schedules/1', 'get_schedule')],
              message: null,
            },
            availableAt: null,
            availableUntil: '2026-12-01T22:45:55-0500',
            links: [link('/Resources/1', 'get_resource')],
            message: null,
          },
        ],
        links: [],
        message: null,
      },
    });
  });

  it('GetResource: interval-form durations, 0/1 flags, string ids; nulls and missing credits are accepted', async () => {
    const { client } = replay('filled-in', 'getResource-3');
    const result = await client.getResource({ params: { resourceId: 3 } });
    expect(result.ok ? 'ok' : result.error.message).toBe('ok');
    if (!result.ok) return;
    expect(result.value).toMatchObject({
      resourceId: 3,
      name: 'Focus Room A',
      location: 'Floor 1, east wing',
      minLength: '30 minutes',
      maxLength: '4 hours',
      requiresApproval: false,
      allowMultiday: true,
      maxParticipants: 4,
      scheduleId: 2,
      typeId: 1,
      groupIds: [2],
      bufferTime: '10 minutes',
      requiresCheckIn: false,
      color: '#43a047',
    });
  });

  it('GetResourceGroups: the "All" group with id 0, and a tree nested three deep', async () => {
    const { client } = replay('filled-in', 'getResourceGroups-all');
    const result = await client.getResourceGroups();
    expect(result.ok ? 'ok' : result.error.message).toBe('ok');
    if (!result.ok) return;
    const [all, building] = result.value.groups;
    expect(all).toMatchObject({ type: 'group', id: 0, name: 'All' });
    expect(building).toMatchObject({ type: 'group', id: 1, name: 'Building A', parent_id: null });
    const floor = building?.children.find((child) => child.type === 'group');
    expect(floor).toMatchObject({ id: 2, name: 'Floor 1', parent_id: 1 });
    const zone = floor?.type === 'group' ? floor.children.find((child) => child.type === 'group') : undefined;
    expect(zone).toMatchObject({ id: 3, name: 'Quiet zone', parent_id: 2 });
    const desk = zone?.type === 'group' ? zone.children[0] : undefined;
    expect(desk).toMatchObject({
      type: 'resource',
      id: 'resource-3-5',
      group_id: 3,
      resource_id: 5,
      resource_name: 'Check-in Desk',
      requiresApproval: false,
      isCheckInEnabled: true,
      isAutoReleased: true,
      autoReleaseMinutes: 15,
    });
  });

  it('GetUser: every field filled in; string ids and credits', async () => {
    const { client } = replay('filled-in', 'getUser-self');
    const result = await client.getUser({ params: { userId: 1 } });
    expect(result.ok ? 'ok' : result.error.message).toBe('ok');
    if (!result.ok) return;
    expect(result.value).toMatchObject({
      id: 1,
      timezone: 'America/New_York',
      phoneNumber: '+1 212 555 0100',
      position: 'Facilities lead',
      organization: 'Recorded Org',
      statusId: '1',
      currentCredits: '12.50',
      defaultScheduleId: 2,
      customAttributes: [{ id: 11, label: 'Badge number', value: 'B-4711' }],
    });
  });

  it('GetUser: the sample user as installed, with null phone, position and colour', async () => {
    const { client } = replay('as-installed', 'getUser-self');
    const result = await client.getUser({ params: { userId: 1 } });
    expect(result.ok ? 'ok' : result.error.message).toBe('ok');
    if (!result.ok) return;
    expect(result.value).toMatchObject({ id: 1, timezone: 'America/New_York', userName: 'user' });
  });

  it('GetSchedule: one array of periods per weekday stays nested; "" dates become null', async () => {
    const { client } = replay('as-installed', 'getSchedule-2');
    const result = await client.getSchedule({ params: { scheduleId: 2 } });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value).toMatchObject({
      daysVisible: 7,
      id: 2,
      name: 'Round The Clock',
      timezone: 'America/New_York',
      weekdayStart: 0,
      availabilityStart: null,
      availabilityEnd: null,
    });
    expect(result.value.periods).toHaveLength(7);
    expect(result.value.periods[0]?.[0]).toEqual({
      start: '2026-11-29T00:00:00-0500',
      end: '2026-11-29T00:30:00-0500',
      label: '12:00 AM',
      startTime: '00:00:00',
      endTime: '00:30:00',
      isReservable: true,
    });
  });

  it('DeleteReservation: the deletion envelope', async () => {
    const { client } = replay('as-installed', 'deleteReservation-single');
    const result = await client.deleteReservation({ params: { referenceNumber: 'x' }, query: { updateScope: 'this' } });
    expect(result).toEqual({ ok: true, value: { links: [], message: 'The item was deleted' } });
  });

  it.each(['signOut-user', 'signOut-again'])('SignOut (%s) succeeds', async (name) => {
    const { client } = replay('as-installed', name, session);
    const result = await client.signOut({ body: session });
    expect(result).toEqual({ ok: true, value: { signedOut: true, links: [], message: null } });
  });

  it('SignOut without a body (synthetic: the spec promises none; real servers always sent JSON)', async () => {
    const { client } = synthetic(200, 'text/html; charset=UTF-8', '', session);
    expect(await client.signOut({ body: session })).toEqual({ ok: true, value: { signedOut: true } });
  });
});

describe('decoding real servers’ failures', () => {
  const unknown = { referenceNumber: '0000000000000000000000' };
  it.each([
    [
      'updateReservation-unknown',
      (client: ApiClient) => client.updateReservation({ params: unknown, query: { updateScope: 'this' }, body: {} }),
    ],
    ['checkinReservation-unknown', (client: ApiClient) => client.checkinReservation({ params: unknown })],
    ['checkoutReservation-unknown', (client: ApiClient) => client.checkoutReservation({ params: unknown })],
    ['deleteReservation-unknown', (client: ApiClient) => client.deleteReservation({ params: unknown, query: { updateScope: 'this' } })],
    ['approveReservation-by-user', (client: ApiClient) => client.approveReservation({ params: unknown })],
  ] as const)('an empty 200 (%s) is never success', async (name, call) => {
    const { client } = replay(name === 'approveReservation-by-user' ? 'filled-in' : 'as-installed', name);
    const result = await call(client);
    const operation = name.slice(0, name.indexOf('-'));
    expect(result).toEqual({
      ok: false,
      error: {
        kind: 'unexpectedBody',
        status: 200,
        message: `The server's answer to ${operation[0]!.toUpperCase()}${operation.slice(1)} was empty.`,
      },
    });
  });

  it('a 500 HTML page becomes a server error without tags (synthetic: no recorded server crashed)', async () => {
    const { client } = synthetic(
      500,
      'text/html; charset=UTF-8',
      '<!DOCTYPE html>\n<html><head><title>500 Internal Server Error</title><style>body{font-family:sans-serif}</style></head>\n<body><h1>Internal Server Error</h1>\n<p>Creation of dynamic property ReservationCheckinResponse::$checkInDate is deprecated</p>\n</body></html>\n',
    );
    const result = await client.checkinReservation({ params: { referenceNumber: '6b06552218712617927746' } });
    expect(result).toEqual({
      ok: false,
      error: { kind: 'server', status: 500, message: 'The server could not complete the request (HTTP 500).' },
    });
  });

  it('a 401 HTML text becomes unauthorized with its first sentence', async () => {
    const { client } = replay('as-installed', 'getAllResources-no-session');
    const result = await client.getAllResources();
    expect(result).toEqual({
      ok: false,
      error: { kind: 'unauthorized', status: 401, message: 'You must be authenticated in order to access this service.' },
    });
  });

  const apiSwitchedOff =
    "The server's API is switched off. Ask the server's administrator to switch it on ($conf['settings']['api']['enabled'] = 'true').";

  it('the API switched off answers a 200 HTML page, which reads as the API switched off', async () => {
    const { client } = replay('api-disabled', 'authenticate-user');
    const result = await client.authenticate({ body: { username: 'user', password: 'password' } });
    expect(result).toEqual({ ok: false, error: { kind: 'server', status: 200, message: apiSwitchedOff } });
  });

  it('a 503 becomes a server error that says so (synthetic: a proxy in front of a stopped server)', async () => {
    const { client } = synthetic(503, 'text/html; charset=UTF-8', 'Service Unavailable');
    const result = await client.authenticate({ body: { username: 'user', password: 'password' } });
    expect(result).toEqual({
      ok: false,
      error: { kind: 'server', status: 503, message: "The server's API is unavailable or disabled (HTTP 503)." },
    });
  });

  it("a crash page's PHP text stays out of the message (synthetic)", async () => {
    const { client } = synthetic(
      500,
      'text/html',
      '<br />\n<b>Fatal error</b>:  Uncaught TypeError: count(): Argument #1 in /var/www/lib/Thing.php:12',
    );
    const result = await client.getUser({ params: { userId: 1 } });
    expect(result).toEqual({
      ok: false,
      error: { kind: 'server', status: 500, message: 'The server could not complete the request (HTTP 500).' },
    });
  });

  it('a 400 keeps the server’s message and errors', async () => {
    const { client } = replay('as-installed', 'createReservation-conflict');
    const result = await client.createReservation({ body: { resourceId: 1 } });
    expect(result).toEqual({
      ok: false,
      error: {
        kind: 'validation',
        status: 400,
        message: 'There were errors processing your request',
        errors: ['There are conflicting reservations on the following dates:\n11/26/2026 - Conference Room 1\n'],
      },
    });
  });

  it.each([
    ['getResource-missing', 'The requested resource was not found'],
    ['getStatuses-unknown-path', '404 Page Not Found'],
  ])('a 404 (%s) becomes notFound', async (name, message) => {
    const { client } = replay('as-installed', name);
    const result = await client.getResource({ params: { resourceId: 99 } });
    expect(result).toEqual({ ok: false, error: { kind: 'notFound', status: 404, message } });
  });

  it('a 200 that is not JSON is never success', async () => {
    const fetch: typeof globalThis.fetch = async () => new Response('<p>OK</p>', { status: 200 });
    const result = await createClient({ apiRoot, fetch }).checkinReservation({ params: { referenceNumber: 'x' } });
    expect(result).toEqual({
      ok: false,
      error: { kind: 'unexpectedBody', status: 200, message: "The server's answer to CheckinReservation was not JSON." },
    });
  });

  it('a 200 without a member the app needs names the operation and the member in one sentence', async () => {
    const fetch: typeof globalThis.fetch = async () =>
      new Response(
        JSON.stringify({
          resources: [
            { resourceId: '1', name: 'Room' },
            { resourceId: '2', scheduleId: 1 },
          ],
        }),
        { status: 200 },
      );
    const result = await createClient({ apiRoot, fetch }).getAllResources();
    expect(result).toEqual({
      ok: false,
      error: {
        kind: 'unexpectedBody',
        status: 200,
        message: "The server's answer to GetAllResources could not be used: its resources[0].scheduleId is missing or invalid.",
      },
    });
  });

  it('a user without a phone number, position, colour or time zone signs in', async () => {
    const user = { id: '1', userName: 'user', timezone: 'America/New_York', phoneNumber: null, position: null, reservationColor: null };
    const answer =
      (body: unknown): typeof globalThis.fetch =>
      async () =>
        new Response(JSON.stringify(body), { status: 200 });
    const read = await createClient({ apiRoot, fetch: answer(user) }).getUser({ params: { userId: 1 } });
    expect(read).toMatchObject({
      ok: true,
      value: { id: 1, timezone: 'America/New_York', phoneNumber: '', position: '', reservationColor: '' },
    });
    // A zone left out or null reads as none, which the session replaces with the server's default.
    const { timezone: _left, ...withoutZone } = user;
    for (const body of [withoutZone, { ...user, timezone: null }]) {
      expect(await createClient({ apiRoot, fetch: answer(body) }).getUser({ params: { userId: 1 } })).toMatchObject({
        ok: true,
        value: { id: 1, timezone: '' },
      });
    }
  });

  it('an answer that is not an object at all says so', async () => {
    const fetch: typeof globalThis.fetch = async () => new Response('"OK"', { status: 200 });
    const result = await createClient({ apiRoot, fetch }).getUser({ params: { userId: 1 } });
    expect(result).toEqual({
      ok: false,
      error: { kind: 'unexpectedBody', status: 200, message: "The server's answer to GetUser was not the kind of answer it should be." },
    });
  });
});

describe('decode', () => {
  it.each([
    ['2026-12-01T15:00:00Z', '2026-12-01T15:00:00+0000'],
    ['2026-12-01T15:00:00+00:00', '2026-12-01T15:00:00+0000'],
    ['2026-12-01T16:00:00+01:00', '2026-12-01T16:00:00+0100'],
    ['2026-12-01T15:00:00+0000', '2026-12-01T15:00:00+0000'],
  ])('writes the date-time %s as %s', (wire, canonical) => {
    expect(decode(Type.Object({ at: WireDateTime }), { at: wire })).toEqual({ ok: true, value: { at: canonical } });
  });

  it('fills missing nullable members with null, missing arrays, links and message', () => {
    const schema = Type.Object({
      when: Nullable(WireDateTime),
      items: Type.Array(Type.String()),
      links: Type.Array(Type.Object({ href: Type.String(), title: Type.String() })),
      message: Nullable(Type.String()),
    });
    expect(decode(schema, {})).toEqual({ ok: true, value: { when: null, items: [], links: [], message: null } });
  });

  it.each([
    ['names keyed by user id', { '3': 'Alex Morgan', '7': 'Priya Shah' }, { '3': 'Alex Morgan', '7': 'Priya Shah' }],
    ['PHP’s [] for none', [], {}],
    ['a list of names, which names no ids', ['Alex Morgan'], {}],
    ['a missing member', undefined, {}],
    ['a key that is no id, and a value that is no name', { all: 'Everyone', '4': null, '5': 'Tom Becker' }, { '5': 'Tom Becker' }],
  ])('reads who takes part from %s', (_case, wire, read) => {
    const people = Type.Object({ participants: Type.Record(Type.String({ pattern: '^[0-9]+$' }), Type.String()) });
    expect(decode(people, wire === undefined ? {} : { participants: wire })).toEqual({ ok: true, value: { participants: read } });
  });

  it('keeps "" in a nullable plain string: it is a value there, not an empty date', () => {
    expect(decode(Type.Object({ label: Nullable(Type.String()) }), { label: '' })).toEqual({ ok: true, value: { label: '' } });
  });

  it.each([
    ['1', true],
    ['0', false],
    [1, true],
    [0, false],
    ['true', true],
    ['false', false],
  ])('reads the flag %j as %j', (wire, flag) => {
    expect(decode(Type.Boolean(), wire)).toEqual({ ok: true, value: flag });
  });

  it('does not guess: an unreadable flag the app can do without reads as false, one it needs fails at its path', () => {
    expect(decode(Type.Object({ flag: Type.Boolean() }), { flag: 'maybe' })).toEqual({ ok: true, value: { flag: false } });
    expect(decode(Type.Object({ inner: Type.Object({ flag: Needed(Type.Boolean()) }) }), { inner: { flag: 'maybe' } })).toEqual({
      ok: false,
      error: 'inner.flag',
    });
  });

  it.each([
    ['null for a string', Type.Object({ text: Type.String() }), { text: null }, { text: '' }],
    ['a missing string', Type.Object({ text: Type.String() }), {}, { text: '' }],
    ['null for an integer with a default', Type.Object({ count: Type.Integer({ default: 1 }) }), { count: null }, { count: 1 }],
    ['null for an integer', Type.Object({ count: Type.Integer() }), { count: null }, { count: 0 }],
    ['a missing flag', Type.Object({ flag: Type.Boolean() }), {}, { flag: false }],
    ['"" for an absent date', Type.Object({ at: Nullable(WireDateTime) }), { at: '' }, { at: null }],
    ['a map where a list belongs', Type.Object({ ids: Type.Array(Type.Integer()) }), { ids: { a: '1', b: '2' } }, { ids: [1, 2] }],
    ['[] where an object belongs', Type.Object({ owner: Type.Object({ name: Type.String() }) }), { owner: [] }, { owner: { name: '' } }],
    ['a string where a list belongs', Type.Object({ ids: Type.Array(Type.Integer()) }), { ids: 'none' }, { ids: [] }],
    ['list items of another kind', Type.Object({ ids: Type.Array(Type.Integer()) }), { ids: ['1', 'x', 3] }, { ids: [1, 3] }],
    ['extra members', Type.Object({ id: Type.Integer() }), { id: '4', extra: true }, { id: 4, extra: true }],
    ['an unknown literal', Type.Object({ kind: Type.Union([Type.Literal('a'), Type.Literal('b')]) }), { kind: 'c' }, { kind: 'a' }],
  ])('reads %s liberally', (_case, schema, wire, expected) => {
    expect(decode(schema, wire)).toEqual({ ok: true, value: expected });
  });

  it('reads an install without resource groups: one group "All" with id 0', () => {
    const result = decode(ResourceGroupTree, {
      groups: [
        {
          type: 'group',
          id: '0',
          name: 'All',
          label: 'All',
          parent: null,
          parent_id: null,
          children: [
            { type: 'resource', id: 'resource-0-1', group_id: 0, resource_id: '1', resource_name: 'Room', label: 'Room', scheduleId: '1' },
          ],
        },
      ],
    });
    expect(result.ok && result.value.groups[0]).toMatchObject({
      id: 0,
      name: 'All',
      children: [{ type: 'resource', resource_id: 1, requiredResourceIds: [] }],
    });
  });

  it('leaves an array holding one array of scalars alone', () => {
    const schema = Type.Array(Type.Array(Type.Integer()));
    expect(decode(schema, [['1', '2']])).toEqual({ ok: true, value: [[1, 2]] });
  });

  it('follows the recursive group tree through groups nested three deep', () => {
    const group = (id: string, children: unknown[]) => ({
      type: 'group',
      id,
      name: id,
      label: id,
      parent: null,
      parent_id: null,
      children,
    });
    const result = decode(ResourceGroupTree, { groups: [group('1', [group('2', [group('3', [])])])] });
    expect(result.ok && result.value.groups[0]?.children[0]).toMatchObject({ id: 2, children: [{ id: 3, children: [] }] });
  });
});

describe('what the client sends', () => {
  it('sends full reservation bodies: the members real servers crash without are filled', async () => {
    const { client, sent } = replay('as-installed', 'createReservation-conflict', session);
    await client.createReservation({
      body: { resourceId: 1, startDateTime: '2026-12-01T15:00:00+0000', endDateTime: '2026-12-01T16:00:00+0000' },
    });
    const [request] = sent;
    expect(request?.url).toBe(`${apiRoot}/Reservations/`);
    expect(request?.method).toBe('POST');
    expect(request?.headers.get('content-type')).toBe('application/json');
    expect(JSON.parse(request?.body ?? '')).toEqual({
      resourceId: 1,
      startDateTime: '2026-12-01T15:00:00+0000',
      endDateTime: '2026-12-01T16:00:00+0000',
      title: '',
      description: '',
      allowParticipation: false,
      termsAccepted: false,
    });
  });

  it('sends full resource bodies, keeping what the caller gave', async () => {
    const { client, sent } = replay('as-installed', 'getResource-missing');
    await client.createResource({ body: { name: 'Desk 4', scheduleId: 1, bufferTime: '0d0h10m', typeId: 2 } });
    expect(JSON.parse(sent[0]?.body ?? '')).toEqual({
      name: 'Desk 4',
      scheduleId: 1,
      bufferTime: '0d0h10m',
      typeId: 2,
      minNoticeAdd: '',
      minNoticeUpdate: '',
      minNoticeDelete: '',
      groupIds: [],
      requiresApproval: false,
      allowMultiday: false,
      autoAssignPermissions: true,
      requiresCheckIn: false,
    });
  });

  it('encodes path parameters and query values, leaving undefined members out', async () => {
    const { client, sent } = replay('as-installed', 'getReservations-nothing');
    await client.getReservation({ params: { referenceNumber: 'a/b c' } });
    await client.getReservations({
      query: { startDateTime: '2026-12-01T15:00:00+0100', endDateTime: undefined, resourceId: '1,2' },
    });
    expect(sent.map((request) => request.url)).toEqual([
      `${apiRoot}/Reservations/a%2Fb%20c`,
      `${apiRoot}/Reservations/?startDateTime=2026-12-01T15%3A00%3A00%2B0100&resourceId=1%2C2`,
    ]);
  });

  it('joins the API root and the path without adding or dropping a slash', async () => {
    const recording = readRecording('as-installed', 'getAvailability-all');
    const urls: string[] = [];
    const fetch: typeof globalThis.fetch = async (input) => {
      urls.push(String(input));
      return recordedResponse(recording);
    };
    const client = createClient({ apiRoot: `${apiRoot}/`, fetch });
    await client.getAllAccessories();
    await client.getAvailability();
    await client.authenticate({ body: { username: 'ada', password: 'x' } });
    expect(urls).toEqual([`${apiRoot}/Accessories/`, `${apiRoot}/Resources/Availability`, `${apiRoot}/Authentication/Authenticate`]);
  });

  it('asks for compressed JSON, and sends session headers only where the operation needs them', async () => {
    const { client, sent } = replay('as-installed', 'getAvailability-all', session);
    await client.getAvailability();
    await client.getStatuses();
    const [secured, open] = sent;
    expect(secured?.headers.get('accept')).toBe('application/json');
    expect(secured?.headers.get('accept-encoding')).toBe('gzip, deflate, br');
    expect(secured?.headers.get('x-booked-sessiontoken')).toBe(session.sessionToken);
    expect(secured?.headers.get('x-booked-userid')).toBe('2');
    expect(open?.headers.has('x-booked-sessiontoken')).toBe(false);
    expect(open?.headers.has('x-booked-userid')).toBe(false);
  });

  it('reports a request that takes longer than the timeout as a network error', async () => {
    const fetch: typeof globalThis.fetch = (_input, init) =>
      new Promise((_resolve, reject) => init?.signal?.addEventListener('abort', () => reject(init.signal?.reason)));
    const result = await createClient({ apiRoot, fetch, timeoutMs: 50 }).getStatuses();
    expect(result).toEqual({ ok: false, error: { kind: 'network', message: 'booking.example.org did not answer within 0.05 seconds.' } });
  });
});
