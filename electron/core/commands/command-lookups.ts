/** What several commands look up: who is signed in, a resource, a reservation as the server holds it. */
import type { ApiClient, ApiResult } from '../../api/client.js';
import type { BridgeResult } from '../../bridge/contract.js';
import type { CommandContext } from './command-context.js';
import { commandMessages } from './command-messages.js';
import { failure, invalidInput, signedOutError, success } from '../errors.js';
import { bridgeErrorFromSession, type SessionResult } from '../session/session-errors.js';
import type { ViewContext } from '../views/reservation-view.js';
import type { WireReservation, WireResource, WireSummary } from '../../api/wire.js';

export interface CommandLookups {
  run<T>(action: (client: ApiClient) => Promise<ApiResult<T>>): Promise<SessionResult<T>>;
  /** The view context, or the reason there is none. */
  signedIn(): BridgeResult<ViewContext>;
  findResource(resourceId: number): Promise<BridgeResult<WireResource>>;
  /** The listed summary of a reservation, if the last polls saw it. */
  knownSummary(referenceNumber: string): WireSummary | undefined;
  /** GetReservation: what the server holds now, the only trustworthy answer after a write. */
  readBack(referenceNumber: string): Promise<SessionResult<WireReservation>>;
}

export function createCommandLookups(context: CommandContext): CommandLookups {
  const run = <T>(action: (client: ApiClient) => Promise<ApiResult<T>>) => context.session.run(action);
  return {
    run,
    signedIn() {
      const view = context.view.viewContext();
      return view === null ? failure(signedOutError()) : success(view);
    },
    async findResource(resourceId) {
      const listed = await context.reference.resources();
      if (listed.ok) {
        const found = listed.value.find((resource) => resource.resourceId === resourceId);
        if (found) return success(found);
      }
      const single = await run((client) => client.getResource({ params: { resourceId } }));
      if (single.ok) return success(single.value);
      if (single.error.kind === 'notFound') return failure(invalidInput(commandMessages.unknownResource));
      return failure(bridgeErrorFromSession(single.error));
    },
    knownSummary: (referenceNumber) => context.state.data.reservations.find((summary) => summary.referenceNumber === referenceNumber),
    readBack: (referenceNumber) => run((client) => client.getReservation({ params: { referenceNumber } })),
  };
}
