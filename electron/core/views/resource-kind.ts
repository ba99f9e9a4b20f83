/**
 * What kind of thing a resource is, for the popover's icon: read once here from what the server
 * says of it. LibreBooking has resource types ("Room", "Desk"…) named freely by each organisation,
 * and a 2.9 server has none at all (server-facts C), so the type's name is read for words, then
 * the resource's groups and name, then its size; a resource none of these tell about is 'other'.
 */
import type { ResourceCardView, ResourceFace, ResourceKind } from '../../bridge/contract.js';
import { groupNamesByResource } from './resource-views.js';
import type { WireGroupTree, WireResource, WireResourceType } from '../../api/wire.js';

/** A kind words can tell: 'other' is what none of them do. */
export type NamedKind = Exclude<ResourceKind, 'other'>;

/**
 * What a resource is, from its groups or name ("Floor 1 desks", "Phone booth 2"); one that holds
 * people is a room. The wire carries no type on 2.9 servers (server-facts D), so words decide.
 */
export function resourceKindOf(card: Pick<ResourceCardView, 'name' | 'groupNames' | 'capacity'>): NamedKind | null {
  for (const text of [...card.groupNames].reverse().concat(card.name)) {
    const words = text.toLocaleLowerCase();
    if (/\bdesks?\b|hot ?desk/.test(words)) return 'desk';
    if (/\b(rooms?|boardroom|booths?|meeting|pods?|studios?)\b/.test(words)) return 'room';
    if (/\b(equipment|projectors?|cameras?|laptops?|cars?|screens?|vehicles?)\b/.test(words)) return 'equipment';
  }
  return card.capacity !== null && card.capacity > 1 ? 'room' : null;
}

/** Type names by id, from GetResourceTypes; empty when the server has none. */
export function resourceTypeNames(types: readonly WireResourceType[]): Map<number, string> {
  return new Map(types.map((type) => [type.id, type.description]));
}

/**
 * The type's name first ("Desk", "Meeting rooms"), read with the same words as a typed booking
 * reads ("a desk tomorrow"), so the icon and the phrase agree; then the resource's groups, name and size.
 */
export function resourceKind(
  resource: WireResource,
  typeNames: ReadonlyMap<number, string>,
  groupNames: readonly string[] = [],
): ResourceKind {
  const typeName = resource.typeId === null ? undefined : typeNames.get(resource.typeId);
  const capacity = resource.maxParticipants;
  return (
    (typeName === undefined ? null : resourceKindOf({ name: typeName, groupNames: [], capacity: null })) ??
    resourceKindOf({ name: resource.name, groupNames: [...groupNames], capacity }) ??
    'other'
  );
}

/**
 * A colour the popover may paint, `#rrggbb` or `#rgb`: the server's, with its `#` or without;
 * null when it set none (or something that is not a colour).
 */
export function resourceColor(color: string | null | undefined): string | null {
  const hex = /^#?([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(color?.trim() ?? '')?.[1];
  return hex === undefined ? null : `#${hex.toLowerCase()}`;
}

export function resourceFace(
  resource: WireResource,
  typeNames: ReadonlyMap<number, string>,
  groupNames: readonly string[] = [],
): ResourceFace {
  return { kind: resourceKind(resource, typeNames, groupNames), color: resourceColor(resource.color) };
}

/**
 * The last lists read and the faces made of them: a refresh replaces the lists and nothing changes
 * them in place, so the same arrays mean the same faces, and a snapshot per poll reads no names again.
 */
let lastFaces: {
  resources: readonly WireResource[];
  types: readonly WireResourceType[];
  groups: WireGroupTree | null;
  faces: ReadonlyMap<number, ResourceFace>;
} | null = null;

/** Each resource's face by id, for the rows and reservations that name them. */
export function resourceFaces(
  resources: readonly WireResource[],
  types: readonly WireResourceType[],
  groups: WireGroupTree | null,
): ReadonlyMap<number, ResourceFace> {
  if (lastFaces?.resources === resources && lastFaces.types === types && lastFaces.groups === groups) return lastFaces.faces;
  const typeNames = resourceTypeNames(types);
  const groupNames = groupNamesByResource(groups);
  const faces = new Map(
    resources.map((resource) => [resource.resourceId, resourceFace(resource, typeNames, groupNames.get(resource.resourceId))]),
  );
  lastFaces = { resources, types, groups, faces };
  return faces;
}
