/**
 * What the core asks the server, and when, against the local service on a manual clock: the
 * user's own list every 5 minutes and on its own just before a notice about it, "Free now" from
 * one-minute GetReservations by schedule, and notifications as timely as the planner makes them.
 */
import { DateTime } from 'luxon';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { formatWireDateTime } from '../../electron/api/dates.js';
import { releaseDue } from '../../electron/service/jobs/auto-release.js';
import { insertReservation } from '../support/reservations.js';
import { demoSignIn, startCoreHarness, type CoreHarness, type CoreUnderTest, type RecordedRequest } from '../support/core-harness.js';

// Tuesday 12 March 2030, 08:50 UTC: London (the head office) is on GMT, the demo user lives in Berlin (UTC+1).
const day = '2030-03-12';
const utc = (time: string, date = day) => DateTime.fromISO(`${date}T${time}:00Z`, { zone: 'utc' });
const berlin = (time: string, date = day) => utc(time, date).setZone('Europe/Berlin').toISO({ suppressMilliseconds: true });
const minuteMs = 60_000;

let harness: CoreHarness;

beforeEach(async () => {
  harness = await startCoreHarness(utc('08:50'));
});

afterEach(() => harness.dispose());

async function signedIn(options: Parameters<CoreHarness['newCore']>[0] = {}): Promise<CoreUnderTest> {
  const created = harness.newCore(options);
  await created.core.start();
  const result = await created.core.handlers.signIn(demoSignIn('user', true));
  if (!result.ok) throw new Error(result.error.message);
  // Sign-in answers with the user's list; Free now and the reference data come after.
  await harness.idle();
  return created;
}

async function advanceTo(moment: DateTime): Promise<void> {
  await harness.advance({ milliseconds: moment.toMillis() - harness.clock.now().toMillis() });
}

/** Books as the user through the API, as if on the server's web page. */
async function bookElsewhere(resourceId: number, start: DateTime, end: DateTime, title: string): Promise<string> {
  const client = await harness.clientFor('user');
  // The boardroom asks for a cost centre.
  const customAttributes =
    resourceId === harness.org.resources.boardroom ? [{ attributeId: harness.org.attributes.costCentre, attributeValue: '1234' }] : [];
  const created = await client.createReservation({
    body: {
      resourceId,
      startDateTime: formatWireDateTime(start),
      endDateTime: formatWireDateTime(end),
      title,
      description: '',
      allowParticipation: false,
      termsAccepted: true,
      customAttributes,
    },
  });
  if (!created.ok) throw new Error(`${created.error.message} ${created.error.errors?.join(' ') ?? ''}`);
  return created.value.referenceNumber;
}

/** The requests of each poll: everything sent at one moment of the manual clock. */
function byMoment(requests: readonly RecordedRequest[]): Map<number, RecordedRequest[]> {
  const groups = new Map<number, RecordedRequest[]>();
  for (const request of requests) groups.set(request.at, [...(groups.get(request.at) ?? []), request]);
  return groups;
}

const isOwnList = (request: RecordedRequest) => request.path === '/Reservations/' && request.query.has('userId');
const isBusyNow = (request: RecordedRequest) => request.path === '/Reservations/' && request.query.has('scheduleId');

/** When each notification (by its kind and reservation, as `${kind}:${referenceNumber}`) was first shown. */
function noteShown(created: CoreUnderTest, seen: Map<string, DateTime>): void {
  for (const shown of created.notifier.shown) {
    const [kind, referenceNumber] = shown.id.split(':');
    const key = `${kind}:${referenceNumber}`;
    if (!seen.has(key)) seen.set(key, harness.clock.now());
  }
}

/** Moves half a minute at a time and notes when each notification first appeared. */
async function watchNotifications(created: CoreUnderTest, until: DateTime): Promise<Map<string, DateTime>> {
  const seen = new Map<string, DateTime>();
  while (harness.clock.now() < until) {
    await harness.advance({ seconds: 30 });
    noteShown(created, seen);
  }
  return seen;
}

describe('free now', () => {
  it('lists what is free in every schedule the user may book in, from one GetReservations by schedule each', async () => {
    const { resources, users, schedules } = harness.org;
    await insertReservation(harness.service.store, {
      ownerId: users.priya,
      resourceId: resources.avon,
      occurrences: [{ start: utc('08:30'), end: utc('09:30') }],
    });
    await insertReservation(harness.service.store, {
      ownerId: users.priya,
      resourceId: resources.severn,
      occurrences: [{ start: utc('09:30'), end: utc('10:00') }],
    });
    await bookElsewhere(resources.thames, utc('10:30'), utc('11:00'), 'Planning');

    const { core } = await signedIn();
    const busyRequests = harness.requests.filter(isBusyNow);
    // The head office (where the user books) and the hub (open round the clock) are covered; the lab
    // holds nothing the user may book. The head office's first read is the meetings read (now to the
    // end of tomorrow in Berlin), which tells who is busy to the closing time too; the hub's reaches
    // 12 hours ahead, as far as Free now reads round the clock.
    expect(busyRequests.map((request) => Object.fromEntries(request.query))).toEqual([
      { scheduleId: String(schedules.headOffice), startDateTime: '2030-03-12T08:50:00+0000', endDateTime: '2030-03-13T22:59:59+0000' },
      { scheduleId: String(schedules.hub), startDateTime: '2030-03-12T08:50:00+0000', endDateTime: '2030-03-12T20:50:00+0000' },
    ]);
    expect(harness.requests.filter((request) => request.path.includes('Availability'))).toEqual([]);
    // The head office closes at 18:00 (London, on GMT: 18:00 UTC): free until then at the latest.
    const free = (name: string, groupNames: string[], freeUntil: string | null = berlin('18:00')) => ({
      name,
      freeUntil,
      groupNames,
      scheduleName: 'Head office',
    });
    const shown = () =>
      core.snapshot().freeNow.map(({ name, freeUntil, groupNames, scheduleName }) => ({ name, freeUntil, groupNames, scheduleName }));
    const headOffice = () => shown().filter((resource) => resource.scheduleName === 'Head office');
    // Avon is busy; Hot desk D3 is out of service; the lab's 3D printer is for lab technicians only.
    // Thames is free until the user's own booking, Severn until Priya's; the others until the office closes.
    // The layouts came with the first look, once: GetSchedule for each schedule covered.
    const layoutsAsked = () =>
      harness.requests
        .filter((request) => /^\/Schedules\/\d+$/.test(request.path))
        .map((request) => request.path)
        .sort();
    expect(layoutsAsked()).toEqual([`/Schedules/${schedules.headOffice}`, `/Schedules/${schedules.hub}`].sort());
    expect(new Set(shown().map((resource) => resource.scheduleName))).toEqual(new Set(['Head office', 'Hub (open 24/7)']));
    // Ranked for the user: what they booked lately (Thames), then the rooms one click can book,
    // smallest first, then desks and equipment, and last the Boardroom (approval and a cost centre).
    expect(headOffice()).toEqual([
      free('Thames (1.01)', ['Head office', 'Floor 1 rooms'], berlin('10:30')),
      free('Phone booth (2.02)', ['Head office', 'Floor 2 rooms']),
      free('Training room (1.04)', ['Head office', 'Floor 1 rooms']),
      // Priya's booking at 09:30 is known from the read to the closing time.
      free('Severn (1.02)', ['Head office', 'Floor 1 rooms'], berlin('09:30')),
      free('Camera kit', ['Equipment']),
      free('Hot desk D1', ['Head office', 'Desks']),
      free('Hot desk D2', ['Head office', 'Desks']),
      free('Loan laptop', ['Equipment']),
      free('Boardroom', ['Head office', 'Floor 2 rooms']),
    ]);
    expect(core.snapshot().freeNow.find((resource) => resource.name === 'Boardroom')?.needsForm).toBe('needs approval and a cost centre');

    // Later, the user looks again: Avon's booking has ended, Severn's has begun.
    await advanceTo(utc('09:40'));
    core.popoverOpened();
    await harness.idle();
    const names = shown().map((resource) => resource.name);
    expect(names).toContain('Avon (2.01)');
    expect(names).not.toContain('Severn (1.02)');

    // After closing time the office has nothing free, though nobody is busy there, and is not asked;
    // the hub, open round the clock, has. The office's rooms are still found, closed until morning.
    await advanceTo(utc('18:05'));
    harness.requests.length = 0;
    core.popoverOpened();
    await harness.idle();
    expect(new Set(shown().map((resource) => resource.scheduleName))).toEqual(new Set(['Hub (open 24/7)']));
    expect(core.snapshot().freeNowClosed).toBeNull();
    expect(core.snapshot().notFreeNow.find((resource) => resource.name === 'Severn (1.02)')).toMatchObject({
      reason: 'closed',
      freeFrom: berlin('08:00', '2030-03-13'),
    });
    expect(harness.requests.filter(isBusyNow).map((request) => request.query.get('scheduleId'))).not.toContain(
      String(schedules.headOffice),
    );
    // Each layout is kept for hours: looking again did not ask for it again.
    expect(layoutsAsked()).toEqual([]);
  });
});

describe('meetings the user is in', () => {
  it('lists someone else’s booking the user takes part in or is invited to, with a start reminder and nothing to act on, read by schedule every 30 minutes', async () => {
    const { resources, users, schedules } = harness.org;
    // Alex (the administrator) invited the user to 10:00 in Severn, which asks for check-in; Priya has the user taking part at 11:00 in Avon.
    const [invited] = (
      await insertReservation(harness.service.store, {
        ownerId: users.admin,
        resourceId: resources.severn,
        occurrences: [{ start: utc('10:00'), end: utc('10:30') }],
        series: { title: 'Design review', invitees: [users.user] },
      })
    ).referenceNumbers;
    const [takingPart] = (
      await insertReservation(harness.service.store, {
        ownerId: users.priya,
        resourceId: resources.avon,
        occurrences: [{ start: utc('11:00'), end: utc('11:30') }],
        series: { title: 'Budget', participants: [users.user] },
      })
    ).referenceNumbers;
    // Someone else's meeting without the user, and one of the day after tomorrow: neither is the user's.
    await insertReservation(harness.service.store, {
      ownerId: users.priya,
      resourceId: resources.thames,
      occurrences: [{ start: utc('10:00'), end: utc('11:00') }],
      series: { participants: [users.tom] },
    });
    await insertReservation(harness.service.store, {
      ownerId: users.admin,
      resourceId: resources.thames,
      occurrences: [{ start: utc('10:00', '2030-03-14'), end: utc('11:00', '2030-03-14') }],
      series: { invitees: [users.user] },
    });

    const { core, notifier } = await signedIn();
    const listed = () => {
      const { reservations } = core.snapshot();
      return reservations.map(({ referenceNumber, title, role, ownerName, ownerFirstName, isMine }) => ({
        referenceNumber,
        title,
        role,
        ownerName,
        ownerFirstName,
        isMine,
      }));
    };
    expect(listed()).toEqual([
      {
        referenceNumber: invited,
        title: 'Design review',
        role: 'invitee',
        ownerName: 'Alex Morgan',
        ownerFirstName: 'Alex',
        isMine: false,
      },
      {
        referenceNumber: takingPart,
        title: 'Budget',
        role: 'participant',
        ownerName: 'Priya Shah',
        ownerFirstName: 'Priya',
        isMine: false,
      },
    ]);
    // The user's own list says nothing of them: they come from the schedule's list, today and tomorrow.
    expect(harness.requests.filter(isOwnList).length).toBeGreaterThan(0);
    const meetingsReads = () =>
      harness.requests.filter((request) => isBusyNow(request) && request.query.get('endDateTime') === '2030-03-13T22:59:59+0000');
    expect(meetingsReads().map((request) => request.query.get('scheduleId'))).toContain(String(schedules.headOffice));

    // Check-in stays the owner's, even once Severn's check-in window is open.
    await advanceTo(utc('09:57'));
    const severn = core.snapshot().reservations.find((reservation) => reservation.referenceNumber === invited)!;
    expect(severn).toMatchObject({ checkInOpen: false, canCheckOut: false, checkInOpensAt: null, autoReleaseAt: null });
    // The start reminder came 10 minutes ahead, with nothing to do but snooze; no check-in notice.
    const aboutInvited = () => notifier.shown.filter((shown) => shown.referenceNumber === invited);
    expect(aboutInvited().map(({ title, actions }) => ({ title, actions }))).toEqual([
      { title: 'Design review starts in 10 min — Severn (1.02)', actions: ['snooze'] },
    ]);
    await advanceTo(utc('10:35'));
    expect(aboutInvited().map((shown) => shown.id.split(':')[0])).toEqual(['startReminder']);

    // Within the budget: in the background at most two requests a poll, and each schedule's meetings read at most every 30 minutes.
    const polls = [...byMoment(harness.requests.filter((request) => request.at > utc('08:50').toMillis()))];
    for (const [, requests] of polls) expect(requests.length).toBeLessThanOrEqual(2);
    const headOfficeReads = meetingsReads()
      .filter((request) => request.query.get('scheduleId') === String(schedules.headOffice))
      .map((request) => request.at);
    for (const [index, at] of headOfficeReads.entries())
      if (index > 0) expect(at - headOfficeReads[index - 1]!).toBeGreaterThanOrEqual(30 * minuteMs);
    expect(headOfficeReads.length).toBeGreaterThanOrEqual(2);
  });
});

describe('free at a time to come', () => {
  it('asks one GetReservations per Free now schedule over exactly that time, never availability, and leaves out who is busy then', async () => {
    const { resources, users, schedules } = harness.org;
    // Avon is taken 13:30–14:30 UTC, Severn 12:00–13:15 (over before 13:30), Thames from 14:30 (after the hour asked about).
    await insertReservation(harness.service.store, {
      ownerId: users.priya,
      resourceId: resources.avon,
      occurrences: [{ start: utc('13:30'), end: utc('14:30') }],
    });
    await insertReservation(harness.service.store, {
      ownerId: users.priya,
      resourceId: resources.severn,
      occurrences: [{ start: utc('12:00'), end: utc('13:15') }],
    });
    await insertReservation(harness.service.store, {
      ownerId: users.priya,
      resourceId: resources.thames,
      occurrences: [{ start: utc('14:30'), end: utc('15:00') }],
    });
    const { core } = await signedIn();
    harness.requests.length = 0;

    const answer = await core.handlers.freeAt({ start: berlin('13:30')!, durationMinutes: 60 });
    if (!answer.ok) throw new Error(answer.error.message);
    // The user has booked nothing yet: the schedules holding what they see, the head office and the hub.
    const window = { startDateTime: '2030-03-12T13:30:00+0000', endDateTime: '2030-03-12T14:30:00+0000' };
    expect(harness.requests.map((request) => [request.path, Object.fromEntries(request.query)])).toEqual([
      ['/Reservations/', { scheduleId: String(schedules.headOffice), ...window }],
      ['/Reservations/', { scheduleId: String(schedules.hub), ...window }],
    ]);
    const names = answer.value.map((resource) => resource.name);
    expect(names).not.toContain('Avon (2.01)');
    expect(names).toEqual(expect.arrayContaining(['Severn (1.02)', 'Thames (1.01)', 'Boardroom']));
    // Ranked as Free now is: rooms one click can book first, the Boardroom last.
    expect(names.at(-1)).toBe('Boardroom');
  });

  it('refuses a time it cannot read, in words', async () => {
    const { core } = await signedIn();
    const answer = await core.handlers.freeAt({ start: 'half past two', durationMinutes: 60 });
    expect(answer).toMatchObject({
      ok: false,
      error: { kind: 'invalidInput', message: 'The time to look at is not a date and time Perch can read.' },
    });
  });
});

describe('polling', () => {
  it('asks for the user’s own list every 5 minutes, a read moved up to just before a reminder, never through a window, never more than two requests a poll', async () => {
    const start = utc('11:00');
    await bookElsewhere(harness.org.resources.phoneBooth, start, start.plus({ minutes: 30 }), 'Call with Lisbon');
    const { core } = await signedIn();
    harness.requests.length = 0;
    const began = harness.clock.now();
    await advanceTo(start.plus({ minutes: 40 }));

    const polls = [...byMoment(harness.requests)];
    for (const [, requests] of polls) {
      expect(requests.length).toBeLessThanOrEqual(2);
      // Never availability, never a list without a user, resource or schedule filter.
      for (const request of requests) expect(isOwnList(request) || isBusyNow(request)).toBe(true);
    }
    const minutes = polls.filter(([, requests]) => requests.some(isOwnList)).map(([at]) => (at - began.toMillis()) / minuteMs);
    // 08:50 → 10:45 every 5 minutes; the next read half a minute before the start reminder (10:50),
    // since the list was due within two minutes of it anyway; every 5 minutes from there, one of
    // them half a minute before the end reminder (11:25). Nothing more around the start or the end.
    const expected = [
      ...Array.from({ length: 23 }, (_, index) => 5 * (index + 1)),
      ...Array.from({ length: 11 }, (_, index) => 119.5 + 5 * index),
    ];
    expect(minutes).toEqual(expected);
    // The narrow list: from now to the end of tomorrow in Berlin.
    const last = harness.requests.filter(isOwnList).at(-1)!;
    expect(last.query.get('endDateTime')).toBe('2030-03-13T22:59:59+0000');
    // Who is busy, in the background: only the schedules whose rows the tray shows, each every 30
    // minutes, one a poll — the head office (where the user books, read for meetings too) from the
    // start, the hub once its desks are among the tray's rows.
    const askedAt = (scheduleId: number) =>
      polls
        .filter(([, requests]) => requests.some((request) => isBusyNow(request) && request.query.get('scheduleId') === String(scheduleId)))
        .map(([at]) => (at - began.toMillis()) / minuteMs);
    expect(askedAt(harness.org.schedules.headOffice)).toEqual([30, 60, 90, 124.5, 154.5]);
    const hub = askedAt(harness.org.schedules.hub);
    expect(hub.length).toBeGreaterThan(0);
    for (const [index, minute] of hub.entries()) if (index > 0) expect(minute - hub[index - 1]!).toBeGreaterThanOrEqual(30);
    // Nothing else: the lab holds nothing the user may book.
    expect(polls.flatMap(([, requests]) => requests.filter(isBusyNow)).length).toBe(5 + hub.length);
    expect(core.snapshot().serverStrain).toBeNull();
  });

  it('fetches the 14-day list and who is busy when the user looks, and nothing while the screen is locked', async () => {
    const { core } = await signedIn();
    await harness.advance({ minutes: 2 });
    harness.requests.length = 0;
    core.popoverOpened();
    await harness.idle();
    // Who is busy in the head office and in the hub.
    const looked = ['/Reservations/ userId', '/Reservations/ scheduleId', '/Reservations/ scheduleId'];
    expect(harness.requests.map((request) => `${request.path} ${[...request.query.keys()][0]}`)).toEqual(looked);
    expect(harness.requests[0]!.query.get('endDateTime')).toBe(formatWireDateTime(harness.clock.now().toUTC().plus({ days: 14 })));

    core.screenLocked();
    harness.requests.length = 0;
    await harness.advance({ minutes: 40 });
    expect(harness.requests).toEqual([]);
    core.screenUnlocked();
    await harness.idle();
    // Back after 40 minutes (signed in again first: the session lapsed), the own list, and who is
    // busy (last asked more than 30 minutes ago) in the background: the stalest schedule, one a poll.
    expect(harness.requests.shift()?.path).toBe('/Authentication/Authenticate');
    expect(harness.requests.map((request) => `${request.path} ${[...request.query.keys()][0]}`)).toEqual([
      '/Reservations/ userId',
      '/Reservations/ scheduleId',
    ]);
  });

  it('counts opening the tray menu as a look, at most once a minute and not within a minute of the popover', async () => {
    const { core } = await signedIn();
    await harness.advance({ minutes: 2 });
    const looks = () =>
      harness.requests.filter(
        (request) =>
          isOwnList(request) && request.query.get('endDateTime') === formatWireDateTime(harness.clock.now().toUTC().plus({ days: 14 })),
      ).length;
    const trayMenuOpenedAfter = async (seconds: number) => {
      harness.requests.length = 0;
      await harness.advance({ seconds });
      harness.requests.length = 0;
      core.trayMenuOpened();
      await harness.idle();
      return looks();
    };

    expect(await trayMenuOpenedAfter(0)).toBe(1);
    expect(await trayMenuOpenedAfter(30)).toBe(0);
    expect(await trayMenuOpenedAfter(30)).toBe(1);
    core.popoverOpened();
    await harness.idle();
    expect(await trayMenuOpenedAfter(59)).toBe(0);
    expect(await trayMenuOpenedAfter(1)).toBe(1);
  });

  it('backs off while the server fails or answers slowly, says so, and recovers', async () => {
    let slow = false;
    let elapsed = 0;
    // Each request seems to take 4 s while `slow` holds.
    const monotonicMs = () => (elapsed += slow ? 4_000 : 1);
    const { core } = await signedIn({ monotonicMs });
    await harness.advance({ minutes: 5 });
    harness.intercept(({ path }) =>
      path === '/Reservations/'
        ? new Response('<html>Fatal error</html>', { status: 500, headers: { 'content-type': 'text/html' } })
        : null,
    );
    harness.requests.length = 0;
    const began = harness.clock.now().toMillis();
    await harness.advance({ minutes: 36 });
    const moments = [...byMoment(harness.requests).keys()].map((at) => (at - began) / minuteMs);
    // 5 minutes, then 10, then 20: each failed poll doubles the wait.
    expect(moments).toEqual([5, 15, 35]);
    expect(core.snapshot().serverStrain).toBe(
      'The server is failing (it answered with an error), so Perch checks it 8 times less often until it recovers.',
    );

    harness.intercept(null);
    slow = true;
    await harness.advance({ minutes: 40 });
    expect(core.snapshot().serverStrain).toBe('The server is answering slowly, so Perch checks it 8 times less often until it recovers.');
    slow = false;
    harness.requests.length = 0;
    await harness.advance({ hours: 2 });
    expect(core.snapshot().serverStrain).toBeNull();
    expect(core.snapshot().lastError).toBeNull();
  });
});

describe('notifications stay timely', () => {
  it('gives the start reminder of a reservation made elsewhere for 10 minutes from now', async () => {
    const created = await signedIn();
    await advanceTo(utc('09:51'));
    const start = utc('10:00');
    // Made at 09:51, after the 09:50 poll: the next poll is due at 09:55.
    const reference = await bookElsewhere(harness.org.resources.phoneBooth, start, start.plus({ minutes: 30 }), 'Made elsewhere');
    const seen = await watchNotifications(created, start);
    expect(seen.get(`startReminder:${reference}`)?.toISO()).toBe(utc('09:55').toISO());
    expect(created.notifier.shown.find((shown) => shown.referenceNumber === reference)).toMatchObject({
      id: `startReminder:${reference}:${start.toUTC().toISO()}`,
      title: 'Made elsewhere starts in 5 min — Phone booth (2.02)',
    });
  });

  it('shows check-in open, the auto-release warning and the release within a minute of their moments', async () => {
    const start = utc('10:00');
    // Made elsewhere before Perch started; Severn needs check-in and releases after 15 minutes.
    const reference = await bookElsewhere(harness.org.resources.severn, start, start.plus({ hours: 1 }), 'Review');
    const created = await signedIn();
    await advanceTo(start.minus({ minutes: 10 }));
    harness.requests.length = 0;
    let released = false;
    const seen = new Map<string, DateTime>();
    while (harness.clock.now() < start.plus({ minutes: 20 })) {
      await harness.advance({ seconds: 30 });
      // The server's job runs each minute, as on real servers.
      if (!released && harness.clock.now() >= start.plus({ minutes: 15 }))
        released = (await releaseDue(harness.service.store, harness.clock.now().toMillis())) === 1;
      noteShown(created, seen);
    }
    const at = (kind: string) => seen.get(`${kind}:${reference}`)?.toMillis() ?? Number.NaN;
    // The start reminder (10 minutes before) comes with check-in opening (5 minutes before), as one.
    expect(at('checkInOpen')).toBe(start.minus({ minutes: 5 }).toMillis());
    expect(at('startReminder')).toBeNaN();
    expect(at('autoReleaseWarning')).toBe(start.plus({ minutes: 10 }).toMillis());
    expect(released).toBe(true);
    const releasedAt = at('released') - start.plus({ minutes: 15 }).toMillis();
    // Severn keeps London time, an hour behind the user's Berlin: even the notice about a booking
    // that is gone names its zone (it is planned from the previous poll's list).
    expect(created.notifier.shown.find((shown) => shown.id.startsWith(`released:${reference}:`))?.body).toContain('London time');
    expect(releasedAt).toBeGreaterThanOrEqual(0);
    expect(releasedAt).toBeLessThanOrEqual(minuteMs);
    // Read at moments, not through the window: the list every 5 minutes (one of them moved up to half
    // a minute before the warning), the reservation on its own 15 s after the release moment (a 404).
    const minutesOf = (requests: RecordedRequest[]) => requests.map((request) => (request.at - start.toMillis()) / minuteMs);
    const alone = harness.requests.filter((request) => request.path === `/Reservations/${reference}`);
    expect(minutesOf(alone)).toEqual([15.25]);
    expect(minutesOf(harness.requests.filter(isOwnList))).toContain(9.5);
    expect(harness.requests.filter(isOwnList).length).toBeLessThanOrEqual(7);
  });

  it('reports an approval made elsewhere within the steady 5 minutes, before the start when made before it', async () => {
    const { resources } = harness.org;
    const near = utc('09:30');
    const far = utc('14:00');
    // The boardroom's bookings await approval.
    const nearReference = await bookElsewhere(resources.boardroom, near, near.plus({ minutes: 30 }), 'Board call');
    const farReference = await bookElsewhere(resources.boardroom, far, far.plus({ minutes: 30 }), 'Board lunch');
    const created = await signedIn();

    const approvedAt = utc('09:26').plus({ seconds: 10 });
    await advanceTo(approvedAt);
    // A fresh session each time: the manual clock outruns the server's 30 minutes.
    expect((await (await harness.clientFor('admin')).approveReservation({ params: { referenceNumber: nearReference } })).ok).toBe(true);
    const nearSeen = await watchNotifications(created, utc('09:30'));
    const nearDelay = nearSeen.get(`approved:${nearReference}`)!.toMillis() - approvedAt.toMillis();
    expect(nearDelay).toBeGreaterThan(0);
    expect(approvedAt.plus({ milliseconds: nearDelay }) <= near).toBe(true);

    await advanceTo(utc('10:41'));
    expect((await (await harness.clientFor('admin')).approveReservation({ params: { referenceNumber: farReference } })).ok).toBe(true);
    created.notifier.shown.length = 0;
    const farSeen = await watchNotifications(created, utc('10:50'));
    const farDelay = farSeen.get(`approved:${farReference}`)!.toMillis() - utc('10:41').toMillis();
    expect(farDelay).toBeGreaterThan(0);
    expect(farDelay).toBeLessThanOrEqual(5 * minuteMs);
  });
});
