import SQLite from 'libsql';
import { DateTime } from 'luxon';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { formatWireDateTime } from '../../electron/api/dates.js';
import { apiRootPath } from '../../electron/api/operations.js';
import { systemClock } from '../../electron/service/clock.js';
import { defaultServiceConfig } from '../../electron/service/config.js';
import { createServer } from '../../electron/service/http/server.js';
import { startService } from '../../electron/service/service.js';
import { observeStatements, storeOver } from '../../electron/service/store/database.js';
import { createBody, defaultCounts, generateOrganisation, type FreeSlot, type GeneratedOrganisation } from './generate.js';
import type { LoadJob, LoadResult } from './load.js';
import { markedSections, reportFile } from './report.js';

/**
 * `npm run bench`: builds the organisation of server-facts section E into a fresh database, serves
 * it in-process and measures the calls the app makes most, against the budgets below. Writes
 * BENCHMARKS.md and exits 1 when a budget or a check fails.
 */

const connections = 10;
const durationSeconds = 10;
const warmUpSeconds = 2;
/**
 * One connection: each request waits for the one before, so p50 is the service's own time per
 * request (what server-facts section E measured), free of the queueing ten connections add.
 */
const sequentialSeconds = 5;
/** What the app's client sends (electron/api/client.ts): answers are compressed. */
const clientAcceptEncoding = 'gzip, deflate, br';

type Budget = { metric: 'p50'; atMostMs: number } | { metric: 'requestsPerSecond'; atLeast: number };

interface Scenario {
  name: string;
  /** The path after the API root, with its query. */
  path: string;
  method: 'GET' | 'POST';
  who: 'member' | 'admin';
  compressed: boolean;
  budget?: Budget;
  /** For POST: one free slot per request, each used once. */
  slots?: FreeSlot[];
  expectStatus: number;
  note: string;
  /** The statement the budget hangs on, picked out of the recorded ones by its SQL. */
  hot?: { label: string; pattern: RegExp };
}

interface CapturedQuery {
  sql: string;
  parameters: unknown[];
  ms: number;
}

interface PlannedQuery extends CapturedQuery {
  plan: string[];
  scansReservations: boolean;
  hot: boolean;
}

interface Outcome {
  scenario: Scenario;
  probe: { status: number; bytes: number; wireBytes: number; encoding: string } | null;
  result: LoadResult | null;
  sequential: LoadResult | null;
  queries: PlannedQuery[];
  failures: string[];
}

function runLoad(job: LoadJob): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    // The worker is TypeScript too; Node 20 does not hand tsx's loader to a worker's entry, so the
    // entry registers it and then imports the real module.
    const entry = `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then((tsx) => { tsx.register(); return import(${JSON.stringify(new URL('./load.ts', import.meta.url).href)}); })`;
    const worker = new Worker(entry, { eval: true, workerData: job });
    worker.once('message', (message: { result?: LoadResult; error?: string }) => {
      if (message.result) resolve(message.result);
      else reject(new Error(message.error ?? 'load worker failed'));
      void worker.terminate();
    });
    worker.once('error', reject);
  });
}

/**
 * A second view of the same database whose every statement is recorded: the service's own
 * Fastify app over it answers one request of each scenario, so the plans below are those of the
 * exact SQL the service runs (Kysely-compiled or its own synchronous statements), not of a
 * hand-written equivalent.
 */
function recordingStore(file: string) {
  const connection = new SQLite(file);
  connection.pragma('foreign_keys = ON');
  connection.pragma('busy_timeout = 5000');
  const captured: CapturedQuery[] = [];
  const store = storeOver(connection);
  observeStatements(store, (sql, parameters, ms) => captured.push({ sql, parameters, ms }));
  return { store, connection, captured };
}

/** `EXPLAIN QUERY PLAN` as SQLite's shell prints it: one line per step, indented under its parent. */
function explain(connection: SQLite.Database, query: CapturedQuery): string[] {
  try {
    const rows = connection.prepare(`EXPLAIN QUERY PLAN ${query.sql}`).all(query.parameters) as {
      id: number;
      parent: number;
      detail: string;
    }[];
    const depth = new Map<number, number>([[0, 0]]);
    return rows.map((row) => {
      const level = (depth.get(row.parent) ?? 0) + 1;
      depth.set(row.id, level);
      return `${'  '.repeat(level - 1)}${row.detail}`;
    });
  } catch (error) {
    return [`(no plan: ${(error as Error).message})`];
  }
}

/** A full pass over either big table; a SEARCH (index range or key lookup) is what we want. */
const scansReservations = (plan: readonly string[]) => plan.some((line) => /\bSCAN (reservations|reservation_bookings)\b/.test(line));
const touchesReservations = (sql: string) => /\breservation(s|_bookings)\b/.test(sql);

async function signIn(apiRoot: string, username: string, password: string) {
  const response = await fetch(`${apiRoot}/Authentication/Authenticate`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  const body = (await response.json()) as { sessionToken: string | null; userId: number | null };
  if (!body.sessionToken || body.userId === null) throw new Error(`sign-in of ${username} failed`);
  return { 'X-Booked-SessionToken': body.sessionToken, 'X-Booked-UserId': String(body.userId) };
}

function machine() {
  const cpu = cpus()[0]?.model ?? 'unknown';
  return {
    cores: availableParallelism(),
    cpu,
    memoryGiB: (totalmem() / 1024 ** 3).toFixed(1),
    node: process.version,
  };
}

const fixed = (value: number, digits = 1) => value.toFixed(digits);

function verdict(outcome: Outcome): string {
  if (!outcome.result) return 'not measured';
  const { budget } = outcome.scenario;
  if (!budget) return '—';
  return outcome.failures.length ? '**FAIL**' : 'pass';
}

function budgetText(budget: Budget | undefined) {
  if (!budget) return '(information)';
  return budget.metric === 'p50' ? `p50 ≤ ${budget.atMostMs} ms` : `≥ ${budget.atLeast.toLocaleString('en')} req/s`;
}

function report(options: {
  outcomes: Outcome[];
  organisation: GeneratedOrganisation;
  databaseBytes: number;
  sqliteVersion: string;
  startedAt: DateTime;
  totalSeconds: number;
}): string {
  const { outcomes, organisation } = options;
  const host = machine();
  const lines: string[] = [];
  lines.push('# Benchmarks', '');
  lines.push(
    'The local service against the organisation of `electron/api/server-facts.md` section E (1,000 resources, 2,000 users, 200,000 reservations), measured with autocannon. Generated by `npm run bench` (`test/bench/run.ts`); run it again after any change to the store or the hot handlers.',
    '',
  );
  lines.push(`- Date: ${options.startedAt.toUTC().toFormat("yyyy-MM-dd HH:mm 'UTC'")}`);
  lines.push(`- Machine: ${host.cores} cores (\`nproc\`), ${host.cpu}, ${host.memoryGiB} GiB memory`);
  lines.push(`- Node ${host.node}, SQLite ${options.sqliteVersion}`);
  lines.push('- Command: `npm run bench`');
  lines.push(
    `- Load: autocannon in a worker thread, ${connections} connections, ${durationSeconds} s per row after a ${warmUpSeconds} s warm-up, service in the same process on 127.0.0.1, default logger off. Requests carry the app client's \`Accept-Encoding: ${clientAcceptEncoding}\` unless said otherwise.`,
  );
  lines.push(`- Whole run: ${fixed(options.totalSeconds, 0)} s`, '');

  lines.push('## Data set', '');
  const counts = organisation.counts;
  lines.push(
    `${counts.schedules} schedules (office layouts: weekdays 08:00–18:00 in 30-minute slots; every fifth round the clock), ${counts.schedulePeriods} schedule periods, ${counts.resources} resources in a tree of ${counts.resourceGroups} resource groups (region › building › floor), ${counts.users} users in ${counts.userGroups} groups (plus Application Administrators), ${counts.groupPermissions} group and ${counts.userPermissions} user resource permissions, ${counts.series?.toLocaleString('en')} series holding ${counts.reservations?.toLocaleString('en')} reservations (singles and weekly series of ten, ±${defaultCounts.halfWindowDays} days around now, on slot boundaries, never overlapping on a resource). The measured normal user ("member") belongs to Staff and one department, which hold permissions on 700 of the 1,000 resources; an administrator sees all 1,000.`,
    '',
  );
  lines.push(
    `Generated in ${fixed(organisation.generationMs / 1000)} s (prepared statements, one transaction per 250 resources); database ${fixed(options.databaseBytes / 1024 ** 2)} MiB.`,
    '',
  );

  lines.push('## Figures', '');
  lines.push(
    `| Operation | Request | p50 ms, 1 connection | req/s, 1 connection | req/s | p50 ms | p99 ms | non-2xx | Answer size | Budget | Result |`,
  );
  lines.push('|---|---|---:|---:|---:|---:|---:|---:|---|---|---|');
  for (const outcome of outcomes) {
    const { scenario, result, probe } = outcome;
    const size = probe
      ? `${fixed(probe.bytes / 1024)} KB${probe.encoding !== 'identity' ? ` (${fixed(probe.wireBytes / 1024)} KB ${probe.encoding})` : ''}`
      : '—';
    const { sequential } = outcome;
    const figures = [
      ...(sequential ? [fixed(sequential.p50, 0), fixed(sequential.requestsPerSecond, 0)] : ['—', '—']),
      ...(result
        ? [fixed(result.requestsPerSecond, 0), fixed(result.p50, 0), fixed(result.p99, 0), String(result.non2xx)]
        : ['—', '—', '—', '—']),
    ];
    lines.push(
      `| ${scenario.name} | \`${scenario.method} ${scenario.path.split('?')[0]}\` ${scenario.note} | ${figures.join(' | ')} | ${size} | ${budgetText(scenario.budget)} | ${verdict(outcome)} |`,
    );
  }
  lines.push('');
  lines.push(
    `How the budgets of issue 3 are judged: a latency budget (GetAvailability, GetReservations, GetSlots) applies to the p50 of the service's own time per request, the "1 connection" columns (${sequentialSeconds} s, each request sent when the one before was answered), which is what server-facts section E measured on a real server. CreateReservation's budget is throughput, judged on req/s at ${connections} connections, where the service is always busy. The remaining ${connections}-connection figures (${durationSeconds} s after a ${warmUpSeconds} s warm-up) are information: with ten requests always waiting on one event loop, p50 there is about ten times the service's own time per request. autocannon reports whole milliseconds.`,
    '',
    `Both CreateReservation throughputs are shown. "≥ 1,000 per second on one core" is the service's capacity, so the ${connections}-connection figure is judged: the service's event loop never waits there, while on one connection it idles during every round trip through the load generator (another thread, on the second core). The one-connection figure is then the rate one client alone gets.`,
    '',
  );
  const failures = outcomes.flatMap((outcome) => outcome.failures.map((failure) => `- ${outcome.scenario.name}: ${failure}`));
  lines.push('## Checks', '');
  lines.push(
    ...(failures.length
      ? failures
      : [
          'All budgets met; no plan scans `reservations` or `reservation_bookings`; CreateReservation answered 201 to at least 95% of requests.',
        ]),
    '',
  );

  lines.push('## Query plans', '');
  lines.push(
    "Every statement one request of each kind runs, recorded from the service's own code (the SQL it runs, real parameters) and explained with `EXPLAIN QUERY PLAN`. Times are of that single request. Statements that touch `reservations` or `reservation_bookings` are shown in full; a `SCAN` of either would be a check failure.",
    '',
  );
  for (const outcome of outcomes) {
    if (outcome.queries.length === 0) continue;
    lines.push(`### ${outcome.scenario.name}`, '');
    for (const query of outcome.queries) {
      const summary = query.sql.replace(/\s+/g, ' ').slice(0, 110);
      if (!touchesReservations(query.sql) && !query.hot) {
        lines.push(`- ${fixed(query.ms, 2)} ms — \`${summary}${query.sql.length > 110 ? '…' : ''}\` — ${query.plan.join('; ')}`);
        continue;
      }
      const label = query.hot ? ` — **${outcome.scenario.hot!.label}**` : '';
      lines.push(
        '',
        `- ${fixed(query.ms, 2)} ms${label}${query.scansReservations ? ' — **SCAN**' : ''}`,
        '',
        '```sql',
        query.sql.trim(),
        '```',
        '',
        '```',
        ...query.plan,
        '```',
        '',
      );
    }
    lines.push('');
  }
  return lines.join('\n').replace(/\n{3,}/g, '\n\n');
}

async function main() {
  const startedAt = DateTime.utc();
  const clock = performance.now();
  const folder = mkdtempSync(join(tmpdir(), 'perch-bench-'));
  const file = join(folder, 'perch.db');
  try {
    console.log('Generating the organisation…');
    const organisation = await generateOrganisation(file, DateTime.utc());
    console.log(`  ${JSON.stringify(organisation.counts)} in ${fixed(organisation.generationMs / 1000)} s`);

    const service = await startService({ database: file, port: 0, logger: false });
    const recorder = recordingStore(file);
    const recordingApp = await createServer({ store: recorder.store, clock: systemClock, config: defaultServiceConfig, logger: false });
    try {
      const sessions = {
        member: await signIn(service.apiRoot, organisation.member.userName, organisation.password),
        admin: await signIn(service.apiRoot, organisation.admin.userName, organisation.password),
      };
      const officeWeek = DateTime.now().setZone(organisation.officeSchedule.zone).startOf('week');
      const slotsQuery = new URLSearchParams({
        startDateTime: formatWireDateTime(officeWeek),
        endDateTime: formatWireDateTime(officeWeek.plus({ days: 7 })),
      });
      // A weekday morning, when the office schedule is open and its rooms are busy.
      const now = officeWeek.plus({ days: 1, hours: 10, minutes: 15 }).toUTC();
      const busyNowQuery = new URLSearchParams({
        scheduleId: String(organisation.officeSchedule.id),
        startDateTime: formatWireDateTime(now),
        endDateTime: formatWireDateTime(now.plus({ minutes: 1 })),
      });
      const slots = [...organisation.freeSlots];
      // The last slot is kept for the recorded request, so no measured request collides with it.
      const recordedBody = createBody(slots.pop()!);
      const scenarios: Scenario[] = [
        {
          name: 'GetAvailability',
          path: '/Resources/Availability',
          method: 'GET',
          who: 'member',
          compressed: true,
          budget: { metric: 'p50', atMostMs: 20 },
          expectStatus: 200,
          note: 'all resources, normal user',
          hot: { label: 'the bookings window query', pattern: /from\s+"?reservation_bookings"?/i },
        },
        {
          name: 'GetReservations',
          path: `/Reservations/?userId=${organisation.member.id}`,
          method: 'GET',
          who: 'member',
          compressed: true,
          budget: { metric: 'p50', atMostMs: 5 },
          expectStatus: 200,
          note: 'one user, default window (14 days)',
          hot: {
            label: "the user's reservations query",
            pattern: /from "reservations" inner join "reservation_series"[\s\S]*"owner_id" = \?/,
          },
        },
        // What the tray app asks for "Free now" (server-facts E: 35 ms on a real server); as fast as availability.
        {
          name: 'GetReservations (busy now)',
          path: `/Reservations/?${busyNowQuery}`,
          method: 'GET',
          who: 'member',
          compressed: true,
          budget: { metric: 'p50', atMostMs: 20 },
          expectStatus: 200,
          note: 'one schedule, now to now + 1 minute',
          hot: {
            label: "the schedule's reservations query",
            pattern: /from "reservations" inner join "reservation_series"[\s\S]*"schedule_id" = \?/,
          },
        },
        {
          name: 'GetSlots',
          path: `/Schedules/${organisation.officeSchedule.id}/Slots?${slotsQuery}`,
          method: 'GET',
          who: 'member',
          compressed: true,
          budget: { metric: 'p50', atMostMs: 20 },
          expectStatus: 200,
          note: 'one schedule (50 resources), one week',
          hot: { label: "the schedule's bookings query", pattern: /from\s+"?reservation_bookings"?/i },
        },
        {
          name: 'GetAvailability (admin)',
          path: '/Resources/Availability',
          method: 'GET',
          who: 'admin',
          compressed: true,
          expectStatus: 200,
          note: 'all resources, administrator',
        },
        {
          name: 'GetAvailability (uncompressed)',
          path: '/Resources/Availability',
          method: 'GET',
          who: 'member',
          compressed: false,
          expectStatus: 200,
          note: 'normal user, no Accept-Encoding',
        },
        // Writes last, so that the reads above measure the generated organisation as it is.
        {
          name: 'CreateReservation',
          path: '/Reservations/',
          method: 'POST',
          who: 'member',
          compressed: true,
          budget: { metric: 'requestsPerSecond', atLeast: 1000 },
          slots,
          expectStatus: 201,
          note: 'a distinct free 30-minute slot each, normal user',
          hot: { label: 'the conflict query', pattern: /from\s+"?reservation_bookings"?\s+where\s+"?resource_id"?\s+in/i },
        },
      ];

      const only = process.argv.indexOf('--only') >= 0 ? process.argv[process.argv.indexOf('--only') + 1] : undefined;
      const outcomes: Outcome[] = [];
      let bodyOffset = 0;
      for (const scenario of scenarios.filter((candidate) => only === undefined || candidate.name === only)) {
        const headers: Record<string, string> = { Accept: 'application/json', ...sessions[scenario.who] };
        if (scenario.compressed) headers['Accept-Encoding'] = clientAcceptEncoding;
        if (scenario.method === 'POST') headers['Content-Type'] = 'application/json';
        const url = service.apiRoot + scenario.path;
        const outcome: Outcome = { scenario, probe: null, result: null, sequential: null, queries: [], failures: [] };
        outcomes.push(outcome);

        // One request answered the way the app would see it, and its size on the wire.
        const probeBody = scenario.slots ? createBody(scenario.slots[bodyOffset++]!) : undefined;
        const raw = await fetch(url, {
          method: scenario.method,
          headers: { ...headers, 'Accept-Encoding': 'identity' },
          ...(probeBody && { body: probeBody }),
        });
        const text = await raw.text();
        if (raw.status !== scenario.expectStatus) {
          outcome.failures.push(`answered ${raw.status} instead of ${scenario.expectStatus}: ${text.slice(0, 200)}`);
          console.log(`${scenario.name}: answered ${raw.status}; not measured`);
          continue;
        }
        let wireBytes = Buffer.byteLength(text);
        let encoding = 'identity';
        if (scenario.compressed && scenario.method === 'GET') {
          const compressed = await import('node:http').then(
            (http) =>
              new Promise<{ bytes: number; encoding: string }>((resolve, reject) => {
                http
                  .get(url, { headers }, (response) => {
                    let bytes = 0;
                    response.on('data', (chunk: Buffer) => (bytes += chunk.length));
                    response.on('end', () => resolve({ bytes, encoding: String(response.headers['content-encoding'] ?? 'identity') }));
                  })
                  .on('error', reject);
              }),
          );
          wireBytes = compressed.bytes;
          encoding = compressed.encoding;
        }
        outcome.probe = { status: raw.status, bytes: Buffer.byteLength(text), wireBytes, encoding };

        // The statements and their plans, from a request answered by the recording app.
        if (!scenario.name.includes('(')) {
          for (let attempt = 0; attempt < 3; attempt += 1) {
            recorder.captured.length = 0;
            const injected = await recordingApp.inject({
              method: scenario.method,
              url: apiRootPath + scenario.path,
              headers,
              ...(scenario.method === 'POST' && { payload: attempt === 2 ? recordedBody : createBody(scenario.slots![bodyOffset++]!) }),
            });
            if (injected.statusCode !== scenario.expectStatus) outcome.failures.push(`recorded request answered ${injected.statusCode}`);
          }
          outcome.queries = recorder.captured.map((query) => {
            const plan = explain(recorder.connection, query);
            return { ...query, plan, scansReservations: scansReservations(plan), hot: scenario.hot?.pattern.test(query.sql) ?? false };
          });
          const hot = outcome.queries.filter((query) => query.hot);
          if (scenario.hot && hot.length === 0)
            outcome.failures.push(`no recorded statement looks like ${scenario.hot.label} (${scenario.hot.pattern}); update the pattern`);
          for (const query of hot) console.log(`  ${scenario.hot!.label}: ${fixed(query.ms, 2)} ms\n    ${query.plan.join('\n    ')}`);
          for (const query of outcome.queries.filter((candidate) => candidate.scansReservations)) {
            outcome.failures.push(`a statement scans a reservation table: ${query.plan.join(' / ')}`);
          }
        }

        console.log(`${scenario.name}: measuring ${durationSeconds} s…`);
        // Every run gets bodies no earlier run used (plus a margin for requests cut off at the end).
        const load = async (seconds: number, clients: number) => {
          const result = await runLoad({
            url,
            method: scenario.method,
            headers,
            connections: clients,
            durationSeconds: seconds,
            ...(scenario.slots && { slots: scenario.slots.slice(bodyOffset) }),
          });
          bodyOffset += result.requests + clients * 2;
          return result;
        };
        await load(warmUpSeconds, connections);
        const result = await load(durationSeconds, connections);
        outcome.result = result;
        console.log(
          `  ${fixed(result.requestsPerSecond, 0)} req/s, p50 ${result.p50} ms, p99 ${result.p99} ms, non-2xx ${result.non2xx}, ${JSON.stringify(result.statusCodes)}`,
        );
        const sequential = await load(sequentialSeconds, 1);
        outcome.sequential = sequential;
        console.log(
          `  one connection: ${fixed(sequential.requestsPerSecond, 0)} req/s, p50 ${sequential.p50} ms, p99 ${sequential.p99} ms`,
        );

        const { budget } = scenario;
        // Latency budgets are the service's own time per request: the one-connection p50. At ten
        // connections p50 is mostly queueing on one event loop, reported as information.
        if (budget?.metric === 'p50' && sequential.p50 > budget.atMostMs) {
          outcome.failures.push(`p50 ${sequential.p50} ms on one connection is over the budget of ${budget.atMostMs} ms`);
        }
        if (budget?.metric === 'requestsPerSecond' && result.requestsPerSecond < budget.atLeast) {
          outcome.failures.push(`${fixed(result.requestsPerSecond, 0)} req/s is under the budget of ${budget.atLeast} req/s`);
        }
        for (const run of [result, sequential]) {
          const expected = run.statusCodes[String(scenario.expectStatus)] ?? 0;
          const minimumShare = scenario.method === 'POST' ? 0.95 : 1;
          if (run.requests === 0 || expected / run.requests < minimumShare) {
            outcome.failures.push(
              `${expected} of ${run.requests} requests answered ${scenario.expectStatus} (${JSON.stringify(run.statusCodes)}; ${run.errors} errors, ${run.timeouts} timeouts)`,
            );
          }
        }
      }

      const sqliteVersion = String(recorder.connection.prepare('SELECT sqlite_version()').pluck().all()[0]);
      const markdown = report({
        outcomes,
        organisation,
        databaseBytes: statSync(file).size,
        sqliteVersion,
        startedAt,
        totalSeconds: (performance.now() - clock) / 1000,
      });
      // A partial run (--only, while investigating) must not replace the full report; a full one
      // keeps the core benchmark's section (test/bench/core.ts writes it between its markers).
      const kept = markedSections();
      writeFileSync(
        only === undefined ? reportFile : join(folder, '..', 'perch-bench-partial.md'),
        [markdown.trimEnd(), ...kept].join('\n\n') + '\n',
      );
      const failures = outcomes.flatMap((outcome) => outcome.failures.map((failure) => `${outcome.scenario.name}: ${failure}`));
      console.log(
        `\nWrote ${only === undefined ? 'BENCHMARKS.md' : join(folder, '..', 'perch-bench-partial.md')} in ${fixed((performance.now() - clock) / 1000, 0)} s.`,
      );
      if (failures.length) {
        console.log(`\n${failures.length} check(s) failed:\n${failures.map((failure) => `- ${failure}`).join('\n')}`);
        process.exitCode = 1;
      }
    } finally {
      await recordingApp.close();
      await recorder.store.destroy();
      await service.close();
    }
  } finally {
    if (process.argv.includes('--keep')) console.log(`Database kept: ${file}`);
    else rmSync(folder, { recursive: true, force: true });
  }
}

await main();
