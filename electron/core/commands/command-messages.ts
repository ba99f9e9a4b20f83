/** What the commands tell the user when they refuse or cannot confirm something. */
import type { DateTime } from 'luxon';

export const commandMessages = {
  checkInNotConfirmed: 'The server did not confirm the check-in.',
  checkOutNotConfirmed: 'The server did not confirm the check-out.',
  cancelNotConfirmed: 'The server did not confirm the cancellation.',
  extendNotConfirmed: 'The server did not confirm the new end time.',
  startedLocked: (action: 'change' | 'cancel') =>
    `This booking has started, and the server does not let you ${action} a booking once it has started.`,
  retitleNotConfirmed: 'The server did not confirm the new title.',
  moveNotConfirmed: 'The server did not confirm the new time and place.',
  notFreeThen: (name: string) => `${name} is already booked at that time.`,
  bookingNotConfirmed: 'The server did not confirm the booking.',
  serverFailed: (action: string, status: number | undefined) =>
    `The server failed while ${action}${status === undefined ? '' : ` (HTTP ${status})`}. Try again in a moment; if it keeps failing, use the server's web page.`,
  invalidStart: 'The start is not a valid date and time.',
  invalidEnd: 'The end is not a valid date and time.',
  endOrDuration: 'Give either an end time or a duration.',
  endAfterStart: 'The end must be after the start.',
  unknownResource: 'That resource does not exist, or you may not book it.',
  resourceUnavailable: (name: string) => `${name} is not available for booking.`,
  tooShort: (name: string, limit: string) => `${name} must be booked for at least ${limit}.`,
  tooLong: (name: string, limit: string) => `${name} cannot be booked for longer than ${limit}.`,
  notSlotStart: (name: string, time: string) => `Bookings of ${name} must start at the beginning of a bookable slot; ${time} is not one.`,
  notSlotEnd: (name: string, time: string) => `Bookings of ${name} must end at the end of a bookable slot; ${time} is not one.`,
  blocked: (name: string, from: string, to: string, label: string) =>
    `${name} cannot be booked from ${from} to ${to}${label === '' ? '' : ` (${label})`}.`,
  bookedFrom: (name: string, time: string) => `${name} is booked from ${time}.`,
  justTaken: (name: string, nextFree: string | null) =>
    nextFree === null
      ? `${name} was just taken, and no other time of that length is free later that day.`
      : `${name} was just taken — next free ${nextFree}`,
} as const;

/** `1 hour 30 minutes`, for messages. */
export function describeMinutes(total: number): string {
  const days = Math.floor(total / 1440);
  const hours = Math.floor((total % 1440) / 60);
  const minutes = total % 60;
  const parts: string[] = [];
  if (days > 0) parts.push(`${days} ${days === 1 ? 'day' : 'days'}`);
  if (hours > 0) parts.push(`${hours} ${hours === 1 ? 'hour' : 'hours'}`);
  if (minutes > 0 || parts.length === 0) parts.push(`${minutes} ${minutes === 1 ? 'minute' : 'minutes'}`);
  return parts.join(' ');
}

/** A time for a message: `14:30`, with the date when it is not the day of `reference`. */
export function describeTime(instant: DateTime, zone: string, reference: DateTime): string {
  const local = instant.setZone(zone).setLocale('en-GB');
  return local.hasSame(reference.setZone(zone), 'day') ? local.toFormat('HH:mm') : local.toFormat('ccc d LLL HH:mm');
}
