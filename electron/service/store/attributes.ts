import { AttributeCategory } from '../../api/schemas/attributes.js';
import type { AttributeDefinitionInput, EntityCategory } from '../domain/attribute-rules.js';
import { inTransaction, type Store } from './database.js';
import type { AttributeRow } from '../tables.js';

export interface StoredDefinition extends AttributeRow {
  appliesToIds: number[];
}

const entityTables = {
  [AttributeCategory.user]: 'users',
  [AttributeCategory.resource]: 'resources',
  [AttributeCategory.resourceType]: 'resourceTypes',
} as const satisfies Record<EntityCategory, string>;

/** Definitions (of one category, or one by id) with their scopes, in sort order; two queries. */
export async function readDefinitions(store: Store, filter: { categoryId: number } | { attributeId: number }): Promise<StoredDefinition[]> {
  let query = store.selectFrom('customAttributes').selectAll().orderBy('sortOrder').orderBy('id');
  query = 'categoryId' in filter ? query.where('categoryId', '=', filter.categoryId) : query.where('id', '=', filter.attributeId);
  const rows = await query.execute();
  if (rows.length === 0) return [];
  const scopes = await store
    .selectFrom('customAttributeAppliesTo')
    .select(['attributeId', 'entityId'])
    .where(
      'attributeId',
      'in',
      rows.map((row) => row.id),
    )
    .orderBy('entityId')
    .execute();
  const scopeOf = new Map<number, number[]>();
  for (const { attributeId, entityId } of scopes) {
    const scope = scopeOf.get(attributeId);
    if (scope) scope.push(entityId);
    else scopeOf.set(attributeId, [entityId]);
  }
  return rows.map((row) => ({ ...row, appliesToIds: scopeOf.get(row.id) ?? [] }));
}

/** The ids among `ids` that name no entity of the category. */
export async function unknownEntityIds(store: Store, category: EntityCategory, ids: readonly number[]): Promise<number[]> {
  if (ids.length === 0) return [];
  const found = await store
    .selectFrom(entityTables[category])
    .select('id')
    .where('id', 'in', [...ids])
    .execute();
  const known = new Set(found.map((row) => row.id));
  return ids.filter((id) => !known.has(id));
}

function columns(definition: AttributeDefinitionInput) {
  return {
    label: definition.label,
    type: definition.type,
    categoryId: definition.categoryId,
    regex: definition.regex,
    required: Number(definition.required),
    possibleValues: JSON.stringify(definition.possibleValues),
    sortOrder: definition.sortOrder,
    adminOnly: Number(definition.adminOnly),
    isPrivate: Number(definition.isPrivate),
    secondaryCategoryId: definition.secondaryCategoryId,
    secondaryEntityIds: JSON.stringify(definition.secondaryEntityIds),
  };
}

async function writeScope(store: Store, attributeId: number, appliesToIds: readonly number[]) {
  await store.deleteFrom('customAttributeAppliesTo').where('attributeId', '=', attributeId).execute();
  if (appliesToIds.length > 0) {
    await store
      .insertInto('customAttributeAppliesTo')
      .values(appliesToIds.map((entityId) => ({ attributeId, entityId })))
      .execute();
  }
}

/** Call inside a transaction. */
export async function insertDefinition(store: Store, definition: AttributeDefinitionInput): Promise<number> {
  const { id } = await store.insertInto('customAttributes').values(columns(definition)).returning('id').executeTakeFirstOrThrow();
  await writeScope(store, id, definition.appliesToIds);
  return id;
}

/** Call inside a transaction. */
export async function updateDefinition(store: Store, attributeId: number, definition: AttributeDefinitionInput): Promise<void> {
  await store.updateTable('customAttributes').set(columns(definition)).where('id', '=', attributeId).execute();
  await writeScope(store, attributeId, definition.appliesToIds);
}

/** Values and scopes go with the definition (foreign keys cascade). Answers whether there was one. */
export async function deleteDefinition(store: Store, attributeId: number): Promise<boolean> {
  const { numDeletedRows } = await inTransaction(store, (trx) =>
    trx.deleteFrom('customAttributes').where('id', '=', attributeId).executeTakeFirst(),
  );
  return numDeletedRows > 0n;
}
