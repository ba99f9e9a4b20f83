import { cpus } from 'node:os';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { DateTime } from 'luxon';
import { operationNames, operations } from '../../electron/api/operations.js';
import { defaultSettings } from '../../electron/core/storage/settings-store.js';
import { PermissionType } from '../../electron/service/store/tables.js';
import { demoSignIn, startCoreHarness, type RecordedRequest } from '../support/core-harness.js';
import { insertResource } from '../support/fixtures.js';
import { insertReservation } from '../support/reservations.js';
import { writeReportSection } from './report.js';

/**
 * `npm run bench:core`: the tray app's core (issue 4) against the local service over real HTTP, with
 * 500 resources and 200 upcoming reservations, through simulated hours of polling on a manual clock.
 * Checks that every interval poll costs at most two requests and that memory stays flat; writes its
 * section of BENCHMARKS.md between the markers below and exits 1 when a check fails.
 */

const totalResources = 500;
const upcomingReservations = 200;
const popoverEveryMinutes = 10;
const sampleEveryMinutes = 5;
const measuredHours = 1;
const longHours = 8;
/** Growth is measured from here: sign-in, the first reference fetch and JIT warm-up are behind us. */
const settledMinute = 10;
/**
 * "Flat": heap in use after a full GC grows less than this from the settled mark to the end of the
 * first hour and of the long run, and its least-squares slope over the long run stays under
 * `heapSlopeBudgetMbPerHour` (a leak of a few KB per poll would show as a steady climb there).
 */
const heapGrowthBudgetMb = 5;
const heapSlopeBudgetMbPerHour = 0.25;
const maxRequestsPerIntervalPoll = 2;

/** `global.gc` when node runs with --expose-gc; otherwise the flag is set now and gc fetched from a fresh context. */
function collector(): () => void {
  const exposed = (globalThis as { gc?: () => void }).gc;
  if (exposed) return exposed;
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

const mb = (bytes: number) => bytes / 1024 / 1024;
const fixed = (value: number, digits = 1) => value.toFixed(digits);

function operationOf(request: RecordedRequest): string {
  const candidates = operationNames.map((name) => operations[name]).filter((operation) => operation.method === request.method);
  const exact = candidates.find((operation) => operation.path === request.path);
  if (exact) return exact.specName;
  const templated = candidates.find((operation) => new RegExp(`^${operation.path.replace(/:\w+/g, '[^/]+')}$`).test(request.path));
  return templated?.specName ?? `${request.method} ${request.path}`;
}

interface Sample {
  minute: number;
  rssMb: number;
  heapMb: number;
}

interface Poll {
  minute: number;
  operations: string[];
}

function slopePerHour(samples: readonly Sample[]): number {
  const xs = samples.map((sample) => sample.minute / 60);
  const ys = samples.map((sample) => sample.heapMb);
  const meanX = xs.reduce((a, b) => a + b, 0) / xs.length;
  const meanY = ys.reduce((a, b) => a + b, 0) / ys.length;
  let numerator = 0;
  let denominator = 0;
  for (const [index, x] of xs.entries()) {
    numerator += (x - meanX) * (ys[index]! - meanY);
    denominator += (x - meanX) ** 2;
  }
  return denominator === 0 ? 0 : numerator / denominator;
}

function tally(polls: readonly Poll[]): string {
  const counts = new Map<string, number>();
  for (const poll of polls) for (const operation of poll.operations) counts.set(operation, (counts.get(operation) ?? 0) + 1);
  return [...counts].map(([operation, count]) => `${operation} ×${count}`).join(', ') || 'none';
}

function perPoll(polls: readonly Poll[]) {
  const sizes = polls.map((poll) => poll.operations.length);
  return { max: Math.max(...sizes), mean: sizes.reduce((a, b) => a + b, 0) / Math.max(1, sizes.length), min: Math.min(...sizes) };
}

async function main(): Promise<void> {
  const gc = collector();
  const began = performance.now();
  // Tuesday 12 March 2030, 08:50 UTC: the demo user lives in Berlin; the lab schedule is open round the clock.
  const start = DateTime.fromISO('2030-03-12T08:50:00Z', { zone: 'utc' });
  const harness = await startCoreHarness(start);
  let exitCode = 0;
  try {
    const { org, service } = harness;
    const demoResources = Object.keys(org.resources).length;
    const added = await service.store.transaction().execute(async (trx) => {
      const ids: number[] = [];
      for (let index = 0; index < totalResources - demoResources; index++) {
        ids.push(await insertResource(trx, { name: `Bench desk ${index + 1}`, scheduleId: org.schedules.lab, sortOrder: 100 + index }));
      }
      await trx.insertInto('groupResourcePermissions').values(ids.map((resourceId) => ({ groupId: org.groups.staff, resourceId, permissionType: PermissionType.full }))).execute();
      await trx.insertInto('resourceGroupMembers').values(ids.map((resourceId) => ({ groupId: org.resourceGroups.lab, resourceId }))).execute();
      return ids;
    });
    // One 30-minute booking an hour from the next full hour on: 200 over the next eight days and a bit.
    const firstStart = start.startOf('hour').plus({ hours: 1 });
    for (let index = 0; index < upcomingReservations; index++) {
      const begin = firstStart.plus({ hours: index });
      await insertReservation(service.store, {
        ownerId: org.users.user,
        resourceId: added[index % added.length]!,
        occurrences: [{ start: begin, end: begin.plus({ minutes: 30 }) }],
      });
    }
    const member = await harness.clientFor('user');
    const visible = await member.getAllResources();
    const visibleResources = visible.ok ? visible.data.resources.length : 0;

    const { core, notifier } = harness.newCore();
    await core.start();
    const signedIn = await core.handlers.signIn(demoSignIn('user'));
    if (!signedIn.ok) throw new Error(`sign-in failed: ${signedIn.error.message}`);
    await harness.idle();
    const pollSeconds = defaultSettings.pollIntervalSeconds;
    const take = () => harness.requests.splice(0).map(operationOf);
    const signInOperations = take();
    const listed = core.snapshot().reservations.length;

    const samples: Sample[] = [];
    const sample = (minute: number) => {
      gc();
      gc();
      const usage = process.memoryUsage();
      samples.push({ minute, rssMb: mb(usage.rss), heapMb: mb(usage.heapUsed) });
    };
    sample(0);

    const intervalPolls: Poll[] = [];
    const popoverOpens: Poll[] = [];
    const problems: string[] = [];
    let notificationsShown = 0;
    const stepsPerMinute = 60 / pollSeconds;
    const simulated = performance.now();
    for (let step = 1; step <= longHours * 60 * stepsPerMinute; step++) {
      await harness.advance({ seconds: pollSeconds });
      const minute = step / stepsPerMinute;
      const operations = take();
      if (!operations.includes('GetReservations')) problems.push(`minute ${minute}: no interval poll (${operations.join(', ') || 'no request'})`);
      intervalPolls.push({ minute, operations });
      if (Number.isInteger(minute) && minute % popoverEveryMinutes === 0) {
        core.popoverOpened();
        await harness.idle();
        popoverOpens.push({ minute, operations: take() });
      }
      // The recorder would otherwise hold every notification, and its growth is the benchmark's, not the core's.
      notificationsShown += notifier.shown.splice(0).length;
      if (Number.isInteger(minute) && minute % sampleEveryMinutes === 0) sample(minute);
    }
    const simulatedSeconds = (performance.now() - simulated) / 1000;

    const hourOf = (polls: readonly Poll[], hour: number) => polls.filter((poll) => poll.minute > (hour - 1) * 60 && poll.minute <= hour * 60);
    const firstHourPolls = hourOf(intervalPolls, 1);
    const firstHourPopovers = hourOf(popoverOpens, 1);
    const overBudget = intervalPolls.filter((poll) => poll.operations.length > maxRequestsPerIntervalPoll);
    for (const poll of overBudget) problems.push(`minute ${poll.minute}: interval poll sent ${poll.operations.length} requests (${poll.operations.join(', ')})`);
    const requestsIn = (polls: readonly Poll[]) => polls.reduce((total, poll) => total + poll.operations.length, 0);
    const firstHourTotal = signInOperations.length + requestsIn(firstHourPolls) + requestsIn(firstHourPopovers);
    const steadyPerHour = (requestsIn(intervalPolls.filter((poll) => poll.minute > 60)) + requestsIn(popoverOpens.filter((poll) => poll.minute > 60))) / (longHours - 1);
    const backgroundOnlyPerHour = requestsIn(intervalPolls.filter((poll) => poll.minute > 60)) / (longHours - 1);

    const settled = samples.find((entry) => entry.minute === settledMinute)!;
    const hourEnd = samples.find((entry) => entry.minute === measuredHours * 60)!;
    const last = samples.at(-1)!;
    const fromSettled = samples.filter((entry) => entry.minute >= settledMinute);
    const heapGrowthHour = hourEnd.heapMb - settled.heapMb;
    const heapGrowthLong = last.heapMb - settled.heapMb;
    const slope = slopePerHour(fromSettled);
    const lateSlope = slopePerHour(samples.filter((entry) => entry.minute >= (longHours / 2) * 60));
    const peakHeap = Math.max(...fromSettled.map((entry) => entry.heapMb));
    const flatHour = heapGrowthHour < heapGrowthBudgetMb;
    const flatLong = heapGrowthLong < heapGrowthBudgetMb && slope < heapSlopeBudgetMbPerHour;
    if (!flatHour) problems.push(`heap grew ${fixed(heapGrowthHour, 2)} MB from minute ${settledMinute} to the end of hour 1 (budget < ${heapGrowthBudgetMb} MB)`);
    if (!flatLong) problems.push(`over ${longHours} h heap grew ${fixed(heapGrowthLong, 2)} MB at ${fixed(slope, 3)} MB/h (budgets < ${heapGrowthBudgetMb} MB, < ${heapSlopeBudgetMbPerHour} MB/h)`);

    const intervalStats = perPoll(intervalPolls);
    const popoverStats = perPoll(popoverOpens);
    const withAvailability = intervalPolls.filter((poll) => poll.operations.includes('GetAvailability')).length;
    const verdict = (ok: boolean) => (ok ? 'pass' : '**FAIL**');

    const sampleRows = (rows: readonly Sample[]) =>
      rows.map((entry) => `| ${entry.minute} | ${fixed(entry.rssMb)} | ${fixed(entry.heapMb, 2)} | ${fixed(entry.heapMb - settled.heapMb, 2)} |`).join('\n');
    const section = `## The core: polling cost and memory (issue 4)

The tray app's core (\`createPerchCore\`) signed in as a normal user to the local service in the same process, over real HTTP on 127.0.0.1, with a manual clock the service shares. Generated by \`npm run bench:core\` (\`test/bench/core.ts\`; \`npm run bench\` runs it after the service benchmark).

- Date: ${DateTime.utc().toFormat('yyyy-MM-dd HH:mm')} UTC; Node ${process.version}, ${cpus().length} cores
- Data: the demo organisation plus ${added.length} desks on the round-the-clock lab schedule (30-minute slots): ${totalResources} resources, ${visibleResources} of them visible to the user; ${upcomingReservations} upcoming reservations of the user (30 minutes each, one an hour from ${firstStart.toFormat('HH:mm')} UTC on, over ${fixed(upcomingReservations / 24)} days); ${listed} listed after sign-in.
- Simulation: the default ${pollSeconds} s interval, ${longHours} simulated hours in ${fixed(simulatedSeconds, 0)} s (\`ManualCoreClock.advance\`, each timer's HTTP awaited before time moves on); the popover opened every ${popoverEveryMinutes} minutes; availability in the background as the core schedules it (every ${withAvailability > 0 ? fixed((longHours * 60) / withAvailability, 0) : '—'} minutes here); ${notificationsShown} notifications planned and shown (recorded, not displayed).
- Memory: \`process.memoryUsage()\` after two full GCs, every ${sampleEveryMinutes} simulated minutes. Service, SQLite and core share the process, so a leak in any of them shows.

### Requests

| What | Count | Requests each (min / mean / max) | Operations | Budget | Result |
|---|---:|---|---|---|---|
| Interval poll | ${intervalPolls.length} | ${intervalStats.min} / ${fixed(intervalStats.mean, 2)} / ${intervalStats.max} | ${tally(intervalPolls)} | ≤ ${maxRequestsPerIntervalPoll} each | ${verdict(overBudget.length === 0 && problems.every((problem) => !problem.includes('no interval poll')))} |
| Popover opened | ${popoverOpens.length} | ${popoverStats.min} / ${fixed(popoverStats.mean, 2)} / ${popoverStats.max} | ${tally(popoverOpens)} | (information) | — |
| Sign-in | 1 | ${signInOperations.length} | ${signInOperations.join(', ')} | (information) | — |

Server requests per user per hour: **${firstHourTotal}** in the first hour (sign-in ${signInOperations.length}, interval polls ${requestsIn(firstHourPolls)}, popover ${requestsIn(firstHourPopovers)}); **${fixed(steadyPerHour, 1)}** an hour in steady use after it (hours 2–${longHours}, popover every ${popoverEveryMinutes} minutes), of which ${fixed(backgroundOnlyPerHour, 1)} from the background poller alone. Of these, GetAvailability (the request server-facts E prices at 2.9 s on a real server) is ${fixed(intervalPolls.concat(popoverOpens).filter((poll) => poll.minute > 60).reduce((n, poll) => n + poll.operations.filter((operation) => operation === 'GetAvailability').length, 0) / (longHours - 1), 1)} an hour.

### Memory

Criterion for "flat": heap in use after a full GC grows less than ${heapGrowthBudgetMb} MB from minute ${settledMinute} to the end (of hour 1, and of the ${longHours}-hour run), and its least-squares slope over the ${longHours}-hour run from minute ${settledMinute} is below ${heapSlopeBudgetMbPerHour} MB/h. RSS is reported, not judged (the allocator returns memory to the system lazily). Most of the growth comes in the first hours and slows down, which looks like warm-up (compiled code, caches filling) rather than a per-poll leak, though nothing here proves it; over the second half of the run (from hour ${longHours / 2}) the heap moves ${fixed(lateSlope * 1000, 0)} KB/h.

| Run | Heap at min ${settledMinute} | Heap at end | Growth | Peak heap | Slope | RSS at min ${settledMinute} → end | Result |
|---|---:|---:|---:|---:|---:|---|---|
| 1 hour | ${fixed(settled.heapMb, 2)} MB | ${fixed(hourEnd.heapMb, 2)} MB | ${fixed(heapGrowthHour, 2)} MB | ${fixed(Math.max(...fromSettled.filter((entry) => entry.minute <= 60).map((entry) => entry.heapMb)), 2)} MB | ${fixed(slopePerHour(fromSettled.filter((entry) => entry.minute <= 60)), 3)} MB/h | ${fixed(settled.rssMb)} → ${fixed(hourEnd.rssMb)} MB | ${verdict(flatHour)} |
| ${longHours} hours | ${fixed(settled.heapMb, 2)} MB | ${fixed(last.heapMb, 2)} MB | ${fixed(heapGrowthLong, 2)} MB | ${fixed(peakHeap, 2)} MB | ${fixed(slope, 3)} MB/h | ${fixed(settled.rssMb)} → ${fixed(last.rssMb)} MB | ${verdict(flatLong)} |

Samples of the first hour (minute 0 is just after sign-in):

| Minute | RSS MB | Heap MB | Heap vs min ${settledMinute} |
|---:|---:|---:|---:|
${sampleRows(samples.filter((entry) => entry.minute <= 60))}

Then hourly:

| Minute | RSS MB | Heap MB | Heap vs min ${settledMinute} |
|---:|---:|---:|---:|
${sampleRows(samples.filter((entry) => entry.minute > 60 && entry.minute % 60 === 0))}
${problems.length > 0 ? `\nFailed checks:\n\n${problems.map((problem) => `- ${problem}`).join('\n')}\n` : ''}`;

    writeReportSection('core-benchmark', section);
    console.log(section);
    console.log(`\nWrote the core section of BENCHMARKS.md in ${fixed((performance.now() - began) / 1000, 0)} s.`);
    if (problems.length > 0) {
      console.log(`\n${problems.length} check(s) failed:\n${problems.map((problem) => `- ${problem}`).join('\n')}`);
      exitCode = 1;
    }
  } finally {
    await harness.dispose();
  }
  process.exitCode = exitCode;
}

await main();
