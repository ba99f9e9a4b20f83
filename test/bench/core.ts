import { cpus } from 'node:os';
import { DateTime } from 'luxon';
import { operationNames, operations } from '../../electron/api/operations.js';
import { referenceDataHours } from '../../electron/core/sync/reference-data.js';
import { releaseDue } from '../../electron/service/jobs/auto-release.js';
import { demoSignIn, startCoreHarness, type RecordedRequest } from '../support/core-harness.js';
import { insertReservation } from '../support/reservations.js';
import { countDiskWrites, diskBudgetMbPerWorkday, type DiskWriteCounter, type DiskWrites } from './disk-writes.js';
import { addBenchDesks, totalResources } from './bench-org.js';
import { collector, heapGrowthBudgetMb } from './heap.js';
import { idleReport, simulateIdle } from './idle.js';
import { writeReportSection } from './report.js';
import { priceLines, priceOf, serverBudgetSeconds, serverPrices, totalMs, type PriceLine } from './server-prices.js';

/**
 * `npm run bench:core`: the tray app's core against the local service over real HTTP, with 500
 * resources, through a simulated working day on a manual clock, twice: in normal use (the popover
 * opened every 10 minutes, the check-in done when it opens) and unattended (nobody looks). Every
 * request is priced with the real server's table (electron/api/server-facts.md section E); the checks are
 * the budgets of that section (2 s of server time per user-hour in normal use, 1 s unattended),
 * at most two requests per background poll, and flat memory. Then an idle evening (test/bench/idle.ts):
 * the core's CPU, wake-ups and writes per hour against issue 23's budgets. Writes its section of
 * BENCHMARKS.md between the markers below and exits 1 when a check fails.
 */

const popoverEveryMinutes = 10;
const sampleEveryMinutes = 5;
const workdayHours = 8;
/** Growth is measured from here: sign-in, the first reference fetch and JIT warm-up are behind us. */
const settledMinute = 10;
/**
 * "Flat": heap in use after a full GC grows less than `heapGrowthBudgetMb` from the settled mark to
 * the end of the first hour and of the day, and its least-squares slope over the day stays under
 * this (a leak of a few KB per poll would show as a steady climb there).
 */
const heapSlopeBudgetMbPerHour = 0.25;
const maxRequestsPerIntervalPoll = 2;
const diskBudgetMb = diskBudgetMbPerWorkday;
const budgetSeconds = serverBudgetSeconds;
/**
 * Resources, schedules, groups, reservation attributes and what the user may book (GetUser and
 * GetGroup of the user's one group, 13 ms each): fetched at sign-in, then once
 * every `referenceDataHours`. GetCategoryAttributes is priced as measured on the large server (server-prices.ts).
 */
const referenceRequests = [
  serverPrices.resources.ms,
  serverPrices.schedules.ms,
  serverPrices.groups.ms,
  serverPrices.attributes.ms,
  serverPrices.single.ms,
  serverPrices.group.ms,
];
const referenceRefreshMs = referenceRequests.reduce((sum, ms) => sum + ms, 0);

type Use = keyof typeof budgetSeconds;

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
  requests: RecordedRequest[];
}

interface Day {
  use: Use;
  signIn: RecordedRequest[];
  /** Polls the core's own timer started, one entry per moment. */
  intervalPolls: Poll[];
  /** What opening the popover sent. */
  looks: Poll[];
  /** The user's own commands (the check-in): not background work, shown apart. */
  commands: Poll[];
  /** `kind: title` of each notification shown. */
  notifications: string[];
  samples: Sample[];
  /** What the core wrote to its data folder while signing in, and over the day after. */
  signInWrites: DiskWrites;
  dayWrites: DiskWrites;
  visibleResources: number;
  simulatedSeconds: number;
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
  for (const poll of polls)
    for (const request of poll.requests) counts.set(operationOf(request), (counts.get(operationOf(request)) ?? 0) + 1);
  return [...counts].map(([operation, count]) => `${operation} ×${count}`).join(', ') || 'none';
}

function perPoll(polls: readonly Poll[]) {
  const sizes = polls.map((poll) => poll.requests.length);
  if (sizes.length === 0) return { max: 0, mean: 0, min: 0 };
  return { max: Math.max(...sizes), mean: sizes.reduce((a, b) => a + b, 0) / sizes.length, min: Math.min(...sizes) };
}

/** Groups what was sent by the moment it was sent: one poll each. */
function pollsOf(minute: number, requests: readonly RecordedRequest[]): Poll[] {
  const byMoment = new Map<number, RecordedRequest[]>();
  for (const request of requests) byMoment.set(request.at, [...(byMoment.get(request.at) ?? []), request]);
  return [...byMoment.values()].map((group) => ({ minute, requests: group }));
}

/**
 * One working day from sign-in at 08:50 UTC (the demo user lives in Berlin): three reservations
 * that day (10:00–11:00, 13:00–13:30 on a desk that needs check-in and releases after 15 minutes,
 * 15:30–16:30) and one on each of the next 13 days, all on the lab schedule.
 */
async function simulateDay(use: Use, gc: () => void, disk: DiskWriteCounter): Promise<Day> {
  const signInAt = DateTime.fromISO('2030-03-12T08:50:00Z', { zone: 'utc' });
  const harness = await startCoreHarness(signInAt);
  try {
    const { org, service } = harness;
    const added = await addBenchDesks(harness);
    const day = signInAt.startOf('day');
    const checkInStart = day.plus({ hours: 13 });
    const bookings = [
      { resourceId: added[1]!, start: day.plus({ hours: 10 }), minutes: 60 },
      { resourceId: added[0]!, start: checkInStart, minutes: 30 },
      { resourceId: added[2]!, start: day.plus({ hours: 15, minutes: 30 }), minutes: 60 },
      ...Array.from({ length: 13 }, (_, index) => ({
        resourceId: added[3 + index]!,
        start: day.plus({ days: index + 1, hours: 10 }),
        minutes: 60,
      })),
    ];
    for (const booking of bookings) {
      await insertReservation(service.store, {
        ownerId: org.users.user,
        resourceId: booking.resourceId,
        occurrences: [{ start: booking.start, end: booking.start.plus({ minutes: booking.minutes }) }],
      });
    }
    const member = await harness.clientFor('user');
    const visible = await member.getAllResources();

    const { core, notifier, dataDir } = harness.newCore();
    disk.watch(dataDir);
    disk.take();
    await core.start();
    const signedIn = await core.handlers.signIn(demoSignIn('user'));
    if (!signedIn.ok) throw new Error(`sign-in failed: ${signedIn.error.message}`);
    await harness.idle();
    const take = () => harness.requests.splice(0);
    const result: Day = {
      use,
      signIn: take(),
      intervalPolls: [],
      looks: [],
      commands: [],
      notifications: [],
      samples: [],
      signInWrites: disk.take(),
      dayWrites: disk.take(),
      visibleResources: visible.ok ? visible.value.resources.length : 0,
      simulatedSeconds: 0,
    };
    const sample = (minute: number) => {
      gc();
      gc();
      const usage = process.memoryUsage();
      result.samples.push({ minute, rssMb: mb(usage.rss), heapMb: mb(usage.heapUsed) });
    };
    if (use === 'normal') sample(0);

    const simulated = performance.now();
    for (let minute = 1; minute <= workdayHours * 60; minute++) {
      // The server's auto-release job runs every minute, as on real servers.
      await releaseDue(service.store, harness.clock.now().toMillis());
      await harness.advance({ minutes: 1 });
      result.intervalPolls.push(...pollsOf(minute, take()));
      if (use === 'normal') {
        if (minute % popoverEveryMinutes === 0) {
          core.popoverOpened();
          await harness.idle();
          result.looks.push({ minute, requests: take() });
        }
        const due = core.snapshot().reservations.find((reservation) => reservation.checkInOpen);
        if (due !== undefined) {
          const checkedIn = await core.handlers.checkIn({ referenceNumber: due.referenceNumber });
          if (!checkedIn.ok) throw new Error(`check-in failed: ${checkedIn.error.message}`);
          await harness.idle();
          result.commands.push({ minute, requests: take() });
        }
      }
      // The recorder would otherwise hold every notification, and its growth is the benchmark's, not the core's.
      result.notifications.push(...notifier.shown.splice(0).map((shown) => `${shown.id.split(':')[0]}: ${shown.title}`));
      if (use === 'normal' && minute % sampleEveryMinutes === 0) sample(minute);
    }
    result.simulatedSeconds = (performance.now() - simulated) / 1000;
    result.dayWrites = disk.take();
    return result;
  } finally {
    disk.watch(null);
    await harness.dispose();
  }
}

/** Background work of a day: the timer's polls and, in normal use, the popover's. */
const backgroundRequests = (day: Day) => [...day.intervalPolls, ...day.looks].flatMap((poll) => poll.requests);

/** Server milliseconds per user-hour: the day's background work, and the reference data's refresh spread over its period. */
function serverMsPerHour(day: Day): number {
  return totalMs(priceLines(backgroundRequests(day))) / workdayHours + referenceRefreshMs / referenceDataHours;
}

function breakdownRows(normal: readonly PriceLine[], unattended: readonly PriceLine[]): string {
  const rows = [...new Set([...normal, ...unattended].map((line) => line.row))];
  const cell = (lines: readonly PriceLine[], row: string) => {
    const line = lines.find((candidate) => candidate.row === row);
    return line === undefined ? '— | —' : `${fixed(line.count / workdayHours)} | ${fixed(line.ms / workdayHours / 1000, 3)}`;
  };
  const priceCell = (row: string) => {
    const line = [...normal, ...unattended].find((candidate) => candidate.row === row)!;
    return line.priced ? fixed(line.ms / line.count, 1) : `**unpriced: ${fixed(line.ms / line.count, 0)}**`;
  };
  return rows.map((row) => `| ${row} | ${priceCell(row)} | ${cell(normal, row)} | ${cell(unattended, row)} |`).join('\n');
}

async function main(): Promise<void> {
  const gc = collector();
  const disk = countDiskWrites();
  const began = performance.now();
  const normal = await simulateDay('normal', gc, disk);
  const unattended = await simulateDay('unattended', gc, disk);
  const idle = await simulateIdle(gc, disk);
  const problems: string[] = [];

  const perHour = { normal: serverMsPerHour(normal) / 1000, unattended: serverMsPerHour(unattended) / 1000 };
  for (const use of ['normal', 'unattended'] as const) {
    if (perHour[use] > budgetSeconds[use])
      problems.push(`${use}: ${fixed(perHour[use], 2)} s of server time per user-hour (budget ≤ ${budgetSeconds[use]} s)`);
  }
  const days = [normal, unattended];
  for (const day of days) {
    for (const poll of day.intervalPolls.filter((candidate) => candidate.requests.length > maxRequestsPerIntervalPoll)) {
      problems.push(
        `${day.use}, minute ${poll.minute}: a background poll sent ${poll.requests.length} requests (${poll.requests.map(operationOf).join(', ')})`,
      );
    }
    for (const request of backgroundRequests(day)) {
      const price = priceOf(request);
      if (!price.priced) problems.push(`${day.use}: ${price.row} is not in the price table (counted as 1 s)`);
      if (request.path === '/Reservations/' && !['userId', 'resourceId', 'scheduleId'].some((name) => request.query.has(name)))
        problems.push(`${day.use}: GetReservations without a user, resource or schedule filter`);
    }
  }
  const notificationsOf = (day: Day) => day.notifications.join('; ');
  for (const day of days) {
    // Desk 1 needs check-in: its start reminder comes with check-in opening, as one notice.
    if (!day.notifications.some((shown) => shown.startsWith('checkInOpen:') && shown.includes('Bench desk 1'))) {
      problems.push(`${day.use}: no check-in notice for Bench desk 1 (${notificationsOf(day)})`);
    }
  }
  if (!unattended.notifications.some((shown) => shown.startsWith('released:') && shown.includes('Bench desk 1'))) {
    problems.push(`unattended: the release was not reported (${notificationsOf(unattended)})`);
  }

  const { samples } = normal;
  const settled = samples.find((entry) => entry.minute === settledMinute)!;
  const hourEnd = samples.find((entry) => entry.minute === 60)!;
  const last = samples.at(-1)!;
  const fromSettled = samples.filter((entry) => entry.minute >= settledMinute);
  const heapGrowthHour = hourEnd.heapMb - settled.heapMb;
  const heapGrowthLong = last.heapMb - settled.heapMb;
  const slope = slopePerHour(fromSettled);
  const lateSlope = slopePerHour(samples.filter((entry) => entry.minute >= (workdayHours / 2) * 60));
  const peakHeap = Math.max(...fromSettled.map((entry) => entry.heapMb));
  const flatHour = heapGrowthHour < heapGrowthBudgetMb;
  const flatLong = heapGrowthLong < heapGrowthBudgetMb && slope < heapSlopeBudgetMbPerHour;
  if (!flatHour)
    problems.push(
      `heap grew ${fixed(heapGrowthHour, 2)} MB from minute ${settledMinute} to the end of hour 1 (budget < ${heapGrowthBudgetMb} MB)`,
    );
  if (!flatLong)
    problems.push(
      `over ${workdayHours} h heap grew ${fixed(heapGrowthLong, 2)} MB at ${fixed(slope, 3)} MB/h (budgets < ${heapGrowthBudgetMb} MB, < ${heapSlopeBudgetMbPerHour} MB/h)`,
    );

  const diskMb = (day: Day) => mb(day.dayWrites.bytes);
  for (const day of days) {
    if (diskMb(day) > diskBudgetMb)
      problems.push(
        `${day.use}: ${fixed(diskMb(day), 2)} MB written to the data folder in ${workdayHours} h (budget ≤ ${diskBudgetMb} MB)`,
      );
  }

  const verdict = (ok: boolean) => (ok ? 'pass' : '**FAIL**');
  const requestsPerHour = (day: Day) => backgroundRequests(day).length / workdayHours;
  const normalLines = priceLines(backgroundRequests(normal));
  const unattendedLines = priceLines(backgroundRequests(unattended));
  const overBudget = (day: Day) => day.intervalPolls.some((poll) => poll.requests.length > maxRequestsPerIntervalPoll);
  const pollRow = (label: string, polls: readonly Poll[], budget: string, result: string) => {
    const stats = perPoll(polls);
    return `| ${label} | ${polls.length} | ${stats.min} / ${fixed(stats.mean, 2)} / ${stats.max} | ${tally(polls)} | ${budget} | ${result} |`;
  };
  const sampleRows = (rows: readonly Sample[]) =>
    rows
      .map(
        (entry) => `| ${entry.minute} | ${fixed(entry.rssMb)} | ${fixed(entry.heapMb, 2)} | ${fixed(entry.heapMb - settled.heapMb, 2)} |`,
      )
      .join('\n');
  const kb = (bytes: number) => (bytes < 1024 * 1024 ? `${fixed(bytes / 1024)} KB` : `${fixed(mb(bytes), 2)} MB`);
  const fileCell = (writes: DiskWrites) =>
    [...writes.byFile]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([name, file]) => `${name} ×${file.writes} (${kb(file.bytes)})`)
      .join(', ') || 'nothing';
  const diskRow = (label: string, writes: DiskWrites, budget: string, result: string) =>
    `| ${label} | ${writes.writes} | ${kb(writes.bytes)} | ${fileCell(writes)} | ${budget} | ${result} |`;
  const idleChecks = idleReport(idle, {
    writes: (writes) => `${writes.writes}, ${kb(writes.bytes)}: ${fileCell(writes)}`,
    requests: (requests) => tally([{ minute: 0, requests: [...requests] }]),
    verdict,
  });
  problems.push(...idleChecks.problems);
  const headline = `real-server time per user-hour: normal ${fixed(perHour.normal)} s, unattended ${fixed(perHour.unattended)} s; written to the data folder in ${workdayHours} h: normal ${fixed(diskMb(normal), 2)} MB, unattended ${fixed(diskMb(unattended), 2)} MB`;

  const section = `## The core: what it costs a real server, memory, and idle hours (issues 4, 14 and 23)

The tray app's core (\`createPerchCore\`) signed in as a normal user to the local service in the same process, over real HTTP on 127.0.0.1, with a manual clock the service shares. Every request it sends is priced with the real server's table (electron/api/server-facts.md section E: server time per request, median, for a normal user who may book 700 of 1,000 resources). Generated by \`npm run bench:core\` (\`test/bench/core.ts\`, prices in \`test/bench/server-prices.ts\`; \`npm run bench\` runs it after the service benchmark).

- Date: ${DateTime.utc().toFormat('yyyy-MM-dd HH:mm')} UTC; Node ${process.version}, ${cpus().length} cores
- Data: the demo organisation plus ${totalResources - 12} desks on the round-the-clock lab schedule (30-minute slots): ${totalResources} resources, ${normal.visibleResources} of them visible to the user. The user's reservations, all on lab desks: three that day (10:00–11:00; 13:00–13:30 on a desk that needs check-in and releases after 15 minutes; 15:30–16:30 UTC) and one on each of the next 13 days.
- Simulation: sign-in at 08:50 UTC, then ${workdayHours} simulated hours with the default settings (poll interval 60 s), twice: **normal use** (the popover opened every ${popoverEveryMinutes} minutes; the user checks in when check-in opens) in ${fixed(normal.simulatedSeconds, 0)} s, and **unattended** (nobody looks; the desk is released by the service's job) in ${fixed(unattended.simulatedSeconds, 0)} s.
- Per user-hour: the day's background work (the core's own polls and, in normal use, what opening the popover sends) divided by ${workdayHours} h, plus the reference data (resources ${serverPrices.resources.ms} ms, schedules ${serverPrices.schedules.ms} ms, groups ${serverPrices.groups.ms} ms on a real server, reservation attributes ${serverPrices.attributes.ms} ms as measured there, the user's grants: GetUser ${serverPrices.single.ms} ms and GetGroup ${serverPrices.group.ms} ms) refreshed once every ${referenceDataHours} h. Sign-in and the user's own commands are shown apart.

### Server time per user-hour

**${headline}**

| Use | Requests per hour | Server time per hour | Budget (section E) | Result |
|---|---:|---:|---|---|
| Normal (popover every ${popoverEveryMinutes} min) | ${fixed(requestsPerHour(normal))} | ${fixed(perHour.normal, 2)} s | ≤ ${fixed(budgetSeconds.normal)} s | ${verdict(perHour.normal <= budgetSeconds.normal)} |
| Unattended (nobody looks) | ${fixed(requestsPerHour(unattended))} | ${fixed(perHour.unattended, 2)} s | ≤ ${fixed(budgetSeconds.unattended)} s | ${verdict(perHour.unattended <= budgetSeconds.unattended)} |

Before issue 14 the same core sent 87 requests per user-hour in steady use, 18 of them GetAvailability for all resources (1,827 ms each on a real server): about 36 s of server time per user-hour.

Per operation, per user-hour (requests, server seconds), priced by section E; a request the table does not price would count as 1 s and be marked:

| Request (row of section E) | Price, ms | Normal: requests/h | Normal: s/h | Unattended: requests/h | Unattended: s/h |
|---|---:|---:|---:|---:|---:|
${breakdownRows(normalLines, unattendedLines)}
| Resources, schedules, groups, reservation attributes and the user's grants, once every ${referenceDataHours} h | ${fixed(referenceRefreshMs, 1)} | ${fixed(referenceRequests.length / referenceDataHours, 2)} | ${fixed(referenceRefreshMs / referenceDataHours / 1000, 3)} | ${fixed(referenceRequests.length / referenceDataHours, 2)} | ${fixed(referenceRefreshMs / referenceDataHours / 1000, 3)} |

### Requests per poll

| What | Count | Requests each (min / mean / max) | Operations | Budget | Result |
|---|---:|---|---|---|---|
${pollRow('Background poll, normal use', normal.intervalPolls, `≤ ${maxRequestsPerIntervalPoll} each`, verdict(!overBudget(normal)))}
${pollRow('Background poll, unattended', unattended.intervalPolls, `≤ ${maxRequestsPerIntervalPoll} each`, verdict(!overBudget(unattended)))}
${pollRow('Popover opened', normal.looks, '(counted above)', '—')}
${pollRow('Sign-in', [{ minute: 0, requests: normal.signIn }], '(information)', '—')}
${pollRow('The user checks in (a command)', normal.commands, '(information)', '—')}

Notifications shown, normal use: ${notificationsOf(normal) || 'none'}. Unattended: ${notificationsOf(unattended) || 'none'}.

### Written to the data folder (issue 20)

Every file the core put in its data folder (the cache, settings, the account), counted by wrapping the file-system calls it writes with (\`test/bench/disk-writes.ts\`: an atomic write is counted at its size when its temporary file is renamed into place). Sign-in is shown apart; the day is the ${workdayHours} simulated hours after it.

| What | Writes | Bytes | Files (writes, bytes) | Budget | Result |
|---|---:|---:|---|---|---|
${diskRow(`Normal use, ${workdayHours} h`, normal.dayWrites, `≤ ${diskBudgetMb} MB`, verdict(diskMb(normal) <= diskBudgetMb))}
${diskRow(`Unattended, ${workdayHours} h`, unattended.dayWrites, `≤ ${diskBudgetMb} MB`, verdict(diskMb(unattended) <= diskBudgetMb))}
${diskRow('Sign-in (normal use)', normal.signInWrites, '(information)', '—')}

Before issue 20 the cache was one pretty-printed file of everything, rewritten on almost every poll: 179 writes and 168.5 MB in the normal day, 141 writes and 132.7 MB unattended (about 0.95 MB each at ${totalResources} resources). Now the reference data is written when a refresh brings something new, the user's reservations when they changed (and a poll's moment alone at most every 30 minutes; who is busy in the schedules is not kept on disk), the notifications shown when one is shown.

### Memory

Measured in the normal-use day: \`process.memoryUsage()\` after two full GCs, every ${sampleEveryMinutes} simulated minutes. Service, SQLite and core share the process, so a leak in any of them shows. Criterion for "flat": heap in use after a full GC grows less than ${heapGrowthBudgetMb} MB from minute ${settledMinute} to the end (of hour 1, and of the ${workdayHours}-hour day), and its least-squares slope over the day from minute ${settledMinute} is below ${heapSlopeBudgetMbPerHour} MB/h. RSS is reported, not judged (the allocator returns memory to the system lazily). Over the second half of the day (from hour ${workdayHours / 2}) the heap moves ${fixed(lateSlope * 1000, 0)} KB/h.

| Run | Heap at min ${settledMinute} | Heap at end | Growth | Peak heap | Slope | RSS at min ${settledMinute} → end | Result |
|---|---:|---:|---:|---:|---:|---|---|
| 1 hour | ${fixed(settled.heapMb, 2)} MB | ${fixed(hourEnd.heapMb, 2)} MB | ${fixed(heapGrowthHour, 2)} MB | ${fixed(Math.max(...fromSettled.filter((entry) => entry.minute <= 60).map((entry) => entry.heapMb)), 2)} MB | ${fixed(slopePerHour(fromSettled.filter((entry) => entry.minute <= 60)), 3)} MB/h | ${fixed(settled.rssMb)} → ${fixed(hourEnd.rssMb)} MB | ${verdict(flatHour)} |
| ${workdayHours} hours | ${fixed(settled.heapMb, 2)} MB | ${fixed(last.heapMb, 2)} MB | ${fixed(heapGrowthLong, 2)} MB | ${fixed(peakHeap, 2)} MB | ${fixed(slope, 3)} MB/h | ${fixed(settled.rssMb)} → ${fixed(last.rssMb)} MB | ${verdict(flatLong)} |

Hourly samples (minute 0 is just after sign-in):

| Minute | RSS MB | Heap MB | Heap vs min ${settledMinute} |
|---:|---:|---:|---:|
${sampleRows(samples.filter((entry) => entry.minute === 0 || entry.minute === settledMinute || entry.minute % 60 === 0))}

${idleChecks.markdown}
${problems.length > 0 ? `\nFailed checks:\n\n${problems.map((problem) => `- ${problem}`).join('\n')}\n` : ''}`;

  writeReportSection('core-benchmark', section);
  console.log(section);
  console.log(`\n${headline}`);
  console.log(idleChecks.headline);
  console.log(`Wrote the core section of BENCHMARKS.md in ${fixed((performance.now() - began) / 1000, 0)} s.`);
  if (problems.length > 0) {
    console.log(`\n${problems.length} check(s) failed:\n${problems.map((problem) => `- ${problem}`).join('\n')}`);
    process.exitCode = 1;
  }
}

await main();
