/**
 * The user's journeys, driven through the core (the same commands the popover sends) against any
 * server: the local service in `npm test`, a real LibreBooking with `npm run test:server`. They
 * discover what to book instead of assuming a schedule layout, and cancel what they booked.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DateTime } from 'luxon';
import { createClient, type ApiClient } from '../../electron/api/client.js';
import { sessionKeepingClient } from '../support/session-keeping-client.js';
import { formatWireDateTime } from '../../electron/api/dates.js';
import { AttributeCategory } from '../../electron/api/schemas/attributes.js';
import { ResourceStatus } from '../../electron/api/schemas/resources.js';
import type { BridgeResult, ReservationView, ResourceView, SignInRequest, SlotView } from '../../electron/bridge/contract.js';
import { memorySecretStore } from '../../electron/core/storage/secret-store.js';
import { createPerchCore, type PerchCore } from '../../electron/core/perch-core.js';
import { newBookingBody } from '../../electron/core/commands/reservation-body.js';
import { normaliseServerUrl } from '../../electron/core/session/server-url.js';
import { sessionMessages } from '../../electron/core/session/session-errors.js';
import { recordingNotifier } from '../support/core-harness.js';
import type { JourneyClock } from './journey-clock.js';

export interface JourneyTarget {
  /** The site's address or its API root. */
  base: string;
  username: string;
  password: string;
  clock: JourneyClock;
}

export interface JourneyOutcome {
  name: string;
  status: 'ok' | 'fail' | 'skip';
  reason?: string;
}

/** A journey that cannot run here (say, no resource needs check-in) says why. */
class Skip extends Error {}

interface SentRequest {
  method: string;
  path: string;
  query: URLSearchParams;
}

interface World {
  target: JourneyTarget;
  apiRoot: string;
  core: PerchCore;
  secrets: ReturnType<typeof memorySecretStore>;
  sent: SentRequest[];
  /** Everything the journeys booked, to cancel at the end. */
  booked: Set<string>;
  quickBooking: string | null;
}

const journeyTitle = 'Perch journey';
const minuteMs = 60_000;

function value<T>(result: BridgeResult<T>, doing: string): T {
  if (result.ok) return result.value;
  const lines = result.error.errors?.length ? ` (${result.error.errors.join(' ').trim()})` : '';
  throw new Error(`${doing}: ${result.error.message}${lines}`);
}

function check(condition: boolean, message: string): asserts condition {
  if (!condition) throw new Error(message);
}

const signInRequest = (target: JourneyTarget, password = target.password): SignInRequest => ({
  server: { kind: 'remote', url: target.base },
  username: target.username,
  password,
  staySignedIn: false,
});

const mine = (world: World, referenceNumber: string) =>
  world.core.snapshot().reservations.find((reservation) => reservation.referenceNumber === referenceNumber);

async function rawClient(world: World): Promise<ApiClient> {
  const client = sessionKeepingClient({ apiRoot: world.apiRoot });
  const answer = await client.authenticate({ body: { username: world.target.username, password: world.target.password } });
  if (!answer.ok) throw new Error(`a second client could not sign in: ${answer.error.message}`);
  return client;
}

/** Resources the user may simply book: available, no approval needed. */
async function bookableResources(world: World, wanted: (resource: ResourceView) => boolean = () => true): Promise<ResourceView[]> {
  const resources = value(await world.core.handlers.listResources(), 'listing resources');
  return resources.filter((resource) => resource.statusId === ResourceStatus.available && !resource.requiresApproval && wanted(resource));
}

async function freeSlots(world: World, resourceId: number, date: DateTime): Promise<SlotView[]> {
  const slots = value(await world.core.handlers.listSlots({ resourceId, date: date.toISODate()! }), 'listing slots');
  return slots.filter((slot) => slot.isReservable);
}

/** Free slots of today and tomorrow in the user's zone: enough to find the one in progress and the next. */
async function freeSlotsAhead(world: World, resourceId: number): Promise<SlotView[]> {
  const today = world.target.clock.now().setZone(world.core.snapshot().account!.timezone).startOf('day');
  return [...(await freeSlots(world, resourceId, today)), ...(await freeSlots(world, resourceId, today.plus({ days: 1 })))];
}

const startOf = (slot: SlotView) => DateTime.fromISO(slot.start).toMillis();

/** Whether the free slots, from the first, run on without a gap for exactly `length` ms (ending on a slot's end). */
function freeFor(slots: SlotView[], length: number): boolean {
  const end = startOf(slots[0]!) + length;
  for (const [index, slot] of slots.entries()) {
    if (index > 0 && slot.start !== slots[index - 1]!.end) return false;
    if (Date.parse(slot.end) === end) return true;
    if (Date.parse(slot.end) > end) return false;
  }
  return false;
}

/** Waits for check-in to open, checks in, waits for the start, checks out. */
async function checkInAndOut(world: World, booking: ReservationView): Promise<void> {
  const start = DateTime.fromISO(booking.start);
  // Servers open check-in 5 minutes before the start.
  await world.target.clock.waitUntil(start.minus({ minutes: 5 }).plus({ seconds: 2 }));
  await world.core.handlers.refresh();
  check(mine(world, booking.referenceNumber)?.checkInOpen === true, 'check-in is not offered although the server opened it');
  const checkedIn = value(await world.core.handlers.checkIn({ referenceNumber: booking.referenceNumber }), 'checking in');
  check(checkedIn.checkedInAt !== null && !checkedIn.checkInOpen, 'the check-in is not shown');
  // Checking out before the start would be a cancellation, which servers refuse.
  await world.target.clock.waitUntil(start.plus({ seconds: 2 }));
  const checkedOut = value(await world.core.handlers.checkOut({ referenceNumber: booking.referenceNumber }), 'checking out');
  check(checkedOut.checkedOutAt !== null && checkedOut.originalEnd !== null, 'the check-out is not shown');
  check(Date.parse(checkedOut.end) < Date.parse(booking.end), `the end ${checkedOut.end} was not cut`);
}

/**
 * Books a resource that needs check-in: its slot in progress first (where the server lets users book
 * it, "current"), then the next ones — a slot under way needs no wait for check-in to open — but not
 * once the resource's auto-release moment has passed in it, when check-in is refused.
 */
async function bookCheckInSlot(world: World, purpose: string): Promise<ReservationView> {
  const candidates = await bookableResources(world, (resource) => resource.requiresCheckIn);
  if (candidates.length === 0) throw new Skip('no resource the user may book needs check-in');
  const now = world.target.clock.now();
  const refusals: string[] = [];
  const choices: { resource: ResourceView; slot: SlotView }[][] = [[], []];
  for (const resource of candidates) {
    const slots = await freeSlotsAhead(world, resource.resourceId);
    const stillOpen = (slot: SlotView) =>
      resource.autoReleaseMinutes === null || startOf(slot) + resource.autoReleaseMinutes * minuteMs > now.toMillis() + minuteMs;
    const inProgress = slots.find(
      (slot) => startOf(slot) <= now.toMillis() && Date.parse(slot.end) > now.toMillis() + minuteMs && stillOpen(slot),
    );
    const next = slots.find((slot) => startOf(slot) > now.toMillis());
    if (inProgress) choices[0]!.push({ resource, slot: inProgress });
    if (next) choices[1]!.push({ resource, slot: next });
  }
  for (const { resource, slot } of choices.flat()) {
    const outcome = await world.core.handlers.book({
      resourceId: resource.resourceId,
      start: slot.start,
      end: slot.end,
      title: `${journeyTitle}: ${purpose}`,
    });
    if (!outcome.ok) {
      refusals.push(`${resource.name} at ${slot.start}: ${outcome.error.errors?.join(' ') ?? outcome.error.message}`.trim());
      continue;
    }
    world.booked.add(outcome.value.referenceNumber);
    const booking = mine(world, outcome.value.referenceNumber);
    if (booking !== undefined) return booking;
  }
  throw new Error(`no check-in resource could be booked: ${refusals.join('; ')}`);
}

const journeys: { name: string; run(world: World): Promise<void> }[] = [
  {
    name: 'sign in refuses a wrong password in the server’s words, with what a single sign-on user must do',
    async run(world) {
      const raw = await createClient({ apiRoot: world.apiRoot }).authenticate({
        body: { username: world.target.username, password: `${world.target.password}-wrong` },
      });
      check(!raw.ok, 'the server accepted a wrong password');
      const result = await world.core.handlers.signIn(signInRequest(world.target, `${world.target.password}-wrong`));
      check(!result.ok, 'Perch signed in with a wrong password');
      const expected = `${raw.error.message} ${sessionMessages.singleSignOn}`;
      check(result.error.message === expected, `Perch said "${result.error.message}", not "${expected}"`);
      check(world.core.snapshot().phase === 'signedOut', 'Perch is not signed out after a refused sign-in');
    },
  },
  {
    name: 'sign in',
    async run(world) {
      const snapshot = value(await world.core.handlers.signIn(signInRequest(world.target)), 'signing in');
      check(snapshot.phase === 'ready' && snapshot.account !== null, `the phase is ${snapshot.phase}`);
    },
  },
  {
    name: 'first sync',
    async run(world) {
      const snapshot = world.core.snapshot();
      check(snapshot.fetchedAt !== null, 'nothing was fetched');
      check(snapshot.lastError === null, `the sync failed: ${snapshot.lastError?.message}`);
      check(value(await world.core.handlers.listSchedules(), 'listing schedules').length > 0, 'no schedules');
      check((await bookableResources(world)).length > 0, 'no resource the user may book');
    },
  },
  {
    name: 'free now',
    async run(world) {
      const { freeNow, now } = await world.core.handlers.refresh();
      check(freeNow.length > 0, 'nothing is free now');
      const late = freeNow.find((resource) => resource.freeUntil !== null && DateTime.fromISO(resource.freeUntil) <= DateTime.fromISO(now));
      check(late === undefined, `${late?.name} is listed as free until ${late?.freeUntil}, which is not after now`);
    },
  },
  {
    name: 'quick book',
    async run(world) {
      const snapshot = world.core.snapshot();
      const simple = new Set((await bookableResources(world)).map((resource) => resource.resourceId));
      const now = world.target.clock.now();
      const refusals: string[] = [];
      // As the popover's quick choices do: the next slot, since the one in progress began in the past.
      for (const free of snapshot.freeNow.filter((resource) => simple.has(resource.resourceId))) {
        const slots = await freeSlotsAhead(world, free.resourceId);
        const index = slots.findIndex((slot) => startOf(slot) > now.toMillis());
        const [slot, following] = [slots[index], slots[index + 1]];
        // The booking is extended by one slot later: both must be free.
        if (slot === undefined || following === undefined || following.start !== slot.end) continue;
        if (free.freeUntil !== null && Date.parse(free.freeUntil) < Date.parse(following.end)) continue;
        const outcome = await world.core.handlers.book({
          resourceId: free.resourceId,
          start: slot.start,
          end: slot.end,
          title: journeyTitle,
        });
        if (!outcome.ok) {
          refusals.push(`${free.name}: ${outcome.error.message} ${outcome.error.errors?.join(' ') ?? ''}`.trim());
          continue;
        }
        world.booked.add(outcome.value.referenceNumber);
        world.quickBooking = outcome.value.referenceNumber;
        const shown = mine(world, outcome.value.referenceNumber);
        check(shown !== undefined, 'the booking is not among the user’s reservations');
        check(
          Date.parse(shown.start) === startOf(slot) && Date.parse(shown.end) === Date.parse(slot.end),
          `booked ${shown.start}–${shown.end}, asked ${slot.start}–${slot.end}`,
        );
        return;
      }
      throw new Error(`no free resource could be booked for its next two slots${refusals.length > 0 ? `: ${refusals.join('; ')}` : ''}`);
    },
  },
  {
    name: 'extend',
    async run(world) {
      check(world.quickBooking !== null, 'there is no quick booking to extend');
      const before = mine(world, world.quickBooking)!;
      const minutes = Math.round((Date.parse(before.end) - Date.parse(before.start)) / minuteMs);
      const view = value(await world.core.handlers.extend({ referenceNumber: world.quickBooking, minutes }), 'extending');
      check(
        Date.parse(view.end) === Date.parse(before.end) + minutes * minuteMs,
        `the end is ${view.end}, expected ${minutes} minutes after ${before.end}`,
      );
      world.quickBooking = view.referenceNumber;
      world.booked.add(view.referenceNumber);
    },
  },
  {
    name: 'retitle',
    async run(world) {
      check(world.quickBooking !== null, 'there is no quick booking to retitle');
      const title = `${journeyTitle}: retitled`;
      const view = value(await world.core.handlers.retitle({ referenceNumber: world.quickBooking, title }), 'retitling');
      check(view.title === title, `the title is "${view.title}"`);
      check(mine(world, view.referenceNumber)?.title === title, 'the reservations list still shows the old title');
    },
  },
  {
    name: 'move to a later time, and read the details',
    async run(world) {
      check(world.quickBooking !== null, 'there is no quick booking to move');
      const before = mine(world, world.quickBooking)!;
      const length = Date.parse(before.end) - Date.parse(before.start);
      // The next stretch of the same length on the same resource that starts after this booking ends.
      const slots = await freeSlotsAhead(world, before.resourceId);
      const later = slots.find((slot, index) => startOf(slot) >= Date.parse(before.end) && freeFor(slots.slice(index), length));
      if (later === undefined)
        throw new Skip(`no later free stretch of ${length / minuteMs} minutes on ${before.resourceName} today or tomorrow`);
      const start = formatWireDateTime(DateTime.fromISO(later.start));
      const end = formatWireDateTime(DateTime.fromISO(later.start).plus({ milliseconds: length }));
      value(
        await world.core.handlers.move({ referenceNumber: before.referenceNumber, start, end, resourceId: before.resourceId }),
        'moving',
      );
      const moved = mine(world, before.referenceNumber);
      check(moved !== undefined, 'the moved booking is not among the user’s reservations');
      check(
        Date.parse(moved.start) === Date.parse(start) && Date.parse(moved.end) === Date.parse(end),
        `moved to ${moved.start}–${moved.end}, asked ${start}–${end}`,
      );
      const details = value(
        await world.core.handlers.getReservationDetails({ referenceNumber: before.referenceNumber }),
        'reading the details',
      );
      check(
        details.resourceNames[0] === moved.resourceName,
        `the details name ${details.resourceNames.join(', ')}, the list ${moved.resourceName}`,
      );
    },
  },
  {
    name: 'type to book: a line naming a resource, tomorrow’s time and a length is read, then booked',
    async run(world) {
      const zone = world.core.snapshot().account!.timezone;
      const tomorrow = world.target.clock.now().setZone(zone).plus({ days: 1 }).toISODate();
      // A resource whose name the line can carry as typed, with a free slot tomorrow on the user's clock.
      for (const resource of await bookableResources(world, (resource) => /^\p{L}[\p{L}\p{N} ]*$/u.test(resource.name))) {
        const slot = (await freeSlotsAhead(world, resource.resourceId)).find(
          (candidate) => DateTime.fromISO(candidate.start).setZone(zone).toISODate() === tomorrow,
        );
        if (slot === undefined) continue;
        const from = DateTime.fromISO(slot.start).setZone(zone);
        const minutes = Math.round((Date.parse(slot.end) - startOf(slot)) / minuteMs);
        const text = `${resource.name} tomorrow ${from.toFormat('HH:mm')} for ${minutes} min`;
        const preview = value(await world.core.handlers.readPhrase({ text }), `reading "${text}"`);
        check(preview !== null, `"${text}" was not read as a booking`);
        check(preview.resourceId === resource.resourceId, `"${text}" chose resource ${preview.resourceId}: ${preview.words}`);
        check(
          preview.start !== null && Date.parse(preview.start) === startOf(slot),
          `"${text}" starts at ${preview.start}: ${preview.words}`,
        );
        const outcome = value(await world.core.handlers.bookPhrase({ text, title: journeyTitle }), `booking "${text}"`);
        world.booked.add(outcome.referenceNumber);
        const booked = mine(world, outcome.referenceNumber);
        check(
          booked !== undefined && Date.parse(booked.start) === startOf(slot) && Date.parse(booked.end) === Date.parse(slot.end),
          `"${text}" booked ${booked?.start}–${booked?.end}`,
        );
        return;
      }
      throw new Skip('no resource with a plain name has a free slot tomorrow');
    },
  },
  {
    name: 'cancel one occurrence and a whole series',
    async run(world) {
      const zone = world.core.snapshot().account!.timezone;
      const days = [1, 2, 3].map((offset) => world.target.clock.now().setZone(zone).startOf('day').plus({ days: offset }));
      let found: { resource: ResourceView; slot: SlotView } | null = null;
      for (const resource of await bookableResources(world)) {
        const [first, ...later] = await Promise.all(days.map((day) => freeSlots(world, resource.resourceId, day)));
        // The same time of day, free on all three days.
        const wallTime = (slot: SlotView) => DateTime.fromISO(slot.start, { setZone: true }).setZone(zone).toFormat('HH:mm');
        const slot = first!.find((candidate) => later.every((slots) => slots.some((other) => wallTime(other) === wallTime(candidate))));
        if (slot) {
          found = { resource, slot };
          break;
        }
      }
      if (found === null) throw new Skip('no resource has a slot free at the same time on each of the next three days');
      const start = DateTime.fromISO(found.slot.start, { setZone: true }).setZone(zone);
      const end = DateTime.fromISO(found.slot.end, { setZone: true }).setZone(zone);
      const title = `${journeyTitle}: series`;
      // Perch books no series itself; the user made this one on the server's web page.
      const client = await rawClient(world);
      const attributes = await client.getCategoryAttributes({ params: { categoryId: AttributeCategory.reservation } });
      const created = await client.createReservation({
        body: {
          ...newBookingBody(
            { resourceId: found.resource.resourceId, start: start.toISO()!, title },
            start,
            end,
            zone,
            attributes.ok ? attributes.value.attributes : [],
          ),
          recurrenceRule: {
            type: 'daily',
            interval: 1,
            monthlyType: null,
            weekdays: null,
            repeatTerminationDate: formatWireDateTime(start.plus({ days: 2 }).endOf('day').set({ millisecond: 0 })),
          },
        },
      });
      if (!created.ok) throw new Error(`the series could not be made: ${created.error.message} ${created.error.errors?.join(' ') ?? ''}`);
      await world.core.handlers.refresh();
      const series = () => world.core.snapshot().reservations.filter((reservation) => reservation.title === title);
      const occurrences = series();
      for (const occurrence of occurrences) world.booked.add(occurrence.referenceNumber);
      check(occurrences.length === 3, `the series shows ${occurrences.length} occurrences, not 3`);

      value(
        await world.core.handlers.cancel({ referenceNumber: occurrences[1]!.referenceNumber, scope: 'this' }),
        'cancelling one occurrence',
      );
      const left = series().map((reservation) => reservation.referenceNumber);
      check(
        left.length === 2 && !left.includes(occurrences[1]!.referenceNumber),
        `after cancelling the second occurrence: ${left.length} left`,
      );

      // The last occurrence stands for the series: the whole series must go, not "this and later".
      value(await world.core.handlers.cancel({ referenceNumber: occurrences[2]!.referenceNumber, scope: 'full' }), 'cancelling the series');
      await world.core.handlers.refresh();
      check(series().length === 0, `${series().length} occurrences are left after cancelling the whole series`);
    },
  },
  {
    name: 'signed out elsewhere: signs in again silently and keeps the action',
    async run(world) {
      check(world.quickBooking !== null, 'there is no quick booking to change');
      const account = world.core.snapshot().account!;
      const kept = await world.secrets.get(`${world.apiRoot}|${account.userName}`);
      check(kept !== null, 'the session is not in the keychain');
      const { sessionToken, userId } = JSON.parse(kept) as { sessionToken: string; userId: number };
      const signedOut = await createClient({ apiRoot: world.apiRoot }).signOut({ body: { userId, sessionToken } });
      check(signedOut.ok, 'the session could not be signed out from elsewhere');
      const mark = world.sent.length;
      const title = `${journeyTitle}: kept after signing in again`;
      const view = value(
        await world.core.handlers.retitle({ referenceNumber: world.quickBooking, title }),
        'retitling after the session ended',
      );
      check(view.title === title, `the title is "${view.title}"`);
      const authentications = world.sent.slice(mark).filter((request) => request.path.endsWith('/Authentication/Authenticate'));
      check(authentications.length === 1, `${authentications.length} sign-ins instead of one`);
      check(world.core.snapshot().phase === 'ready', 'Perch is no longer signed in');
    },
  },
  {
    name: 'a few polls',
    async run(world) {
      const mark = world.sent.length;
      for (let poll = 0; poll < 3; poll += 1) {
        const snapshot = await world.core.handlers.refresh();
        check(snapshot.lastError === null && !snapshot.offline, `poll ${poll + 1} failed: ${snapshot.lastError?.message ?? 'offline'}`);
      }
      const lists = world.sent.slice(mark).filter((request) => request.method === 'GET' && /\/Reservations\/?$/.test(request.path));
      check(lists.length >= 3, `${lists.length} reservation lists fetched in 3 polls`);
      // Real servers scan every reservation (or die) without a filter (server-facts E).
      check(
        lists.every((request) => ['userId', 'resourceId', 'scheduleId'].some((name) => request.query.has(name))),
        'a reservation list was fetched without a filter',
      );
      check(world.quickBooking === null || mine(world, world.quickBooking) !== undefined, 'the quick booking vanished from the list');
    },
  },
  {
    name: 'clean up: nothing booked is left',
    async run(world) {
      const snapshot = await world.core.handlers.refresh();
      for (const reservation of snapshot.reservations.filter((candidate) => world.booked.has(candidate.referenceNumber))) {
        value(
          await world.core.handlers.cancel({
            referenceNumber: reservation.referenceNumber,
            scope: reservation.isRecurring ? 'full' : 'this',
          }),
          `cancelling ${reservation.title}`,
        );
      }
      const left = (await world.core.handlers.refresh()).reservations.filter((reservation) =>
        world.booked.has(reservation.referenceNumber),
      );
      check(left.length === 0, `still booked: ${left.map((reservation) => `${reservation.title} ${reservation.start}`).join(', ')}`);
    },
  },
  {
    name: 'check in and out',
    async run(world) {
      const booking = await bookCheckInSlot(world, 'check-in');
      try {
        await checkInAndOut(world, booking);
      } finally {
        // Checked out, it has ended; otherwise it is cancelled, which servers allow until it starts.
        const left = mine(world, booking.referenceNumber);
        if (left !== undefined && left.checkedOutAt === null)
          await world.core.handlers.cancel({ referenceNumber: booking.referenceNumber, scope: 'this' });
      }
    },
  },
  {
    name: 'I’m not coming: gives the booking back (cancelled before its start, checked out once under way)',
    async run(world) {
      const booking = await bookCheckInSlot(world, 'not coming');
      const started = Date.parse(booking.start) <= world.target.clock.now().toMillis();
      value(await world.core.handlers.release({ referenceNumber: booking.referenceNumber }), 'giving the booking back');
      await world.core.handlers.refresh();
      const left = mine(world, booking.referenceNumber);
      if (!started) {
        check(left === undefined, `still booked after "I'm not coming": ${booking.start}`);
        world.booked.delete(booking.referenceNumber);
        return;
      }
      // Checked out, it ends now: My reservations lists it no more, or as checked out with its end cut.
      const ended = left === undefined || (left.checkedOutAt !== null && Date.parse(left.end) < Date.parse(booking.end));
      check(ended, 'the booking under way was not ended');
    },
  },
];

export const journeyNames = journeys.map((journey) => journey.name);

export function describeOutcome(outcome: JourneyOutcome): string {
  if (outcome.status === 'ok') return `ok  ${outcome.name}`;
  return `${outcome.status === 'fail' ? 'FAIL' : 'skip'} ${outcome.name}: ${outcome.reason}`;
}

/** Runs every journey in order on one core; a failed one does not stop the rest. */
export async function runJourneys(target: JourneyTarget, report: (outcome: JourneyOutcome) => void = () => {}): Promise<JourneyOutcome[]> {
  const normalised = normaliseServerUrl(target.base);
  if (!normalised.ok) throw new Error(normalised.error);
  const dataDir = mkdtempSync(join(tmpdir(), 'perch-journeys-'));
  const sent: SentRequest[] = [];
  const recordingFetch: typeof fetch = (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    sent.push({ method: (init?.method ?? 'GET').toUpperCase(), path: url.pathname, query: url.searchParams });
    return fetch(input, init);
  };
  const secrets = memorySecretStore('journeys: memory only');
  const core = createPerchCore({
    dataDir,
    clock: target.clock,
    secrets,
    notifier: recordingNotifier(),
    fetch: recordingFetch,
    log: () => {},
  });
  const world: World = { target, apiRoot: normalised.value, core, secrets, sent, booked: new Set(), quickBooking: null };
  const outcomes: JourneyOutcome[] = [];
  try {
    await core.start();
    for (const journey of journeys) {
      let outcome: JourneyOutcome;
      try {
        await journey.run(world);
        outcome = { name: journey.name, status: 'ok' };
      } catch (thrown) {
        const reason = thrown instanceof Error ? thrown.message : String(thrown);
        outcome = { name: journey.name, status: thrown instanceof Skip ? 'skip' : 'fail', reason };
      }
      outcomes.push(outcome);
      report(outcome);
    }
  } finally {
    await core.handlers.signOut();
    await core.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
  return outcomes;
}
