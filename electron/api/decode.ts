import { KindGuard, OptionalKind, type Static, type TArray, type TLiteral, type TObject, type TSchema, type TString, type TUnion } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { formatWireDateTime, hasExplicitOffset, parseWireDateTime } from './dates.js';
import { formatHumanDuration, parseHumanDuration, parseResourceInterval } from './durations.js';
import { registerWireFormats } from './formats.js';
import { WireFormat } from './schemas/common.js';

registerWireFormats();

export type Decoded<T> = { ok: true; value: T } | { ok: false; problem: string };

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
  return interval.ok && interval.minutes !== null ? formatHumanDuration(interval.minutes) : text;
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

function fromObject(schema: TObject, value: unknown, references: References): unknown {
  if (!isRecord(value)) return value;
  const result: Record<string, unknown> = { ...value };
  for (const [key, member] of Object.entries(schema.properties)) {
    if (value[key] === undefined && OptionalKind in member) continue;
    // Missing members go through too: nullable ones become null, arrays (links included) [].
    const normalised = normalise(member, value[key], references);
    if (normalised !== undefined) result[key] = normalised;
  }
  return result;
}

function holdsObjects(schema: TSchema, references: References): boolean {
  const target = resolve(schema, references);
  if (KindGuard.IsUnion(target)) return target.anyOf.some((member) => holdsObjects(member, references));
  return KindGuard.IsObject(target);
}

function fromArray(schema: TArray, value: unknown, references: References): unknown {
  if (value === undefined || value === null) return [];
  // GetReservation.resources arrives as an object keyed by id.
  let items = Array.isArray(value) ? value : isRecord(value) ? Object.values(value) : undefined;
  if (items === undefined) return value;
  // GetAvailability.resources arrives wrapped in one more array.
  if (items.length === 1 && Array.isArray(items[0]) && holdsObjects(schema.items, references)) items = items[0];
  return items.map((item: unknown) => normalise(schema.items, item, references));
}

function fromUnion(schema: TUnion, value: unknown, references: References): unknown {
  const members = schema.anyOf.map((member) => resolve(member, references));
  const nullable = members.some((member) => KindGuard.IsNull(member));
  if (nullable && (value === undefined || value === null)) return null;
  const candidates = members.filter((member) => !KindGuard.IsNull(member));
  // "" stands for "none" on real servers, unless "" is itself a valid value here (a plain string).
  if (nullable && value === '' && !candidates.some((member) => Value.Check(member, references, ''))) {
    return null;
  }
  let first: unknown;
  for (const [index, member] of candidates.entries()) {
    const candidate = normalise(member, value, references);
    if (Value.Check(member, references, candidate)) return candidate;
    if (index === 0) first = candidate;
  }
  // Nothing fits: keep the first member's reading so the reported mismatch points inside it.
  return candidates.length > 0 ? first : value;
}

/** Walks schema and value together and turns real servers' spellings into the spec's types. */
function normalise(schema: TSchema, value: unknown, references: References): unknown {
  const target = resolve(schema, references);
  if (KindGuard.IsUnion(target)) return fromUnion(target, value, references);
  if (KindGuard.IsObject(target)) return fromObject(target, value, references);
  if (KindGuard.IsArray(target)) return fromArray(target, value, references);
  if (KindGuard.IsBoolean(target)) return toBoolean(value);
  if (KindGuard.IsInteger(target) || KindGuard.IsNumber(target)) return toNumber(value);
  if (KindGuard.IsString(target)) return fromString(target, value);
  if (KindGuard.IsLiteral(target)) return fromLiteral(target, value);
  return value;
}

/**
 * Reads a parsed response body liberally (server-facts D), once, at the edge, then checks it
 * against the schema. A mismatch names the first path that did not fit.
 */
export function decode<S extends TSchema>(schema: S, value: unknown): Decoded<Static<S>> {
  const references = collectReferences(schema);
  const normalised = normalise(schema, value, references);
  const error = Value.Errors(schema, references, normalised).First();
  if (error === undefined) return { ok: true, value: normalised as Static<S> };
  return { ok: false, problem: `${error.path || '/'}: ${error.message}` };
}
