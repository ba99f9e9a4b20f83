/**
 * `npx tsx test/bench/real-server.ts --base <url> --user <name> --password <password> [--hours 8] [--report]`:
 * what Perch's background work costs a real server, measured from outside. The core runs against
 * the server on a simulated clock (hours pass in minutes; the server's own clock does not move,
 * so its sessions never lapse and nothing is released), through a working stretch twice: normal
 * use (the popover opened every 10 minutes) and unattended. The user gets three reservations in
 * that stretch (one on a resource that needs check-in, when there is one), cancelled at the end.
 * Every request is timed from the moment it is sent until its whole answer has arrived, and
 * priced with the table of spec/server-facts.md section E. With `--report`, the figures replace
 * their section of BENCHMARKS.md. A development tool: nothing runs it in CI.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { DateTime } from 'luxon';
import { ResourceStatus } from '../../electron/api/schemas/resources.js';
import type { ResourceView } from '../../electron/bridge.js';
import { normaliseServerUrl } from '../../electron/core/session/server-url.js';
import { createPerchCore, type PerchCore } from '../../electron/core/perch-core.js';
import { memorySecretStore } from '../../electron/core/storage/keychain.js';
import { referenceDataHours } from '../../electron/core/sync/reference-data.js';
import { recordingNotifier } from '../support/core-harness.js';
import { ManualCoreClock } from '../support/manual-clock.js';
import { writeReportSection } from './report.js';
import { priceLines, priceOf, totalMs, type RequestToPrice } from './server-prices.js';

const usage = 'usage: npx tsx test/bench/real-server.ts --base <url> --user <name> --password <password> [--hours 8] [--report]';
const popoverEveryMinutes = 10;

interface TimedRequest extends RequestToPrice {
  elapsedMs: number;
  status: number;
}

const { values } = parseArgs({
  options: { base: { type: 'string' }, user: { type: 'string' }, password: { type: 'string' }, hours: { type: 'string' }, report: { type: 'boolean' } },
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
const target = normaliseServerUrl(values.base);
if (!target.ok) {
  console.error(target.message);
  process.exit(2);
}
const apiRoot = target.apiRoot;
const signIn = { server: { kind: 'remote' as const, url: values.base }, username: values.user, password: values.password, staySignedIn: false };

/** A fetch that notes each request and how long its whole answer took. */
function timingFetch(log: TimedRequest[]): typeof fetch {
  return async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const began = performance.now();
    const response = await fetch(input, init);
    await response.clone().arrayBuffer();
    log.push({
      method: (init?.method ?? 'GET').toUpperCase(),
      path: url.pathname.slice(new URL(apiRoot).pathname.length),
      query: url.searchParams,
      elapsedMs: performance.now() - began,
      status: response.status,
    });
    return response;
  };
}

function startCore(clock: ManualCoreClock, log: TimedRequest[]): { core: PerchCore; dataDir: string } {
  const dataDir = mkdtempSync(join(tmpdir(), 'perch-real-server-'));
  const core = createPerchCore({ dataDir, clock, secrets: memorySecretStore('real-server bench: memory only'), notifier: recordingNotifier(), fetch: timingFetch(log), log: () => {} });
  return { core, dataDir };
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
    const outcome = await core.handlers.book({ resourceId: resource.resourceId, start: slot.start, end: slot.end, title: 'Perch real-server measure' });
    if (outcome.ok) booked.push(outcome.value.referenceNumber);
    else console.log(`  could not book ${resource.name} at ${slot.start}: ${outcome.error.message} ${outcome.error.errors?.join(' ') ?? ''}`);
  }
  return booked;
}

interface Stretch {
  use: 'normal' | 'unattended';
  signIn: TimedRequest[];
  background: TimedRequest[];
  booked: number;
  resources: number;
}

async function measure(use: Stretch['use']): Promise<Stretch> {
  const log: TimedRequest[] = [];
  const clock = new ManualCoreClock(DateTime.now());
  const { core, dataDir } = startCore(clock, log);
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
    log.length = 0;
    for (let minute = 1; minute <= hours * 60; minute++) {
      await clock.advance({ minutes: 1 }, () => core.idle());
      if (use === 'normal' && minute % popoverEveryMinutes === 0) {
        core.popoverOpened();
        await core.idle();
      }
    }
    const background = log.splice(0);
    for (const referenceNumber of booked) await core.handlers.cancel({ referenceNumber, scope: 'this' });
    return { use, signIn: signInRequests, background, booked: booked.length, resources: listed.ok ? listed.value.length : 0 };
  } finally {
    await core.handlers.signOut();
    await core.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const seconds = (ms: number) => (ms / 1000).toFixed(2);

interface Figures {
  pricedPerHour: number;
  measuredPerHour: number;
  markdown: string;
}

function figuresOf(stretch: Stretch): Figures {
  const reference = stretch.signIn.filter((request) => ['/Resources/', '/Schedules/', '/Resources/Groups'].includes(request.path));
  const referencePriced = totalMs(priceLines(reference));
  const referenceMeasured = reference.reduce((sum, request) => sum + request.elapsedMs, 0);
  const pricedPerHour = (totalMs(priceLines(stretch.background)) / hours + referencePriced / referenceDataHours) / 1000;
  const measured = stretch.background.reduce((sum, request) => sum + request.elapsedMs, 0);
  const measuredPerHour = (measured / hours + referenceMeasured / referenceDataHours) / 1000;
  const rows = new Map<string, { count: number; priced: number; measured: number }>();
  for (const request of stretch.background) {
    const price = priceOf(request);
    const label = price.priced ? price.row : `**unpriced** ${price.row}`;
    const row = rows.get(label) ?? { count: 0, priced: 0, measured: 0 };
    row.count += 1;
    row.priced += price.ms;
    row.measured += request.elapsedMs;
    rows.set(label, row);
  }
  const failures = stretch.background.filter((request) => request.status >= 400);
  const lines = [
    `**${stretch.use === 'normal' ? `Normal use (popover every ${popoverEveryMinutes} minutes)` : 'Unattended'}:** ${stretch.background.length} requests in ${hours} simulated hours, ${stretch.booked} reservations of the user in them; per user-hour ${pricedPerHour.toFixed(2)} s priced, ${measuredPerHour.toFixed(2)} s measured.`,
    '',
    '| Request (row of section E) | Count | Priced, s | Measured, s |',
    '|---|---:|---:|---:|',
    ...[...rows].map(([row, figures]) => `| ${row} | ${figures.count} | ${seconds(figures.priced)} | ${seconds(figures.measured)} |`),
    `| Resources, schedules, groups and reservation attributes (at sign-in; once every ${referenceDataHours} h) | ${reference.length} | ${seconds(referencePriced)} | ${seconds(referenceMeasured)} |`,
    ...(failures.length > 0 ? ['', `${failures.length} answers were errors: ${failures.map((request) => `${request.status} ${request.method} ${request.path}`).join(', ')}`] : []),
  ];
  return { pricedPerHour, measuredPerHour, markdown: lines.join('\n') };
}

console.log(`Measuring Perch's background work against ${apiRoot} as ${values.user}, ${hours} simulated hours each…`);
const normalStretch = await measure('normal');
const normal = figuresOf(normalStretch);
const unattended = figuresOf(await measure('unattended'));
const headline =
  `real-server time per user-hour (priced by section E): normal ${normal.pricedPerHour.toFixed(1)} s, unattended ${unattended.pricedPerHour.toFixed(1)} s; ` +
  `measured from outside: normal ${normal.measuredPerHour.toFixed(2)} s, unattended ${unattended.measuredPerHour.toFixed(2)} s`;
const section = `## The core against a real server, measured from outside (issue 14)

Generated by \`npx tsx test/bench/real-server.ts --base <url> --user <name> --password <password> --hours ${hours} --report\` on ${DateTime.utc().toFormat('yyyy-MM-dd HH:mm')} UTC, against a real LibreBooking server as a normal user who sees ${normalStretch.resources} resources. The core runs on a simulated clock (${hours} hours in seconds; the server's clock does not move, so no session lapses and nothing is released), once in normal use and once unattended; each request is timed from sending to the last byte of its answer ("measured": on this server, which is far smaller than section E's) and priced with section E ("priced": what a server of 1,000 resources and 200,000 reservations would spend). Per user-hour: the stretch's requests divided by its hours, plus the reference data spread over ${referenceDataHours} hours.

**${headline}**

${normal.markdown}

${unattended.markdown}`;
console.log(`\n${section}`);
if (values.report) {
  writeReportSection('real-server-measure', section);
  console.log('\nWrote its section of BENCHMARKS.md.');
}
