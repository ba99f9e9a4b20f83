import type { Static } from '@sinclair/typebox';
import { parseWireDateTime } from '../../api/dates.js';
import { AttributeType } from '../../api/schemas/attributes.js';
import type { CustomAttributeInput } from '../../api/schemas/common.js';
import { safeRegex } from '../domain/attribute-rules.js';
import { Violations } from '../errors.js';
import { onConnection, placeholders, type Connection, type Store } from './database.js';
import type { AttributeRow } from '../tables.js';

type AttributeInput = Static<typeof CustomAttributeInput>;

/** An entity's value of an attribute that applies to it; null where it has none. */
export interface AttributeValueRecord {
  id: number;
  label: string;
  value: string | null;
}

interface CategoryDefinitions {
  definitions: AttributeRow[];
  /** Attribute id -> the entity ids it is limited to; absent means it applies to every entity. */
  scopes: Map<number, Set<number>>;
}

function loadDefinitions(connection: Connection, categoryId: number): CategoryDefinitions {
  const definitions = connection.records<AttributeRow>(
    'SELECT * FROM custom_attributes WHERE category_id = ? ORDER BY sort_order, id',
    categoryId,
  );
  const scopes = new Map<number, Set<number>>();
  if (definitions.length === 0) return { definitions, scopes };
  const scoped = connection.all<{ attributeId: number; entityId: number }>(
    `SELECT attribute_id AS attributeId, entity_id AS entityId FROM custom_attribute_applies_to WHERE attribute_id IN (${placeholders(definitions.length)})`,
    ...definitions.map((definition) => definition.id),
  );
  for (const { attributeId, entityId } of scoped) {
    const scope = scopes.get(attributeId) ?? new Set<number>();
    scopes.set(attributeId, scope.add(entityId));
  }
  return { definitions, scopes };
}

function applicable({ definitions, scopes }: CategoryDefinitions, entityId: number | null): AttributeRow[] {
  return definitions.filter((definition) => {
    const scope = scopes.get(definition.id);
    return !scope || (entityId !== null && scope.has(entityId));
  });
}

/** A definition limited to some secondary entities applies only when the reservation involves one. */
function involves(definition: AttributeRow, involved: Partial<Record<number, readonly number[]>> | undefined): boolean {
  if (definition.secondaryCategoryId === null || involved === undefined) return true;
  const limitedTo = JSON.parse(definition.secondaryEntityIds) as number[];
  const ids = involved[definition.secondaryCategoryId] ?? [];
  return limitedTo.length === 0 || ids.some((id) => limitedTo.includes(id));
}

function valueProblem(definition: AttributeRow, value: string): string | null {
  if (definition.regex && !safeRegex(definition.regex)?.test(value)) return `${definition.label} is not valid`;
  switch (definition.type) {
    case AttributeType.selectList:
      return (JSON.parse(definition.possibleValues) as string[]).includes(value) ? null : `${definition.label} is not valid`;
    case AttributeType.checkbox:
      return ['0', '1', 'true', 'false'].includes(value.toLowerCase()) ? null : `${definition.label} is not valid`;
    case AttributeType.dateTime:
      return parseWireDateTime(value, 'UTC') ? null : `${definition.label} is not valid`;
    default:
      return null;
  }
}

const isBlank = (value: string | null | undefined) => value === null || value === undefined || value.trim() === '';

/**
 * Checks submitted values against the definitions of their category: unknown ids, required ones
 * (unless `skipRequired`, for the administrators real servers let through), patterns, list values.
 */
export function checkAttributeInputs(
  connection: Connection,
  categoryId: number,
  entityId: number | null,
  inputs: readonly AttributeInput[],
  options: {
    skipRequired?: boolean;
    isAdmin: boolean;
    /**
     * For reservation attributes limited to some users, resources or resource types
     * (secondaryCategoryId/secondaryEntityIds): the ids of each kind the reservation involves.
     */
    involved?: Partial<Record<number, readonly number[]>>;
  },
): Violations {
  const violations = new Violations();
  const definitions = applicable(loadDefinitions(connection, categoryId), entityId).filter((definition) =>
    involves(definition, options.involved),
  );
  const byId = new Map(definitions.map((definition) => [definition.id, definition]));
  const submitted = new Map(inputs.map((input) => [input.attributeId, input.attributeValue]));
  for (const [id, value] of submitted) {
    // A blank value is no value: clients send every attribute a server defines, "" where the
    // user gave none (release 2.8.6.1 crashes on one left out), also ones that do not apply here.
    if (isBlank(value)) continue;
    const definition = byId.get(id);
    if (!definition) violations.add(`Invalid custom attribute id ${id}`);
    else if (definition.adminOnly && !options.isAdmin) violations.add(`${definition.label} can only be set by an administrator`);
  }
  for (const definition of definitions) {
    const value = submitted.get(definition.id);
    if (isBlank(value)) {
      if (definition.required && !options.skipRequired) violations.add(`${definition.label} is required`);
      continue;
    }
    const problem = valueProblem(definition, value!.trim());
    if (problem) violations.add(problem);
  }
  return violations;
}

/**
 * Replaces an entity's values of one category (blank values are removed). Call inside a
 * transaction. `isNew`: the entity was just created under an id never used before, so it has no
 * values to remove.
 */
export function writeAttributeValues(
  connection: Connection,
  categoryId: number,
  entityId: number,
  inputs: readonly AttributeInput[],
  isNew = false,
) {
  if (!isNew) deleteAttributeValues(connection, categoryId, entityId);
  const rows = inputs
    .filter((input) => !isBlank(input.attributeValue))
    .map((input) => [input.attributeId, entityId, input.attributeValue!.trim()]);
  connection.insertRows('custom_attribute_values', ['attribute_id', 'entity_id', 'value'], rows);
}

/** Call inside a transaction. */
export function deleteAttributeValues(connection: Connection, categoryId: number, entityId: number) {
  connection.run(
    'DELETE FROM custom_attribute_values WHERE entity_id = ? AND attribute_id IN (SELECT id FROM custom_attributes WHERE category_id = ?)',
    entityId,
    categoryId,
  );
}

/**
 * The attribute values of entities of one category, keyed by entity id: every definition that
 * applies, in sort order, with its value or null. Private and admin-only values are shown to administrators
 * and to the entity's owner only (`canSeePrivate`).
 */
export async function readAttributeValues(
  store: Store,
  categoryId: number,
  entityIds: readonly number[],
  canSeePrivate: (entityId: number) => boolean,
): Promise<Map<number, AttributeValueRecord[]>> {
  const result = new Map<number, AttributeValueRecord[]>(entityIds.map((id) => [id, []]));
  if (entityIds.length === 0) return result;
  const category = await onConnection(store, (connection) => loadDefinitions(connection, categoryId));
  if (category.definitions.length === 0) return result;
  const values = await store
    .selectFrom('customAttributeValues')
    .select(['attributeId', 'entityId', 'value'])
    .where(
      'attributeId',
      'in',
      category.definitions.map((definition) => definition.id),
    )
    .where('entityId', 'in', [...entityIds])
    .execute();
  const valueOf = new Map(values.map((row) => [`${row.attributeId}:${row.entityId}`, row.value]));
  for (const entityId of entityIds) {
    const visible = canSeePrivate(entityId);
    result.set(
      entityId,
      applicable(category, entityId)
        .filter((definition) => visible || (!definition.isPrivate && !definition.adminOnly))
        .map((definition) => ({ id: definition.id, label: definition.label, value: valueOf.get(`${definition.id}:${entityId}`) ?? null })),
    );
  }
  return result;
}
