/**
 * The answers of the API as the client hands them on, by the name the code that reads them uses:
 * each is the static type of its schema (schemas/), decoded liberally (decode.ts).
 */
import type { Static } from '@sinclair/typebox';
import type { AttributeDefinition } from './schemas/attributes.js';
import type { Reservation, ReservationSummary } from './schemas/reservations.js';
import type { Resource, ResourceGroupTree, ResourceType } from './schemas/resources.js';
import type { Period, ScheduleListItem, Slots } from './schemas/schedules.js';

export type WireSummary = Static<typeof ReservationSummary>;
export type WireReservation = Static<typeof Reservation>;
export type WireResource = Static<typeof Resource>;
export type WireSchedule = Static<typeof ScheduleListItem>;
export type WireGroupTree = Static<typeof ResourceGroupTree>;
export type WireResourceType = Static<typeof ResourceType>;
export type WireSlots = Static<typeof Slots>;
export type WireAttribute = Static<typeof AttributeDefinition>;
export type WirePeriod = Static<typeof Period>;
