/**
 * What the popover asks about one reservation beyond the list: its details (description, every
 * resource, the people), its page on the server's website, and its details on the clipboard.
 */
import type { BridgeResult, CopyTextRequest, ReferenceRequest, ReservationDetailsView } from '../../bridge/contract.js';
import type { CommandContext } from './command-context.js';
import type { CommandLookups } from './command-lookups.js';
import { failure, invalidInput, success } from '../errors.js';
import { serverReservationPage } from '../session/server-url.js';
import { bridgeErrorFromSession } from '../session/session-errors.js';
import { fullName } from '../reservations.js';

export const detailMessages = {
  noWebsite: 'The service on this computer has no web page; everything it keeps is in Perch.',
} as const;

export interface ReservationDetails {
  getReservationDetails(request: ReferenceRequest): Promise<BridgeResult<ReservationDetailsView>>;
  openOnServer(request: ReferenceRequest): Promise<BridgeResult<null>>;
  copyText(request: CopyTextRequest): Promise<BridgeResult<null>>;
}

export function createReservationDetails(context: CommandContext, lookups: CommandLookups): ReservationDetails {
  return {
    async getReservationDetails({ referenceNumber }) {
      const view = lookups.signedIn();
      if (!view.ok) return view;
      const detail = await lookups.readBack(referenceNumber);
      if (!detail.ok) return failure(bridgeErrorFromSession(detail.error));
      const { description, resources, resourceId, participants, invitees } = detail.value;
      const main = resources.filter((resource) => resource.id === resourceId);
      const names = (people: typeof participants) =>
        people.map((person) => fullName(person.firstName, person.lastName)).filter((name) => name !== '');
      return success({
        referenceNumber: detail.value.referenceNumber,
        description: description.trim(),
        resourceNames: [...main, ...resources.filter((resource) => resource.id !== resourceId)].map((resource) => resource.name),
        participants: names(participants),
        invitees: names(invitees),
      });
    },

    async openOnServer({ referenceNumber }) {
      const view = lookups.signedIn();
      if (!view.ok) return view;
      const account = context.session.account!;
      const page = account.server.kind === 'remote' ? serverReservationPage(account.apiRoot, referenceNumber) : null;
      if (page === null) return failure(invalidInput(detailMessages.noWebsite));
      context.events.emit('openExternal', page);
      return success(null);
    },

    async copyText({ text }) {
      context.events.emit('copyText', text);
      return success(null);
    },
  };
}
