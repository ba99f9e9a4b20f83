/**
 * Who is busy in the schedules "Free now" covers, and the meetings of others the user is in: which
 * schedules a poll asks, how far ahead, and what their answers leave in the state. When the user
 * looks, each open schedule is asked who is busy from now to its closing time — the two it ranks
 * first (free-now-schedules.ts) at every look, the others once their answer is old, as often as a
 * fixed share of the budget allows however many there are; a closed one is not asked. In the
 * background only the schedules whose rows the tray shows are asked, rarely; every 30 minutes the
 * read of the leading ones the user books in spans today and tomorrow instead, to learn of the
 * meetings of others the user is in (their own list holds only what they own).
 */
import type { DateTime } from 'luxon';
import { formatWireDateTime, wireInstant } from '../../api/dates.js';
import type { WireSummary } from '../../api/wire.js';
import type { BusyNow, CoreData, CoreState, Meetings, ScheduleHours } from '../core-state.js';
import { summaryRole } from '../reservations.js';
import type { SessionResult } from '../session/session-errors.js';
import { knownClosed, openingAt } from '../views/opening-hours.js';
import { leadingScheduleCount } from './free-now-schedules.js';
import { endOfTomorrow } from './own-list.js';
import { unreachable, type PollReads, type PollSession } from './poll-answers.js';
import { referenceDataHours } from './reference-data.js';

/** Who is busy, in the background: each leading schedule at most this often (and never while paused). */
const backgroundFreeNowMinutes = 30;
/**
 * The meetings the user is in, read by schedule from now to the end of the user's tomorrow:
 * each leading schedule the user books in (meetingSchedules) at most this often, when the user looks
 * or in the background. Such a read
 * also tells who is busy to the closing time, so it stands in for that schedule's Free now read.
 */
export const meetingsMinutes = 30;
/** A leading schedule is asked again at a look unless it was asked this recently. */
const leadingFreshMs = 60_000;
/** What one schedule's read costs a real server: GetReservations by schedule (server-facts E). */
export const scheduleReadMs = 35;
/**
 * What asking the schedules beyond the leading ones may cost a real server per user-hour, however
 * often the user looks: with 12 of them, each is asked again once its answer is 63 minutes old.
 */
export const otherSchedulesMsPerHour = 400;
/** ...and never more often than this, however few there are. */
const otherFreshMinMs = 10 * 60_000;
/** Free now reads no further than this ahead on a schedule open round the clock. */
const furthestReadMs = 12 * 3_600_000;
/** The shortest read: who is busy in the minute from now. */
const shortestReadMs = 60_000;

/** How old the answer of a schedule beyond the leading ones may grow before a look asks again. */
export function otherScheduleFreshMs(others: number): number {
  return Math.max(otherFreshMinMs, (others * scheduleReadMs * 3_600_000) / otherSchedulesMsPerHour);
}

/**
 * How far a Free now read reaches: to the schedule's closing time (round the clock, 12 hours at
 * most), or to the end of the user's day where its hours are not known; a minute at least.
 */
export function freeNowReadEnd(hours: ScheduleHours | undefined, now: DateTime, zone: string): DateTime {
  const opening = hours === undefined ? null : openingAt(hours, now);
  const wanted = opening?.open === true ? (opening.closesAt ?? now.plus({ milliseconds: furthestReadMs })) : now.setZone(zone).endOf('day');
  const capped = Math.min(wanted.toMillis(), now.toMillis() + furthestReadMs);
  return now.plus({ milliseconds: Math.max(capped - now.toMillis(), shortestReadMs) });
}

/** Someone else's reservation that the user takes part in or is invited to. */
function isAttended(summary: WireSummary, userId: number): boolean {
  const role = summaryRole(summary, userId);
  return role === 'participant' || role === 'invitee';
}

/** What a read that reached further lists within `until`: what is under way or starts before it. */
function listedUntil(reservations: readonly WireSummary[], now: DateTime, until: DateTime): WireSummary[] {
  const fromMs = now.toMillis();
  const toMs = until.toMillis();
  return reservations.filter((summary) => {
    const start = wireInstant(summary.startDate)?.toMillis();
    const end = wireInstant(summary.endDate)?.toMillis();
    return start !== undefined && end !== undefined && start < toMs && end > fromMs;
  });
}

type ScheduleAnswers = Pick<CoreData, 'busyNow' | 'meetings' | 'hours'>;

const askedAtMs = (entries: readonly { scheduleId: number; askedAt: DateTime }[], scheduleId: number) =>
  entries.find((entry) => entry.scheduleId === scheduleId)?.askedAt.toMillis() ?? Number.NEGATIVE_INFINITY;

const meetingsDue = (data: ScheduleAnswers, scheduleId: number, now: DateTime) =>
  now.toMillis() - askedAtMs(data.meetings, scheduleId) >= meetingsMinutes * 60_000;

/**
 * The schedules to ask now, in rank order. When the user looks: each leading schedule not asked
 * within the minute, each other one whose answer is old (otherScheduleFreshMs); a closed one
 * only for the meetings read. In the background: of the schedules whose rows the tray shows
 * (`shownInTray`; the leading ones while it shows none), the one whose answer (who is busy, or
 * the meetings) is stalest, if due.
 */
export function schedulesToAsk(
  data: ScheduleAnswers,
  ranked: readonly number[],
  meetingsIn: readonly number[],
  now: DateTime,
  look: boolean,
  shownInTray: () => readonly number[],
): number[] {
  const leading = ranked.slice(0, leadingScheduleCount);
  const nowMs = now.toMillis();
  const busyAskedAt = (scheduleId: number) => askedAtMs(data.busyNow, scheduleId);
  const closedNow = (scheduleId: number) => knownClosed(data.hours, scheduleId, now);
  const meetingsDueIn = (scheduleId: number) => meetingsIn.includes(scheduleId) && meetingsDue(data, scheduleId, now);
  if (look) {
    const otherFreshMs = otherScheduleFreshMs(ranked.length - leading.length);
    return ranked.filter((scheduleId, rank) => {
      if (meetingsDueIn(scheduleId)) return true;
      if (closedNow(scheduleId)) return false;
      return nowMs - busyAskedAt(scheduleId) >= (rank < leadingScheduleCount ? leadingFreshMs : otherFreshMs);
    });
  }
  const busyDue = (scheduleId: number) => nowMs - busyAskedAt(scheduleId) >= backgroundFreeNowMinutes * 60_000 && !closedNow(scheduleId);
  const askedAt = (scheduleId: number) =>
    Math.min(busyAskedAt(scheduleId), meetingsIn.includes(scheduleId) ? askedAtMs(data.meetings, scheduleId) : Number.POSITIVE_INFINITY);
  const shown = shownInTray().filter((scheduleId) => ranked.includes(scheduleId));
  const kept = new Set([...(shown.length > 0 ? shown : leading), ...meetingsIn]);
  const stalest = [...kept]
    .filter((scheduleId) => busyDue(scheduleId) || meetingsDueIn(scheduleId))
    .sort((a, b) => askedAt(a) - askedAt(b))[0];
  return stalest === undefined ? [] : [stalest];
}

/**
 * A schedule's layout (GetSchedule, 12–14 ms on a real server: server-facts E), fetched when the
 * user looks and kept as long as the resource list; without it Free now cannot tell a closed office.
 */
export async function refreshHours(state: CoreState, session: PollSession, scheduleId: number, now: DateTime): Promise<void> {
  const kept = state.data.hours.find((hours) => hours.scheduleId === scheduleId);
  if (kept !== undefined && now.diff(kept.fetchedAt, 'hours').hours < referenceDataHours) return;
  const answer = await session.run((client) => client.getSchedule({ params: { scheduleId } }));
  // Without it Free now lists as it did before; the next look asks again.
  if (!answer.ok) return;
  const hours: ScheduleHours = { scheduleId, timezone: answer.value.timezone, fetchedAt: now, periods: answer.value.periods };
  state.data.hours = [...state.data.hours.filter((entry) => entry.scheduleId !== scheduleId), hours];
}

/** Every reservation of the schedule from now to `until`. */
const askSchedule = (session: PollSession, scheduleId: number, now: DateTime, until: DateTime) =>
  session.run((client) =>
    client.getReservations({
      query: {
        scheduleId: String(scheduleId),
        startDateTime: formatWireDateTime(now.toUTC()),
        endDateTime: formatWireDateTime(until.toUTC()),
      },
    }),
  );

export interface ScheduleReads extends PollReads {
  /** The leading schedules' rows are in: shown before the others are asked. */
  leadingRead(): void;
}

/**
 * Asks each schedule of `toAsk` who is busy (to its closing time, or over today and tomorrow where
 * the meetings read is due: `meetingsIn`), keeping each answer as it comes. Gives the answers, or
 * why it stopped: the account changed, or the server could not be reached.
 */
export async function askSchedules(
  toAsk: readonly number[],
  meetingsIn: readonly number[],
  reads: ScheduleReads,
): Promise<SessionResult<unknown>[] | 'accountChanged' | 'unreachable'> {
  const { state, session, account, now, answers } = reads;
  const results: SessionResult<unknown>[] = [];
  for (const [index, scheduleId] of toAsk.entries()) {
    const readEnd = freeNowReadEnd(
      state.data.hours.find((hours) => hours.scheduleId === scheduleId),
      now,
      account.timezone,
    );
    const wide = meetingsIn.includes(scheduleId) && meetingsDue(state.data, scheduleId, now);
    const busy = await answers.timed(askSchedule(session, scheduleId, now, wide ? endOfTomorrow(now, account.timezone) : readEnd));
    if (session.account !== account) return 'accountChanged';
    if (unreachable(busy)) return 'unreachable';
    results.push(busy);
    if (busy.ok) {
      const listed = busy.value.reservations;
      const answer: BusyNow = { scheduleId, askedAt: now, until: readEnd, reservations: wide ? listedUntil(listed, now, readEnd) : listed };
      state.data.busyNow = [...state.data.busyNow.filter((entry) => entry.scheduleId !== scheduleId), answer];
      if (wide) {
        const attended: Meetings = {
          scheduleId,
          askedAt: now,
          reservations: listed.filter((summary) => isAttended(summary, account.userId)),
        };
        state.data.meetings = [...state.data.meetings.filter((entry) => entry.scheduleId !== scheduleId), attended];
      }
    }
    if (index === leadingScheduleCount - 1 && index < toAsk.length - 1) reads.leadingRead();
  }
  return results;
}
