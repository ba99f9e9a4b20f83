import type { Static } from '@sinclair/typebox';
import { AttributeCategory, AttributeType, type AttributeBody } from '../../api/schemas/attributes.js';

type AttributeBodyInput = Static<typeof AttributeBody>;

/** The categories whose entities exist on their own (attributes can be limited to some of them). */
export type EntityCategory = typeof AttributeCategory.user | typeof AttributeCategory.resource | typeof AttributeCategory.resourceType;

/** A definition as it will be stored: trimmed, defaults applied, ids deduplicated. */
export interface AttributeDefinitionInput {
  label: string;
  type: number;
  categoryId: number;
  regex: string | null;
  required: boolean;
  possibleValues: string[];
  sortOrder: number;
  appliesToIds: number[];
  adminOnly: boolean;
  isPrivate: boolean;
  secondaryCategoryId: EntityCategory | null;
  secondaryEntityIds: number[];
}

/** Names used in messages about entity ids of a category. */
export const entityNames: Record<EntityCategory, string> = {
  [AttributeCategory.user]: 'user',
  [AttributeCategory.resource]: 'resource',
  [AttributeCategory.resourceType]: 'resource type',
};

const typeNames: Record<number, string> = {
  [AttributeType.singleLine]: 'single line',
  [AttributeType.multiLine]: 'multi line',
  [AttributeType.selectList]: 'select list',
  [AttributeType.checkbox]: 'checkbox',
  [AttributeType.dateTime]: 'date time',
};

const categoryNames: Record<number, string> = { [AttributeCategory.reservation]: 'reservation', ...entityNames };

const allowed = (names: Record<number, string>) =>
  Object.entries(names)
    .map(([value, name]) => `${value} (${name})`)
    .join(', ');

export const attributeMessages = {
  labelRequired: 'label is required',
  typeInvalid: `type is invalid. Allowed values for type: ${allowed(typeNames)}`,
  categoryInvalid: `categoryId is invalid. Allowed values for category: ${allowed(categoryNames)}`,
  categoryChanged: 'categoryId cannot be changed',
  possibleValuesRequired: 'possibleValues is required when the type is a select list',
  possibleValuesNotAllowed: 'possibleValues is only valid when the type is a select list',
  possibleValuesBlank: 'possibleValues cannot hold empty values',
  regexInvalid: 'regex is not a valid regular expression',
  appliesToNotAllowed: 'appliesToIds is not valid when the category is reservation',
  secondaryCategoryNotAllowed: 'secondaryCategoryId is only valid when the category is reservation',
  secondaryEntitiesNotAllowed: 'secondaryEntityIds is only valid when the category is reservation',
  secondaryCategoryInvalid: `secondaryCategoryId is invalid. Allowed values for secondary category: ${allowed(entityNames)}`,
  secondaryCategoryMissing: 'secondaryEntityIds needs a secondaryCategoryId',
  unknownEntities: (member: 'appliesToIds' | 'secondaryEntityIds', category: EntityCategory, ids: readonly number[]) =>
    `${member} holds unknown ${entityNames[category]} ids: ${ids.join(', ')}`,
} as const;

export function isCategory(value: number): boolean {
  return value in categoryNames;
}

export function isEntityCategory(value: number | null | undefined): value is EntityCategory {
  return value !== null && value !== undefined && value in entityNames;
}

/** Patterns come from administrators, written for PHP as `/…/flags` or bare. */
export function safeRegex(pattern: string): RegExp | null {
  const delimited = /^\/(.*)\/([a-z]*)$/s.exec(pattern);
  try {
    return delimited ? new RegExp(delimited[1]!, delimited[2]!.replace(/[^imsu]/g, '')) : new RegExp(pattern);
  } catch {
    return null;
  }
}

const unique = <T>(values: readonly T[]) => [...new Set(values)];

/**
 * Checks an attribute body on its own (entity ids are checked against the store separately) and
 * normalises it. `currentCategoryId` is the stored category when updating: it cannot change, as
 * values already stored belong to entities of that category.
 */
export function checkAttributeBody(
  body: AttributeBodyInput,
  currentCategoryId?: number,
): { definition: AttributeDefinitionInput; errors: string[] } {
  const errors: string[] = [];
  const label = body.label?.trim() ?? '';
  const type = body.type ?? 0;
  const categoryId = body.categoryId ?? 0;
  const regex = body.regex?.trim() || null;
  const possibleValues = unique((body.possibleValues ?? []).map((value) => value.trim()));
  const appliesToIds = unique(body.appliesToIds ?? []);
  const secondaryCategoryId = body.secondaryCategoryId ?? null;
  const secondaryEntityIds = unique(body.secondaryEntityIds ?? []);
  const isReservation = categoryId === AttributeCategory.reservation;

  if (label === '') errors.push(attributeMessages.labelRequired);
  if (!(type in typeNames)) errors.push(attributeMessages.typeInvalid);
  if (!isCategory(categoryId)) errors.push(attributeMessages.categoryInvalid);
  else if (currentCategoryId !== undefined && categoryId !== currentCategoryId) errors.push(attributeMessages.categoryChanged);
  if (type === AttributeType.selectList && possibleValues.length === 0) errors.push(attributeMessages.possibleValuesRequired);
  if (type !== AttributeType.selectList && possibleValues.length > 0) errors.push(attributeMessages.possibleValuesNotAllowed);
  if (possibleValues.includes('')) errors.push(attributeMessages.possibleValuesBlank);
  if (regex !== null && safeRegex(regex) === null) errors.push(attributeMessages.regexInvalid);
  if (isReservation && appliesToIds.length > 0) errors.push(attributeMessages.appliesToNotAllowed);
  if (!isReservation && isCategory(categoryId)) {
    if (secondaryCategoryId !== null) errors.push(attributeMessages.secondaryCategoryNotAllowed);
    if (secondaryEntityIds.length > 0) errors.push(attributeMessages.secondaryEntitiesNotAllowed);
  }
  if (isReservation) {
    if (secondaryCategoryId !== null && !isEntityCategory(secondaryCategoryId)) errors.push(attributeMessages.secondaryCategoryInvalid);
    if (secondaryCategoryId === null && secondaryEntityIds.length > 0) errors.push(attributeMessages.secondaryCategoryMissing);
  }

  return {
    definition: {
      label,
      type,
      categoryId,
      regex,
      required: body.required ?? false,
      possibleValues,
      sortOrder: body.sortOrder ?? 0,
      appliesToIds,
      adminOnly: body.adminOnly ?? false,
      isPrivate: body.isPrivate ?? false,
      secondaryCategoryId: isEntityCategory(secondaryCategoryId) ? secondaryCategoryId : null,
      secondaryEntityIds,
    },
    errors,
  };
}

/**
 * The entity ids of a definition that must exist, by category: its scope (appliesToIds) and, for
 * reservation attributes, its secondary entities.
 */
export function referencedEntities(
  definition: AttributeDefinitionInput,
): { member: 'appliesToIds' | 'secondaryEntityIds'; category: EntityCategory; ids: number[] }[] {
  const references: { member: 'appliesToIds' | 'secondaryEntityIds'; category: EntityCategory; ids: number[] }[] = [];
  if (isEntityCategory(definition.categoryId) && definition.appliesToIds.length > 0) {
    references.push({ member: 'appliesToIds', category: definition.categoryId, ids: definition.appliesToIds });
  }
  if (definition.secondaryCategoryId !== null && definition.secondaryEntityIds.length > 0) {
    references.push({ member: 'secondaryEntityIds', category: definition.secondaryCategoryId, ids: definition.secondaryEntityIds });
  }
  return references;
}
