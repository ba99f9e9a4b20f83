/**
 * The commands the popover and the tray menu call. Each answers a value — a result or a typed
 * error the UI can show — and never throws across the bridge. Input is checked here against what
 * the server will demand (length limits, slot boundaries, a free resource) so that the user learns
 * it before anything is sent; what the server still refuses is shown in its own words.
 */
import type { Static } from '@sinclair/typebox';
import { DateTime } from 'luxon';
import type { ApiClient, ApiResult } from '../api/client.js';
import { formatWireDateTime } from '../api/dates.js';
import { parseHumanDuration } from '../api/durations.js';
import { AttributeCategory } from '../api/schemas/attributes.js';
import type { ReservationBody } from '../api/schemas/reservations.js';
import { ResourceStatus } from '../api/schemas/resources.js';
import type {
  BookingOutcome,
  BookRequest,
  BridgeError,
  BridgeResult,
  CommandHandlers,
  ReservationView,
  Settings,
  SettingsPatch,
  SignInRequest,
  StateSnapshot,
} from '../bridge.js';
import { errorFromThrown, failure, invalidInput, signedOutError, success, unexpected } from './errors.js';
import { bridgeErrorFromSession, type AccountSession, type SessionResult } from './session.js';
import { applySettingsPatch } from './settings-store.js';
import {
  attributeView,
  detailView,
  resourceSlots,
  resourceView,
  scheduleView,
  slotViews,
  wireInstant,
  type ViewContext,
  type WireReservation,
  type WireResource,
  type WireSchedule,
  type WireSlots,
  type WireSummary,
} from './state.js';

type WireReservationBody = Static<typeof ReservationBody>;

/** What the commands need from the core around them. */
export interface CommandContext {
  session: AccountSession;
  snapshot(): StateSnapshot;
  /** Context for views of this moment (zone, user, check-in lead). */
  viewContext(): ViewContext | null;
  signIn(request: SignInRequest): Promise<BridgeResult<StateSnapshot>>;
  /** Starts the local service and signs in to the person's own account there. */
  tryThisComputer(): Promise<BridgeResult<StateSnapshot>>;
  signOut(): Promise<BridgeResult<StateSnapshot>>;
  /** Everything again: the 14-day list, availability, resources and schedules. */
  refresh(): Promise<StateSnapshot>;
  settings(): Settings;
  saveSettings(settings: Settings): Promise<void>;
  /** Resources and schedules, from the cache when it is less than an hour old. */
  resources(): Promise<SessionResult<WireResource[]>>;
  schedules(): Promise<SessionResult<WireSchedule[]>>;
  /** The listed summary of a reservation, if the last polls saw it. */
  knownSummary(referenceNumber: string): WireSummary | undefined;
  /** One reservation changed (check-in, check-out, extension): fold it into the state at once. */
  reservationChanged(detail: WireReservation): void;
  /** Reservations were created or deleted: fetch the user's list and availability again. */
  reservationsChanged(): Promise<void>;
}

export const commandMessages = {
  checkInNotConfirmed: 'The server did not confirm the check-in.',
  checkOutNotConfirmed: 'The server did not confirm the check-out.',
  cancelNotConfirmed: 'The server did not confirm the cancellation.',
  extendNotConfirmed: 'The server did not confirm the new end time.',
  bookingNotConfirmed: 'The server did not confirm the booking.',
  serverFailed: (action: string, detail: string) =>
    `The server failed while ${action} (${detail}). Try again in a moment; if it keeps failing, use the server's web page.`,
  invalidStart: 'The start is not a valid date and time.',
  invalidEnd: 'The end is not a valid date and time.',
  endOrDuration: 'Give either an end time or a duration.',
  endAfterStart: 'The end must be after the start.',
  unknownResource: 'That resource does not exist, or you may not book it.',
  resourceUnavailable: (name: string) => `${name} is not available for booking.`,
  tooShort: (name: string, limit: string) => `${name} must be booked for at least ${limit}.`,
  tooLong: (name: string, limit: string) => `${name} cannot be booked for longer than ${limit}.`,
  notSlotStart: (name: string, time: string) => `Bookings of ${name} must start at the beginning of a bookable slot; ${time} is not one.`,
  notSlotEnd: (name: string, time: string) => `Bookings of ${name} must end at the end of a bookable slot; ${time} is not one.`,
  blocked: (name: string, from: string, to: string, label: string) =>
    `${name} cannot be booked from ${from} to ${to}${label === '' ? '' : ` (${label})`}.`,
  bookedFrom: (name: string, time: string) => `${name} is booked from ${time}.`,
  notExtendable: (name: string) => `${name} cannot be booked any longer than this.`,
} as const;

/** `1 hour 30 minutes`, for messages. */
export function describeMinutes(total: number): string {
  const days = Math.floor(total / 1440);
  const hours = Math.floor((total % 1440) / 60);
  const minutes = total % 60;
  const parts: string[] = [];
  if (days > 0) parts.push(`${days} ${days === 1 ? 'day' : 'days'}`);
  if (hours > 0) parts.push(`${hours} ${hours === 1 ? 'hour' : 'hours'}`);
  if (minutes > 0 || parts.length === 0) parts.push(`${minutes} ${minutes === 1 ? 'minute' : 'minutes'}`);
  return parts.join(' ');
}

/** A time for a message: `14:30`, with the date when it is not the day of `reference`. */
function describeTime(instant: DateTime, zone: string, reference: DateTime): string {
  const local = instant.setZone(zone).setLocale('en-GB');
  return local.hasSame(reference.setZone(zone), 'day') ? local.toFormat('HH:mm') : local.toFormat('ccc d LLL HH:mm');
}

/** The UI sends ISO 8601 with an offset; one without is read in the user's zone. */
function readInstant(text: string, zone: string): DateTime | null {
  const parsed = DateTime.fromISO(text.trim(), { zone, setZone: true });
  return parsed.isValid ? parsed : null;
}

interface SlotSpan {
  startMs: number;
  endMs: number;
  isReservable: boolean;
  isReserved: boolean;
  label: string;
}

function slotSpans(slots: WireSlots, resourceId: number): SlotSpan[] {
  return resourceSlots(slots, resourceId).map(({ start, end, slot }) => ({
    startMs: start.toMillis(),
    endMs: end.toMillis(),
    isReservable: slot.isReservable,
    isReserved: slot.isReserved,
    label: slot.label ?? '',
  }));
}

function slotProblem(spans: readonly SlotSpan[], start: DateTime, end: DateTime, name: string, zone: string): string | null {
  const startMs = start.toMillis();
  const endMs = end.toMillis();
  const overlapping = spans.filter((span) => span.startMs < endMs && span.endMs > startMs);
  if (overlapping.some((span) => span.isReserved)) return null;
  const time = (ms: number) => describeTime(DateTime.fromMillis(ms), zone, start);
  const blocked = overlapping.find((span) => !span.isReservable);
  if (blocked) return commandMessages.blocked(name, time(blocked.startMs), time(blocked.endMs), blocked.label);
  if (!overlapping.some((span) => span.startMs === startMs)) return commandMessages.notSlotStart(name, time(startMs));
  if (!overlapping.some((span) => span.endMs === endMs)) return commandMessages.notSlotEnd(name, time(endMs));
  for (let index = 1; index < overlapping.length; index += 1) {
    // A gap: the schedule's slots do not cover the time in between (days beyond the answer).
    if (overlapping[index]!.startMs !== overlapping[index - 1]!.endMs) return commandMessages.notSlotEnd(name, time(overlapping[index - 1]!.endMs));
  }
  return null;
}

/** Everything a reservation is made of, so an update changes only what it means to change. */
export function fullBodyOf(detail: WireReservation, summary: WireSummary | undefined): WireReservationBody {
  const rule = detail.recurrenceRule;
  return {
    title: detail.title,
    description: detail.description,
    allowParticipation: detail.allowParticipation ?? false,
    termsAccepted: true,
    resourceId: detail.resourceId,
    resources: detail.resources.map((resource) => resource.id).filter((id) => id !== detail.resourceId),
    participants: detail.participants.map((person) => person.userId),
    invitees: detail.invitees.map((person) => person.userId),
    participatingGuests: summary?.participatingGuests ?? [],
    invitedGuests: summary?.invitedGuests ?? [],
    accessories: detail.accessories.map((accessory) => ({ accessoryId: accessory.id, quantityRequested: accessory.quantityReserved })),
    // GetReservation lists every reservation attribute, also ones limited to other resources,
    // which a server refuses to receive here; the values set are what the reservation holds.
    customAttributes: detail.customAttributes
      .filter((attribute) => attribute.value !== null && attribute.value !== '')
      .map((attribute) => ({ attributeId: attribute.id, attributeValue: attribute.value })),
    startReminder: detail.startReminder,
    endReminder: detail.endReminder,
    recurrenceRule: {
      type: rule.type,
      interval: rule.interval !== null && rule.interval >= 1 ? rule.interval : null,
      monthlyType: rule.monthlyType,
      weekdays: rule.weekdays,
      repeatTerminationDate: rule.repeatTerminationDate,
    },
    startDateTime: detail.startDate,
    endDateTime: detail.endDate,
  };
}

export function createCommandHandlers(context: CommandContext): CommandHandlers {
  const { session } = context;

  const run = <T>(action: (client: ApiClient) => Promise<ApiResult<T>>) => session.run(action);

  /** The view context, or the reason there is none. */
  function signedIn(): BridgeResult<ViewContext> {
    const view = context.viewContext();
    return view === null ? failure(signedOutError()) : success(view);
  }

  async function findResource(resourceId: number): Promise<BridgeResult<WireResource>> {
    const listed = await context.resources();
    if (listed.ok) {
      const found = listed.data.find((resource) => resource.resourceId === resourceId);
      if (found) return success(found);
    }
    const single = await run((client) => client.getResource({ params: { resourceId } }));
    if (single.ok) return success(single.data);
    if (single.error.kind === 'notFound') return failure(invalidInput(commandMessages.unknownResource));
    return failure(bridgeErrorFromSession(single.error));
  }

  async function scheduleZone(scheduleId: number, fallback: string): Promise<string> {
    const schedules = await context.schedules();
    const zone = schedules.ok ? schedules.data.find((schedule) => schedule.id === scheduleId)?.timezone : undefined;
    return zone !== undefined && DateTime.now().setZone(zone).isValid ? zone : fallback;
  }

  /** GetReservation: what the server holds now, the only trustworthy answer after a write. */
  const readBack = (referenceNumber: string) => run((client) => client.getReservation({ params: { referenceNumber } }));

  function requiresCheckIn(detail: WireReservation): boolean {
    return context.knownSummary(detail.referenceNumber)?.isCheckInEnabled ?? detail.autoReleaseMinutes !== null;
  }

  function viewOrError(detail: WireReservation, view: ViewContext, requires = requiresCheckIn(detail)): BridgeResult<ReservationView> {
    context.reservationChanged(detail);
    const result = detailView(detail, requires, view);
    return result === null ? failure(unexpected("The server's answer about the reservation has no valid dates.")) : success(result);
  }

  /**
   * Check-in and check-out: the POST's answer is not trusted on its own (real servers answer an
   * empty 200 for things they did not do, or crash after doing them), so the reservation is
   * read again and its dates decide.
   */
  async function checkInOrOut(referenceNumber: string, direction: 'in' | 'out'): Promise<BridgeResult<ReservationView>> {
    const view = signedIn();
    if (!view.ok) return view;
    const answer = await run((client) =>
      direction === 'in' ? client.checkinReservation({ params: { referenceNumber } }) : client.checkoutReservation({ params: { referenceNumber } }),
    );
    // Refusals (400) and sign-in problems are the server's final word; anything else is re-read.
    if (!answer.ok && answer.error.kind !== 'unexpectedBody' && answer.error.kind !== 'server') return failure(bridgeErrorFromSession(answer.error));
    const detail = await readBack(referenceNumber);
    const done = detail.ok && (direction === 'in' ? detail.data.checkInDate : detail.data.checkOutDate) !== null;
    if (detail.ok && done) return viewOrError(detail.data, view.value, direction === 'in' ? true : requiresCheckIn(detail.data));
    if (!answer.ok && answer.error.kind === 'server') {
      return failure({ kind: 'server', message: commandMessages.serverFailed(direction === 'in' ? 'checking in' : 'checking out', answer.error.message) });
    }
    if (!detail.ok && detail.error.kind !== 'notFound') return failure(bridgeErrorFromSession(detail.error));
    return failure(unexpected(direction === 'in' ? commandMessages.checkInNotConfirmed : commandMessages.checkOutNotConfirmed));
  }

  async function book(request: BookRequest): Promise<BridgeResult<BookingOutcome>> {
    const view = signedIn();
    if (!view.ok) return view;
    const { zone } = view.value;
    const account = session.account!;
    const start = readInstant(request.start, zone);
    if (start === null) return failure(invalidInput(commandMessages.invalidStart));
    let end: DateTime | null;
    if (request.end !== undefined) {
      end = readInstant(request.end, zone);
      if (end === null) return failure(invalidInput(commandMessages.invalidEnd));
    } else if (request.durationMinutes !== undefined) {
      end = start.plus({ minutes: request.durationMinutes });
    } else {
      return failure(invalidInput(commandMessages.endOrDuration));
    }
    if (end.toMillis() <= start.toMillis()) return failure(invalidInput(commandMessages.endAfterStart));

    const resource = await findResource(request.resourceId);
    if (!resource.ok) return resource;
    const { name } = resource.value;
    if (resource.value.statusId !== ResourceStatus.available) return failure(invalidInput(commandMessages.resourceUnavailable(name)));
    // Servers apply length limits to everyone but administrators.
    if (!account.isAdmin) {
      const minutes = Math.round(end.diff(start, 'minutes').minutes);
      const min = parseHumanDuration(resource.value.minLength);
      const max = parseHumanDuration(resource.value.maxLength);
      if (min !== null && min > 0 && minutes < min) return failure(invalidInput(commandMessages.tooShort(name, describeMinutes(min))));
      if (max !== null && max > 0 && minutes > max) return failure(invalidInput(commandMessages.tooLong(name, describeMinutes(max))));
    }

    const slotZone = await scheduleZone(resource.value.scheduleId, zone);
    const slots = await run((client) =>
      client.getSlots({
        params: { scheduleId: resource.value.scheduleId },
        query: {
          resourceId: String(request.resourceId),
          startDateTime: start.setZone(slotZone).toISODate() ?? undefined,
          endDateTime: end.setZone(slotZone).toISODate() ?? undefined,
        },
      }),
    );
    if (!slots.ok) return failure(bridgeErrorFromSession(slots.error));
    const problem = slotProblem(slotSpans(slots.data, request.resourceId), start, end, name, zone);
    if (problem !== null) return failure(invalidInput(problem));

    const body: WireReservationBody = {
      title: request.title,
      description: request.description ?? '',
      allowParticipation: false,
      termsAccepted: true,
      participants: [],
      invitees: [],
      participatingGuests: [],
      invitedGuests: [],
      accessories: [],
      customAttributes: (request.customAttributes ?? []).map((attribute) => ({ attributeId: attribute.attributeId, attributeValue: attribute.value })),
      resourceId: request.resourceId,
      resources: [],
      startDateTime: formatWireDateTime(start.setZone(zone)),
      endDateTime: formatWireDateTime(end.setZone(zone)),
    };
    const created = await run((client) => client.createReservation({ body }));
    if (!created.ok) {
      // A POST that may have landed is not sent twice; an unreadable 2xx is no confirmation.
      if (created.error.kind === 'unexpectedBody') return failure(unexpected(commandMessages.bookingNotConfirmed));
      return failure(bridgeErrorFromSession(created.error));
    }
    await context.reservationsChanged();
    return success({ referenceNumber: created.data.referenceNumber, isPendingApproval: created.data.isPendingApproval });
  }

  async function extend(referenceNumber: string, minutes: number): Promise<BridgeResult<ReservationView>> {
    const view = signedIn();
    if (!view.ok) return view;
    const { zone } = view.value;
    const current = await readBack(referenceNumber);
    if (!current.ok) return failure(bridgeErrorFromSession(current.error));
    const detail = current.data;
    const end = wireInstant(detail.endDate);
    if (end === null) return failure(unexpected("The server's answer about the reservation has no valid end."));
    const newEnd = end.plus({ minutes });
    const name = detail.resources.find((resource) => resource.id === detail.resourceId)?.name ?? 'The resource';

    // Real servers answer every resource here; the one asked about is picked out.
    const availability = await run((client) =>
      client.getResourceAvailability({ params: { resourceId: detail.resourceId }, query: { dateTime: formatWireDateTime(end.setZone(zone)) } }),
    );
    if (!availability.ok) return failure(bridgeErrorFromSession(availability.error));
    const item = availability.data.resources.find((candidate) => candidate.resource.resourceId === detail.resourceId);
    if (!item || item.resource.statusId !== ResourceStatus.available) return failure(invalidInput(commandMessages.resourceUnavailable(name)));
    if (!item.available) {
      return failure(invalidInput(commandMessages.bookedFrom(name, describeTime(end, zone, end))));
    }
    const until = wireInstant(item.availableUntil);
    if (until !== null && until.toMillis() < newEnd.toMillis()) {
      return failure(invalidInput(commandMessages.bookedFrom(name, describeTime(until, zone, end))));
    }

    const body: WireReservationBody = { ...fullBodyOf(detail, context.knownSummary(referenceNumber)), endDateTime: formatWireDateTime(newEnd.setZone(zone)) };
    const updated = await run((client) => client.updateReservation({ params: { referenceNumber }, query: { updateScope: 'this' }, body }));
    if (!updated.ok && updated.error.kind !== 'unexpectedBody') return failure(bridgeErrorFromSession(updated.error));
    // `this` detaches an occurrence of a series, which may give it a new reference number.
    const changedReference = updated.ok ? updated.data.referenceNumber : referenceNumber;
    const after = await readBack(changedReference === '' ? referenceNumber : changedReference);
    if (!after.ok) return failure(bridgeErrorFromSession(after.error));
    const afterEnd = wireInstant(after.data.endDate);
    if (afterEnd === null || afterEnd.toMillis() !== newEnd.toMillis()) return failure(unexpected(commandMessages.extendNotConfirmed));
    return viewOrError(after.data, view.value);
  }

  async function cancel(referenceNumber: string, scope: 'this' | 'future' | 'full'): Promise<BridgeResult<StateSnapshot>> {
    const view = signedIn();
    if (!view.ok) return view;
    // Always explicit: real servers read a missing scope as `full`, the spec as `this`.
    const deleted = await run((client) => client.deleteReservation({ params: { referenceNumber }, query: { updateScope: scope } }));
    if (!deleted.ok) {
      if (deleted.error.kind !== 'unexpectedBody') return failure(bridgeErrorFromSession(deleted.error));
      const check = await readBack(referenceNumber);
      if (check.ok) return failure(unexpected(commandMessages.cancelNotConfirmed));
      if (check.error.kind !== 'notFound') return failure(bridgeErrorFromSession(check.error));
    }
    await context.reservationsChanged();
    return success(context.snapshot());
  }

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

  const handlers: CommandHandlers = {
    getState: guarded(async () => context.snapshot(), () => context.snapshot()),
    refresh: guarded(() => context.refresh(), () => context.snapshot()),
    signIn: asResult((request: SignInRequest) => context.signIn(request)),
    tryThisComputer: asResult(() => context.tryThisComputer()),
    signOut: asResult(() => context.signOut()),
    book: asResult((request: BookRequest) => book(request)),
    checkIn: asResult(({ referenceNumber }: { referenceNumber: string }) => checkInOrOut(referenceNumber, 'in')),
    checkOut: asResult(({ referenceNumber }: { referenceNumber: string }) => checkInOrOut(referenceNumber, 'out')),
    cancel: asResult(({ referenceNumber, scope }: { referenceNumber: string; scope: 'this' | 'future' | 'full' }) => cancel(referenceNumber, scope)),
    extend: asResult(({ referenceNumber, minutes }: { referenceNumber: string; minutes: number }) => extend(referenceNumber, minutes)),
    listSchedules: asResult(async () => {
      const view = signedIn();
      if (!view.ok) return view;
      const schedules = await context.schedules();
      return schedules.ok ? success(schedules.data.map(scheduleView)) : failure(bridgeErrorFromSession(schedules.error));
    }),
    listResources: asResult(async () => {
      const view = signedIn();
      if (!view.ok) return view;
      const resources = await context.resources();
      return resources.ok ? success(resources.data.map(resourceView)) : failure(bridgeErrorFromSession(resources.error));
    }),
    listSlots: asResult(async ({ resourceId, date }: { resourceId: number; date: string }) => {
      const view = signedIn();
      if (!view.ok) return view;
      const resource = await findResource(resourceId);
      if (!resource.ok) return resource;
      const slots = await run((client) =>
        client.getSlots({ params: { scheduleId: resource.value.scheduleId }, query: { resourceId: String(resourceId), startDateTime: date, endDateTime: date } }),
      );
      return slots.ok ? success(slotViews(slots.data, resourceId, view.value.zone)) : failure(bridgeErrorFromSession(slots.error));
    }),
    listReservationAttributes: asResult(async () => {
      const view = signedIn();
      if (!view.ok) return view;
      const attributes = await run((client) => client.getCategoryAttributes({ params: { categoryId: AttributeCategory.reservation } }));
      if (!attributes.ok) return failure(bridgeErrorFromSession(attributes.error));
      // Only administrators may set admin-only attributes; offering them to others would only earn a refusal.
      const isAdmin = session.account?.isAdmin ?? false;
      return success(attributes.data.attributes.filter((attribute) => isAdmin || !attribute.adminOnly).map(attributeView));
    }),
    getSettings: guarded(async () => structuredClone(context.settings()), () => structuredClone(context.settings())),
    setSettings: asResult(async (patch: SettingsPatch) => {
      const applied = applySettingsPatch(context.settings(), patch);
      if (!applied.ok) return applied;
      await context.saveSettings(applied.value);
      return success(structuredClone(applied.value));
    }),
  };
  return handlers;
}

