import { join } from 'node:path';
import { Type, type Static } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { registerWireFormats } from '../../api/formats.js';
import { Nullable } from '../../api/schemas/common.js';
import { ReservationSummary } from '../../api/schemas/reservations.js';
import { AttributeDefinition } from '../../api/schemas/attributes.js';
import { Resource, ResourceGroupTree } from '../../api/schemas/resources.js';
import { ScheduleListItem } from '../../api/schemas/schedules.js';
import { isPlainObject, readJsonFile, writeJsonAtomic } from './files.js';

// The payload members are checked with the wire schemas, whose date and duration formats must be known.
registerWireFormats();

export const cacheFileName = 'cache.json';

const CachedAccount = Type.Object({
  apiRoot: Type.String(),
  userId: Type.Integer(),
  userName: Type.String(),
  displayName: Type.String(),
  timezone: Type.String(),
  isAdmin: Type.Boolean(),
});

/**
 * The last good data, shown at once on start while the first poll runs. The payloads stay in
 * the API's decoded wire form, so the cache needs no mapping of its own and can never drift from
 * what a fresh poll yields.
 */
const CachedDataSchema = Type.Object({
  savedAt: Type.String(),
  /** Who the data belongs to: a cache of another account or server must not be shown. */
  account: Nullable(CachedAccount),
  reservations: Type.Array(ReservationSummary),
  /** Who was busy in each schedule "Free now" shows, and when that was asked. Optional: older caches lack it. */
  busyNow: Type.Optional(Type.Array(Type.Object({ scheduleId: Type.Integer(), askedAt: Type.String(), until: Type.Optional(Type.String()), reservations: Type.Array(ReservationSummary) }))),
  resources: Type.Array(Resource),
  schedules: Type.Array(ScheduleListItem),
  groups: Type.Optional(Nullable(ResourceGroupTree)),
  /** Reservation attributes, fetched with the resources. Optional: older caches lack them. */
  reservationAttributes: Type.Optional(Type.Array(AttributeDefinition)),
  /** When resources, schedules and groups were fetched: they are kept for hours, across restarts. */
  referenceFetchedAt: Type.Optional(Nullable(Type.String())),
  fetchedAt: Nullable(Type.String()),
  /** Notification ids already shown, so a restart does not show them again. */
  shownNotificationIds: Type.Array(Type.String()),
});

export type CachedData = Static<typeof CachedDataSchema>;
export type CachedAccount = Static<typeof CachedAccount>;

/**
 * Member names that hold credentials. The cache is written from many places' data, so the rule
 * "no secret on disk" is enforced here, at the one door to the file, rather than trusted.
 */
const SECRET_KEY = /password|passwd|secret|token|credential|apikey/i;

function isSecretKey(key: string): boolean {
  return SECRET_KEY.test(key.replace(/[-_\s]/g, ''));
}

/** A copy of `value` without any member named like a credential; `dropped` lists where each was. */
export function withoutSecrets(value: unknown, path = ''): { value: unknown; dropped: string[] } {
  const dropped: string[] = [];
  const visit = (node: unknown, at: string): unknown => {
    if (Array.isArray(node)) return node.map((item, index) => visit(item, `${at}[${index}]`));
    if (!isPlainObject(node)) return node;
    const copy: Record<string, unknown> = {};
    for (const [key, member] of Object.entries(node)) {
      const memberPath = at === '' ? key : `${at}.${key}`;
      if (isSecretKey(key)) {
        dropped.push(memberPath);
        continue;
      }
      copy[key] = visit(member, memberPath);
    }
    return copy;
  };
  return { value: visit(value, path), dropped };
}

export interface CacheOptions {
  /** Where to report a credential that was left out; it is a caller's bug, but not worth a crash. */
  log?: (message: string) => void;
}

export async function saveCache(dataDir: string, data: CachedData, options: CacheOptions = {}): Promise<void> {
  const { value, dropped } = withoutSecrets(data);
  if (dropped.length > 0) {
    (options.log ?? console.warn)(`Perch left ${dropped.join(', ')} out of the cache: credentials are never written to disk.`);
  }
  await writeJsonAtomic(join(dataDir, cacheFileName), value);
}

/** The cached data, or null when there is none or it cannot be trusted (it is only a head start). */
export async function loadCache(dataDir: string): Promise<CachedData | null> {
  const read = await readJsonFile(join(dataDir, cacheFileName));
  if (read.kind !== 'ok' || !isPlainObject(read.value)) return null;
  return Value.Check(CachedDataSchema, read.value) ? read.value : null;
}
