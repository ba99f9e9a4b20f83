import { readFileSync } from 'node:fs';
import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { createClient, type ApiClient } from '../../electron/api/client.js';
import { decode } from '../../electron/api/decode.js';
import type { OperationName } from '../../electron/api/operations.js';
import { Needed, Nullable, WireDateTime } from '../../electron/api/schemas/common.js';
import { ResourceGroupTree } from '../../electron/api/schemas/resources.js';

const apiRoot = 'https://booking.example.org/Web/Services/index.php';
const link = (path: string, title: string) => ({ href: `${apiRoot}${path}`, title });

/** One answer of a real LibreBooking 2.9 server, in the shape its fixture file keeps it. */
interface Recording {
  note: string;
  operation: OperationName;
  status: number;
  contentType: string;
  /** A string is sent verbatim (HTML, empty bodies); anything else as JSON. */
  body: unknown;
}

interface SentRequest {
  url: string;
  method: string;
  headers: Headers;
  body: string | undefined;
}

function recording(name: string): Recording {
  return JSON.parse(readFileSync(new URL(`fixtures/real-server/${name}.json`, import.meta.url), 'utf8')) as Recording;
}

/** A client whose every request is answered by the recording; the requests are kept for inspection. */
function replay(name: string): { client: ApiClient; sent: SentRequest[] } {
  const { status, contentType, body } = recording(name);
  const sent: SentRequest[] = [];
  const fetch: typeof globalThis.fetch = async (input, init) => {
    sent.push({
      url: String(input),
      method: init?.method ?? 'GET',
      headers: new Headers(init?.headers),
      body: typeof init?.body === 'string' ? init.body : undefined,
    });
    return new Response(typeof body === 'string' ? body : JSON.stringify(body), {
      status,
      headers: { 'content-type': contentType },
    });
  };
  return { client: createClient({ apiRoot, fetch }), sent };
}

const session = { sessionToken: 'a'.repeat(50), userId: 2 };

describe('decoding real servers’ success bodies', () => {
  it('Authenticate: userId as a string becomes a number and the session is kept', async () => {
    const { client } = replay('authenticate-accepted');
    const result = await client.authenticate({ body: { username: 'ada', password: 'secret' } });
    expect(result).toEqual({
      ok: true,
      data: {
        sessionToken: '8c2a3f0e5b7d9c1a4e6f8b0d2c4a6e8f0b2d4c6a8e0f2b4d6c',
        sessionExpires: '2026-12-01T15:30:00+0000',
        userId: 2,
        isAuthenticated: true,
        version: '2.9',
        links: [],
        message: null,
      },
    });
    expect(client.session).toEqual({ sessionToken: '8c2a3f0e5b7d9c1a4e6f8b0d2c4a6e8f0b2d4c6a8e0f2b4d6c', userId: 2 });
  });

  it('Authenticate: a refused login (200, isAuthenticated false) is an unauthorized error', async () => {
    const { client } = replay('authenticate-refused');
    const result = await client.authenticate({ body: { username: 'ada', password: 'wrong' } });
    expect(result).toEqual({
      ok: false,
      error: { kind: 'unauthorized', message: 'Login failed. Invalid username or password.' },
    });
    expect(client.session).toBeNull();
  });

  it('GetReservation: keyed resources become an array, flags booleans, "" dates null', async () => {
    const { client } = replay('get-reservation');
    const result = await client.getReservation({ params: { referenceNumber: '65f1c2a7b3d4e109876543' } });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const reservation = result.data;
    expect(reservation.referenceNumber).toBe('65f1c2a7b3d4e109876543');
    expect(reservation.startDate).toBe('2026-12-01T16:00:00+0100');
    expect(reservation.endDate).toBe('2026-12-01T17:30:00+0100');
    expect(reservation.requiresApproval).toBe(false);
    expect(reservation.isRecurring).toBe(true);
    expect(reservation.scheduleId).toBe(1);
    expect(reservation.resourceId).toBe(1);
    expect(reservation.owner).toEqual({
      userId: 2,
      firstName: 'Ada',
      lastName: 'Lovelace',
      emailAddress: 'ada@example.org',
      links: [link('/Users/2', 'get_user')],
      message: null,
    });
    expect(reservation.participants.map((person) => person.userId)).toEqual([5]);
    expect(reservation.invitees).toEqual([]);
    expect(reservation.customAttributes).toEqual([{ id: 3, label: 'Cost centre', value: '4711', links: [], message: null }]);
    expect(reservation.recurrenceRule).toEqual({
      type: 'weekly',
      interval: 1,
      monthlyType: null,
      weekdays: [2],
      repeatTerminationDate: '2026-12-29T00:00:00+0000',
    });
    expect(reservation.resources).toEqual([
      { id: 1, name: 'Conference Room 1', type: null, groups: null, links: [link('/Resources/1', 'get_resource')], message: null },
      { id: 3, name: 'Beamer cart', type: null, groups: null, links: [link('/Resources/3', 'get_resource')], message: null },
    ]);
    expect(reservation.accessories).toEqual([
      { id: 1, name: 'Projector', quantityAvailable: 2, quantityReserved: 1, links: [], message: null },
    ]);
    expect(reservation.startReminder).toEqual({ value: 15, interval: 'minutes' });
    expect(reservation.endReminder).toBeNull();
    expect(reservation.allowParticipation).toBe(false);
    expect(reservation.checkInDate).toBeNull();
    expect(reservation.checkOutDate).toBeNull();
    expect(reservation.originalEndDate).toBeNull();
    expect(reservation.isCheckInAvailable).toBe(false);
    expect(reservation.isCheckoutAvailable).toBe(false);
    expect(reservation.autoReleaseMinutes).toBeNull();
    expect(reservation.message).toBeNull();
  });

  it('GetReservations: string ids, 0/1 flags, "0.00" credits, interval-form buffer time', async () => {
    const { client } = replay('get-reservations');
    const result = await client.getReservations({ query: { userId: '2' } });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.data.startDateTime).toBe('2026-12-01T00:00:00+0000');
    expect(result.data.endDateTime).toBe('2026-12-15T00:00:00+0000');
    const [first, second] = result.data.reservations;
    expect(first).toEqual({
      referenceNumber: '65f1c2a7b3d4e109876543',
      startDate: '2026-12-01T15:00:00+0000',
      endDate: '2026-12-01T16:30:00+0000',
      firstName: 'Ada',
      lastName: 'Lovelace',
      resourceName: 'Conference Room 1',
      title: 'Stand-up',
      description: '',
      requiresApproval: false,
      isRecurring: true,
      scheduleId: 1,
      userId: 2,
      resourceId: 1,
      duration: '1 hours 30 minutes',
      bufferTime: '15 minutes',
      bufferedStartDate: '2026-12-01T14:45:00+0000',
      bufferedEndDate: '2026-12-01T16:45:00+0000',
      participants: [],
      invitees: ['Alan Turing'],
      participatingGuests: [],
      invitedGuests: [],
      startReminder: null,
      endReminder: null,
      color: '#1e88e5',
      textColor: '#ffffff',
      checkInDate: '2026-12-01T14:57:12+0000',
      checkOutDate: null,
      originalEndDate: null,
      isCheckInEnabled: true,
      autoReleaseMinutes: 15,
      resourceStatusId: 1,
      creditsConsumed: 0,
      links: [
        link('/Reservations/65f1c2a7b3d4e109876543', 'get_reservation'),
        link('/Resources/1', 'get_resource'),
        link('/Users/2', 'get_user'),
      ],
      message: null,
    });
    expect(second).toMatchObject({
      requiresApproval: true,
      isRecurring: false,
      duration: '1 hours',
      bufferTime: '',
      checkInDate: null,
    });
  });

  it('GetAvailability: the one nested array is unwrapped', async () => {
    const { client } = replay('get-availability');
    const result = await client.getAvailability();
    expect(result).toEqual({
      ok: true,
      data: {
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
            availableUntil: '2026-12-01T17:00:00+0100',
            links: [],
            message: null,
          },
          {
            available: false,
            resource: {
              resourceId: 2,
              name: 'Desk 4',
              scheduleId: 1,
              statusId: 1,
              statusReasonId: null,
              links: [link('/Resources/2', 'get_resource'), link('/Schedules/1', 'get_schedule')],
              message: null,
            },
            availableAt: '2026-12-01T16:30:00+0100',
            availableUntil: '2026-12-08T16:00:00+0100',
            links: [link('/Users/2', 'get_user'), link('/Reservations/65f1c2a7b3d4e109876543', 'get_reservation')],
            message: null,
          },
        ],
        links: [],
        message: null,
      },
    });
  });

  it('GetAllResources: intervals in the human form, flags booleans, "" and "0.00" numbers', async () => {
    const { client } = replay('get-all-resources');
    const result = await client.getAllResources();
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const [room, desk] = result.data.resources;
    expect(room).toEqual({
      resourceId: 1,
      name: 'Conference Room 1',
      location: 'Floor 2',
      contact: '',
      notes: '',
      description: 'Seats 12',
      minLength: '30 minutes',
      maxLength: '4 hours',
      requiresApproval: false,
      allowMultiday: false,
      maxParticipants: 12,
      minNoticeAdd: '',
      minNoticeUpdate: '',
      minNoticeDelete: '',
      maxNotice: '',
      scheduleId: 1,
      icsUrl: null,
      statusId: 1,
      statusReasonId: null,
      customAttributes: [],
      typeId: null,
      groupIds: [2],
      bufferTime: '15 minutes',
      autoReleaseMinutes: null,
      requiresCheckIn: true,
      color: '#1e88e5',
      credits: null,
      peakCredits: null,
      creditApplicability: 1,
      creditsChargedAllSlots: false,
      maxConcurrentReservations: 1,
      links: [link('/Resources/1', 'get_resource'), link('/Resources/1', 'update_resource')],
      message: null,
    });
    expect(desk).toMatchObject({
      resourceId: 7,
      minLength: '',
      maxLength: '1 days',
      requiresApproval: true,
      maxParticipants: null,
      minNoticeAdd: '2 hours',
      statusId: 2,
      statusReasonId: 3,
      customAttributes: [{ id: 4, label: 'Monitor', value: null, links: [], message: null }],
      typeId: 2,
      groupIds: null,
      bufferTime: '',
      autoReleaseMinutes: 15,
      requiresCheckIn: false,
      color: '',
      credits: 0,
      peakCredits: 1,
      creditApplicability: 2,
      creditsChargedAllSlots: true,
      maxConcurrentReservations: 1,
    });
  });

  it('GetResourceGroups: the recursive tree is read at every depth', async () => {
    const { client } = replay('get-resource-groups');
    const result = await client.getResourceGroups();
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const [building] = result.data.groups;
    expect(building).toMatchObject({ type: 'group', id: 1, name: 'Building A', parent: null, parent_id: null });
    const [room, floor] = building?.children ?? [];
    expect(room).toEqual({
      type: 'resource',
      id: 'resource-1-1',
      group_id: 1,
      resource_id: 1,
      resource_name: 'Conference Room 1',
      label: 'Conference Room 1',
      resourceAdminGroupId: null,
      scheduleId: 1,
      statusId: 1,
      scheduleAdminGroupId: null,
      requiresApproval: false,
      isCheckInEnabled: true,
      isAutoReleased: false,
      autoReleaseMinutes: null,
      minLength: null,
      resourceTypeId: null,
      color: '#1e88e5',
      textColor: '#ffffff',
      maxConcurrentReservations: 1,
      requiredResourceIds: [],
    });
    expect(floor).toMatchObject({ type: 'group', id: 2, name: 'Floor 2', parent_id: 1 });
    const desk = floor?.type === 'group' ? floor.children[0] : undefined;
    expect(desk).toMatchObject({
      type: 'resource',
      id: 'resource-2-7',
      group_id: 2,
      resource_id: 7,
      requiresApproval: true,
      isCheckInEnabled: false,
      isAutoReleased: true,
      autoReleaseMinutes: 15,
      minLength: 1800,
      resourceTypeId: 2,
      requiredResourceIds: [1],
    });
  });

  it('GetUser: a number where the spec says string becomes a string', async () => {
    const { client } = replay('get-user');
    const result = await client.getUser({ params: { userId: 2 } });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.data).toMatchObject({
      id: 2,
      statusId: '1',
      currentCredits: '0.00',
      lastLogin: '2026-11-30T08:12:44+0000',
      icsUrl: null,
      defaultScheduleId: 1,
      permissions: [{ id: 1, name: 'Conference Room 1', type: null, groups: null }],
      groups: [{ id: 1, name: 'Staff', isDefault: true, roleIds: [2] }],
    });
  });

  it('GetSchedule: one array of periods per weekday stays nested', async () => {
    const { client } = replay('get-schedule');
    const result = await client.getSchedule({ params: { scheduleId: 1 } });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.data).toMatchObject({
      daysVisible: 7,
      id: 1,
      weekdayStart: 0,
      availabilityStart: null,
      availabilityEnd: null,
    });
    expect(result.data.periods).toHaveLength(7);
    expect(result.data.periods[0]).toEqual([
      {
        start: '2026-11-29T09:00:00+0100',
        end: '2026-11-29T17:00:00+0100',
        label: null,
        startTime: '09:00:00',
        endTime: '17:00:00',
        isReservable: true,
      },
    ]);
  });

  it('DeleteReservation: the deletion envelope', async () => {
    const { client } = replay('delete-reservation');
    const result = await client.deleteReservation({ params: { referenceNumber: 'x' }, query: { updateScope: 'this' } });
    expect(result).toEqual({ ok: true, data: { links: [], message: 'The item was deleted' } });
  });

  it.each(['sign-out', 'sign-out-empty'])('SignOut (%s) succeeds and forgets the session', async (name) => {
    const { client } = replay(name);
    client.session = session;
    const result = await client.signOut({ body: session });
    expect(result).toEqual({ ok: true, data: { signedOut: true } });
    expect(client.session).toBeNull();
  });
});

describe('decoding real servers’ failures', () => {
  it('an empty 200 (update of an unknown reference) is never success', async () => {
    const { client } = replay('update-reservation-unknown');
    const result = await client.updateReservation({ params: { referenceNumber: 'unknown' }, body: {} });
    expect(result).toEqual({
      ok: false,
      error: { kind: 'unexpectedBody', status: 200, message: "The server's answer to UpdateReservation was empty." },
    });
  });

  it('a 500 HTML page becomes a server error without tags', async () => {
    const { client } = replay('checkin-crash');
    const result = await client.checkinReservation({ params: { referenceNumber: '65f1c2a7b3d4e109876543' } });
    expect(result).toEqual({
      ok: false,
      error: { kind: 'server', status: 500, message: 'The server could not complete the request (HTTP 500).' },
    });
  });

  it('a 401 HTML text becomes unauthorized with its first sentence', async () => {
    const { client } = replay('unauthorized');
    const result = await client.getAllResources();
    expect(result).toEqual({
      ok: false,
      error: { kind: 'unauthorized', status: 401, message: 'You must be authenticated in order to access this service.' },
    });
  });

  const apiSwitchedOff = "The server's API is switched off. Its administrator can enable it ($conf['settings']['api']['enabled'] = 'true').";

  it('a 503 (API disabled) becomes a server error that says how to switch it on', async () => {
    const { client } = replay('api-disabled');
    const result = await client.authenticate({ body: { username: 'ada', password: 'secret' } });
    expect(result).toEqual({ ok: false, error: { kind: 'server', status: 503, message: apiSwitchedOff } });
  });

  it('the same page with a 200, as stock servers send it, is no answer either', async () => {
    const page = "LibreBooking API has been configured as disabled.<br/><br/>Set $conf['settings']['api']['enabled'] = 'true' to enable.";
    const fetch: typeof globalThis.fetch = async () => new Response(page, { status: 200, headers: { 'content-type': 'text/html; charset=UTF-8' } });
    const result = await createClient({ apiRoot, fetch }).authenticate({ body: { username: 'ada', password: 'secret' } });
    expect(result).toEqual({ ok: false, error: { kind: 'server', status: 200, message: apiSwitchedOff } });
  });

  it('a crash page\'s PHP text stays out of the message', async () => {
    const page = '<br />\n<b>Fatal error</b>:  Uncaught TypeError: count(): Argument #1 in /var/www/lib/Thing.php:12';
    const fetch: typeof globalThis.fetch = async () => new Response(page, { status: 500, headers: { 'content-type': 'text/html' } });
    const result = await createClient({ apiRoot, fetch }).getUser({ params: { userId: 1 } });
    expect(result).toEqual({ ok: false, error: { kind: 'server', status: 500, message: 'The server could not complete the request (HTTP 500).' } });
  });

  it('a 400 keeps the server’s message and errors', async () => {
    const { client } = replay('create-reservation-conflict');
    const result = await client.createReservation({ body: { resourceId: 1 } });
    expect(result).toEqual({
      ok: false,
      error: {
        kind: 'validation',
        status: 400,
        message: 'There were errors processing your request',
        errors: ['There are conflicting reservations on the following dates:\n12/01/2026 - Conference Room 1\n'],
      },
    });
  });

  it.each([
    ['get-resource-missing', 'The requested resource was not found'],
    ['unknown-path', 'Not Found'],
  ])('a 404 (%s) becomes notFound', async (name, message) => {
    const { client } = replay(name);
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
      new Response(JSON.stringify({ resources: [{ resourceId: '1', name: 'Room' }, { resourceId: '2', scheduleId: 1 }] }), { status: 200 });
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

  it('a user without a phone number, position or colour signs in; one without a time zone fails GetUser alone', async () => {
    const user = { id: '1', userName: 'user', timezone: 'America/New_York', phoneNumber: null, position: null, reservationColor: null };
    const answer = (body: unknown): typeof globalThis.fetch => async () => new Response(JSON.stringify(body), { status: 200 });
    const read = await createClient({ apiRoot, fetch: answer(user) }).getUser({ params: { userId: 1 } });
    expect(read).toMatchObject({ ok: true, data: { id: 1, timezone: 'America/New_York', phoneNumber: '', position: '', reservationColor: '' } });
    const { timezone: _left, ...withoutZone } = user;
    const refused = await createClient({ apiRoot, fetch: answer(withoutZone) }).getUser({ params: { userId: 1 } });
    expect(refused).toEqual({
      ok: false,
      error: { kind: 'unexpectedBody', status: 200, message: "The server's answer to GetUser could not be used: its timezone is missing or invalid." },
    });
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
      member: 'inner.flag',
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
      groups: [{ type: 'group', id: '0', name: 'All', label: 'All', parent: null, parent_id: null, children: [{ type: 'resource', id: 'resource-0-1', group_id: 0, resource_id: '1', resource_name: 'Room', label: 'Room', scheduleId: '1' }] }],
    });
    expect(result.ok && result.value.groups[0]).toMatchObject({ id: 0, name: 'All', children: [{ type: 'resource', resource_id: 1, requiredResourceIds: [] }] });
  });

  it('leaves an array holding one array of scalars alone', () => {
    const schema = Type.Array(Type.Array(Type.Integer()));
    expect(decode(schema, [['1', '2']])).toEqual({ ok: true, value: [[1, 2]] });
  });

  it('follows the recursive group tree through groups nested three deep', () => {
    const group = (id: string, children: unknown[]) => ({ type: 'group', id, name: id, label: id, parent: null, parent_id: null, children });
    const result = decode(ResourceGroupTree, { groups: [group('1', [group('2', [group('3', [])])])] });
    expect(result.ok && result.value.groups[0]?.children[0]).toMatchObject({ id: 2, children: [{ id: 3, children: [] }] });
  });
});

describe('what the client sends', () => {
  it('sends full reservation bodies: the members real servers crash without are filled', async () => {
    const { client, sent } = replay('create-reservation-conflict');
    client.session = session;
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
    const { client, sent } = replay('get-resource-missing');
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
    const { client, sent } = replay('get-reservations');
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
    const { status, contentType, body } = recording('get-availability');
    const urls: string[] = [];
    const fetch: typeof globalThis.fetch = async (input) => {
      urls.push(String(input));
      return new Response(JSON.stringify(body), { status, headers: { 'content-type': contentType } });
    };
    const client = createClient({ apiRoot: `${apiRoot}/`, fetch });
    await client.getAllAccessories();
    await client.getAvailability();
    await client.authenticate({ body: { username: 'ada', password: 'x' } });
    expect(urls).toEqual([`${apiRoot}/Accessories/`, `${apiRoot}/Resources/Availability`, `${apiRoot}/Authentication/Authenticate`]);
  });

  it('asks for compressed JSON, and sends session headers only where the operation needs them', async () => {
    const { client, sent } = replay('get-availability');
    client.session = session;
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
