/**
 * When the user's own reservations are read, and how: at moments, not through windows. The list
 * at a slow steady pace (every 5 minutes by default), so a booking made elsewhere is seen in time
 * for its reminders; one reservation by its reference number (GetReservation, 13 ms against the
 * list's 35 on a real server: server-facts E) just before each notice about it is due — is it
 * still there, still at that time, checked in to elsewhere? — and from its auto-release moment on,
 * each poll interval until it is gone or checked in to. Moments close together are read at once.
 * Slower while the server shows strain. Pure: it takes the moment, what is known and the settings.
 */
import type { DateTime } from 'luxon';
import type { Settings } from '../../bridge/contract.js';
import type { NoticeMoment } from '../notifications/planner.js';
import { autoReleaseMs, awaitsCheckIn, type Reservation } from '../reservations.js';

/** Away from the user's events: a reservation made elsewhere for 10 minutes ahead is still seen before its start reminder is late. */
export const steadyPeriodMinutes = 5;
/** A reservation is read this long before a notice about it is due: time for the answer to come back. */
export const momentReadAheadMs = 30_000;
/** Moments this close together are one read: the earlier one's. */
export const mergeMomentsMs = 2 * 60_000;
/** Servers release on a job that runs each minute or so: the first look comes this long after the moment. */
export const releaseReadDelayMs = 15_000;
/** After an auto-release moment the reservation is watched this long while it is still listed unchecked. */
export const releaseWatchMinutes = 10;
/**
 * From this many reservations due at once, the list is the cheaper read: three GetReservation
 * cost a real server 39 ms, one list 35 ms (server-facts E).
 */
export const listFromReservations = 3;
/** Each strained poll doubles the waits, up to 2^this. */
export const maxStrainLevel = 3;

const minuteMs = 60_000;

export type PollSettings = Pick<Settings, 'pollIntervalSeconds'>;

export type PollRead = { kind: 'list' } | { kind: 'reservations'; referenceNumbers: string[] };

export interface PollStep {
  delayMs: number;
  read: PollRead;
}

export interface PollKnowledge {
  /** When the user's list was last asked for; null before the first time. */
  listAskedAtMs: number | null;
  /** When a reservation was last asked about, by the list or on its own. */
  askedAtMs(referenceNumber: string): number;
  /** The user's reservations (the planner's view of them): their auto-release moments are watched. */
  reservations: readonly Reservation[];
  /** What the notification planner will show, and when (planner.ts `noticeMoments`). */
  moments: readonly NoticeMoment[];
}

const steadyPeriodMs = (settings: PollSettings) => Math.max(settings.pollIntervalSeconds * 1000, steadyPeriodMinutes * minuteMs);

/** The longest wait there can be between two reads of the list: the steady period, stretched as far as strain goes. */
export const longestWaitMs = (settings: PollSettings) => steadyPeriodMs(settings) * 2 ** maxStrainLevel;

/** Awaits a check-in that releases the reservation before its end, if nobody makes it. */
function releaseMs(reservation: Reservation): number | null {
  const moment = awaitsCheckIn(reservation) ? autoReleaseMs(reservation) : null;
  return moment !== null && moment < reservation.end.toMillis() ? moment : null;
}

/** A reservation wanted read at `atMs`. */
interface WantedRead {
  referenceNumber: string;
  atMs: number;
}

function wantedReads(nowMs: number, known: PollKnowledge, watchEveryMs: number): WantedRead[] {
  const wanted: WantedRead[] = [];
  for (const moment of known.moments) {
    // Read already, close enough before its moment (a merged read may have come a little early).
    if (known.askedAtMs(moment.referenceNumber) >= moment.atMs - momentReadAheadMs - mergeMomentsMs) continue;
    wanted.push({ referenceNumber: moment.referenceNumber, atMs: Math.max(nowMs, moment.atMs - momentReadAheadMs) });
  }
  for (const reservation of known.reservations) {
    const release = releaseMs(reservation);
    if (release === null || nowMs >= release + releaseWatchMinutes * minuteMs) continue;
    const first = release + releaseReadDelayMs;
    const asked = known.askedAtMs(reservation.referenceNumber);
    wanted.push({ referenceNumber: reservation.referenceNumber, atMs: Math.max(nowMs, asked < first ? first : asked + watchEveryMs) });
  }
  return wanted;
}

/**
 * The next read and the wait before it: the earliest of the list's steady read and the reads
 * wanted before the moments ahead, with whatever else is due within `mergeMomentsMs` of it; the
 * list when it is due by then too or when the reservations are many.
 */
export function nextPollStep(now: DateTime, known: PollKnowledge, settings: PollSettings, strainLevel: number): PollStep {
  const nowMs = now.toMillis();
  const stretch = 2 ** Math.min(Math.max(strainLevel, 0), maxStrainLevel);
  const listAtMs = known.listAskedAtMs === null ? nowMs : Math.max(nowMs, known.listAskedAtMs + steadyPeriodMs(settings) * stretch);
  const wanted = wantedReads(nowMs, known, settings.pollIntervalSeconds * 1000 * stretch);
  const firstMs = Math.min(listAtMs, ...wanted.map((read) => read.atMs));
  const together = new Set(wanted.filter((read) => read.atMs <= firstMs + mergeMomentsMs).map((read) => read.referenceNumber));
  const listToo = listAtMs <= firstMs + mergeMomentsMs || together.size >= listFromReservations;
  return { delayMs: firstMs - nowMs, read: listToo ? { kind: 'list' } : { kind: 'reservations', referenceNumbers: [...together] } };
}
