/** What the booking form offers: schedules, resources, a day's slots, reservation attributes. */
import { AttributeCategory } from '../../api/schemas/attributes.js';
import type { AttributeView, BridgeResult, ResourceView, ScheduleView, SlotsRequest, SlotView } from '../../bridge/contract.js';
import type { CommandContext } from './command-context.js';
import type { CommandLookups } from './command-lookups.js';
import { failure, success } from '../errors.js';
import { bookableTest } from '../session/bookable.js';
import { bridgeErrorFromSession } from '../session/session-errors.js';
import { resourceFaces } from '../views/resource-kind.js';
import { attributeView, resourceView, scheduleView, slotViews, unknownFace } from '../views/resource-views.js';

export interface ListCommands {
  listSchedules(): Promise<BridgeResult<ScheduleView[]>>;
  listResources(): Promise<BridgeResult<ResourceView[]>>;
  listSlots(request: SlotsRequest): Promise<BridgeResult<SlotView[]>>;
  listReservationAttributes(): Promise<BridgeResult<AttributeView[]>>;
}

export function createListCommands(context: CommandContext, lookups: CommandLookups): ListCommands {
  const { run } = lookups;
  return {
    async listSchedules() {
      const view = lookups.signedIn();
      if (!view.ok) return view;
      const schedules = await context.reference.schedules();
      return schedules.ok ? success(schedules.value.map(scheduleView)) : failure(bridgeErrorFromSession(schedules.error));
    },
    async listResources() {
      const view = lookups.signedIn();
      if (!view.ok) return view;
      const resources = await context.reference.resources();
      if (!resources.ok) return failure(bridgeErrorFromSession(resources.error));
      // A resource granted "view only" is listed by the server but cannot be booked.
      const account = context.session.account;
      const mayBook = account === null ? () => false : bookableTest(account);
      const { data } = context.state;
      const faces = resourceFaces(data.resources, data.resourceTypes, data.groups);
      return success(
        resources.value
          .filter((resource) => mayBook(resource.resourceId))
          .map((resource) => resourceView(resource, faces.get(resource.resourceId) ?? unknownFace)),
      );
    },
    async listSlots({ resourceId, date }) {
      const view = lookups.signedIn();
      if (!view.ok) return view;
      const resource = await lookups.findResource(resourceId);
      if (!resource.ok) return resource;
      const slots = await run((client) =>
        client.getSlots({
          params: { scheduleId: resource.value.scheduleId },
          query: { resourceId: String(resourceId), startDateTime: date, endDateTime: date },
        }),
      );
      return slots.ok ? success(slotViews(slots.value, resourceId, view.value.zone, date)) : failure(bridgeErrorFromSession(slots.error));
    },
    async listReservationAttributes() {
      const view = lookups.signedIn();
      if (!view.ok) return view;
      const attributes = await run((client) => client.getCategoryAttributes({ params: { categoryId: AttributeCategory.reservation } }));
      if (!attributes.ok) return failure(bridgeErrorFromSession(attributes.error));
      // Only administrators may set admin-only attributes; offering them to others would only earn a refusal.
      const isAdmin = context.session.account?.isAdmin ?? false;
      return success(attributes.value.attributes.filter((attribute) => isAdmin || !attribute.adminOnly).map(attributeView));
    },
  };
}
