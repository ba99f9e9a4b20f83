/**
 * What a request costs a real LibreBooking server: the price table of electron/api/server-facts.md
 * section E (server time, sequential, warm, median, as a normal user who may book 700 of 1,000
 * resources). A request the table does not price counts as 1 s and is named, so nothing the app
 * sends goes unpriced.
 */
import { parseWireDateTime } from '../../electron/api/dates.js';

export interface PricedRequest {
  /** The row of the table, or the request itself when the table does not price it. */
  row: string;
  ms: number;
  priced: boolean;
}

export interface RequestToPrice {
  method: string;
  /** Below the API root, e.g. `/Reservations/`. */
  path: string;
  query: URLSearchParams;
}

export const unpricedMs = 1_000;

/** What the app's background work may cost a real server, in seconds of server time per user-hour (section E). */
export const serverBudgetSeconds = { normal: 2.0, unattended: 1.0 } as const;

const minuteMs = 60_000;
const hourMs = 60 * minuteMs;
const dayMs = 24 * hourMs;

/** The rows of section E that price one request, by their label there. */
export const serverPrices = {
  availabilityAll: { row: 'GET /Resources/Availability (all)', ms: 1_827 },
  availabilityOne: { row: 'GET /Resources/Availability?resourceId=R', ms: 13 },
  resourceAvailability: { row: 'GET /Resources/R/Availability', ms: 1_929 },
  userTomorrow: { row: 'GET /Reservations/?userId=U, now → end of tomorrow', ms: 35 },
  userFortnight: { row: 'GET /Reservations/?userId=U, 14 days', ms: 35 },
  scheduleMinute: { row: 'GET /Reservations/?scheduleId=S, now → now + 1 min', ms: 35 },
  /**
   * Not in section E's table: measured by this project on the same large server (1,000 resources,
   * 200,000 reservations, as the normal user; nginx request time, median of 10, three schedules,
   * 2026-11-26): the length of the window does not change the cost — one minute 37–39.5 ms, to the
   * closing 38–39 ms, to the end of tomorrow 39–40 ms (issue #20 had found 31 ms against 31 ms).
   */
  scheduleDay: { row: 'GET /Reservations/?scheduleId=S, now → closing (at most a day)', ms: 39 },
  scheduleTomorrow: { row: 'GET /Reservations/?scheduleId=S, now → end of tomorrow', ms: 40 },
  resourceHours: { row: 'GET /Reservations/?resourceId=R, now → + 4 h', ms: 10 },
  unfilteredMinute: { row: 'GET /Reservations/, no user/resource/schedule filter', ms: 498 },
  unfilteredDefault: { row: 'GET /Reservations/ with no parameters', ms: 1_056 },
  slotsOneResource: { row: 'GET /Schedules/S/Slots?resourceId=R, 1 day', ms: 64 },
  slotsDay: { row: 'GET /Schedules/S/Slots, 1 day', ms: 112 },
  slotsWeek: { row: 'GET /Schedules/S/Slots, 7 days', ms: 229 },
  resources: { row: 'GET /Resources/ (all)', ms: 1_058 },
  single: { row: 'GET /Resources/R, /Schedules/S, /Users/U, /Reservations/REF', ms: 13 },
  schedules: { row: 'GET /Schedules/', ms: 5.5 },
  /** Not in section E's table: measured by this project on the same large server as the normal user (nginx request time, median of 10, 2026-11-26). */
  attributes: { row: 'GET /Attributes/Category/C', ms: 8 },
  groups: { row: 'GET /Resources/Groups', ms: 29 },
  /** Not in section E's table: measured by this project on the same large server as the normal user (nginx request time, 12–14 ms, 2026-11-26). */
  group: { row: 'GET /Groups/G', ms: 13 },
  authenticate: { row: 'POST /Authentication/Authenticate', ms: 11 },
  createReservation: { row: 'POST /Reservations/', ms: 28 },
} as const satisfies Record<string, { row: string; ms: number }>;

type PriceKey = keyof typeof serverPrices;

/** The span the request's startDateTime/endDateTime cover; null when either is missing or unreadable. */
function windowMs(query: URLSearchParams): number | null {
  const start = query.get('startDateTime');
  const end = query.get('endDateTime');
  if (start === null || end === null) return null;
  const from = parseWireDateTime(start, 'UTC');
  const to = parseWireDateTime(end, 'UTC');
  return from === null || to === null ? null : to.toMillis() - from.toMillis();
}

function reservationsKey(query: URLSearchParams): PriceKey | null {
  const span = windowMs(query);
  if (query.has('userId')) {
    // Now to the end of tomorrow is at most 48 hours; a reminder lead may reach a little further.
    if (span !== null && span <= 2 * dayMs + hourMs) return 'userTomorrow';
    return span === null || span <= 14 * dayMs + minuteMs ? 'userFortnight' : null;
  }
  if (query.has('scheduleId')) {
    if (span !== null && span <= minuteMs) return 'scheduleMinute';
    if (span !== null && span <= dayMs) return 'scheduleDay';
    return span !== null && span <= 2 * dayMs ? 'scheduleTomorrow' : null;
  }
  if (query.has('resourceId')) return span !== null && span <= 4 * hourMs ? 'resourceHours' : null;
  if ([...query.keys()].length === 0) return 'unfilteredDefault';
  return span !== null && span <= minuteMs ? 'unfilteredMinute' : null;
}

function slotsKey(query: URLSearchParams): PriceKey | null {
  const span = windowMs(query);
  if (span === null || span > 7 * dayMs) return null;
  if (query.has('resourceId')) return span <= dayMs ? 'slotsOneResource' : null;
  return span <= dayMs ? 'slotsDay' : 'slotsWeek';
}

function keyOf({ method, path, query }: RequestToPrice): PriceKey | null {
  if (method === 'POST') {
    if (path === '/Authentication/Authenticate') return 'authenticate';
    return path === '/Reservations/' ? 'createReservation' : null;
  }
  if (method !== 'GET') return null;
  if (path === '/Resources/Availability') return query.has('resourceId') ? 'availabilityOne' : 'availabilityAll';
  if (/^\/Resources\/[^/]+\/Availability$/.test(path)) return 'resourceAvailability';
  if (path === '/Reservations/') return reservationsKey(query);
  if (/^\/Schedules\/[^/]+\/Slots$/.test(path)) return slotsKey(query);
  if (path === '/Resources/') return 'resources';
  if (path === '/Resources/Groups') return 'groups';
  if (/^\/Groups\/[^/]+$/.test(path)) return 'group';
  if (path === '/Schedules/') return 'schedules';
  if (/^\/Attributes\/Category\/[^/]+$/.test(path)) return 'attributes';
  if (/^\/(Resources|Schedules|Users|Reservations)\/[^/]+$/.test(path)) return 'single';
  return null;
}

export function priceOf(request: RequestToPrice): PricedRequest {
  const key = keyOf(request);
  if (key === null) return { row: `${request.method} ${request.path}`, ms: unpricedMs, priced: false };
  return { ...serverPrices[key], priced: true };
}

export interface PriceLine {
  row: string;
  count: number;
  ms: number;
  priced: boolean;
}

/** Requests grouped by the row that prices them, dearest first. */
export function priceLines(requests: readonly RequestToPrice[]): PriceLine[] {
  const lines = new Map<string, PriceLine>();
  for (const request of requests) {
    const price = priceOf(request);
    const line = lines.get(price.row) ?? { row: price.row, count: 0, ms: 0, priced: price.priced };
    line.count += 1;
    line.ms += price.ms;
    lines.set(price.row, line);
  }
  return [...lines.values()].sort((a, b) => b.ms - a.ms || a.row.localeCompare(b.row));
}

export const totalMs = (lines: readonly PriceLine[]) => lines.reduce((sum, line) => sum + line.ms, 0);
