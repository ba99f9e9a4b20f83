import { notFound } from '../errors.js';
import { accessoryResources, findAccessory, listAccessories } from '../store/accessories.js';
import type { AccessoryRow } from '../tables.js';
import type { HandlerMap } from './types.js';

function creditMembers(accessory: AccessoryRow) {
  return {
    id: accessory.id,
    name: accessory.name,
    // The spec types it as an integer; 0 is "unlimited", as LibreBooking itself reads 0.
    quantityAvailable: accessory.quantityAvailable ?? 0,
    creditCount: accessory.creditCount,
    peakCreditCount: accessory.peakCreditCount,
    creditApplicability: accessory.creditApplicability,
  };
}

export const accessoryHandlers = {
  async getAllAccessories(_input, { store, links }) {
    const accessories = await listAccessories(store);
    return {
      accessories: accessories.map((accessory) => ({
        ...creditMembers(accessory),
        associatedResourceCount: Number(accessory.associatedResourceCount),
        creditsChargedAllSlots: Boolean(accessory.creditsChargedAllSlots),
        links: [links.to('getAccessory', { accessoryId: accessory.id }, 'get_accessory')],
        message: null,
      })),
      links: [],
      message: null,
    };
  },

  async getAccessory({ params }, { store, links }) {
    const accessory = await findAccessory(store, params.accessoryId);
    if (!accessory) throw notFound();
    const associated = await accessoryResources(store, accessory.id);
    return {
      ...creditMembers(accessory),
      associatedResources: associated.map((resource) => ({
        resourceId: resource.resourceId,
        // 0: no minimum, no maximum.
        minQuantity: resource.minQuantity ?? 0,
        maxQuantity: resource.maxQuantity ?? 0,
        links: [links.to('getResource', { resourceId: resource.resourceId }, 'get_resource')],
        message: null,
      })),
      links: [],
      message: null,
    };
  },
} satisfies Pick<HandlerMap, 'getAllAccessories' | 'getAccessory'>;
