/** The core's state as the UI and the commands see it at this moment: the snapshot, and the context views are made in. */
import type { StateSnapshot } from '../bridge/contract.js';
import type { StartTimeRules } from './account/start-time-rules.js';
import type { Clock } from './clock.js';
import type { CoreState } from './core-state.js';
import type { AccountSession } from './session/session.js';
import type { SecretStore } from './storage/secret-store.js';
import { snapshotOf, viewContextOf } from './views/snapshot.js';
import type { ViewContext } from './views/reservation-view.js';

export interface CoreView {
  snapshot(): StateSnapshot;
  /** Context for views of this moment (zone, user); null when signed out. */
  viewContext(): ViewContext | null;
}

export function createCoreView(options: {
  clock: Clock;
  state: CoreState;
  session: Pick<AccountSession, 'account'>;
  secrets: Pick<SecretStore, 'status'>;
  startTimeRules: Pick<StartTimeRules, 'locksStarted'>;
}): CoreView {
  const { clock, state, session, secrets, startTimeRules } = options;
  return {
    snapshot: () => snapshotOf(state, session.account, clock.now(), secrets.status(), startTimeRules.locksStarted(session.account)),
    viewContext: () => viewContextOf(session.account, clock.now(), state.data, startTimeRules.locksStarted(session.account)),
  };
}
