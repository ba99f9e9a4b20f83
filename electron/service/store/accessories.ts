import type { Store } from './database.js';

/** Every accessory by name, with how many resources it is associated with. */
export function listAccessories(store: Store) {
  return store
    .selectFrom('accessories')
    .leftJoin('accessoryResources', 'accessoryResources.accessoryId', 'accessories.id')
    .selectAll('accessories')
    .select((select) => select.fn.count<number>('accessoryResources.resourceId').as('associatedResourceCount'))
    .groupBy('accessories.id')
    .orderBy('accessories.name')
    .orderBy('accessories.id')
    .execute();
}

export function findAccessory(store: Store, accessoryId: number) {
  return store.selectFrom('accessories').selectAll().where('id', '=', accessoryId).executeTakeFirst();
}

/** The resources an accessory is associated with, and the quantities each allows (null: no limit). */
export function accessoryResources(store: Store, accessoryId: number) {
  return store
    .selectFrom('accessoryResources')
    .select(['resourceId', 'minQuantity', 'maxQuantity'])
    .where('accessoryId', '=', accessoryId)
    .orderBy('resourceId')
    .execute();
}
