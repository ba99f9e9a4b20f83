/**
 * Hostile input over every operation of the table, on the demo organisation: wrong types, missing
 * and extra members, huge strings, control characters, invalid and extreme dates, reversed ranges,
 * absurd recurrences and bad percent-escapes. Whatever arrives, the service answers in time, never
 * with a 5xx, and every refusal carries the spec's envelope. Deterministic: one fixed seed.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { TObject, TSchema } from '@sinclair/typebox';
import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operationNames, operations, type OperationName } from '../../electron/api/operations.js';
import { fillPath } from '../../electron/service/http/links.js';
import { createNormalUser, startDemoService, type Session, type TestService } from '../support/service.js';

let service: TestService;
let user: Session;
beforeAll(async () => {
  service = await startDemoService();
  user = await createNormalUser(service, 'fuzzy');
});
afterAll(() => service.dispose());

/** mulberry32: small, fast and the same on every machine. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const next = random(20261125);
const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;

const soon = DateTime.utc().plus({ days: 3 }).startOf('hour');
const dates = [
  soon.toFormat("yyyy-MM-dd'T'HH:mm:ssZZZ"),
  soon.plus({ hours: 1 }).toFormat("yyyy-MM-dd'T'HH:mm:ssZZZ"),
  '0000-01-01T00:00:00+0000',
  '9999-12-31T23:59:59',
  '9999-12-31T23:59:59-1200',
  '2400-12-07T09:00:00+0000',
  '2026-02-30T10:00:00',
  '2026-13-45',
  '2026-12-01T25:61:61+9999',
  'yesterday',
  '',
];
const strings = [
  '',
  ' ',
  'x'.repeat(70_000),
  '\u0000\u0001\u0007\u001b[31m',
  '\ud800',
  '<script>alert(1)</script>',
  "' OR 1=1 --",
  '%',
  '../../etc/passwd',
  '😀'.repeat(500),
];
const numbers = [0, -1, 1, 2, 3.5, 1e308, -1e308, Number.MAX_SAFE_INTEGER, 2 ** 63, 987_654];
const recurrences = [
  { type: 'daily', interval: 1, repeatTerminationDate: '2400-01-01' },
  { type: 'weekly', interval: 1, weekdays: [0, 1, 2, 3, 4, 5, 6], repeatTerminationDate: '9999-12-31' },
  { type: 'monthly', interval: 1, monthlyType: 'dayOfWeek', repeatTerminationDate: '2100-01-01' },
  { type: 'yearly', interval: 1000, repeatTerminationDate: '0001-01-01' },
  { type: 'daily', interval: -5, repeatTerminationDate: 'never' },
  { type: 'hourly' },
  { type: 'weekly', weekdays: [-1, 7, 99] },
];

/** Any JSON value of any type, sometimes nested. */
function anyValue(depth = 0): unknown {
  switch (Math.floor(next() * (depth > 1 ? 6 : 8))) {
    case 0:
      return pick(strings);
    case 1:
      return pick(numbers);
    case 2:
      return pick([true, false, null]);
    case 3:
      return pick(dates);
    case 4:
      return pick(recurrences);
    case 5:
      return [pick(numbers), pick(strings)];
    case 6:
      return Array.from({ length: 3 }, () => anyValue(depth + 1));
    default:
      return { [pick(['id', 'value', 'resourceId', '__proto__', 'constructor'])]: anyValue(depth + 1) };
  }
}

const validIds = {
  accessoryId: 1,
  attributeId: 1,
  categoryId: 1,
  groupId: 1,
  resourceId: 1,
  scheduleId: 1,
  userId: 1,
  referenceNumber: 'unknown',
};
const hostileSegments = ['0', '-1', 'abc', '%ZZ', '%00', '%', '9'.repeat(40), '1.5', '%F0%9F%98%80', '..', '1%2F2'];

function hostilePath(name: OperationName): string {
  const path = operations[name].path;
  const params = Object.fromEntries(Object.entries(validIds).map(([key, id]) => [key, next() < 0.5 ? String(id) : '\u0000']));
  // Fill with placeholders first, then put raw (already escaped or broken) segments in their place.
  return fillPath(path, params).replace(/%00/g, () => pick(hostileSegments));
}

function hostileQuery(name: OperationName): string {
  const operation = operations[name];
  const members = 'query' in operation ? Object.keys((operation.query as TObject).properties) : [];
  const pairs = [...members, 'extra', 'dateTime']
    .filter(() => next() < 0.7)
    .map((member) => {
      const value = pick([...dates, ...strings.slice(0, 4), '%ZZ', '-1', '1,2,3', 'true']);
      return `${encodeURIComponent(member)}=${value === '%ZZ' ? value : encodeURIComponent(value)}`;
    });
  return pairs.length ? `?${pairs.join('&')}` : '';
}

function hostileBody(name: OperationName): { body?: unknown; rawBody?: string } {
  const operation = operations[name];
  if (!('body' in operation)) return {};
  const properties: Record<string, TSchema> = (operation.body as TObject).properties;
  switch (Math.floor(next() * 5)) {
    case 0:
      return { rawBody: pick(['{', '[]', 'null', '"text"', '{"a":', '\u0000', '{"__proto__":{"admin":true}}']) };
    case 1:
      return { body: anyValue() };
    default: {
      const body: Record<string, unknown> = {};
      for (const member of Object.keys(properties)) if (next() < 0.8) body[member] = anyValue();
      if (next() < 0.5) body['unexpected'] = anyValue();
      return { body };
    }
  }
}

interface Finding {
  request: string;
  status: number;
  ms: number;
  body: unknown;
}

describe('hostile input over all 49 operations', () => {
  const findings: Finding[] = [];

  it('never answers 5xx, always with the envelope on a refusal, each within a second, never holding the loop', async () => {
    expect(operationNames).toHaveLength(49);
    // The demo holds a few dozen bookings: no request may hold the event loop beyond a few ms of
    // work for them (a year-2100 booking used to hold it for seconds).
    const loop = monitorEventLoopDelay({ resolution: 5 });
    loop.enable();
    for (let round = 0; round < 20; round += 1) {
      for (const name of operationNames) {
        const path = hostilePath(name) + hostileQuery(name);
        const started = performance.now();
        const answer = await service.call(operations[name].method, path, {
          session: next() < 0.5 ? service.admin : user,
          ...hostileBody(name),
        });
        findings.push({
          request: `${operations[name].method} ${path.slice(0, 200)}`,
          status: answer.status,
          ms: performance.now() - started,
          body: answer.body,
        });
      }
    }
    loop.disable();
    expect(loop.max / 1e6).toBeLessThan(250);
    const serverErrors = findings.filter((finding) => finding.status >= 500);
    expect(serverErrors.map(({ request, status, body }) => ({ request, status, body }))).toEqual([]);
    const bare = findings.filter(
      ({ status, body }) =>
        status >= 400 &&
        !(
          typeof body === 'object' &&
          body !== null &&
          Array.isArray((body as { links?: unknown }).links) &&
          typeof (body as { message?: unknown }).message === 'string'
        ),
    );
    expect(bare.map(({ request, status, body }) => ({ request, status, body }))).toEqual([]);
    const slow = findings.filter((finding) => finding.ms > 1000);
    expect(slow.map(({ request, ms }) => ({ request, ms: Math.round(ms) }))).toEqual([]);
    // Enough got past validation to reach the rules: not every answer is a refusal.
    expect(findings.filter((finding) => finding.status < 300).length).toBeGreaterThan(50);
  }, 120_000);

  it('keeps its memory after the run', () => {
    expect(process.memoryUsage().rss / 2 ** 20).toBeLessThan(500);
  });
});
