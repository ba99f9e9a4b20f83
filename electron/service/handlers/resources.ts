import type { Static } from '@sinclair/typebox';
import { formatHoursAndMinutes, formatHumanDuration, formatMinutes } from '../../api/durations.js';
import { AttributeCategory } from '../../api/schemas/attributes.js';
import { ResourceStatus, type Resource, type ResourceTreeGroup, type ResourceTreeResource } from '../../api/schemas/resources.js';
import { contrastingTextColor } from '../domain/colors.js';
import { parseIdList } from '../domain/id-list.js';
import { checkResourceReferences, readResourceBody, type ResourceInput } from '../domain/resource-body.js';
import { notFound, Violations } from '../errors.js';
import { checkAttributeInputs, readAttributeValues } from '../store/attribute-values.js';
import { onConnection, type Store } from '../store/database.js';
import { allResourceGroups, existingResourceGroupIds, groupIdsOfResources } from '../store/resource-groups.js';
import {
  findVisibleResource,
  listResourceTypes,
  listStatusReasons,
  listVisibleResources,
  visibleResourcePlacements,
} from '../store/resource-reads.js';
import { createResource, deleteResource, findResourceReferences, replaceResource, resourceExists } from '../store/resources.js';
import { existingScheduleIds } from '../store/schedules.js';
import type { ResourceRow } from '../tables.js';
import { customAttributeAnswers } from './custom-attribute-answers.js';
import type { Caller, HandlerMap, LinkBuilder } from './types.js';
import { deletionEnvelope } from './deletion.js';

type WireResource = Static<typeof Resource>;
type TreeGroup = Static<typeof ResourceTreeGroup>;
type TreeResource = Static<typeof ResourceTreeResource>;

const messages = {
  created: 'The resource was created',
  updated: 'The resource was updated',
} as const;

const statusNames: Record<number, string> = {
  [ResourceStatus.hidden]: 'Hidden',
  [ResourceStatus.available]: 'Available',
  [ResourceStatus.unavailable]: 'Unavailable',
};

/** Each limit in the spec's form for it; an unset limit reads as "", as on real servers. */
const inForm = (format: (minutes: number) => string) => (minutes: number | null) => (minutes === null ? '' : format(minutes));
const lengthLimit = inForm(formatMinutes);
const notice = inForm(formatHumanDuration);
const buffer = inForm(formatHoursAndMinutes);

function resourceReference(links: LinkBuilder, resourceId: number, message: string) {
  return {
    resourceId,
    links: [links.to('getResource', { resourceId }, 'get_resource'), links.to('updateResource', { resourceId }, 'update_resource')],
    message,
  };
}

/** The read form of many resources, with their groups and attribute values loaded in bulk. */
async function presentResources(store: Store, links: LinkBuilder, caller: Caller, rows: readonly ResourceRow[]): Promise<WireResource[]> {
  const ids = rows.map((row) => row.id);
  const [groupIds, attributes] = await Promise.all([
    groupIdsOfResources(store, ids),
    readAttributeValues(store, AttributeCategory.resource, ids, () => caller.isAdmin),
  ]);
  return rows.map((row) => ({
    resourceId: row.id,
    name: row.name,
    location: row.location,
    contact: row.contact,
    notes: row.notes,
    description: row.description,
    minLength: lengthLimit(row.minLength),
    maxLength: lengthLimit(row.maxLength),
    requiresApproval: row.requiresApproval === 1,
    allowMultiday: row.allowMultiday === 1,
    maxParticipants: row.maxParticipants,
    minNoticeAdd: notice(row.minNoticeAdd),
    minNoticeUpdate: notice(row.minNoticeUpdate),
    minNoticeDelete: notice(row.minNoticeDelete),
    maxNotice: notice(row.maxNotice),
    scheduleId: row.scheduleId,
    icsUrl: null,
    statusId: row.statusId,
    statusReasonId: row.statusReasonId,
    customAttributes: customAttributeAnswers(links, attributes.get(row.id) ?? []),
    typeId: row.typeId,
    groupIds: groupIds.get(row.id) ?? [],
    bufferTime: buffer(row.bufferTime),
    autoReleaseMinutes: row.autoReleaseMinutes,
    requiresCheckIn: row.requiresCheckIn === 1,
    color: row.color,
    credits: row.credits,
    peakCredits: row.peakCredits,
    creditApplicability: row.creditApplicability,
    creditsChargedAllSlots: row.creditsChargedAllSlots === 1,
    maxConcurrentReservations: row.maxConcurrentReservations,
    links: [
      links.to('getResource', { resourceId: row.id }, 'get_resource'),
      ...(caller.isAdmin ? [links.to('updateResource', { resourceId: row.id }, 'update_resource')] : []),
      links.to('getSchedule', { scheduleId: row.scheduleId }, 'get_schedule'),
    ],
    message: null,
  }));
}

/** Checks a body completely (shape rules, referenced ids, custom attributes) before anything is written. */
async function validResourceInput(
  store: Store,
  body: Parameters<typeof readResourceBody>[0],
  resourceId: number | null,
): Promise<ResourceInput> {
  const { input, violations } = readResourceBody(body);
  checkResourceReferences(input, await findResourceReferences(store, input), violations);
  const attributeViolations = await onConnection(store, (connection) =>
    checkAttributeInputs(connection, AttributeCategory.resource, resourceId, input.customAttributes, { isAdmin: true }),
  );
  merge(violations, attributeViolations);
  violations.throwIfAny();
  return input;
}

function merge(into: Violations, from: Violations): void {
  for (const error of from.errors) into.add(error);
}

/**
 * Resources in no group hang under a last group with id 0, as the "All" group real servers answer
 * has: the tree keeps its shape (groups at the top) and leaves no resource out.
 */
const ungroupedId = 0;
const ungroupedName = 'Ungrouped';

/** The group tree with the caller's visible resources hung under their groups (groups first, as real servers do). */
async function buildResourceTree(store: Store, caller: Caller): Promise<TreeGroup[]> {
  const [groups, placements] = await Promise.all([allResourceGroups(store), visibleResourcePlacements(store, caller)]);
  const nodes = new Map<number, TreeGroup>(
    groups.map((group) => [
      group.id,
      { type: 'group', id: group.id, name: group.name, label: group.name, parent: null, parent_id: group.parentId, children: [] },
    ]),
  );
  const roots: TreeGroup[] = [];
  const ungrouped: TreeGroup = {
    type: 'group',
    id: ungroupedId,
    name: ungroupedName,
    label: ungroupedName,
    parent: null,
    parent_id: null,
    children: [],
  };
  for (const group of groups) {
    const node = nodes.get(group.id)!;
    const parent = group.parentId === null ? undefined : nodes.get(group.parentId);
    if (parent) parent.children.push(node);
    else roots.push(node);
  }
  for (const placement of placements) {
    const groupId = placement.groupId ?? ungroupedId;
    const resource: TreeResource = {
      type: 'resource',
      id: `resource-${groupId}-${placement.id}`,
      group_id: groupId,
      resource_id: placement.id,
      resource_name: placement.name,
      label: placement.name,
      resourceAdminGroupId: placement.adminGroupId,
      scheduleId: placement.scheduleId,
      statusId: placement.statusId,
      scheduleAdminGroupId: placement.scheduleAdminGroupId,
      requiresApproval: placement.requiresApproval === 1,
      isCheckInEnabled: placement.requiresCheckIn === 1,
      isAutoReleased: placement.autoReleaseMinutes !== null,
      autoReleaseMinutes: placement.autoReleaseMinutes,
      // Real servers put the stored interval here, which they keep in seconds.
      minLength: placement.minLength === null ? null : placement.minLength * 60,
      resourceTypeId: placement.typeId,
      color: placement.color,
      textColor: contrastingTextColor(placement.color),
      maxConcurrentReservations: placement.maxConcurrentReservations,
      requiredResourceIds: [],
    };
    (placement.groupId === null ? ungrouped : nodes.get(placement.groupId))?.children.push(resource);
  }
  return ungrouped.children.length > 0 ? [...roots, ungrouped] : roots;
}

export const resourceHandlers = {
  async createResource({ body }, { store, links }) {
    const input = await validResourceInput(store, body, null);
    const resourceId = await createResource(store, input);
    return resourceReference(links, resourceId, messages.created);
  },

  /**
   * Replaces every setting. `autoAssignPermissions` is not applied again: it defaults to true, so
   * honouring it on each update would hand back every permission an administrator had taken away.
   */
  async updateResource({ params, body }, { store, links }) {
    if (!(await resourceExists(store, params.resourceId))) throw notFound();
    const input = await validResourceInput(store, body, params.resourceId);
    await replaceResource(store, params.resourceId, input);
    return resourceReference(links, params.resourceId, messages.updated);
  },

  async getStatuses() {
    return {
      statuses: Object.entries(statusNames).map(([id, name]) => ({ id: Number(id), name })),
      links: [],
      message: null,
    };
  },

  async getStatusReasons(_input, { store }) {
    const reasons = await listStatusReasons(store);
    return { reasons, links: [], message: null };
  },

  async getAllResources({ query }, { store, links, caller }) {
    const violations = new Violations();
    const scheduleIds = parseIdList(query.scheduleId, 'scheduleId', violations);
    const groupIds = parseIdList(query.groupId, 'groupId', violations);
    violations.throwIfAny();
    if (scheduleIds && (await existingScheduleIds(store, scheduleIds)).size !== scheduleIds.length) throw notFound();
    if (groupIds && (await existingResourceGroupIds(store, groupIds)).size !== groupIds.length) throw notFound();
    const rows = await listVisibleResources(store, caller, { scheduleIds, groupIds });
    return { resources: await presentResources(store, links, caller, rows), links: [], message: null };
  },

  async getResourceGroups(_input, { store, caller }) {
    return { groups: await buildResourceTree(store, caller), links: [], message: null };
  },

  async getResourceTypes(_input, { store }) {
    const types = await listResourceTypes(store);
    return { types, links: [], message: null };
  },

  /** A resource the caller may not see answers as if it did not exist. */
  async getResource({ params }, { store, links, caller }) {
    const row = await findVisibleResource(store, caller, params.resourceId);
    if (!row) throw notFound();
    const [resource] = await presentResources(store, links, caller, [row]);
    return resource!;
  },

  async deleteResource({ params }, { store }) {
    if (!(await resourceExists(store, params.resourceId))) throw notFound();
    await deleteResource(store, params.resourceId);
    return deletionEnvelope();
  },
} satisfies Pick<
  HandlerMap,
  | 'createResource'
  | 'updateResource'
  | 'getStatuses'
  | 'getStatusReasons'
  | 'getAllResources'
  | 'getResourceGroups'
  | 'getResourceTypes'
  | 'getResource'
  | 'deleteResource'
>;
