/**
 * Notifications: re-planned after every poll, and by one timer in between. After a sleep nothing
 * is shown from the list read before it: the plan waits for the list read on waking (issue 23).
 */
import type { DateTime } from 'luxon';
import type { Clock, TimerHandle } from '../clock.js';
import type { CoreState, PlannedList } from '../core-state.js';
import { notifierProblemOf, type Notifier } from './notifier.js';
import { planNotifications, retainShown, snoozedUntil } from './planner.js';
import type { StartTimeRules } from '../session/start-time-rules.js';
import type { AccountSession } from '../session/session.js';
import { listedReservations } from '../reservations.js';
import type { CoreView } from '../views/snapshot.js';

/**
 * A wake timer that fires this much after its moment slept through it (the OS suspended the
 * process without telling, or suspended the timers' clock): handled as a wake-up.
 */
export const lateWakeMs = 60_000;

export interface NotificationScheduleOptions {
  clock: Clock;
  state: CoreState;
  session: Pick<AccountSession, 'account'>;
  notifier: Notifier;
  /** What the signed-in user's server lets them change once a booking has started. */
  startTimeRules: Pick<StartTimeRules, 'locksStarted'>;
  track(work: Promise<unknown>): void;
  /** Reads the user's own list now, or joins the read under way; resolves once it is in or could not be read. */
  readOwnList(): Promise<void>;
  /** After a re-plan of the timer's or of a wake-up's, what was shown changed: it is cached... */
  persist(): void;
  /** ...and shown. */
  view: Pick<CoreView, 'changed'>;
}

export interface NotificationSchedule {
  /** Shows what is due now and sets the timer for what is due next. */
  replan(previous: PlannedList | null, horizon: DateTime | null): Promise<void>;
  /** Puts a shown notification off: it is raised again, once, when its snooze ends (see `snoozedUntil`). */
  snooze(notificationId: string): Promise<void>;
  cancel(): void;
  /** The system goes to sleep: no timer, and nothing shown from the list read before, until one read after waking. */
  suspended(): void;
  /** The system woke: the plan is made again from the list read now (or, offline, from the one there is). */
  resumed(): void;
}

export function createNotificationSchedule(options: NotificationScheduleOptions): NotificationSchedule {
  const { clock, state, session, notifier } = options;
  const woke = () => {
    options.persist();
    options.view.changed();
  };
  let wakeTimer: TimerHandle | null = null;
  /** Since a sleep began (epoch ms): only a list read at or after it may be planned from; null when awake. */
  let heldSince: number | null = null;

  function cancel(): void {
    if (wakeTimer !== null) clock.clearTimeout(wakeTimer);
    wakeTimer = null;
  }

  /** Whether the list in hand was read after the sleep (or, offline, is all there is). */
  function readSinceSleep(): boolean {
    if (heldSince === null) return true;
    if ((state.data.fetchedAt?.toMillis() ?? Number.NEGATIVE_INFINITY) < heldSince && !state.offline) return false;
    heldSince = null;
    return true;
  }

  async function replan(previous: PlannedList | null, horizon: DateTime | null): Promise<void> {
    cancel();
    const account = session.account;
    if (account === null) return;
    // Held: the read after waking re-plans; its poll compares with the list before the sleep.
    if (!readSinceSleep()) return;
    const now = clock.now();
    const current = listedReservations(state.data, account.userId);
    const plan = planNotifications({
      now,
      zone: account.timezone,
      timeFormat: state.timeFormat,
      reservations: current,
      previous: previous?.reservations ?? null,
      previousReadAt: previous?.readAt ?? null,
      settings: state.settings,
      shown: state.shown,
      snoozed: state.snoozed,
      horizon,
      lockedOnceStarted: options.startTimeRules.locksStarted(account),
    });
    // A snooze ends once: what is not due again now never will be (it no longer applies).
    for (const [id, until] of state.snoozed) if (until <= now) state.snoozed.delete(id);
    for (const id of plan.passedOver) state.shown.add(id);
    for (const notification of plan.due) {
      state.shown.add(notification.id);
      const { id, referenceNumber, title, body, actions } = notification;
      const shownResult = await notifier.show({ id, referenceNumber, title, body, actions });
      state.notifierProblem = notifierProblemOf(shownResult);
    }
    state.shown = retainShown(state.shown, current, now);
    if (session.account !== account) return;
    if (plan.nextWakeAt !== null) {
      const wakeMs = plan.nextWakeAt.toMillis();
      const delay = Math.max(0, wakeMs - clock.now().toMillis());
      wakeTimer = clock.setTimeout(() => {
        wakeTimer = null;
        if (clock.now().toMillis() - wakeMs > lateWakeMs) {
          heldSince = clock.now().toMillis();
          resumed();
          return;
        }
        options.track(replan(null, null).then(woke));
      }, delay);
    }
  }

  function resumed(): void {
    options.track(
      options.readOwnList().then(async () => {
        // Not read yet (the screen is still locked): the read when it is unlocked re-plans.
        if (!readSinceSleep()) return;
        await replan(null, null);
        woke();
      }),
    );
  }

  async function snooze(notificationId: string): Promise<void> {
    const until = snoozedUntil(notificationId, clock.now());
    if (until === null || !state.shown.has(notificationId)) return;
    state.snoozed.set(notificationId, until);
    await replan(null, null);
  }

  return {
    replan,
    snooze,
    cancel,
    suspended() {
      cancel();
      heldSince = clock.now().toMillis();
    },
    resumed,
  };
}
