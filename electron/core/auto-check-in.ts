/**
 * Checking in by itself when the computer is unlocked or woken (an opt-in setting): which of the
 * user's own reservations, if any, to check in to at this moment (pure), and the check-in itself,
 * once, on a list read after the user came back.
 */
import type { DateTime } from 'luxon';
import type { CommandHandlers } from '../bridge/contract.js';
import type { Clock } from './clock.js';
import type { CoreState } from './core-state.js';
import { notifierProblemOf, type Notifier } from './notifications/notifier.js';
import { notificationId } from './notifications/planner.js';
import { awaitsCheckIn, checkInClosesMs, checkInOpensMinutes, listedReservations, type Reservation } from './reservations.js';
import type { AccountSession } from './session/session.js';
import type { Sync } from './sync/sync.js';
import type { CoreView } from './views/snapshot.js';

const minuteMs = 60_000;

/** Names one reservation's one chance: a booking moved to another time is another chance. */
export function autoCheckInKey(reservation: Pick<Reservation, 'referenceNumber' | 'start'>): string {
  return `${reservation.referenceNumber}@${reservation.start.toMillis()}`;
}

/**
 * When check-in by itself may happen, as epoch ms [opens, closes): from the later of the user's
 * check-in moment (`checkInLeadMinutes` before the start) and the server's (5 minutes before it:
 * server-facts C), to the auto-release moment or the end, whichever is first (servers refuse a
 * check-in after the release moment: server-facts D). Null for a reservation that awaits no
 * check-in of the user's: someone else's, one that needs none, is checked in or out already, or
 * is not approved yet.
 */
export function autoCheckInWindow(reservation: Reservation, checkInLeadMinutes: number): [number, number] | null {
  if (!awaitsCheckIn(reservation)) return null;
  const opensMs = reservation.start.toMillis() - Math.min(checkInLeadMinutes, checkInOpensMinutes) * minuteMs;
  return [opensMs, checkInClosesMs(reservation)];
}

/**
 * The reservation to check in to now, if any: of those whose window is open and that were not
 * tried before (`tried`, by `autoCheckInKey`), the one starting nearest to now — back to back, the
 * booking the user has just come for.
 */
export function autoCheckInTarget(
  reservations: readonly Reservation[],
  now: DateTime,
  checkInLeadMinutes: number,
  tried: ReadonlySet<string>,
): Reservation | null {
  const nowMs = now.toMillis();
  const open = reservations.filter((reservation) => {
    const window = autoCheckInWindow(reservation, checkInLeadMinutes);
    return window !== null && nowMs >= window[0] && nowMs < window[1] && !tried.has(autoCheckInKey(reservation));
  });
  const distance = (reservation: Reservation) => Math.abs(reservation.start.toMillis() - nowMs);
  return open.sort((a, b) => distance(a) - distance(b))[0] ?? null;
}

export interface AutoCheckInOptions {
  clock: Clock;
  state: CoreState;
  session: Pick<AccountSession, 'account'>;
  sync: Pick<Sync, 'ownListNow'>;
  handlers: Pick<CommandHandlers, 'checkIn'>;
  notifier: Pick<Notifier, 'show'>;
  view: Pick<CoreView, 'changed'>;
  log(message: string, error?: unknown): void;
}

export interface AutoCheckIn {
  /** The user came back (unlocked or woken) at `back`. */
  cameBack(back: DateTime): Promise<void>;
}

export function createAutoCheckIn(options: AutoCheckInOptions): AutoCheckIn {
  const { clock, state, session } = options;
  /** The bookings tried this run (autoCheckInKey): one chance each, whatever came of it. */
  const tried = new Set<string>();
  return {
    /**
     * With the setting on, checks in to the booking whose check-in window is open, once. It waits
     * for the list read on resume and acts only on a list read since `back` (a booking moved or
     * released while the computer slept must not be checked in to as it was); where no such read
     * came (still asleep or locked, offline), it does nothing. A refusal changes nothing: the
     * check-in notification stands as it was. A success replaces it with a short confirmation.
     */
    async cameBack(back) {
      if (!state.settings.autoCheckIn || session.account === null) return;
      await options.sync.ownListNow();
      const fetchedAt = state.data.fetchedAt;
      if (!state.settings.autoCheckIn || session.account === null || fetchedAt === null || fetchedAt.toMillis() < back.toMillis()) return;
      const target = autoCheckInTarget(
        listedReservations(state.data, session.account.userId),
        clock.now(),
        state.settings.checkInLeadMinutes,
        tried,
      );
      if (target === null) return;
      tried.add(autoCheckInKey(target));
      const { referenceNumber } = target;
      const result = await options.handlers.checkIn({ referenceNumber });
      if (!result.ok) {
        options.log(`checking in by itself to ${referenceNumber} failed: ${result.error.message}`);
        return;
      }
      const shown = await options.notifier.show({
        // The check-in notice's own id: a notice still on screen is replaced, not left offering Check in.
        id: notificationId('checkInOpen', referenceNumber, target.start.toMillis()),
        referenceNumber,
        title: `Checked in to ${target.resourceName}`,
        body: `${target.title || target.resourceName}: Perch checked in as you came back to this computer.`,
        actions: [],
      });
      state.notifierProblem = notifierProblemOf(shown);
      options.view.changed();
    },
  };
}
