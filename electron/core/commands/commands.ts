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

const asResult = <A extends unknown[], T>(command: (...args: A) => Promise<BridgeResult<T>>) =>
  guarded(command, (error) => failure<T>(error));

export function createCommandHandlers(context: CommandContext): CommandHandlers {
  const { session, accounts, sync, reference, settings, view, events } = context;
  const lookups = createCommandLookups(context);
  const book = createBooking(context, lookups);
  const actions = createReservationActions(context, lookups);
  const lists = createListCommands(context, lookups);
  const freeAt = createFreeAt(context, lookups);
  const phrases = createPhraseCommands(context, lookups, freeAt, book);
  const details = createReservationDetails(context, lookups);

  /** The 14-day list and who is busy now; the reference data only when stale (the look's poll reads it then). */
  async function refresh() {
    if (session.account !== null) await sync.refreshReservations();
    return view.snapshot();
  }

  /** The refresh, and the reference data (resources, schedules, groups, attributes, permissions) read again. */
  async function reloadEverything() {
    if (session.account === null) return view.snapshot();
    // Started first, so that the look's poll joins this read and works Free now out against it.
    await Promise.all([reference.refresh(true), sync.refreshReservations()]);
    return view.snapshot();
  }

  return {
    getState: guarded(
      async () => view.snapshot(),
      () => view.snapshot(),
    ),
    refresh: guarded(refresh, () => view.snapshot()),
    reloadEverything: guarded(reloadEverything, () => view.snapshot()),
    signIn: asResult((request) => accounts.signIn(request)),
    tryThisComputer: asResult(() => accounts.tryThisComputer()),
    signOut: asResult(() => accounts.signOut()),
    book: asResult(book),
    checkIn: asResult(({ referenceNumber }) => actions.checkInOrOut(referenceNumber, 'in')),
    checkOut: asResult(({ referenceNumber }) => actions.checkInOrOut(referenceNumber, 'out')),
    cancel: asResult(actions.cancel),
    release: asResult(actions.release),
    extend: asResult(actions.extend),
    offerExtension: asResult(createExtensionOffer(lookups)),
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
    getSettings: guarded(
      async () => structuredClone(await settings.read()),
      () => structuredClone(settings.current()),
    ),
    setSettings: asResult(async (patch: SettingsPatch) => {
      const applied = applySettingsPatch(await settings.read(), patch);
      if (!applied.ok) return applied;
      const saved = await settings.save(applied.value);
      if (!saved.ok) return saved;
      return success(structuredClone(applied.value));
    }),
    hidePopover: async () => {
      events.emit('hidePopover', null);
      return null;
    },
    freeAt: asResult(freeAt),
    readPhrase: asResult(phrases.readPhrase),
    bookPhrase: asResult(phrases.bookPhrase),
    openBookForm: async (draft) => {
      // Through the navigate event, which shows the popover.
      events.emit('navigate', { book: draft });
      return null;
    },
  };
}
