import type { Static } from '@sinclair/typebox';
import type { AttributeBody } from '../../api/schemas/attributes.js';
import { attributeMessages, checkAttributeBody, isCategory, referencedEntities } from '../domain/attribute-rules.js';
import { invalid, notFound, Violations } from '../errors.js';
import {
  deleteDefinition,
  insertDefinition,
  readDefinitions,
  unknownEntityIds,
  updateDefinition,
  type StoredDefinition,
} from '../store/attributes.js';
import { inTransaction, type Store } from '../store/database.js';
import type { HandlerMap, LinkBuilder } from './types.js';
import { deletionEnvelope } from './deletion.js';

/** Rules first, then (only when the rules hold) the entity ids against the store. */
async function checkedDefinition(store: Store, body: Static<typeof AttributeBody>, currentCategoryId?: number) {
  const { definition, errors } = checkAttributeBody(body, currentCategoryId);
  if (errors.length > 0) throw invalid(...errors);
  const violations = new Violations();
  for (const { member, category, ids } of referencedEntities(definition)) {
    const unknown = await unknownEntityIds(store, category, ids);
    if (unknown.length > 0) violations.add(attributeMessages.unknownEntities(member, category, unknown));
  }
  violations.throwIfAny();
  return definition;
}

function attributeLinks(links: LinkBuilder, attributeId: number) {
  return [
    links.to('getAttribute', { attributeId }, 'get_custom_attribute'),
    links.to('updateCustomAttribute', { attributeId }, 'update_custom_attribute'),
  ];
}

function toWire(definition: StoredDefinition, links: LinkBuilder) {
  return {
    id: definition.id,
    label: definition.label,
    type: definition.type,
    categoryId: definition.categoryId,
    regex: definition.regex || null,
    required: Boolean(definition.required),
    possibleValues: JSON.parse(definition.possibleValues) as string[],
    sortOrder: definition.sortOrder,
    appliesToIds: definition.appliesToIds,
    adminOnly: Boolean(definition.adminOnly),
    isPrivate: Boolean(definition.isPrivate),
    secondaryCategoryId: definition.secondaryCategoryId,
    secondaryEntityIds: JSON.parse(definition.secondaryEntityIds) as number[],
    links: attributeLinks(links, definition.id),
    message: null,
  };
}

async function findDefinition(store: Store, attributeId: number): Promise<StoredDefinition> {
  const [definition] = await readDefinitions(store, { attributeId });
  if (!definition) throw notFound();
  return definition;
}

export const attributeHandlers = {
  async createCustomAttribute({ body }, { store, links }) {
    const attributeId = await inTransaction(store, async (trx) => insertDefinition(trx, await checkedDefinition(trx, body)));
    return { attributeId, links: attributeLinks(links, attributeId), message: 'The attribute was created' };
  },

  async updateCustomAttribute({ params, body }, { store, links }) {
    const { attributeId } = params;
    await inTransaction(store, async (trx) => {
      const current = await findDefinition(trx, attributeId);
      await updateDefinition(trx, attributeId, await checkedDefinition(trx, body, current.categoryId));
    });
    return { attributeId, links: attributeLinks(links, attributeId), message: 'The attribute was updated' };
  },

  async deleteCustomAttribute({ params }, { store }) {
    if (!(await deleteDefinition(store, params.attributeId))) throw notFound();
    return deletionEnvelope();
  },

  async getAttribute({ params }, { store, links }) {
    return toWire(await findDefinition(store, params.attributeId), links);
  },

  async getCategoryAttributes({ params }, { store, links }) {
    if (!isCategory(params.categoryId)) throw invalid(attributeMessages.categoryInvalid);
    const definitions = await readDefinitions(store, { categoryId: params.categoryId });
    return { attributes: definitions.map((definition) => toWire(definition, links)), links: [], message: null };
  },
} satisfies Pick<
  HandlerMap,
  'createCustomAttribute' | 'updateCustomAttribute' | 'deleteCustomAttribute' | 'getAttribute' | 'getCategoryAttributes'
>;
