/**
 * What the user does with a notification, carried out: its buttons run the same command handlers
 * as the popover's (so a check-in from a notification is checked and confirmed exactly as one from
 * the popover), snooze goes through the notification schedule, and a click opens the reservation.
 * "I'm not coming" opens it with the question asked, since a notification cannot ask it itself.
 */
import type { BridgeResult, CommandHandlers, EventPayloads, ReservationView } from '../../bridge/contract.js';
import type { CoreEvents } from '../core-events.js';
import { notificationExtendMinutes, type NotificationInvocation } from './notifier.js';

export interface NotificationResponderOptions {
  handlers: Pick<CommandHandlers, 'checkIn' | 'extend'>;
  snooze(notificationId: string): Promise<void>;
  /** Where `navigate` opens the popover on the reservation, with the failure of an action when there was one. */
  events: Pick<CoreEvents, 'emit'>;
}

export function createNotificationResponder(options: NotificationResponderOptions): (invocation: NotificationInvocation) => Promise<void> {
  const { handlers } = options;
  const navigate = (payload: EventPayloads['navigate']) => options.events.emit('navigate', payload);

  /** A failed action must not pass unseen: the popover opens on the reservation with the error. */
  function reportFailure(referenceNumber: string, command: 'checkIn' | 'extend', result: BridgeResult<ReservationView>): void {
    if (!result.ok) navigate({ referenceNumber, failed: { command, error: result.error } });
  }

  return async ({ notificationId, referenceNumber, response }) => {
    switch (response) {
      case 'open':
        navigate({ referenceNumber });
        return;
      case 'snooze':
        await options.snooze(notificationId);
        return;
      case 'notComing':
        // Giving a booking back is asked once more, in the popover, where the answer can be given.
        navigate({ referenceNumber, confirm: 'release' });
        return;
      case 'checkIn':
        reportFailure(referenceNumber, 'checkIn', await handlers.checkIn({ referenceNumber }));
        return;
      case 'extend':
        reportFailure(referenceNumber, 'extend', await handlers.extend({ referenceNumber, minutes: notificationExtendMinutes }));
        return;
    }
  };
}
