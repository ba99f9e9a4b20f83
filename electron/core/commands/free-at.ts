/**
 * "Free at 14:00 for 1 h": what is free over a time to come. Asked with the cheapest request that
 * can tell — GetReservations by schedule over exactly that time, one per schedule Free now covers
 * that is not closed then (server-facts E) — never availability, which costs a real server seconds.
 */
import { DateTime } from 'luxon';
import { formatWireDateTime } from '../../api/dates.js';
import type { BridgeResult, FreeAtRequest, FreeResourceView } from '../../bridge/contract.js';
import type { CommandContext } from './command-context.js';
import type { CommandLookups } from './command-lookups.js';
import { failure, invalidInput, success } from '../errors.js';
import { bridgeErrorFromSession } from '../session/session.js';
import type { BusyAnswer } from '../views/free-now.js';

export function createFreeAt(context: CommandContext, lookups: CommandLookups) {
  return async ({ start, durationMinutes }: FreeAtRequest): Promise<BridgeResult<FreeResourceView[]>> => {
    const view = lookups.signedIn();
    if (!view.ok) return view;
    const from = DateTime.fromISO(start, { setZone: true });
    if (!from.isValid) return failure(invalidInput('The time to look at is not a date and time Perch can read.'));
    const to = from.plus({ minutes: durationMinutes });
    const window = { startDateTime: formatWireDateTime(from.toUTC()), endDateTime: formatWireDateTime(to.toUTC()) };
    const answers: BusyAnswer[] = [];
    for (const scheduleId of context.freeNowScheduleIds(from)) {
      const answer = await lookups.run((client) => client.getReservations({ query: { scheduleId: String(scheduleId), ...window } }));
      if (!answer.ok) return failure(bridgeErrorFromSession(answer.error));
      answers.push({ scheduleId, until: to, reservations: answer.value.reservations });
    }
    return success(context.freeViews(answers, from, to));
  };
}
