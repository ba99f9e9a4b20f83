/**
 * `npx tsx test/bench/real-server.ts --base <url> --user <name> --password <password> [--hours 8] [--start <ISO date-time>] [--report]`:
 * what Perch costs a real server and what the user gets from it, measured from outside. The core
 * runs against the server on a simulated clock (hours pass in minutes; the server's own clock does
 * not move, so its sessions never lapse and nothing is released), starting now or at `--start`
 * (e.g. a weekday morning, when office schedules are open). It reports:
 * - sign-in: how long until My reservations are in a snapshot (the core's `stateChanged`), until
 *   the sign-in command answers and until all is settled, with requests, bytes and the heap;
 * - Free now's coverage: how many of the schedules open now that hold a resource the user may book
 *   have a row in Free now, after the user looks (the open schedules read by the bench itself);
 * - Refresh: the command's wall time, requests and bytes, and whether it re-read reference data;
 * - a working stretch twice, normal use (the popover opened every 10 minutes) and unattended: the
 *   bytes written into the data folder (counted at each write, `disk-writes.ts`), the heap at its
 *   start and end, and real-server time per user-hour, each request timed from the moment it is
 *   sent until its whole answer has arrived and priced with electron/api/server-facts.md section E.
 * With `--access-log`, the server's own time for each request is read from its nginx access log as
 * well (a `log_format` that writes `rt=$request_time` and `ua="$http_user_agent"`;
 * each request names itself in its User-Agent). The user gets three reservations in the stretch (one on a resource that needs check-in, when
 * there is one), cancelled at the end. With `--report`, the figures replace their section of
 * BENCHMARKS.md. A development tool: nothing runs it in CI.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { DateTime } from 'luxon';
import { ResourceStatus } from '../../electron/api/schemas/resources.js';
import type { ResourceView, StateSnapshot } from '../../electron/bridge/contract.js';
import { normaliseServerUrl } from '../../electron/core/session/server-url.js';
import { createPerchCore, type PerchCore } from '../../electron/core/perch-core.js';
import { memorySecretStore } from '../../electron/core/storage/secret-store.js';
import { referenceDataHours } from '../../electron/core/sync/reference-data.js';
import { recordingNotifier } from '../support/core-harness.js';
import { ManualCoreClock } from '../support/manual-clock.js';
import { countDiskWrites, diskBudgetMbPerWorkday, type DiskWrites } from './disk-writes.js';
import { collector, heapGrowthBudgetMb, settledHeapMb } from './heap.js';
import { readOutsideView, openSchedulesAt, type OutsideView } from './real-server-outside.js';
import { writeReportSection } from './report.js';
import { priceLines, priceOf, serverBudgetSeconds, totalMs, type RequestToPrice } from './server-prices.js';

const usage =
  'usage: npx tsx test/bench/real-server.ts --base <url> --user <name> --password <password> [--hours 8] [--start <ISO date-time>] [--access-log <nginx log>] [--report]';
const popoverEveryMinutes = 10;
const refreshPresses = 3;
/** What issue 20 asks of Perch against a large server: My reservations on screen this soon after sign-in, Refresh this quick, at most this much written per working day. */
const targets = { ownListS: 1, refreshS: 0.8, writtenPerWorkdayMb: diskBudgetMbPerWorkday } as const;
/** Bytes written are shown per working day of this many hours, whatever the stretch. */
const workdayHours = 8;
/** Paths of the reference data (resources, schedules, groups, attributes, the user's grants), kept for hours: Refresh should not read them. */
const referencePaths = [
  /^\/Resources\/$/,
  /^\/Resources\/Groups$/,
  /^\/Schedules\/$/,
  /^\/Schedules\/[^/]+$/,
  /^\/Attributes\//,
  /^\/Users\/[^/]+$/,
  /^\/Groups\/[^/]+$/,
];

interface TimedRequest extends RequestToPrice {
  userAgent: string;
  elapsedMs: number;
  status: number;
  /** The answer's body as read (after any decompression). */
  bytes: number;
}

const { values } = parseArgs({
  options: {
    base: { type: 'string' },
    user: { type: 'string' },
    password: { type: 'string' },
    hours: { type: 'string' },
    start: { type: 'string' },
    'access-log': { type: 'string' },
    report: { type: 'boolean' },
  },
});
if (values.base === undefined || values.user === undefined || values.password === undefined) {
  console.error(usage);
  process.exit(2);
}
const hours = Number(values.hours ?? '8');
if (!Number.isFinite(hours) || hours <= 0 || hours > 24) {
  console.error(`--hours must be a number of hours from 0 to 24, not ${values.hours}`);
  process.exit(2);
}
// The simulated day starts when the bench is run, unless told otherwise: a bench harness may read the wall clock once; the core reads only the manual clock.
// In the machine's zone, as a real clock is: the offset written in --start says which instant, not which zone.
const startAt = values.start === undefined ? DateTime.now() : DateTime.fromISO(values.start);
if (!startAt.isValid) {
  console.error(`--start must be an ISO 8601 date-time such as 2026-11-26T09:00-05:00, not ${values.start}`);
  process.exit(2);
}
const target = normaliseServerUrl(values.base);
if (!target.ok) {
  console.error(target.error);
  process.exit(2);
}
const apiRoot = target.value;
const signIn = {
  server: { kind: 'remote' as const, url: values.base },
  username: values.user,
  password: values.password,
  staySignedIn: false,
};

/** Each request names itself in its User-Agent, so the server's access log can say what it cost there. */
const runTag = `perch-real-server-bench-${process.pid}-${Math.round(performance.timeOrigin)}`;
let requestsSent = 0;

/** A fetch that notes each request and how long its whole answer took. */
function timingFetch(log: TimedRequest[]): typeof fetch {
  return async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const userAgent = `${runTag}-${++requestsSent}`;
    const headers = new Headers(init?.headers);
    headers.set('User-Agent', userAgent);
    const began = performance.now();
    const response = await fetch(input, { ...init, headers });
    const body = await response.clone().arrayBuffer();
    log.push({
      userAgent,
      method: (init?.method ?? 'GET').toUpperCase(),
      path: url.pathname.slice(new URL(apiRoot).pathname.length),
      query: url.searchParams,
      elapsedMs: performance.now() - began,
      status: response.status,
      bytes: body.byteLength,
    });
    return response;
  };
}

interface RunningCore {
  core: PerchCore;
  dataDir: string;
}

/** Counts what is written into the data folder it watches: one core's at a time. */
const disk = countDiskWrites();

function startCore(clock: ManualCoreClock, log: TimedRequest[]): RunningCore {
  const dataDir = mkdtempSync(join(tmpdir(), 'perch-real-server-'));
  const core = createPerchCore({
    dataDir,
    clock,
    secrets: memorySecretStore('real-server bench: memory only'),
    notifier: recordingNotifier(),
    fetch: timingFetch(log),
    log: () => {},
  });
  return { core, dataDir };
}

async function stopCore({ core, dataDir }: RunningCore): Promise<void> {
  await core.handlers.signOut();
  await core.stop();
  rmSync(dataDir, { recursive: true, force: true });
}

const gc = collector();
const bytesOf = (requests: readonly TimedRequest[]) => requests.reduce((sum, request) => sum + request.bytes, 0);
const isReference = (request: TimedRequest) => referencePaths.some((path) => path.test(request.path));

interface SignInFigures {
  /** Seconds from the sign-in command to the first snapshot holding the user's reservations; null when the user has none upcoming. */
  ownListS: number | null;
  ownListCount: number;
  /** Seconds to the first snapshot with rows in Free now; null when none came. */
  freeNowS: number | null;
  answeredS: number;
  settledS: number;
  written: DiskWrites;
  heapBeforeMb: number;
  heapAfterMb: number;
  coverage: { open: number; covered: number; missing: string[]; rows: number; bookableSchedules: number; bookableResources: number };
  refresh: { wallS: number[]; sent: TimedRequest[][]; referenceReads: string[] };
  /** The requests of the sign-in, for the server's access log. */
  sent: TimedRequest[];
}

/**
 * A first sign-in into an empty data folder, timed by the core's own events; then the user looks
 * (Free now's coverage, checked against the outside view) and presses Refresh a few times.
 */
async function measureSignIn(at: DateTime, outside: OutsideView): Promise<SignInFigures> {
  const log: TimedRequest[] = [];
  const clock = new ManualCoreClock(at);
  const running = startCore(clock, log);
  const { core } = running;
  disk.watch(running.dataDir);
  disk.take();
  try {
    await core.start();
    await core.idle();
    const heapBeforeMb = settledHeapMb(gc);
    log.length = 0;
    const first: { ownList: { s: number; count: number } | null; freeNowS: number | null } = { ownList: null, freeNowS: null };
    const began = performance.now();
    const unsubscribe = core.on('stateChanged', (snapshot: StateSnapshot) => {
      const s = (performance.now() - began) / 1000;
      if (first.ownList === null && snapshot.reservations.length > 0) first.ownList = { s, count: snapshot.reservations.length };
      if (first.freeNowS === null && snapshot.freeNow.length > 0) first.freeNowS = s;
    });
    const result = await core.handlers.signIn(signIn);
    const answeredS = (performance.now() - began) / 1000;
    if (!result.ok) throw new Error(`sign-in: ${result.error.message}`);
    await core.idle();
    const settledS = (performance.now() - began) / 1000;
    unsubscribe();
    const signInRequests = log.splice(0);
    const written = disk.take();
    const heapAfterMb = settledHeapMb(gc);

    core.popoverOpened();
    await core.idle();
    log.length = 0;
    const looked = core.snapshot();
    const open = openSchedulesAt(outside, clock.now());
    const shown = new Set(looked.freeNow.map((row) => row.scheduleId));
    const missing = open.filter((schedule) => !shown.has(schedule.id));

    const refresh: SignInFigures['refresh'] = { wallS: [], sent: [], referenceReads: [] };
    for (let press = 0; press < refreshPresses; press++) {
      await clock.advance({ minutes: 1 }, () => core.idle());
      log.length = 0;
      const pressed = performance.now();
      await core.handlers.refresh();
      refresh.wallS.push((performance.now() - pressed) / 1000);
      await core.idle();
      const sent = log.splice(0);
      refresh.sent.push(sent);
      for (const request of sent.filter(isReference))
        if (!refresh.referenceReads.includes(request.path)) refresh.referenceReads.push(request.path);
    }
    return {
      ownListS: first.ownList?.s ?? null,
      ownListCount: first.ownList?.count ?? 0,
      freeNowS: first.freeNowS,
      answeredS,
      settledS,
      sent: signInRequests,
      written,
      heapBeforeMb,
      heapAfterMb,
      coverage: {
        open: open.length,
        covered: open.length - missing.length,
        missing: missing.map((schedule) => schedule.name),
        rows: looked.freeNow.length,
        bookableSchedules: outside.schedules.length,
        bookableResources: outside.bookableResources,
      },
      refresh,
    };
  } finally {
    disk.watch(null);
    await stopCore(running);
  }
}

/** The first free slot of the resource starting at or after `after`, today or tomorrow in the user's zone. */
async function slotFrom(core: PerchCore, resource: ResourceView, after: DateTime): Promise<{ start: string; end: string } | null> {
  const zone = core.snapshot().account!.timezone;
  for (const day of [after.setZone(zone), after.setZone(zone).plus({ days: 1 })]) {
    const slots = await core.handlers.listSlots({ resourceId: resource.resourceId, date: day.toISODate()! });
    if (!slots.ok) return null;
    const slot = slots.value.find((candidate) => candidate.isReservable && Date.parse(candidate.start) >= after.toMillis());
    if (slot) return slot;
  }
  return null;
}

/** Three bookings in the stretch: at a quarter, half and three quarters of it, the middle one needing check-in where possible. */
async function bookTheDay(core: PerchCore, clock: ManualCoreClock): Promise<string[]> {
  const listed = await core.handlers.listResources();
  if (!listed.ok) throw new Error(`listing resources: ${listed.error.message}`);
  const bookable = listed.value.filter((resource) => resource.statusId === ResourceStatus.available && !resource.requiresApproval);
  const withCheckIn = bookable.filter((resource) => resource.requiresCheckIn);
  const plain = bookable.filter((resource) => !resource.requiresCheckIn);
  const plan = [plain[0], withCheckIn[0] ?? plain[1], plain[1] ?? plain[0]];
  const booked: string[] = [];
  for (const [index, resource] of plan.entries()) {
    if (resource === undefined) continue;
    const slot = await slotFrom(core, resource, clock.now().plus({ minutes: ((index + 1) * hours * 60) / 4 }));
    if (slot === null) continue;
    const outcome = await core.handlers.book({
      resourceId: resource.resourceId,
      start: slot.start,
      end: slot.end,
      title: 'Perch real-server measure',
    });
    if (outcome.ok) booked.push(outcome.value.referenceNumber);
    else
      console.log(`  could not book ${resource.name} at ${slot.start}: ${outcome.error.message} ${outcome.error.errors?.join(' ') ?? ''}`);
  }
  return booked;
}

interface Stretch {
  use: 'normal' | 'unattended';
  signIn: TimedRequest[];
  background: TimedRequest[];
  booked: number;
  resources: number;
  /** What was written into the data folder over the stretch. */
  written: DiskWrites;
  heapStartMb: number;
  heapEndMb: number;
  /** The first sign-in's figures, taken once the stretch's reservations are booked (normal use only). */
  firstSignIn: SignInFigures | null;
}

async function measure(use: Stretch['use'], outside: OutsideView): Promise<Stretch> {
  const log: TimedRequest[] = [];
  const clock = new ManualCoreClock(startAt);
  const running = startCore(clock, log);
  const { core, dataDir } = running;
  try {
    await core.start();
    const result = await core.handlers.signIn(signIn);
    if (!result.ok) throw new Error(`sign-in: ${result.error.message}`);
    await core.idle();
    const signInRequests = log.splice(0);
    const listed = await core.handlers.listResources();
    const booked = await bookTheDay(core, clock);
    // The list and who is busy, as after any booking: the stretch begins with the data in place.
    await core.idle();
    // With the user's reservations on the server, a second Perch signs in from nothing.
    const firstSignIn = use === 'normal' ? await measureSignIn(clock.now(), outside) : null;
    const heapStartMb = settledHeapMb(gc);
    disk.watch(dataDir);
    disk.take();
    log.length = 0;
    for (let minute = 1; minute <= hours * 60; minute++) {
      await clock.advance({ minutes: 1 }, () => core.idle());
      if (use === 'normal' && minute % popoverEveryMinutes === 0) {
        core.popoverOpened();
        await core.idle();
      }
    }
    const background = log.splice(0);
    const heapEndMb = settledHeapMb(gc);
    const written = disk.take();
    disk.watch(null);
    for (const referenceNumber of booked) await core.handlers.cancel({ referenceNumber, scope: 'this' });
    return {
      use,
      signIn: signInRequests,
      background,
      booked: booked.length,
      resources: listed.ok ? listed.value.length : 0,
      written,
      heapStartMb,
      heapEndMb,
      firstSignIn,
    };
  } finally {
    await stopCore(running);
  }
}

const seconds = (ms: number) => (ms / 1000).toFixed(2);

interface Figures {
  pricedPerHour: number;
  measuredPerHour: number;
  loggedPerHour: number | null;
  markdown: string;
}

/** The server's time for each request of this run, by User-Agent, from an access log in the format above. */
function serverTimesFrom(path: string): Map<string, number> {
  const times = new Map<string, number>();
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (!line.includes(runTag)) continue;
    const time = / rt=([0-9.]+)/.exec(line);
    const agent = / ua="([^"]*)"/.exec(line);
    if (time && agent) times.set(agent[1]!, Number(time[1]) * 1000);
  }
  return times;
}

/** Seconds of the server's own time for the requests, by its access log; null without one, or when a request is missing from it. */
function loggedMs(requests: readonly TimedRequest[], serverTimes: Map<string, number> | null): number | null {
  if (serverTimes === null) return null;
  let sum = 0;
  for (const request of requests) {
    const ms = serverTimes.get(request.userAgent);
    if (ms === undefined) return null;
    sum += ms;
  }
  return sum;
}

const loggedSeconds = (ms: number | null) => (ms === null ? '–' : seconds(ms));

function figuresOf(stretch: Stretch, serverTimes: Map<string, number> | null): Figures {
  const reference = stretch.signIn.filter(isReference);
  const referencePriced = totalMs(priceLines(reference));
  const referenceMeasured = reference.reduce((sum, request) => sum + request.elapsedMs, 0);
  const pricedPerHour = (totalMs(priceLines(stretch.background)) / hours + referencePriced / referenceDataHours) / 1000;
  const measured = stretch.background.reduce((sum, request) => sum + request.elapsedMs, 0);
  const measuredPerHour = (measured / hours + referenceMeasured / referenceDataHours) / 1000;
  const backgroundLogged = loggedMs(stretch.background, serverTimes);
  const referenceLogged = loggedMs(reference, serverTimes);
  const loggedPerHour =
    backgroundLogged === null || referenceLogged === null ? null : (backgroundLogged / hours + referenceLogged / referenceDataHours) / 1000;
  const rows = new Map<string, { count: number; priced: number; measured: number; requests: TimedRequest[] }>();
  for (const request of stretch.background) {
    const price = priceOf(request);
    const label = price.priced ? price.row : `**unpriced** ${price.row}`;
    const row = rows.get(label) ?? { count: 0, priced: 0, measured: 0, requests: [] };
    row.count += 1;
    row.priced += price.ms;
    row.measured += request.elapsedMs;
    row.requests.push(request);
    rows.set(label, row);
  }
  const failures = stretch.background.filter((request) => request.status >= 400);
  const logColumn = (cell: string) => (serverTimes === null ? '' : cell);
  const lines = [
    `**${stretch.use === 'normal' ? `Normal use (popover every ${popoverEveryMinutes} minutes)` : 'Unattended'}:** ${stretch.background.length} requests in ${hours} simulated hours, ${stretch.booked} reservations of the user in them; per user-hour ${pricedPerHour.toFixed(2)} s priced, ${measuredPerHour.toFixed(2)} s measured${loggedPerHour === null ? '' : `, ${loggedPerHour.toFixed(2)} s in the server's access log`}.`,
    '',
    `| Request (row of section E) | Count | Priced, s | Measured, s |${logColumn(' Server log, s |')}`,
    `|---|---:|---:|---:|${logColumn('---:|')}`,
    ...[...rows].map(
      ([row, figures]) =>
        `| ${row} | ${figures.count} | ${seconds(figures.priced)} | ${seconds(figures.measured)} |${logColumn(` ${loggedSeconds(loggedMs(figures.requests, serverTimes))} |`)}`,
    ),
    `| Resources, schedules and their layouts, groups, reservation attributes, the user's grants (at sign-in; once every ${referenceDataHours} h) | ${reference.length} | ${seconds(referencePriced)} | ${seconds(referenceMeasured)} |${logColumn(` ${loggedSeconds(referenceLogged)} |`)}`,
    ...(failures.length > 0
      ? [
          '',
          `${failures.length} answers were errors: ${failures.map((request) => `${request.status} ${request.method} ${request.path}`).join(', ')}`,
        ]
      : []),
  ];
  return { pricedPerHour, measuredPerHour, loggedPerHour, markdown: lines.join('\n') };
}

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(2)} MB`;
const kilobytes = (bytes: number) => `${Math.round(bytes / 1024)} KB`;
const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
const signed = (value: number) => `${value >= 0 ? '+' : ''}${value.toFixed(1)}`;
const perWorkday = (bytes: number) => (bytes * workdayHours) / hours;

function signInLines(figures: SignInFigures, serverTimes: Map<string, number> | null): string[] {
  const { coverage, refresh } = figures;
  const ownList =
    figures.ownListS === null
      ? 'the user has no upcoming reservations to show'
      : `${figures.ownListS.toFixed(2)} s (${figures.ownListCount} shown)`;
  const signInLogged = loggedMs(figures.sent, serverTimes);
  const refreshLogged = refresh.sent.map((sent) => loggedMs(sent, serverTimes));
  const inLog = (ms: number | null) => (ms === null ? '' : `, ${seconds(ms)} s of server time in its access log`);
  return [
    `- **Sign-in → My reservations in the snapshot: ${ownList}**; Free now's first rows ${figures.freeNowS === null ? 'never' : `${figures.freeNowS.toFixed(2)} s`}; the sign-in command answered at ${figures.answeredS.toFixed(2)} s, all settled at ${figures.settledS.toFixed(2)} s (${figures.sent.length} requests, ${megabytes(bytesOf(figures.sent))} of answers${inLog(signInLogged)}; ${megabytes(figures.written.bytes)} written to the data folder in ${figures.written.writes} writes).`,
    `- **Free now covers ${coverage.covered} of ${coverage.open} schedules open now** that hold a resource the user may book (${coverage.rows} rows; the user may book ${coverage.bookableResources} resources in ${coverage.bookableSchedules} schedules)${coverage.missing.length > 0 ? `; missing: ${coverage.missing.join(', ')}` : ''}.`,
    `- **Refresh: ${median(refresh.wallS).toFixed(2)} s** (median of ${refresh.wallS.length} presses: ${refresh.wallS.map((s) => s.toFixed(2)).join(', ')} s), ${median(refresh.sent.map((sent) => sent.length))} requests, ${kilobytes(median(refresh.sent.map(bytesOf)))} of answers${refreshLogged.some((ms) => ms === null) ? '' : inLog(median(refreshLogged as number[]))}; reference data re-read: ${refresh.referenceReads.length === 0 ? 'none' : refresh.referenceReads.join(', ')}.`,
    `- Heap after full collections: ${figures.heapBeforeMb.toFixed(1)} MB before sign-in, ${figures.heapAfterMb.toFixed(1)} MB after (${signed(figures.heapAfterMb - figures.heapBeforeMb)} MB).`,
  ];
}

function stretchLine(stretch: Stretch): string {
  return `- ${stretch.use === 'normal' ? 'Normal use' : 'Unattended'}: **${megabytes(perWorkday(stretch.written.bytes))} written to the data folder per ${workdayHours} hours** (${stretch.written.writes} writes in ${hours} h); heap ${stretch.heapStartMb.toFixed(1)} → ${stretch.heapEndMb.toFixed(1)} MB (${signed(stretch.heapEndMb - stretch.heapStartMb)} MB) over ${hours} hours.`;
}

console.log(`Measuring Perch against ${apiRoot} as ${values.user} from ${startAt.toISO()}, ${hours} simulated hours each…`);
const outside = await readOutsideView(apiRoot, values.user, values.password, startAt);
const normalStretch = await measure('normal', outside);
const unattendedStretch = await measure('unattended', outside);
const serverTimes = values['access-log'] === undefined ? null : serverTimesFrom(values['access-log']);
const normal = figuresOf(normalStretch, serverTimes);
const unattended = figuresOf(unattendedStretch, serverTimes);
const headline =
  `real-server time per user-hour (priced by section E): normal ${normal.pricedPerHour.toFixed(1)} s, unattended ${unattended.pricedPerHour.toFixed(1)} s; ` +
  `measured from outside: normal ${normal.measuredPerHour.toFixed(2)} s, unattended ${unattended.measuredPerHour.toFixed(2)} s` +
  (normal.loggedPerHour === null || unattended.loggedPerHour === null
    ? ''
    : `; in the server's access log: normal ${normal.loggedPerHour.toFixed(2)} s, unattended ${unattended.loggedPerHour.toFixed(2)} s`);
interface Check {
  passed: boolean;
  text: string;
}

function checksOf(): Check[] {
  const checks: Check[] = [];
  const first = normalStretch.firstSignIn;
  if (first !== null) {
    if (first.ownListS !== null)
      checks.push({
        passed: first.ownListS <= targets.ownListS,
        text: `My reservations in the snapshot ≤ ${targets.ownListS} s after sign-in (${first.ownListS.toFixed(2)} s)`,
      });
    const { covered, open } = first.coverage;
    checks.push({ passed: covered === open, text: `Free now covers every open schedule the user may book (${covered} of ${open})` });
    const refreshS = median(first.refresh.wallS);
    checks.push({ passed: refreshS <= targets.refreshS, text: `Refresh ≤ ${targets.refreshS} s (${refreshS.toFixed(2)} s)` });
    checks.push({
      passed: first.refresh.referenceReads.length === 0,
      text: `Refresh re-reads no reference data (${first.refresh.referenceReads.join(', ') || 'none'})`,
    });
  }
  for (const [stretch, figures] of [
    [normalStretch, normal],
    [unattendedStretch, unattended],
  ] as const) {
    const writtenMb = perWorkday(stretch.written.bytes) / 1024 / 1024;
    checks.push({
      passed: writtenMb <= targets.writtenPerWorkdayMb,
      text: `${stretch.use}: ≤ ${targets.writtenPerWorkdayMb} MB written per ${workdayHours} h (${writtenMb.toFixed(1)} MB)`,
    });
    const growth = stretch.heapEndMb - stretch.heapStartMb;
    checks.push({
      passed: growth < heapGrowthBudgetMb,
      text: `${stretch.use}: heap flat, < ${heapGrowthBudgetMb} MB over the stretch (${signed(growth)} MB)`,
    });
    const budget = serverBudgetSeconds[stretch.use];
    checks.push({
      passed: figures.pricedPerHour <= budget,
      text: `${stretch.use}: ≤ ${budget} s of server time per user-hour, priced (${figures.pricedPerHour.toFixed(2)} s)`,
    });
    if (figures.loggedPerHour !== null)
      checks.push({
        passed: figures.loggedPerHour <= budget,
        text: `${stretch.use}: ≤ ${budget} s per user-hour in the server's access log (${figures.loggedPerHour.toFixed(2)} s)`,
      });
  }
  return checks;
}

const checks = checksOf();
const checkLines = checks.map((check) => `- ${check.passed ? 'pass' : '**FAIL**'}: ${check.text}`).join('\n');
const section = `## The core against a real server, measured from outside (issues 14 and 20)

Generated by \`npx tsx test/bench/real-server.ts --base <url> --user <name> --password <password> --hours ${hours} --start <moment> --report\` on ${DateTime.utc().toFormat('yyyy-MM-dd HH:mm')} UTC, against a real LibreBooking server as a normal user who sees ${normalStretch.resources} resources, the simulated day starting ${startAt.toFormat('ccc yyyy-MM-dd HH:mm ZZZZ')}. The core runs on a simulated clock (${hours} hours in seconds; the server's clock does not move, so no session lapses and nothing is released), once in normal use and once unattended; each request is timed from sending to the last byte of its answer ("measured": on this server) and priced with section E ("priced": what a server of 1,000 resources and 200,000 reservations would spend). Per user-hour: the stretch's requests divided by its hours, plus the reference data spread over ${referenceDataHours} hours. The first sign-in is timed by the core's own \`stateChanged\` events, into an empty data folder, with the user's reservations of the stretch on the server; Free now's coverage is checked against the schedules the bench reads itself; bytes written are counted at each write into the data folder (\`disk-writes.ts\`).

**${headline}**

${[...(normalStretch.firstSignIn === null ? [] : signInLines(normalStretch.firstSignIn, serverTimes)), stretchLine(normalStretch), stretchLine(unattendedStretch)].join('\n')}

Checks (issue 20, "What it must show"):

${checkLines}

${normal.markdown}

${unattended.markdown}`;
console.log(`\n${section}`);
if (values.report) {
  writeReportSection('real-server-measure', section);
  console.log('\nWrote its section of BENCHMARKS.md.');
}
const failed = checks.filter((check) => !check.passed).length;
console.log(`\n${checks.length - failed} checks passed, ${failed} failed`);
if (failed > 0) process.exitCode = 1;
