/**
 * The commands the popover and the tray menu call. Each answers a value — a result or a typed
 * error the UI can show — and never throws across the bridge. Input is checked against what
 * the server will demand so that the user learns it before anything is sent; what the server
 * still refuses is shown in its own words.
 */
import type { BridgeError, BridgeResult, CommandHandlers, SettingsPatch } from '../../bridge/contract.js';
import { createBooking } from './booking.js';
import type { CommandContext } from './command-context.js';
import { createCommandLookups } from './command-lookups.js';
import { errorFromThrown, failure, success } from '../errors.js';
import { createExtensionOffer } from './extension-offer.js';
import { createFreeAt } from './free-at.js';
import { createListCommands } from './list-commands.js';
import { createPhraseCommands } from './book-phrase.js';
import { createRecurrenceLookup } from './recurrence.js';
import { createReservationActions } from './reservation-actions.js';
import { createReservationDetails } from './reservation-details.js';
import { applySettingsPatch } from '../storage/settings-store.js';

const guarded =
  <R, A extends unknown[]>(command: (...args: A) => Promise<R>, onError: (error: BridgeError) => R) =>
  async (...args: A): Promise<R> => {
    try {
      return await command(...args);
    } catch (thrown) {
      return onError(errorFromThrown(thrown));
    }
  };

const asResult = <A extends unknown[], T>(command: (...args: A) => Promise<BridgeResult<T>>) => guarded(command, (error) => failure<T>(error));

export function createCommandHandlers(context: CommandContext): CommandHandlers {
  const lookups = createCommandLookups(context);
  const book = createBooking(context, lookups);
  const actions = createReservationActions(context, lookups);
  const lists = createListCommands(context, lookups);
  const freeAt = createFreeAt(context, lookups);
  const phrases = createPhraseCommands(context, lookups, freeAt, book);
  const details = createReservationDetails(context, lookups);

  return {
    getState: guarded(async () => context.snapshot(), () => context.snapshot()),
    refresh: guarded(() => context.refresh(), () => context.snapshot()),
    reloadEverything: guarded(() => context.reloadEverything(), () => context.snapshot()),
    signIn: asResult((request) => context.signIn(request)),
    tryThisComputer: asResult(() => context.tryThisComputer()),
    signOut: asResult(() => context.signOut()),
    book: asResult(book),
    checkIn: asResult(({ referenceNumber }) => actions.checkInOrOut(referenceNumber, 'in')),
    checkOut: asResult(({ referenceNumber }) => actions.checkInOrOut(referenceNumber, 'out')),
    cancel: asResult(actions.cancel),
    release: asResult(actions.release),
    extend: asResult(actions.extend),
    offerExtension: asResult(createExtensionOffer(context, lookups)),
    retitle: asResult(actions.retitle),
    move: asResult(actions.move),
    getRecurrence: asResult(createRecurrenceLookup(context, lookups)),
    getReservationDetails: asResult(details.getReservationDetails),
    openOnServer: asResult(details.openOnServer),
    copyText: asResult(details.copyText),
    listSchedules: asResult(lists.listSchedules),
    listResources: asResult(lists.listResources),
    listSlots: asResult(lists.listSlots),
    listReservationAttributes: asResult(lists.listReservationAttributes),
    getSettings: guarded(async () => structuredClone(await context.readSettings()), () => structuredClone(context.settings())),
    setSettings: asResult(async (patch: SettingsPatch) => {
      const applied = applySettingsPatch(await context.readSettings(), patch);
      if (!applied.ok) return applied;
      const saved = await context.saveSettings(applied.value);
      if (!saved.ok) return saved;
      return success(structuredClone(applied.value));
    }),
    hidePopover: async () => {
      context.hidePopover();
      return null;
    },
    freeAt: asResult(freeAt),
    readPhrase: asResult(phrases.readPhrase),
    bookPhrase: asResult(phrases.bookPhrase),
    openBookForm: async (draft) => {
      context.openBookForm(draft);
      return null;
    },
  };
}
