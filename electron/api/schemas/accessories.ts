import { Type } from '@sinclair/typebox';
import { Id, Nullable, Wire } from './common.js';

const creditFields = {
  creditCount: Type.Integer(),
  peakCreditCount: Type.Integer(),
  /** 1 = per slot, 2 = per reservation */
  creditApplicability: Type.Integer(),
};

export const AccessoryListItem = Wire({
  id: Id,
  name: Type.String(),
  quantityAvailable: Nullable(Type.Integer()),
  associatedResourceCount: Type.Integer(),
  ...creditFields,
  creditsChargedAllSlots: Nullable(Type.Boolean()),
});

export const AccessoryList = Wire({ accessories: Type.Array(AccessoryListItem) });

export const AssociatedResource = Wire({
  resourceId: Id,
  minQuantity: Nullable(Type.Integer()),
  maxQuantity: Nullable(Type.Integer()),
});

export const Accessory = Wire({
  id: Id,
  name: Type.String(),
  quantityAvailable: Nullable(Type.Integer()),
  ...creditFields,
  associatedResources: Type.Array(AssociatedResource),
});
