/**
 * What can be booked, as the UI shows it: resources with their groups and faces, schedules, a
 * resource's slots in the user's zone, and the reservation attributes. Pure.
 */
import { DateTime } from 'luxon';
import { wireInstant } from '../../api/dates.js';
import { parseHumanDuration } from '../../api/durations.js';
import { AttributeCategory } from '../../api/schemas/attributes.js';
import type { WireAttribute, WireGroupTree, WireResource, WireSchedule, WireSlots } from '../../api/wire.js';
import type { AttributeView, ResourceFace, ResourceView, ScheduleView, SlotView } from '../../bridge/contract.js';
import { isoIn } from './bridge-time.js';

/**
 * Real servers answer every resource under a group "All" with id 0, also when they have no
 * resource groups at all; it is no group a resource belongs to (server-facts D).
 */
const everyResourceGroupId = 0;

/** Group names by resource id, outermost first, from the nested resource group tree. */
export function groupNamesByResource(tree: WireGroupTree | null): Map<number, string[]> {
  const names = new Map<number, string[]>();
  type Node = WireGroupTree['groups'][number];
  const visit = (group: Node, path: readonly string[]) => {
    const here = group.id === everyResourceGroupId ? [...path] : [...path, group.name];
    for (const child of group.children) {
      if (child.type === 'group') {
        visit(child as Node, here);
        continue;
      }
      const list = names.get(child.resource_id) ?? [];
      for (const name of here) if (!list.includes(name)) list.push(name);
      names.set(child.resource_id, list);
    }
  };
  for (const group of tree?.groups ?? []) visit(group, []);
  return names;
}

/** What a resource that is not (or not yet) known shows: the neutral icon, no colour. */
export const unknownFace: ResourceFace = { kind: 'other', color: null };

export function resourceView(resource: WireResource, face: ResourceFace): ResourceView {
  return {
    resourceId: resource.resourceId,
    name: resource.name,
    location: resource.location,
    scheduleId: resource.scheduleId,
    groupIds: resource.groupIds ?? [],
    statusId: resource.statusId,
    requiresApproval: resource.requiresApproval,
    requiresCheckIn: resource.requiresCheckIn,
    autoReleaseMinutes: resource.autoReleaseMinutes,
    // Durations arrive in the human form (`1 hours 30 minutes`); "" means no limit.
    minLengthMinutes: parseHumanDuration(resource.minLength),
    maxLengthMinutes: parseHumanDuration(resource.maxLength),
    maxParticipants: resource.maxParticipants,
    color: resource.color,
    face,
  };
}

export function scheduleView(schedule: WireSchedule): ScheduleView {
  return { id: schedule.id, name: schedule.name, timezone: schedule.timezone, isDefault: schedule.isDefault };
}

/** One resource's slots of a GetSlots answer with their instants, in time order. */
export function resourceSlots(slots: WireSlots, resourceId: number) {
  const found: { start: DateTime; end: DateTime; slot: WireSlots['dates'][number]['resources'][number]['slots'][number] }[] = [];
  for (const date of slots.dates) {
    for (const resource of date.resources) {
      if (resource.resourceId !== resourceId) continue;
      for (const slot of resource.slots) {
        const start = wireInstant(slot.startDateTime);
        const end = wireInstant(slot.endDateTime);
        if (start !== null && end !== null) found.push({ start, end, slot });
      }
    }
  }
  return found.sort((a, b) => a.start.toMillis() - b.start.toMillis());
}

/**
 * The slots of one resource that start on `date`, a day of the user's, in the user's zone, in
 * time order. The answer may hold more than that day: the local service lays out every day of the
 * schedule's that overlaps the user's, and a real server the periods that touch it.
 */
export function slotViews(slots: WireSlots, resourceId: number, zone: string, date: string): SlotView[] {
  const dayStart = DateTime.fromISO(date, { zone });
  const dayEnd = dayStart.plus({ days: 1 });
  const onDay = ({ start }: { start: DateTime }) => start >= dayStart && start < dayEnd;
  return resourceSlots(slots, resourceId)
    .filter(onDay)
    .map(({ start, end, slot }) => ({
      start: isoIn(zone, start),
      end: isoIn(zone, end),
      isReservable: slot.isReservable && !slot.isReserved,
    }));
}

/** Reservation attributes; one limited to resources lists them (secondary category: resource). */
export function attributeView(attribute: WireAttribute): AttributeView {
  return {
    id: attribute.id,
    label: attribute.label,
    type: attribute.type,
    required: attribute.required,
    regex: attribute.regex === '' ? null : attribute.regex,
    possibleValues: attribute.possibleValues,
    resourceIds: attribute.secondaryCategoryId === AttributeCategory.resource ? attribute.secondaryEntityIds : [],
  };
}
