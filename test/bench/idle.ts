import type { Server } from 'node:http';
import { DateTime } from 'luxon';
import { pollTimeRefreshMinutes } from '../../electron/core/account/account-cache.js';
import { demoSignIn, startCoreHarness, type RecordedRequest } from '../support/core-harness.js';
import { insertReservation } from '../support/reservations.js';
import { addBenchDesks } from './bench-org.js';
import type { DiskWriteCounter, DiskWrites } from './disk-writes.js';
import { countWakeUps, type PendingTimer, type WakeUp } from './wake-ups.js';

/**
 * Issue 23, item 4, "Nothing spent while idle": with the popover closed and nothing due, the core
 * uses at most this share of one core averaged over an hour, and wakes at most this often a minute.
 */
export const idleBudgets = { cpuPercentOfCore: 0.1, wakeUpsPerMinute: 2 };

/** Hours measured, one by one, after `settleMinutes` in which sign-in's work and the JIT settle. */
const idleHours = 2;
const settleMinutes = 30;
/**
 * Due work while idle: the steady read of the user's list (set from core/sync/), which keeps
 * bookings made elsewhere in sight. Any other timer that fires with nothing due is a ticker.
 */
const dueWorkSetters = /^core\/sync\//;
const hourMs = 3_600_000;
const minuteMs = 60_000;

export interface IdleHour {
  /** CPU in ms over the hour: the whole process, the local service's share of it (subtracted), and the core's. */
  cpuMs: { process: number; service: number; core: number };
  wakeUps: WakeUp[];
  /** The most wake-ups in any 60 s of the hour. */
  maxPerMinute: number;
  requests: RecordedRequest[];
  writes: DiskWrites;
  notifications: number;
  realSeconds: number;
}

export interface IdleRun {
  from: DateTime;
  hours: IdleHour[];
  /** Timers set and waiting when the idle stretch ended. */
  pendingAtEnd: PendingTimer[];
  endMs: number;
  /** The user's next reservation. */
  nextStart: DateTime;
}

/**
 * The CPU the local service spends answering, measured from its HTTP server's `request` event to the
 * response's `close` (while any request is open), so it can be taken out of the process's: it runs
 * in the bench's process, and a real server's time is not the core's.
 */
function serviceCpuMeter(server: Server) {
  let open = 0;
  let since: NodeJS.CpuUsage | null = null;
  let micros = 0;
  const listener = (_request: unknown, response: NodeJS.EventEmitter) => {
    if (open++ === 0) since = process.cpuUsage();
    response.once('close', () => {
      if (--open > 0 || since === null) return;
      const spent = process.cpuUsage(since);
      micros += spent.user + spent.system;
      since = null;
    });
  };
  server.prependListener('request', listener);
  return {
    takeMs() {
      const taken = micros / 1000;
      micros = 0;
      return taken;
    },
    stop: () => server.off('request', listener),
  };
}

/** The most moments in any window of `windowMs` (sorted or not). */
function mostWithin(moments: readonly number[], windowMs: number): number {
  const sorted = moments.toSorted((a, b) => a - b);
  let most = 0;
  let first = 0;
  for (const [last, moment] of sorted.entries()) {
    while (moment - sorted[first]! >= windowMs) first++;
    most = Math.max(most, last - first + 1);
  }
  return most;
}

/**
 * An evening with nothing due: sign-in at 18:30 UTC (19:30 for the Berlin user), their next booking
 * at 10:00 the next day (then one a day for 13 days, on lab desks of the 500-resource organisation),
 * the popover never opened. After `settleMinutes`, `idleHours` hours are measured one by one: the
 * core's timers fired (through a wrapped clock), the process's CPU less the service's, what was
 * sent and what was written to the data folder.
 */
export async function simulateIdle(gc: () => void, disk: DiskWriteCounter): Promise<IdleRun> {
  const signInAt = DateTime.fromISO('2030-03-12T18:30:00Z', { zone: 'utc' });
  const harness = await startCoreHarness(signInAt);
  const wakeUps = countWakeUps(harness.clock);
  try {
    const { org, service } = harness;
    const desks = await addBenchDesks(harness);
    const nextStart = signInAt.startOf('day').plus({ days: 1, hours: 10 });
    for (const [day, resourceId] of desks.slice(1, 14).entries()) {
      const start = nextStart.plus({ days: day });
      await insertReservation(service.store, {
        ownerId: org.users.user,
        resourceId,
        occurrences: [{ start, end: start.plus({ hours: 1 }) }],
      });
    }
    const { core, notifier, dataDir } = harness.newCore({ clock: wakeUps.clock });
    await core.start();
    const signedIn = await core.handlers.signIn(demoSignIn('user'));
    if (!signedIn.ok) throw new Error(`sign-in failed: ${signedIn.error.message}`);
    await harness.advance({ minutes: settleMinutes });
    disk.watch(dataDir);
    disk.take();
    wakeUps.take();
    harness.requests.splice(0);
    notifier.shown.splice(0);
    const from = harness.clock.now();
    const serviceCpu = serviceCpuMeter(service.app.server);
    const hours: IdleHour[] = [];
    try {
      for (let hour = 0; hour < idleHours; hour++) {
        // Garbage of the set-up is not the idle hour's to collect.
        gc();
        serviceCpu.takeMs();
        const cpuBefore = process.cpuUsage();
        const realBefore = performance.now();
        await harness.advance({ hours: 1 });
        const cpu = process.cpuUsage(cpuBefore);
        const realSeconds = (performance.now() - realBefore) / 1000;
        const processMs = (cpu.user + cpu.system) / 1000;
        const serviceMs = serviceCpu.takeMs();
        const fired = wakeUps.take();
        hours.push({
          cpuMs: { process: processMs, service: serviceMs, core: processMs - serviceMs },
          wakeUps: fired,
          maxPerMinute: mostWithin(
            fired.map((wakeUp) => wakeUp.atMs),
            minuteMs,
          ),
          requests: harness.requests.splice(0),
          writes: disk.take(),
          notifications: notifier.shown.splice(0).length,
          realSeconds,
        });
      }
    } finally {
      serviceCpu.stop();
    }
    return { from, hours, pendingAtEnd: wakeUps.pending(), endMs: harness.clock.now().toMillis(), nextStart };
  } finally {
    disk.watch(null);
    await harness.dispose();
  }
}

const fixed = (value: number, digits = 1) => value.toFixed(digits);
const cpuPercent = (hour: IdleHour) => (hour.cpuMs.core / hourMs) * 100;
/** At most the poll's moment, every `pollTimeRefreshMinutes`, when nothing else changed. */
const writesPerIdleHour = 60 / pollTimeRefreshMinutes;

function bySetter(wakeUps: readonly WakeUp[]): string {
  const counts = new Map<string, number>();
  for (const { label } of wakeUps) counts.set(label, (counts.get(label) ?? 0) + 1);
  return [...counts].map(([label, count]) => `${label} ×${count}`).join(', ') || 'none';
}

/** The checks of item 4, the idle section of BENCHMARKS.md and a one-line headline. */
export function idleReport(
  run: IdleRun,
  cells: {
    writes: (writes: DiskWrites) => string;
    requests: (requests: readonly RecordedRequest[]) => string;
    verdict: (ok: boolean) => string;
  },
) {
  const problems: string[] = [];
  const { verdict } = cells;
  const worst = {
    cpu: Math.max(...run.hours.map(cpuPercent)),
    wakeUps: Math.max(...run.hours.map((hour) => hour.wakeUps.length)),
    perMinute: Math.max(...run.hours.map((hour) => hour.maxPerMinute)),
    writes: Math.max(...run.hours.map((hour) => hour.writes.writes)),
    bytes: Math.max(...run.hours.map((hour) => hour.writes.bytes)),
  };
  const undue = run.hours.flatMap((hour) => hour.wakeUps).filter((wakeUp) => !dueWorkSetters.test(wakeUp.label));
  const unchanged = run.hours.reduce((sum, hour) => sum + hour.writes.unchanged, 0);
  const notifications = run.hours.reduce((sum, hour) => sum + hour.notifications, 0);
  const writesOk = unchanged === 0 && worst.writes <= writesPerIdleHour;
  if (worst.cpu > idleBudgets.cpuPercentOfCore)
    problems.push(`idle: the core used ${fixed(worst.cpu, 3)}% of a core over an hour (budget ≤ ${idleBudgets.cpuPercentOfCore}%)`);
  if (worst.perMinute > idleBudgets.wakeUpsPerMinute)
    problems.push(`idle: ${worst.perMinute} wake-ups within a minute (budget ≤ ${idleBudgets.wakeUpsPerMinute})`);
  if (undue.length > 0) problems.push(`idle: timers fired with nothing due: ${bySetter(undue)}`);
  if (!writesOk)
    problems.push(
      `idle: ${worst.writes} writes in an hour, ${unchanged} of them changing nothing (budget: only what changed, the poll's moment at most every ${pollTimeRefreshMinutes} min)`,
    );
  if (notifications > 0) problems.push(`idle: ${notifications} notifications shown in a stretch with nothing due`);

  const dueIn = (timer: PendingTimer) => {
    const minutes = (timer.dueMs - run.endMs) / minuteMs;
    return minutes < 120
      ? `in ${fixed(minutes, 0)} min`
      : `at ${DateTime.fromMillis(timer.dueMs, { zone: 'utc' }).toFormat('ccc HH:mm')} UTC`;
  };
  const pending = run.pendingAtEnd.map((timer) => `${timer.label} (${dueIn(timer)})`).join(', ') || 'none';
  const hourRow = (hour: IdleHour, index: number) => {
    const start = run.from.plus({ hours: index });
    return `| ${start.toFormat('HH:mm')}–${start.plus({ hours: 1 }).toFormat('HH:mm')} UTC | ${fixed(hour.cpuMs.core, 1)} ms (${fixed(cpuPercent(hour), 4)}%) | ${fixed(hour.cpuMs.process, 1)} − ${fixed(hour.cpuMs.service, 1)} ms | ${hour.wakeUps.length}: ${bySetter(hour.wakeUps)} | ${hour.maxPerMinute} | ${hour.requests.length}: ${cells.requests(hour.requests)} | ${cells.writes(hour.writes)} | ${fixed(hour.realSeconds, 1)} s |`;
  };
  const headline = `idle hour: core CPU ${fixed(worst.cpu, 4)}% of a core, ${worst.wakeUps} wake-ups (max ${worst.perMinute} a minute), ${worst.writes} writes (${fixed(worst.bytes / 1024)} KB) to the data folder`;

  const markdown = `### Idle: nothing spent while nothing is due (issue 23, item 4)

An evening with nothing due: sign-in at 18:30 UTC (19:30 for the user, in Berlin), the user's next booking at ${run.nextStart.toFormat('HH:mm')} UTC the next day, the popover never opened; after ${settleMinutes} settling minutes, ${run.hours.length} hours measured one by one (the worst is judged).

- **Wake-ups:** every callback of a timer the core set on its clock, counted by wrapping the clock injected into the core (\`test/bench/wake-ups.ts\`) and labelled with the core file that set it (from the stack). Not counted: Node's own timers below the core (the HTTP client's socket timeouts), the shell's (the tray's words, armed for their next change) and the local service's (its own process in the app: the auto-release job every minute, the WAL checkpointer).
- **CPU:** \`process.cpuUsage()\` over each simulated hour, less the local service's share (it runs in the same process: measured from its HTTP server's request event to the response's close). What remains is the core's work (timers, requests sent and answers read, cache writes) and a little of the bench's (the manual clock and the harness waiting for the core to settle), so it slightly overstates the core. The clock is simulated: an hour's work runs in about a second, so the CPU it takes is what the same work costs over a real hour.
- **Writes:** as above (\`test/bench/disk-writes.ts\`); a write that leaves its file as it was counts as unchanged.

| Hour | Core CPU (share of one core) | Process − service | Wake-ups (who set them) | Most in a minute | Requests | Written (writes, bytes, files) | Real time |
|---|---:|---:|---|---:|---:|---|---:|
${run.hours.map(hourRow).join('\n')}

| Budget (issue 23) | Worst hour | Result |
|---|---|---|
| CPU ≤ ${idleBudgets.cpuPercentOfCore}% of one core averaged over the hour | ${fixed(worst.cpu, 4)}% | ${verdict(worst.cpu <= idleBudgets.cpuPercentOfCore)} |
| ≤ ${idleBudgets.wakeUpsPerMinute} wake-ups a minute | ${worst.perMinute} (${worst.wakeUps} in the hour) | ${verdict(worst.perMinute <= idleBudgets.wakeUpsPerMinute)} |
| No timer runs when nothing is due: only the steady read of the user's list (timers set from \`core/sync/\`) fires | ${undue.length === 0 ? 'only the steady read' : bySetter(undue)} | ${verdict(undue.length === 0)} |
| Writes only what changed: no write leaves a file as it was, the poll's moment alone at most every ${pollTimeRefreshMinutes} min | ${worst.writes} writes, ${unchanged} unchanged | ${verdict(writesOk)} |
| Nothing shown (nothing is due) | ${notifications} notifications | ${verdict(notifications === 0)} |

Timers waiting when the stretch ended: ${pending}.`;
  return { problems, markdown, headline };
}
