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
import { bridgeErrorFromSession } from '../session/session-errors.js';
import { coveredSchedules } from '../sync/free-now-schedules.js';
import type { BusyAnswer } from '../views/free-now.js';
import { knownClosed } from '../views/opening-hours.js';
import { freeViews } from '../views/snapshot.js';

/** The schedules Free now covers, ranked, leaving out those whose hours say they are closed at `at`. */
export function openScheduleIds(context: Pick<CommandContext, 'state' | 'session'>, at: DateTime): number[] {
  const { state, session } = context;
  return coveredSchedules(state, session.account).filter((scheduleId) => !knownClosed(state.data.hours, scheduleId, at));
}

export function createFreeAt(context: CommandContext, lookups: CommandLookups) {
  return async ({ start, durationMinutes }: FreeAtRequest): Promise<BridgeResult<FreeResourceView[]>> => {
    const view = lookups.signedIn();
    if (!view.ok) return view;
    const from = DateTime.fromISO(start, { setZone: true });
    if (!from.isValid) return failure(invalidInput('The time to look at is not a date and time Perch can read.'));
    const to = from.plus({ minutes: durationMinutes });
    const window = { startDateTime: formatWireDateTime(from.toUTC()), endDateTime: formatWireDateTime(to.toUTC()) };
    const answers: BusyAnswer[] = [];
    for (const scheduleId of openScheduleIds(context, from)) {
      const answer = await lookups.run((client) => client.getReservations({ query: { scheduleId: String(scheduleId), ...window } }));
      if (!answer.ok) return failure(bridgeErrorFromSession(answer.error));
      answers.push({ scheduleId, until: to, reservations: answer.value.reservations });
    }
    // Ranked for the user, from who was busy in those schedules then.
    const account = context.session.account;
    return success(account === null ? [] : freeViews(context.state, account, answers, from, to));
  };
}
