/**
 * Issue 23, item 2: notifications under a moving clock. The real core against the local service
 * in-process, on one manual clock, through simulated weeks of a busy user: bookings each day (some
 * back to back, some needing check-in), the laptop sleeping (the clock jumps 1–14 hours while no
 * timer runs, then the overdue timers fire at once, while the read started on waking is under
 * way), the user's zone and the machine's zone changing, DST, and edits made elsewhere (the same
 * user through another client, an administrator, the server's auto-release job). Judged by
 * test/support/notice-oracle.ts from the true history, not by Perch's planner.
 */
import { DateTime, Settings as LuxonSettings } from 'luxon';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../electron/api/client.js';
import { formatWireDateTime } from '../../electron/api/dates.js';
import type { Notifier, NotificationInvocation } from '../../electron/core/notifications/notifier.js';
import type { PerchCore } from '../../electron/core/perch-core.js';
import { releaseDue } from '../../electron/service/jobs/auto-release.js';
import { PermissionType } from '../../electron/service/tables.js';
import { demoSignIn, startCoreHarness, type CoreHarness } from '../support/core-harness.js';
import { insertResource } from '../support/fixtures.js';
import { seededRandom } from '../support/seeded-random.js';
import { judge, TrueHistory, type ShownNotice, type Sleep, type Verdict } from '../support/notice-oracle.js';

const minuteMs = 60_000;
const hourMs = 60 * minuteMs;
const autoReleaseMinutes = 15;
const userZones = ['Europe/Berlin', 'America/New_York', 'Asia/Tokyo', 'Europe/London', 'Australia/Sydney'];

/** Deterministic randomness per seed. */
function random(seed: number) {
  const next = seededRandom(seed);
  return {
    next,
    int: (from: number, to: number) => from + Math.floor(next() * (to - from + 1)),
    pick: <T>(items: readonly T[]) => items[Math.floor(next() * items.length)]!,
  };
}

interface Booking {
  referenceNumber: string;
  resourceId: number;
  title: string;
  checkIn: boolean;
}

/** The world the core lives in: the server, the truth of what happened to it, and the laptop's sleeps. */
class World {
  readonly history = new TrueHistory();
  readonly sleeps: Sleep[] = [];
  readonly shown: ShownNotice[] = [];
  readonly bookings = new Map<string, Booking>();
  core!: PerchCore;
  private sleepingSince: number | null = null;
  private readonly clients = new Map<string, { client: ApiClient; signedInAt: number }>();
  private checkInDesks: number[] = [];
  private plainDesks: number[] = [];

  constructor(readonly harness: CoreHarness) {}

  get now(): number {
    return this.harness.clock.now().toMillis();
  }

  get asleep(): boolean {
    return this.sleepingSince !== null;
  }

  /** Desks on the round-the-clock lab schedule, half of them needing check-in. */
  async addDesks(prefix: string): Promise<void> {
    const { org, service } = this.harness;
    for (let index = 0; index < 6; index++) {
      const checkIn = index % 2 === 0;
      const id = await insertResource(service.store, {
        name: `${prefix} desk ${index + 1}`,
        scheduleId: org.schedules.lab,
        sortOrder: 200 + index,
        ...(checkIn ? { requiresCheckIn: 1, autoReleaseMinutes } : {}),
      });
      await service.store
        .insertInto('groupResourcePermissions')
        .values({ groupId: org.groups.staff, resourceId: id, permissionType: PermissionType.full })
        .execute();
      await service.store.insertInto('resourceGroupMembers').values({ groupId: org.resourceGroups.lab, resourceId: id }).execute();
      (checkIn ? this.checkInDesks : this.plainDesks).push(id);
    }
  }

  async signIn(): Promise<void> {
    const notifier: Notifier = {
      show: async (notification) => {
        this.shown.push({ at: this.now, id: notification.id, referenceNumber: notification.referenceNumber, title: notification.title });
        return { ok: true, value: {} };
      },
      onResponse: (_listener: (invocation: NotificationInvocation) => void) => () => {},
    };
    this.core = this.harness.newCore({ notifier }).core;
    await this.core.start();
    const result = await this.core.handlers.signIn(demoSignIn('user', true));
    if (!result.ok) throw new Error(result.error.message);
    await this.harness.idle();
  }

  /** Moves the clock to `t`: timers run on the way while awake, none while asleep. */
  async advanceTo(t: number): Promise<void> {
    const by = t - this.now;
    if (by <= 0) return;
    if (this.asleep) this.harness.clock.sleep({ minutes: by / minuteMs });
    else await this.harness.advance({ milliseconds: by });
  }

  suspend(): void {
    this.core.systemSuspended();
    this.sleepingSince = this.now;
  }

  /** Wakes: the resume event, then at once the timers that fell due in the sleep, while the read it started is under way. */
  async resume(): Promise<void> {
    this.sleeps.push({ from: this.sleepingSince!, to: this.now });
    this.sleepingSince = null;
    this.core.systemResumed();
    await this.harness.clock.advance({ milliseconds: 0 }, () => this.harness.idle());
    await this.harness.idle();
  }

  /** A signed-in client of the user's or the administrator's, signed in again well before the service's 30-minute session lapses. */
  private async clientFor(userName: 'user' | 'admin'): Promise<ApiClient> {
    const kept = this.clients.get(userName);
    if (kept !== undefined && this.now - kept.signedInAt < 20 * minuteMs) return kept.client;
    const client = await this.harness.clientFor(userName);
    this.clients.set(userName, { client, signedInAt: this.now });
    return client;
  }

  desk(checkIn: boolean, index: number): number {
    const desks = checkIn ? this.checkInDesks : this.plainDesks;
    return desks[index % desks.length]!;
  }

  /** Booked by the user through another client (a browser, a phone). */
  async book(checkIn: boolean, deskIndex: number, start: number, end: number, title: string): Promise<string | null> {
    const resourceId = this.desk(checkIn, deskIndex);
    const client = await this.clientFor('user');
    const created = await client.createReservation({
      body: {
        resourceId,
        startDateTime: formatWireDateTime(DateTime.fromMillis(start, { zone: 'utc' })),
        endDateTime: formatWireDateTime(DateTime.fromMillis(end, { zone: 'utc' })),
        title,
        description: '',
        allowParticipation: false,
        termsAccepted: true,
      },
    });
    if (!created.ok) return null;
    const { referenceNumber } = created.value;
    this.bookings.set(referenceNumber, { referenceNumber, resourceId, title, checkIn });
    this.history.record(
      referenceNumber,
      { at: this.now, start, end, checkedIn: false, autoReleaseMinutes: checkIn ? autoReleaseMinutes : null, gone: null },
      title,
    );
    return referenceNumber;
  }

  /** An administrator moves it by `byMs`; false when the server refuses (taken, say). */
  async move(referenceNumber: string, byMs: number): Promise<boolean> {
    const booking = this.bookings.get(referenceNumber)!;
    const before = this.history.latest(referenceNumber)!;
    if (before.gone !== null) return false;
    const start = before.start + byMs;
    const end = before.end + byMs;
    const admin = await this.clientFor('admin');
    const moved = await admin.updateReservation({
      params: { referenceNumber },
      query: { updateScope: 'this' },
      body: {
        resourceId: booking.resourceId,
        startDateTime: formatWireDateTime(DateTime.fromMillis(start, { zone: 'utc' })),
        endDateTime: formatWireDateTime(DateTime.fromMillis(end, { zone: 'utc' })),
        title: booking.title,
        description: '',
        allowParticipation: false,
        termsAccepted: true,
      },
    });
    if (!moved.ok) return false;
    this.history.record(referenceNumber, { ...before, at: this.now, start, end });
    return true;
  }

  /** An administrator cancels it. */
  async cancel(referenceNumber: string): Promise<boolean> {
    const before = this.history.latest(referenceNumber)!;
    if (before.gone !== null) return false;
    const admin = await this.clientFor('admin');
    const deleted = await admin.deleteReservation({ params: { referenceNumber }, query: { updateScope: 'this' } });
    if (!deleted.ok) return false;
    this.history.record(referenceNumber, { ...before, at: this.now, gone: 'cancelled' });
    return true;
  }

  /** The user checks in elsewhere (the room's panel, the web). */
  async checkIn(referenceNumber: string): Promise<boolean> {
    const before = this.history.latest(referenceNumber)!;
    if (before.gone !== null || before.checkedIn) return false;
    const client = await this.clientFor('user');
    const checked = await client.checkinReservation({ params: { referenceNumber } });
    if (!checked.ok) return false;
    this.history.record(referenceNumber, { ...before, at: this.now, checkedIn: true });
    return true;
  }

  /** The server's auto-release job, run at this minute (it runs every minute; only minutes with something due are run). */
  async releaseJob(): Promise<void> {
    if ((await releaseDue(this.harness.service.store, this.now)) === 0) return;
    const listed = new Set(
      (await this.harness.service.store.selectFrom('reservations').select('referenceNumber').execute()).map((row) => row.referenceNumber),
    );
    for (const [referenceNumber] of this.bookings) {
      const before = this.history.latest(referenceNumber)!;
      if (before.gone === null && !listed.has(referenceNumber))
        this.history.record(referenceNumber, { ...before, at: this.now, gone: 'released' });
    }
  }

  /** The job's minutes: each check-in booking's release moment, on the minute. */
  releaseMoments(): number[] {
    const moments = new Set<number>();
    for (const versions of this.history.versions.values()) {
      for (const version of versions)
        if (version.autoReleaseMinutes !== null)
          moments.add(Math.ceil((version.start + version.autoReleaseMinutes * minuteMs) / minuteMs) * minuteMs);
    }
    return [...moments];
  }

  async changeUserZone(zone: string): Promise<void> {
    await this.harness.service.store.updateTable('users').set({ timezone: zone }).where('id', '=', this.harness.org.users.user).execute();
  }

  verdict(): Verdict {
    // A night that runs past the end of the walk is a sleep too.
    const sleeps = this.sleepingSince === null ? this.sleeps : [...this.sleeps, { from: this.sleepingSince, to: this.now }];
    return judge(this.history, this.shown, sleeps, this.now);
  }
}

/** What happens at a moment: the simulation keeps them in time order, the job's minutes joining as bookings are made and moved. */
interface Happening {
  at: number;
  run(): Promise<void>;
}

async function walk(world: World, happenings: Happening[], until: number): Promise<void> {
  const released = new Set<number>();
  for (;;) {
    for (const at of world.releaseMoments()) {
      if (released.has(at) || at <= world.now) continue;
      released.add(at);
      happenings.push({ at, run: () => world.releaseJob() });
    }
    happenings.sort((a, b) => a.at - b.at);
    const next = happenings.shift();
    if (next === undefined || next.at > until) break;
    await world.advanceTo(next.at);
    await next.run();
  }
  await world.advanceTo(until);
}

/** Busy days from `first` (UTC midnight): what happens each day, drawn from the seed. */
function plannedDays(world: World, seed: number, first: number, days: number): Happening[] {
  const draw = random(seed);
  const happenings: Happening[] = [];
  const at = (t: number, run: () => Promise<unknown>) => happenings.push({ at: t, run: async () => void (await run()) });
  for (let day = 0; day < days; day++) {
    const midnight = first + day * 24 * hourMs;
    // The night: the laptop sleeps 8–14 hours from the evening; a short sleep or two by day.
    const dayFrom = midnight + draw.int(6, 8) * hourMs;
    const bookings: string[] = [];
    let start = dayFrom + draw.int(1, 3) * 30 * minuteMs;
    for (let index = 0; index < draw.int(3, 6); index++) {
      const length = draw.pick([30, 60, 90]) * minuteMs;
      const checkIn = draw.next() < 0.5;
      const deskIndex = index;
      const madeAt = draw.next() < 0.25 ? start - draw.int(3, 20) * minuteMs : midnight + hourMs;
      const from = start;
      at(madeAt, async () => {
        const reference = await world.book(checkIn, deskIndex, from, from + length, `Day ${day + 1} booking ${index + 1}`);
        if (reference !== null) bookings.push(reference);
      });
      // Back to back, or a gap.
      start += length + (draw.next() < 0.4 ? 0 : draw.int(1, 4) * 30 * minuteMs);
    }
    const dayEnd = start;
    for (let edit = 0; edit < draw.int(2, 4); edit++) {
      const t = dayFrom + draw.int(0, Math.max(1, (dayEnd - dayFrom) / minuteMs)) * minuteMs;
      const kind = draw.next();
      const pickedIndex = draw.int(0, 5);
      at(t, async () => {
        const reference = bookings[pickedIndex % Math.max(1, bookings.length)];
        if (reference === undefined) return;
        if (kind < 0.35) await world.move(reference, (draw.next() < 0.5 ? -1 : 1) * draw.pick([30, 60]) * minuteMs);
        else if (kind < 0.6) await world.cancel(reference);
        else await world.checkIn(reference);
      });
    }
    // The user checks in elsewhere at check-in opening to some of them.
    at(dayFrom + 30 * minuteMs, async () => {
      for (const reference of bookings) {
        const booking = world.history.latest(reference)!;
        if (booking.autoReleaseMinutes !== null && draw.next() < 0.3)
          at(booking.start + draw.int(-4, 10) * minuteMs, () => world.checkIn(reference));
      }
    });
    // A zone change: the user's on the server, and the machine's.
    at(midnight + draw.int(9, 17) * hourMs, async () => {
      await world.changeUserZone(draw.pick(userZones));
      LuxonSettings.defaultZone = draw.pick(userZones);
    });
    // Sleeps: one or two by day (1–3 h), then the night (8–14 h): each inside its day.
    let sleepAt = dayFrom + draw.int(1, 4) * hourMs + draw.int(0, 59) * minuteMs;
    for (let nap = 0; nap < draw.int(1, 2); nap++) {
      const length = draw.int(60, 180) * minuteMs;
      at(sleepAt, async () => world.suspend());
      at(sleepAt + length, () => world.resume());
      sleepAt += length + draw.int(1, 3) * hourMs;
    }
    const nightFrom = Math.max(sleepAt, midnight + 19 * hourMs);
    const nightTo = Math.min(nightFrom + draw.int(8, 14) * hourMs, midnight + 24 * hourMs + 6 * hourMs);
    at(nightFrom, async () => world.suspend());
    at(nightTo, () => world.resume());
  }
  return happenings;
}

const format = (verdict: Verdict) =>
  `shown ${verdict.shown}, missed ${verdict.missed.length}, duplicate ${verdict.duplicate.length}, stale ${verdict.stale.length}, late ${verdict.late.length}`;
const problems = (verdict: Verdict) => [
  ...verdict.missed.map((line) => `missed: ${line}`),
  ...verdict.duplicate.map((line) => `duplicate: ${line}`),
  ...verdict.stale.map((line) => `stale: ${line}`),
  ...verdict.late.map((line) => `late: ${line}`),
];

const machineZone = LuxonSettings.defaultZone;
afterAll(() => {
  LuxonSettings.defaultZone = machineZone;
});

describe('simulated weeks of a busy user', () => {
  /**
   * The first days: each run crosses a DST change of 2030 (US, EU, in spring and autumn) but one
   * summer run, and reaches it within its first two days. A simulated day takes 3 s here, so the
   * suite walks four days per seed (a minute for the five, keeping the suite under 10 minutes);
   * PERCH_SIMULATED_DAYS=7 walks whole weeks (100 s).
   */
  const starts = ['2030-03-09', '2030-03-30', '2030-06-10', '2030-10-26', '2030-11-02'];
  const daysPerSeed = Number(process.env.PERCH_SIMULATED_DAYS ?? 4);
  const verdicts: Verdict[] = [];

  afterAll(() => {
    const total = verdicts.reduce(
      (sum, verdict) => ({
        shown: sum.shown + verdict.shown,
        missed: [...sum.missed, ...verdict.missed],
        duplicate: [...sum.duplicate, ...verdict.duplicate],
        stale: [...sum.stale, ...verdict.stale],
        late: [...sum.late, ...verdict.late],
      }),
      { shown: 0, missed: [], duplicate: [], stale: [], late: [] } as Verdict,
    );
    console.log(`simulated weeks: ${verdicts.length} seeds × ${daysPerSeed} days, ${format(total)}`);
  });

  it.each(starts.map((start, seed) => [seed + 1, start] as const))(
    'seed %i, from %s: nothing missed, twice, stale or late',
    async (seed, start) => {
      const first = DateTime.fromISO(`${start}T00:00:00Z`).toMillis();
      const harness = await startCoreHarness(DateTime.fromMillis(first + 5 * hourMs, { zone: 'utc' }));
      try {
        const world = new World(harness);
        await world.addDesks('Sim');
        await world.signIn();
        await walk(world, plannedDays(world, seed, first, daysPerSeed), first + daysPerSeed * 24 * hourMs);
        const verdict = world.verdict();
        verdicts.push(verdict);
        console.log(`seed ${seed} (${start}, ${daysPerSeed} days): ${format(verdict)}`);
        expect(problems(verdict)).toEqual([]);
        // The walk shows something to judge (a day may sleep through much of it).
        expect(verdict.shown).toBeGreaterThan(0);
      } finally {
        LuxonSettings.defaultZone = machineZone;
        await harness.dispose();
      }
    },
    60_000 * daysPerSeed,
  );
});

describe('waking up after edits made during the sleep (issue 23)', () => {
  // Tuesday 12 March 2030; the demo user lives in Berlin.
  const nine = DateTime.fromISO('2030-03-12T09:00:00Z').toMillis();
  let harness: CoreHarness;
  let world: World;

  beforeAll(async () => {
    harness = await startCoreHarness(DateTime.fromMillis(nine - 2 * hourMs, { zone: 'utc' }));
  });
  afterAll(() => harness.dispose());
  afterEach(() => world.core.stop());

  async function scene(prefix: string): Promise<World> {
    world = new World(harness);
    await world.addDesks(prefix);
    await world.signIn();
    return world;
  }

  /** The lab's slots are half-hours. */
  const slotAfter = (t: number) => Math.ceil(t / (30 * minuteMs)) * 30 * minuteMs;
  const titlesAbout = (reference: string) =>
    world.shown.filter((notice) => notice.referenceNumber === reference).map((notice) => notice.title);

  it('a booking moved an hour later while asleep: no check-in notice for its old time', async () => {
    await scene('Moved');
    const start = slotAfter(world.now + hourMs);
    const reference = (await world.book(true, 0, start, start + hourMs, 'Planning'))!;
    await world.advanceTo(start - 40 * minuteMs);
    world.suspend();
    await world.advanceTo(start - 30 * minuteMs);
    expect(await world.move(reference, hourMs)).toBe(true);
    await world.advanceTo(start - 2 * minuteMs);
    await world.resume();
    expect(titlesAbout(reference)).toEqual([]);
    await world.advanceTo(start + hourMs - 4 * minuteMs);
    expect(titlesAbout(reference)).toEqual(['Planning starts in 5 min — check in to keep Moved desk 1']);
    expect(problems(world.verdict())).toEqual([]);
  });

  it('released by the server while asleep: no end reminder on waking, and "cancelled or released"', async () => {
    await scene('Released');
    const start = slotAfter(world.now + hourMs);
    const reference = (await world.book(true, 0, start, start + hourMs, 'Budget sync'))!;
    await world.advanceTo(start - 20 * minuteMs);
    world.suspend();
    await world.advanceTo(start + autoReleaseMinutes * minuteMs);
    await world.releaseJob();
    expect(world.history.latest(reference)!.gone).toBe('released');
    await world.advanceTo(start + 56 * minuteMs);
    await world.resume();
    await world.advanceTo(start + 2 * hourMs);
    expect(titlesAbout(reference)).toEqual(['Released desk 1 cancelled or released']);
    expect(problems(world.verdict())).toEqual([]);
  });

  it('cancelled by an administrator while asleep, after its start: "cancelled or released", not "you did not check in"', async () => {
    await scene('Cancelled');
    const start = slotAfter(world.now + hourMs);
    const reference = (await world.book(true, 0, start, start + hourMs, 'Design review'))!;
    await world.advanceTo(start - 20 * minuteMs);
    world.suspend();
    await world.advanceTo(start + 5 * minuteMs);
    expect(await world.cancel(reference)).toBe(true);
    await world.advanceTo(start + 12 * minuteMs);
    await world.resume();
    await world.advanceTo(start + hourMs);
    expect(titlesAbout(reference)).toEqual(['Cancelled desk 1 cancelled or released']);
    expect(problems(world.verdict())).toEqual([]);
  });

  it('moved by an administrator out of the list’s window after its start: kept at its new time, told as nothing gone', async () => {
    await scene('Far');
    const start = slotAfter(world.now + hourMs);
    const reference = (await world.book(true, 0, start, start + hourMs, 'Retro'))!;
    await world.advanceTo(start + 5 * minuteMs);
    // Three days on: past the end of tomorrow, where the narrow list reads to.
    expect(await world.move(reference, 3 * 24 * hourMs)).toBe(true);
    await world.advanceTo(start + 20 * minuteMs);
    expect(titlesAbout(reference)).toEqual(['Retro starts in 5 min — check in to keep Far desk 1']);
    expect(world.core.snapshot().reservations.find((reservation) => reservation.referenceNumber === reference)?.start).toBe(
      DateTime.fromMillis(start + 3 * 24 * hourMs, { zone: 'Europe/Berlin' }).toISO({ suppressMilliseconds: true }),
    );
    expect(problems(world.verdict())).toEqual([]);
  });

  it('released while Perch watched: "released: you did not check in", within a minute', async () => {
    await scene('Watched');
    const start = slotAfter(world.now + hourMs);
    const reference = (await world.book(true, 0, start, start + hourMs, 'Stand-up'))!;
    await world.advanceTo(start + autoReleaseMinutes * minuteMs);
    await world.releaseJob();
    await world.advanceTo(start + (autoReleaseMinutes + 1) * minuteMs);
    expect(titlesAbout(reference)).toEqual([
      'Stand-up starts in 5 min — check in to keep Watched desk 1',
      'Check in to keep Watched desk 1 — 5 min left',
      'Watched desk 1 released: you did not check in',
    ]);
    expect(problems(world.verdict())).toEqual([]);
  });
});
