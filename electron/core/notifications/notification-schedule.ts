/** Notifications: re-planned after every poll, and by one timer in between. */
import type { DateTime } from 'luxon';
import type { Clock, TimerHandle } from '../clock.js';
import type { CoreState } from '../core-state.js';
import type { Notifier } from './notifier.js';
import { planNotifications, retainShown, snoozedUntil, type PlannerReservation } from './planner.js';
import type { AccountSession } from '../session/session.js';
import { plannerReservations } from './planner-input.js';

export interface NotificationScheduleOptions {
  clock: Clock;
  state: CoreState;
  session: Pick<AccountSession, 'account'>;
  notifier: Notifier;
  track(work: Promise<unknown>): void;
  /** After the timer's re-plan: what was shown changed. */
  woke(): void;
}

export interface NotificationSchedule {
  /** Shows what is due now and sets the timer for what is due next. */
  replan(previous: PlannerReservation[] | null, horizon: DateTime | null): Promise<void>;
  /** Puts a shown notification off: it is raised again, once, when its snooze ends (see `snoozedUntil`). */
  snooze(notificationId: string): Promise<void>;
  cancel(): void;
}

export function createNotificationSchedule(options: NotificationScheduleOptions): NotificationSchedule {
  const { clock, state, session, notifier } = options;
  let wakeTimer: TimerHandle | null = null;

  function cancel(): void {
    if (wakeTimer !== null) clock.clearTimeout(wakeTimer);
    wakeTimer = null;
  }

  async function replan(previous: PlannerReservation[] | null, horizon: DateTime | null): Promise<void> {
    cancel();
    const account = session.account;
    if (account === null) return;
    const now = clock.now();
    const current = plannerReservations(state.data);
    const plan = planNotifications({ now, zone: account.timezone, timeFormat: state.timeFormat, reservations: current, previous, settings: state.settings, shown: state.shown, snoozed: state.snoozed, horizon });
    // A snooze ends once: what is not due again now never will be (it no longer applies).
    for (const [id, until] of state.snoozed) if (until <= now) state.snoozed.delete(id);
    for (const notification of plan.due) {
      state.shown.add(notification.id);
      const { id, referenceNumber, title, body, actions } = notification;
      const shownResult = await notifier.show({ id, referenceNumber, title, body, actions });
      state.notifierProblem = shownResult.ok ? null : shownResult.problem;
    }
    state.shown = retainShown(state.shown, current, now);
    if (session.account !== account) return;
    if (plan.nextWakeAt !== null) {
      const delay = Math.max(0, plan.nextWakeAt.toMillis() - clock.now().toMillis());
      wakeTimer = clock.setTimeout(() => {
        wakeTimer = null;
        options.track(replan(null, null).then(() => options.woke()));
      }, delay);
    }
  }

  async function snooze(notificationId: string): Promise<void> {
    const until = snoozedUntil(notificationId, clock.now());
    if (until === null || !state.shown.has(notificationId)) return;
    state.snoozed.set(notificationId, until);
    await replan(null, null);
  }

  return { replan, snooze, cancel };
}
