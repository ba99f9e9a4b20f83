import type { Static } from '@sinclair/typebox';
import { parseResourceInterval } from '../../api/durations.js';
import type { CustomAttributeInput } from '../../api/schemas/common.js';
import { CreditApplicability, ResourceStatus, type ResourceBody } from '../../api/schemas/resources.js';
import { Violations } from '../errors.js';
import type { ResourceRow } from '../tables.js';

type Body = Static<typeof ResourceBody>;
type IntervalValue = Body['minLength'];

/** Every column a resource body sets; the ids the service owns (id, ics token, admin group) stay out. */
export type ResourceSettings = Omit<ResourceRow, 'id' | 'adminGroupId'>;

export interface ResourceInput {
  settings: ResourceSettings;
  groupIds: number[];
  customAttributes: Static<typeof CustomAttributeInput>[];
  autoAssignPermissions: boolean;
}

/** What the store found for the ids a body names; see `checkResourceReferences`. */
export interface FoundReferences {
  scheduleExists: boolean;
  /** The status the named reason belongs to; undefined when the reason does not exist. */
  statusOfReason: number | undefined;
  typeExists: boolean;
  existingGroupIds: ReadonlySet<number>;
}

const isBlankInterval = (value: IntervalValue) =>
  value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

const flag = (value: boolean | number | null | undefined) => (value ? 1 : 0);

/**
 * Reads an interval member. Zero is stored as "no limit" (null): a zero minimum or buffer changes
 * nothing, and a zero maximum would forbid every reservation, which is never what is meant.
 */
function readInterval(value: IntervalValue, member: string, violations: Violations): number | null {
  const parsed = parseResourceInterval(value);
  if (!parsed.ok) {
    violations.add(`Invalid time specified for ${member}`);
    return null;
  }
  return parsed.value === 0 ? null : parsed.value;
}

/**
 * Turns a resource body (already shape-checked by its schema) into stored settings, collecting
 * every rule a body alone can break. Members left out take the defaults of a new resource, so an
 * update replaces the whole resource as real servers do.
 */
export function readResourceBody(body: Body): { input: ResourceInput; violations: Violations } {
  const violations = new Violations();
  const name = body.name?.trim() ?? '';
  if (name === '') violations.add('name is missing or empty');
  if (body.scheduleId === undefined) violations.add('scheduleId is missing or empty');
  // The spec names one minNotice; real servers split it in three. It stands for the add notice
  // unless minNoticeAdd itself carries a value.
  const noticeMember = isBlankInterval(body.minNoticeAdd) ? 'minNotice' : 'minNoticeAdd';
  const settings: ResourceSettings = {
    name,
    location: body.location?.trim() ?? '',
    contact: body.contact?.trim() ?? '',
    notes: body.notes ?? '',
    description: body.description ?? '',
    minLength: readInterval(body.minLength, 'minLength', violations),
    maxLength: readInterval(body.maxLength, 'maxLength', violations),
    minNoticeAdd: readInterval(body[noticeMember], noticeMember, violations),
    minNoticeUpdate: readInterval(body.minNoticeUpdate, 'minNoticeUpdate', violations),
    minNoticeDelete: readInterval(body.minNoticeDelete, 'minNoticeDelete', violations),
    maxNotice: readInterval(body.maxNotice, 'maxNotice', violations),
    bufferTime: readInterval(body.bufferTime, 'bufferTime', violations),
    requiresApproval: flag(body.requiresApproval),
    allowMultiday: flag(body.allowMultiday),
    // The service's validator reads a JSON null sent for a number as 0 (type coercion), and no
    // id or participant limit is 0, so 0 is taken for "none" as real servers do.
    maxParticipants: body.maxParticipants || null,
    scheduleId: body.scheduleId ?? 0,
    statusId: body.statusId ?? ResourceStatus.available,
    statusReasonId: body.statusReasonId || null,
    typeId: body.typeId || null,
    sortOrder: body.sortOrder ?? 0,
    // Releasing zero minutes after start would release every booking: zero means "never".
    autoReleaseMinutes: body.autoReleaseMinutes || null,
    requiresCheckIn: flag(body.requiresCheckIn),
    color: body.color ?? '',
    credits: body.credits ?? null,
    peakCredits: body.peakCredits ?? null,
    creditApplicability: body.creditApplicability ?? CreditApplicability.perSlot,
    creditsChargedAllSlots: flag(body.creditsChargedAllSlots),
    maxConcurrentReservations: body.maxConcurrentReservations ?? 1,
  };
  return {
    input: {
      settings,
      groupIds: [...new Set(body.groupIds ?? [])],
      customAttributes: body.customAttributes ?? [],
      autoAssignPermissions: body.autoAssignPermissions ?? true,
    },
    violations,
  };
}

/** Adds a violation for every id the body names that does not exist or does not fit. */
export function checkResourceReferences(input: ResourceInput, found: FoundReferences, violations: Violations): void {
  const { scheduleId, statusId, statusReasonId, typeId } = input.settings;
  if (scheduleId !== 0 && !found.scheduleExists) violations.add(`Invalid scheduleId: ${scheduleId}`);
  if (statusReasonId !== null) {
    if (found.statusOfReason === undefined) violations.add(`Invalid statusReasonId: ${statusReasonId}`);
    else if (found.statusOfReason !== statusId) {
      violations.add(`statusReasonId ${statusReasonId} is not a reason for statusId ${statusId}`);
    }
  }
  if (typeId !== null && !found.typeExists) violations.add(`Invalid typeId: ${typeId}`);
  for (const groupId of input.groupIds) {
    if (!found.existingGroupIds.has(groupId)) violations.add(`Invalid groupId: ${groupId}`);
  }
}
