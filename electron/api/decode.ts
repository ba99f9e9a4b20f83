import {
  KindGuard,
  type Static,
  type TArray,
  type TLiteral,
  type TObject,
  type TRecord,
  type TSchema,
  type TString,
  type TUnion,
} from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { formatWireDateTime, hasExplicitOffset, parseWireDateTime } from './dates.js';
import { formatHumanDuration, parseHumanDuration, parseResourceInterval } from './durations.js';
import { registerWireFormats } from './formats.js';
import type { Result } from './result.js';
import { isNeeded, WireFormat } from './schemas/common.js';

registerWireFormats();

/** On failure, `error` names the member the app could not do without, as a path below the answer (`resources[2].name`). */
export type Decoded<T> = Result<T, string>;

/** Schemas carrying an `$id`, so `Type.Recursive`'s `This` and `Type.Ref` can be followed. */
type References = TSchema[];

const referencesBySchema = new WeakMap<TSchema, References>();

function collectReferences(schema: TSchema): References {
  const cached = referencesBySchema.get(schema);
  if (cached) return cached;
  const found: TSchema[] = [];
  const visit = (node: unknown): void => {
    if (typeof node !== 'object' || node === null) return;
    if (typeof (node as TSchema).$id === 'string') {
      if (found.includes(node as TSchema)) return;
      found.push(node as TSchema);
    }
    for (const child of Object.values(node)) visit(child);
  };
  visit(schema);
  referencesBySchema.set(schema, found);
  return found;
}

function resolve(schema: TSchema, references: References): TSchema {
  if (!KindGuard.IsThis(schema) && !KindGuard.IsRef(schema)) return schema;
  const target = references.find((candidate) => candidate.$id === schema.$ref);
  if (!target) throw new Error(`Schema reference ${schema.$ref} is not defined`);
  return target;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A value that does not fit where the app could do without it: the nearest member falls back. */
class Unfit {}
const unfit = new Unfit();

/** A member the app needs is missing or does not fit: the whole answer is unusable. */
class MissingMember {
  constructor(readonly path: string) {}
}

const BOOLEANS = new Map<unknown, boolean>([
  ['1', true],
  ['0', false],
  [1, true],
  [0, false],
  ['true', true],
  ['false', false],
]);

function toBoolean(value: unknown): unknown {
  const key = typeof value === 'string' ? value.trim().toLowerCase() : value;
  return BOOLEANS.get(key) ?? value;
}

const NUMERIC = /^[+-]?\d+(?:\.\d+)?$/;

function toNumber(value: unknown): unknown {
  return typeof value === 'string' && NUMERIC.test(value.trim()) ? Number(value) : value;
}

/** `Z` and `+00:00` become the `+0000` form every other date on the wire has. */
function canonicalDateTime(text: string): string {
  if (!hasExplicitOffset(text)) return text;
  const parsed = parseWireDateTime(text, 'UTC');
  return parsed === null ? text : formatWireDateTime(parsed);
}

/** Some members arrive in the resource interval form (`0d0h30m`) where the spec says `30 minutes`. */
function humanDuration(text: string): string {
  if (text.trim() === '' || parseHumanDuration(text) !== null) return text;
  const interval = parseResourceInterval(text);
  return interval.ok && interval.value !== null ? formatHumanDuration(interval.value) : text;
}

function fromString(schema: TString, value: unknown): unknown {
  const text = typeof value === 'number' && Number.isFinite(value) ? String(value) : value;
  if (typeof text !== 'string') return text;
  if (schema.format === WireFormat.dateTime) return canonicalDateTime(text);
  if (schema.format === WireFormat.humanDuration) return humanDuration(text);
  return text;
}

function fromLiteral(schema: TLiteral, value: unknown): unknown {
  switch (typeof schema.const) {
    case 'boolean':
      return toBoolean(value);
    case 'number':
      return toNumber(value);
    default:
      return typeof value === 'number' ? String(value) : value;
  }
}

function coerceLeaf(schema: TSchema, value: unknown): unknown {
  if (KindGuard.IsBoolean(schema)) return toBoolean(value);
  if (KindGuard.IsInteger(schema) || KindGuard.IsNumber(schema)) return toNumber(value);
  if (KindGuard.IsString(schema)) return fromString(schema, value);
  if (KindGuard.IsLiteral(schema)) return fromLiteral(schema, value);
  return value;
}

/**
 * What a member the app can do without reads as when the server left it out or sent something
 * else: the schema's default, else "none" of the member's own type, so the static type holds.
 */
function fallback(schema: TSchema, references: References, path: string): unknown {
  const target = resolve(schema, references);
  if (target.default !== undefined) return Value.Clone(target.default);
  if (KindGuard.IsUnion(target)) {
    const members = target.anyOf.map((member) => resolve(member, references));
    const first = members.find((member) => !KindGuard.IsNull(member));
    return members.some((member) => KindGuard.IsNull(member)) || first === undefined ? null : fallback(first, references, path);
  }
  if (KindGuard.IsObject(target)) return fromObject(target, {}, references, path);
  if (KindGuard.IsRecord(target)) return {};
  if (KindGuard.IsArray(target)) return [];
  if (KindGuard.IsString(target)) return '';
  if (KindGuard.IsBoolean(target)) return false;
  if (KindGuard.IsInteger(target) || KindGuard.IsNumber(target)) return 0;
  if (KindGuard.IsLiteral(target)) return target.const;
  return null;
}

function memberPath(path: string, key: string): string {
  return path === '' ? key : `${path}.${key}`;
}

/** Reads one member; where it does not fit, a member the app needs ends the reading, any other falls back. */
function readMember(schema: TSchema, value: unknown, references: References, path: string): unknown {
  try {
    return read(schema, value, references, path);
  } catch (problem) {
    if (!(problem instanceof Unfit)) throw problem;
    if (isNeeded(schema)) throw new MissingMember(path);
    return fallback(schema, references, path);
  }
}

function fromObject(schema: TObject, value: unknown, references: References, path: string): Record<string, unknown> {
  // PHP writes an empty map as `[]`.
  const source = isRecord(value) ? value : Array.isArray(value) && value.length === 0 ? {} : undefined;
  if (source === undefined) throw unfit;
  const result: Record<string, unknown> = { ...source };
  for (const [key, member] of Object.entries(schema.properties)) {
    result[key] = readMember(member, source[key], references, memberPath(path, key));
  }
  return result;
}

/**
 * A map keyed by id (`{"3": "Alex Morgan"}`). PHP writes an empty one as `[]`; a list without
 * keys names no ids, so it reads as empty too. Entries whose key or value does not fit are left out.
 */
function fromRecord(schema: TRecord, value: unknown, references: References, path: string): Record<string, unknown> {
  if (Array.isArray(value)) return {};
  if (!isRecord(value)) throw unfit;
  const [pattern, member] = Object.entries(schema.patternProperties)[0] as [string, TSchema];
  const keys = new RegExp(pattern);
  const result: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (!keys.test(key)) continue;
    try {
      result[key] = read(member, item, references, memberPath(path, key));
    } catch (problem) {
      if (!(problem instanceof Unfit)) throw problem;
    }
  }
  return result;
}

function holdsObjects(schema: TSchema, references: References): boolean {
  const target = resolve(schema, references);
  if (KindGuard.IsUnion(target)) return target.anyOf.some((member) => holdsObjects(member, references));
  return KindGuard.IsObject(target);
}

function fromArray(schema: TArray, value: unknown, references: References, path: string): unknown[] {
  if (value === undefined || value === null || value === '') return [];
  // GetReservation.resources arrives as an object keyed by id.
  let items = Array.isArray(value) ? value : isRecord(value) ? Object.values(value) : undefined;
  if (items === undefined) throw unfit;
  // GetAvailability.resources arrives wrapped in one more array.
  if (items.length === 1 && Array.isArray(items[0]) && holdsObjects(schema.items, references)) items = items[0] as unknown[];
  const result: unknown[] = [];
  for (const [index, item] of items.entries()) {
    try {
      result.push(read(schema.items, item, references, `${path}[${index}]`));
    } catch (problem) {
      // An item that is not even of its kind is left out; one without what the app needs is not.
      if (!(problem instanceof Unfit)) throw problem;
    }
  }
  return result;
}

/** The member of a union of objects whose literal member (`type: 'group'`) the value carries. */
function discriminated(candidates: TSchema[], value: unknown): TSchema | undefined {
  if (!isRecord(value)) return undefined;
  return candidates.find(
    (candidate) =>
      KindGuard.IsObject(candidate) &&
      Object.entries(candidate.properties).some(
        ([key, member]) => KindGuard.IsLiteral(member) && fromLiteral(member, value[key]) === member.const,
      ),
  );
}

function fromUnion(schema: TUnion, value: unknown, references: References, path: string): unknown {
  const members = schema.anyOf.map((member) => resolve(member, references));
  const nullable = members.some((member) => KindGuard.IsNull(member));
  if (nullable && (value === undefined || value === null)) return null;
  const candidates = members.filter((member) => !KindGuard.IsNull(member));
  // "" stands for "none" on real servers, unless "" is itself a valid value here (a plain string).
  if (nullable && value === '' && !candidates.some((member) => Value.Check(member, references, ''))) return null;
  const chosen = discriminated(candidates, value);
  if (chosen !== undefined) return read(chosen, value, references, path);
  for (const candidate of candidates) {
    try {
      return read(candidate, value, references, path);
    } catch (problem) {
      if (!(problem instanceof Unfit) && !(problem instanceof MissingMember)) throw problem;
    }
  }
  throw unfit;
}

/** Walks schema and value together, turning real servers' spellings into the spec's types. */
function read(schema: TSchema, value: unknown, references: References, path: string): unknown {
  const target = resolve(schema, references);
  if (KindGuard.IsUnion(target)) return fromUnion(target, value, references, path);
  if (KindGuard.IsObject(target)) return fromObject(target, value, references, path);
  if (KindGuard.IsRecord(target)) return fromRecord(target, value, references, path);
  if (KindGuard.IsArray(target)) return fromArray(target, value, references, path);
  const coerced = coerceLeaf(target, value);
  if (!Value.Check(target, references, coerced)) throw unfit;
  return coerced;
}

/**
 * Reads a parsed response body liberally (server-facts D), once, at the edge: nulls, missing and
 * extra members, strings for numbers and flags, either container. Only the members the schemas
 * mark as needed must be there and fit; every other one falls back to "none" of its type.
 */
export function decode<S extends TSchema>(schema: S, value: unknown): Decoded<Static<S>> {
  const references = collectReferences(schema);
  try {
    return { ok: true, value: read(schema, value, references, '') as Static<S> };
  } catch (problem) {
    if (problem instanceof MissingMember) return { ok: false, error: problem.path };
    if (problem instanceof Unfit) return { ok: false, error: '' };
    throw problem;
  }
}
