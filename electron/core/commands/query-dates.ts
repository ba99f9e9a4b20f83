/**
 * The date a query names for an instant: its calendar day in the signed-in user's zone. Servers
 * read a bare query date there (convention 5; server-facts C), whatever the schedule's zone: asked
 * with the schedule's date, a user hours ahead of it gets the wrong day's slots.
 */
import type { DateTime } from 'luxon';

export const queryDate = (instant: DateTime, userZone: string): string => instant.setZone(userZone).toISODate() ?? '';
