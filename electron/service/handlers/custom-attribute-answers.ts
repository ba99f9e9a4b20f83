import type { Static } from '@sinclair/typebox';
import type { CustomAttributeValue } from '../../api/schemas/common.js';
import type { AttributeValueRecord } from '../store/attribute-values.js';
import type { LinkBuilder } from './types.js';

/** The `customAttributes` member of an entity: each stored value with the link to its definition. */
export const customAttributeAnswers = (
  links: LinkBuilder,
  values: readonly AttributeValueRecord[],
): Static<typeof CustomAttributeValue>[] =>
  values.map(({ id, label, value }) => ({
    id,
    label,
    value,
    links: [links.to('getAttribute', { attributeId: id }, 'get_custom_attribute')],
    message: null,
  }));
