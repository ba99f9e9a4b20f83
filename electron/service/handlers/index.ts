import { accessoryHandlers } from './accessories.js';
import { accountHandlers } from './accounts.js';
import { attributeHandlers } from './attributes.js';
import { authenticationHandlers } from './authentication.js';
import { availabilityHandlers } from './availability.js';
import { groupHandlers } from './groups.js';
import { reservationHandlers } from './reservations.js';
import { reservationReadHandlers } from './reservation-reads.js';
import { resourceHandlers } from './resources.js';
import { scheduleHandlers } from './schedules.js';
import { slotHandlers } from './slots.js';
import type { HandlerMap } from './types.js';
import { userHandlers } from './users.js';

/** Every operation of the table, each answered by the handler of its group. */
export const handlers: HandlerMap = {
  ...accessoryHandlers,
  ...accountHandlers,
  ...attributeHandlers,
  ...authenticationHandlers,
  ...availabilityHandlers,
  ...groupHandlers,
  ...reservationHandlers,
  ...reservationReadHandlers,
  ...resourceHandlers,
  ...scheduleHandlers,
  ...slotHandlers,
  ...userHandlers,
};
