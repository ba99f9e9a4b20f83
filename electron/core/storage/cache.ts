import { createHash } from 'node:crypto';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { registerWireFormats } from '../../api/formats.js';
import { Nullable } from '../../api/schemas/common.js';
import { ReservationSummary } from '../../api/schemas/reservations.js';
import { AttributeDefinition } from '../../api/schemas/attributes.js';
import { Resource, ResourceGroupTree, ResourceType } from '../../api/schemas/resources.js';
import { ScheduleListItem } from '../../api/schemas/schedules.js';
import { isPlainObject, writeTextAtomic } from './files.js';

// The payload members are checked with the wire schemas, whose date and duration formats must be known.
registerWireFormats();

/**
 * The last good data, shown at once on start while the first poll runs, in parts that change at
 * different rates, each in its own file written only when its own content changed: a poll that
 * brings the same answer writes nothing, and the reference data (a large organisation's resource
 * list and groups: 1.5 MB) only when a refresh brought something new. The payloads stay in the
 * API's decoded wire form, so the cache needs no mapping of its own and can never drift from
 * what a fresh poll yields.
 */
export const cacheFolderName = 'cache';
/** Before issue 20 the cache was one file, rewritten whole on almost every poll: read once, then removed. */
export const legacyCacheFileName = 'cache.json';

const CachedAccount = Type.Object({
  apiRoot: Type.String(),
  userId: Type.Integer(),
  userName: Type.String(),
  displayName: Type.String(),
  timezone: Type.String(),
  isAdmin: Type.Boolean(),
});

/** Every part says whose it is: a cache of another account or server must not be shown. */
const ReferencePart = Type.Object({
  account: CachedAccount,
  resources: Type.Array(Resource),
  /** Absent in a cache written before issue 22; the reference data is then fetched again (account-cache.ts). */
  resourceTypes: Type.Optional(Type.Array(ResourceType)),
  schedules: Type.Array(ScheduleListItem),
  groups: Nullable(ResourceGroupTree),
  reservationAttributes: Type.Array(AttributeDefinition),
});

/**
 * The user's own reservations. Who is busy in the schedules Free now covers is not kept: on a large
 * server it is hundreds of KB that change with every read (what ended drops out of a read from
 * now), so writing it would cost the disk megabytes an hour, and it is stale within minutes anyway.
 */
const ReservationsPart = Type.Object({
  account: CachedAccount,
  reservations: Type.Array(ReservationSummary),
  /** When the user's reservations were last read. */
  fetchedAt: Nullable(Type.String()),
  /** When the reference data was fetched: it is kept for hours, across restarts, and this small part carries its age. */
  referenceFetchedAt: Nullable(Type.String()),
});

/** Notification ids already shown, so a restart does not show them again. */
const ShownPart = Type.Object({
  account: CachedAccount,
  shownNotificationIds: Type.Array(Type.String()),
});

const partSchemas = { reference: ReferencePart, reservations: ReservationsPart, shown: ShownPart } satisfies Record<string, TSchema>;

export type CachePartName = keyof typeof partSchemas;
export const cachePartNames = Object.keys(partSchemas) as CachePartName[];
export type CachedAccount = Static<typeof CachedAccount>;
export interface CacheParts {
  reference: Static<typeof ReferencePart>;
  reservations: Static<typeof ReservationsPart>;
  shown: Static<typeof ShownPart>;
}

export const cachePartFile = (dataDir: string, name: CachePartName) => join(dataDir, cacheFolderName, `${name}.json`);

/** The single file of earlier versions, in the shape they wrote it. */
const LegacyCache = Type.Object({
  account: Nullable(CachedAccount),
  reservations: Type.Array(ReservationSummary),
  resources: Type.Array(Resource),
  schedules: Type.Array(ScheduleListItem),
  groups: Type.Optional(Nullable(ResourceGroupTree)),
  reservationAttributes: Type.Optional(Type.Array(AttributeDefinition)),
  referenceFetchedAt: Type.Optional(Nullable(Type.String())),
  fetchedAt: Nullable(Type.String()),
  shownNotificationIds: Type.Array(Type.String()),
});

/**
 * Member names that hold credentials. The cache is written from many places' data, so the rule
 * "no secret on disk" is enforced here, at the one door to the files, rather than trusted.
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

/**
 * A part as it is written: without credentials, compact (nobody reads the cache but Perch). The
 * credentials are left out as the text is made, without a copy of megabytes of reference data;
 * only when there was one are the places looked for again, for the log.
 */
export function cachePartText<N extends CachePartName>(name: N, part: CacheParts[N], options: CacheOptions = {}): string {
  let leftOut = false;
  const text = JSON.stringify(part, (key, value: unknown) => {
    if (!isSecretKey(key)) return value;
    leftOut = true;
    return undefined;
  });
  if (leftOut) {
    const { dropped } = withoutSecrets(part, name);
    (options.log ?? console.warn)(`Perch left ${dropped.join(', ')} out of the cache: credentials are never written to disk.`);
  }
  return text;
}

/** A short fingerprint of a text: what was written is remembered by it, not kept whole. */
export function digestOf(text: string): string {
  return createHash('sha256').update(text).digest('base64');
}

export async function writeCachePart(dataDir: string, name: CachePartName, text: string): Promise<void> {
  await writeTextAtomic(cachePartFile(dataDir, name), text);
}

/**
 * One part as read, when it can be trusted, with the fingerprint of its text as on disk (null when
 * it is not in a file of its own yet: read from an earlier version's single file).
 */
export type LoadedPart<N extends CachePartName> = { part: CacheParts[N]; digest: string | null } | null;

export interface LoadedCache {
  reference: LoadedPart<'reference'>;
  reservations: LoadedPart<'reservations'>;
  shown: LoadedPart<'shown'>;
  /** An earlier version's single file is still there: the parts replace it once they are written. */
  legacy: boolean;
}

async function readText(path: string): Promise<string | null> {
  try {
    return await readFile(path, 'utf8');
  } catch {
    return null;
  }
}

function parsed(text: string | null): unknown {
  if (text === null) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

async function loadPart<N extends CachePartName>(dataDir: string, name: N): Promise<LoadedPart<N>> {
  const text = await readText(cachePartFile(dataDir, name));
  const value = parsed(text);
  // A damaged part is no cache: it was only a head start.
  if (text === null || !isPlainObject(value) || !Value.Check(partSchemas[name], value)) return null;
  return { part: value as CacheParts[N], digest: digestOf(text) };
}

/** The parts an earlier version's single file holds. */
function partsOfLegacy(value: unknown): Omit<LoadedCache, 'legacy'> | null {
  if (!isPlainObject(value) || !Value.Check(LegacyCache, value) || value.account === null) return null;
  const { account } = value;
  // Without the groups or the attributes, the reference data is fetched again rather than shown half.
  const whole = value.groups !== undefined && value.reservationAttributes !== undefined;
  return {
    reference: {
      part: {
        account,
        resources: value.resources,
        schedules: value.schedules,
        groups: value.groups ?? null,
        reservationAttributes: value.reservationAttributes ?? [],
      },
      digest: null,
    },
    reservations: {
      part: {
        account,
        reservations: value.reservations,
        fetchedAt: value.fetchedAt,
        referenceFetchedAt: whole ? (value.referenceFetchedAt ?? null) : null,
      },
      digest: null,
    },
    shown: { part: { account, shownNotificationIds: value.shownNotificationIds }, digest: null },
  };
}

/** Every part that can be trusted; an earlier version's single file only when no part is there yet. */
export async function loadCache(dataDir: string): Promise<LoadedCache> {
  const [reference, reservations, shown, legacyText] = await Promise.all([
    loadPart(dataDir, 'reference'),
    loadPart(dataDir, 'reservations'),
    loadPart(dataDir, 'shown'),
    readText(join(dataDir, legacyCacheFileName)),
  ]);
  const legacy = legacyText !== null;
  if (reference === null && reservations === null && shown === null && legacy) {
    return { ...(partsOfLegacy(parsed(legacyText)) ?? { reference, reservations, shown }), legacy };
  }
  return { reference, reservations, shown, legacy };
}

export async function removeLegacyCache(dataDir: string): Promise<void> {
  await rm(join(dataDir, legacyCacheFileName), { force: true });
}

/** Every part, and an earlier version's file. */
export async function removeCache(dataDir: string): Promise<void> {
  await rm(join(dataDir, cacheFolderName), { recursive: true, force: true });
  await removeLegacyCache(dataDir);
}
