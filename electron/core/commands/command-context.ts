import type { AccountFlow } from '../account/account-flow.js';
import type { StartTimeRules } from '../session/start-time-rules.js';
import type { CoreEvents } from '../core-events.js';
import type { CoreState } from '../core-state.js';
import type { CoreView } from '../views/snapshot.js';
import type { AccountSession } from '../session/session.js';
import type { ReferenceData } from '../sync/reference-data.js';
import type { Sync } from '../sync/sync.js';
import type { UserSettings } from '../user-settings.js';

/**
 * What the commands work with: the core's objects themselves, each made once in perch-core.ts and
 * handed over as they are, so that a command calls the object that does the work.
 */
export interface CommandContext {
  /** The data as last read (the polls' reservations, the reference data, who is busy). */
  state: CoreState;
  /** Who is signed in, and the one way to the server. */
  session: AccountSession;
  /** Sign-in, "Try it on this computer" and sign-out. */
  accounts: Pick<AccountFlow, 'signIn' | 'tryThisComputer' | 'signOut'>;
  /** The user's reservations and who is busy, kept in step with the server. */
  sync: Pick<Sync, 'refreshReservations' | 'reservationChanged'>;
  /** Resources, schedules and reservation attributes, from the cache while fresh. */
  reference: ReferenceData;
  /** What each server lets a normal user change once a reservation has started, learned from its answers. */
  startTimeRules: Pick<StartTimeRules, 'learn'>;
  settings: UserSettings;
  /** The snapshot the UI is shown, and the context views are made in. */
  view: CoreView;
  /** Asks the shell to hide the popover, open a page, copy text, or open the Book form. */
  events: Pick<CoreEvents, 'emit'>;
}
