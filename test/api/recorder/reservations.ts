import { DateTime } from 'luxon';
import type { ApiClient } from '../../../electron/api/client.js';
import { newBookingBody, type WireReservationBody } from '../../../electron/core/commands/reservation-body.js';
import { freeSlots, slotFrom, wire, type Bookable, type Journey, type Slot } from './journey.js';
import { members } from './raw.js';

// Far enough ahead that no other step of the journey books there.
const FUTURE_DAYS = { single: 1, recurring: 2 } as const;
const RECURRING_OCCURRENCES = 3;
// Real servers open check-in this long before the start (not exposed by the API).
const CHECK_IN_OPENS_MINUTES = 5;

const UNKNOWN_REFERENCE = '0000000000000000000000';

/** Perch's own body for booking `slot` of `resource`. */
function booking(journey: Journey, resource: Bookable, slot: Slot, title: string): WireReservationBody {
  return newBookingBody(
    { resourceId: resource.id, start: wire(slot.start), title },
    slot.start,
    slot.end,
    journey.zone,
    journey.reservationAttributes,
  );
}

function dailySeries(journey: Journey, resource: Bookable, slot: Slot, title: string): WireReservationBody {
  const termination = slot.start.plus({ days: RECURRING_OCCURRENCES - 1 }).endOf('day');
  return {
    ...booking(journey, resource, slot, title),
    recurrenceRule: { type: 'daily', interval: 1, monthlyType: null, weekdays: null, repeatTerminationDate: wire(termination) },
  };
}

/** Books, reviews, changes, checks in and out, and cancels, recording each answer; removes what it made. */
export async function recordReservations(journey: Journey): Promise<void> {
  const created = new Set<string>();
  const { recorder, user } = journey;
  const create = async (client: ApiClient, variant: string, note: string, body: WireReservationBody): Promise<string | null> => {
    const answer = await recorder.record(client, 'createReservation', variant, note, { body });
    const reference = members(answer.body)['referenceNumber'];
    if (answer.status !== 201 || typeof reference !== 'string') return null;
    created.add(reference);
    return reference;
  };
  const remove = async (client: ApiClient, reference: string, variant: string, note: string, updateScope: 'this' | 'full') => {
    const input = { params: { referenceNumber: reference }, query: { updateScope } };
    let answer = await recorder.record(client, 'deleteReservation', variant, note, input);
    // A normal user may not cancel a booking in progress under `future`; an administrator may.
    if (answer.status !== 200 && journey.admin !== null) {
      answer = await recorder.record(journey.admin, 'deleteReservation', `${variant}-by-admin`, `${note}, by an administrator`, input);
    }
    if (answer.status === 200 && updateScope === 'full') created.delete(reference);
  };
  try {
    await recordBookings(journey, create, remove);
    await recordCheckIns(journey, create, remove);
    await recordApproval(journey, create, remove);
    await recorder.record(user, 'getReservation', 'unknown', 'a reference no reservation has', {
      params: { referenceNumber: UNKNOWN_REFERENCE },
    });
    await recorder.record(user, 'deleteReservation', 'unknown', 'a reference no reservation has', {
      params: { referenceNumber: UNKNOWN_REFERENCE },
      query: { updateScope: 'this' },
    });
  } finally {
    // Whatever a failed step left behind goes too, unrecorded.
    const cleaner = journey.admin ?? user;
    for (const reference of created)
      await cleaner.deleteReservation({ params: { referenceNumber: reference }, query: { updateScope: 'full' } });
  }
}

type Create = (client: ApiClient, variant: string, note: string, body: WireReservationBody) => Promise<string | null>;
type Remove = (client: ApiClient, reference: string, variant: string, note: string, updateScope: 'this' | 'full') => Promise<void>;

async function recordBookings(journey: Journey, create: Create, remove: Remove): Promise<void> {
  const { recorder, user, userId, roles } = journey;
  const now = DateTime.now().setZone(journey.zone);
  const slots = await freeSlots(journey, roles.plain, 'resource-days');
  const single = slotFrom(slots, now.plus({ days: FUTURE_DAYS.single }));
  const series = slotFrom(slots, now.plus({ days: FUTURE_DAYS.recurring }));
  const past = [...slots].reverse().find((slot) => slot.end < now) ?? null;
  if (single === null || series === null) throw new Error(`${roles.plain.name} has no free slot ahead to book.`);

  const singleReference = await create(
    user,
    'single',
    `one booking of ${roles.plain.name} tomorrow`,
    booking(journey, roles.plain, single, 'Recorded single'),
  );
  await create(user, 'conflict', 'the same slot again', booking(journey, roles.plain, single, 'Recorded conflict'));
  if (past !== null) await create(user, 'past-start', 'a slot that has ended', booking(journey, roles.plain, past, 'Recorded past'));
  await create(
    user,
    'end-before-start',
    'end before start',
    booking(journey, roles.plain, { start: single.end, end: single.start }, 'Recorded backwards'),
  );
  const seriesReference = await create(
    user,
    'recurring',
    `daily, ${RECURRING_OCCURRENCES} occurrences`,
    dailySeries(journey, roles.plain, series, 'Recorded series'),
  );

  const window = { userId: String(userId), startDateTime: wire(now), endDateTime: wire(now.plus({ days: 1 }).endOf('day')) };
  await recorder.record(user, 'getReservations', 'user-until-tomorrow', 'the user’s own, now to the end of tomorrow', { query: window });
  await recorder.record(user, 'getReservations', 'user-14-days', 'the user’s own, no dates (the next 14 days)', {
    query: { userId: String(userId) },
  });
  await recorder.record(user, 'getReservations', 'resource-3-days', `${roles.plain.name}, now to three days ahead`, {
    query: { resourceId: String(roles.plain.id), startDateTime: wire(now), endDateTime: wire(now.plus({ days: 3 })) },
  });
  await recorder.record(user, 'getReservations', 'nothing', 'a window a year ahead with no reservation', {
    query: { userId: String(userId), startDateTime: wire(now.plus({ years: 1 })), endDateTime: wire(now.plus({ years: 1, hours: 1 })) },
  });
  if (singleReference === null || seriesReference === null) return;

  await recorder.record(user, 'getReservation', 'single', 'the single booking', { params: { referenceNumber: singleReference } });
  await recorder.record(user, 'getReservation', 'recurring', 'the first occurrence of the series', {
    params: { referenceNumber: seriesReference },
  });
  await recorder.record(user, 'updateReservation', 'single-this', 'retitled with scope this', {
    params: { referenceNumber: singleReference },
    query: { updateScope: 'this' },
    body: booking(journey, roles.plain, single, 'Recorded single, retitled'),
  });
  await recorder.record(user, 'updateReservation', 'recurring-full', 'the whole series retitled from its first occurrence', {
    params: { referenceNumber: seriesReference },
    query: { updateScope: 'full' },
    body: dailySeries(journey, roles.plain, series, 'Recorded series, retitled'),
  });
  await recorder.record(user, 'updateReservation', 'unknown', 'a reference no reservation has', {
    params: { referenceNumber: UNKNOWN_REFERENCE },
    query: { updateScope: 'this' },
    body: booking(journey, roles.plain, single, 'Recorded unknown'),
  });
  const occurrences = await recorder.record(user, 'getReservations', 'series-occurrences', 'the series’ occurrences on its resource', {
    query: {
      resourceId: String(roles.plain.id),
      startDateTime: wire(series.start),
      endDateTime: wire(series.end.plus({ days: RECURRING_OCCURRENCES })),
    },
  });
  const laterReferences = ((members(occurrences.body)['reservations'] as unknown[] | undefined) ?? [])
    .map((item) => members(item)['referenceNumber'])
    .filter((reference): reference is string => typeof reference === 'string' && reference !== seriesReference);
  const [second] = laterReferences;
  if (second !== undefined) await remove(user, second, 'occurrence-this', 'one later occurrence of the series, scope this', 'this');
  await remove(user, seriesReference, 'series-full', 'the series from its first occurrence, scope full', 'full');
  await remove(user, singleReference, 'single', 'the single booking, scope full', 'full');
}

/**
 * A slot whose check-in window is open now: started, or starting within the opening lead. The
 * latest such slot is the one whose auto-release moment is furthest away.
 */
function checkInSlot(slots: Slot[], now: DateTime, latest: boolean): Slot | null {
  const open = slots.filter((slot) => slot.start <= now.plus({ minutes: CHECK_IN_OPENS_MINUTES }) && slot.end > now.plus({ minutes: 1 }));
  return (latest ? open.at(-1) : open[0]) ?? null;
}

/**
 * The booking whose check-in is open now. A normal user may not book a slot in progress under
 * `start.time.constraint` `future`; then an administrator books it for the user.
 */
async function bookNow(journey: Journey, create: Create, resource: Bookable, variant: string, latest: boolean): Promise<string | null> {
  const now = DateTime.now().setZone(journey.zone);
  const slot = checkInSlot(await freeSlots(journey, resource, variant), now, latest);
  if (slot === null) return null;
  const note = `${resource.name} from ${slot.start.toFormat('HH:mm')} (now ${now.toFormat('HH:mm')})`;
  const body = booking(journey, resource, slot, `Recorded ${variant}`);
  const own = await create(journey.user, variant, `the user books the slot in progress: ${note}`, body);
  if (own !== null || journey.admin === null) return own;
  return create(journey.admin, `${variant}-by-admin`, `an administrator books the slot in progress for the user: ${note}`, {
    ...body,
    userId: journey.userId,
  });
}

async function recordCheckIns(journey: Journey, create: Create, remove: Remove): Promise<void> {
  const { recorder, user, roles } = journey;
  const reference = (referenceNumber: string) => ({ params: { referenceNumber } });
  if (roles.checkIn !== null) {
    const now = DateTime.now().setZone(journey.zone);
    const later = slotFrom(await freeSlots(journey, roles.checkIn, 'check-in-days'), now.plus({ days: FUTURE_DAYS.single }));
    const laterReference =
      later === null
        ? null
        : await create(
            user,
            'check-in-tomorrow',
            `${roles.checkIn.name} (check-in) tomorrow`,
            booking(journey, roles.checkIn, later, 'Recorded check-in tomorrow'),
          );
    if (laterReference !== null) {
      await recorder.record(user, 'getReservation', 'check-in-tomorrow', 'check-in not yet open', reference(laterReference));
      await recorder.record(user, 'checkinReservation', 'too-early', 'a day before the start', reference(laterReference));
      await remove(user, laterReference, 'check-in-tomorrow', 'the check-in booking of tomorrow', 'full');
    }
    const nowReference = await bookNow(journey, create, roles.checkIn, 'check-in-now', false);
    if (nowReference !== null) {
      await recorder.record(user, 'getReservation', 'check-in-open', 'check-in open, not checked in', reference(nowReference));
      await recorder.record(user, 'checkoutReservation', 'before-check-in', 'check-out before checking in', reference(nowReference));
      await recorder.record(user, 'checkinReservation', 'open', 'checks in while the window is open', reference(nowReference));
      await recorder.record(user, 'getReservation', 'checked-in', 'checked in', reference(nowReference));
      await recorder.record(
        user,
        'getReservations',
        'schedule-minute',
        'who is busy now in the check-in resource’s schedule (one minute)',
        {
          query: { scheduleId: String(roles.checkIn.scheduleId), startDateTime: wire(now), endDateTime: wire(now.plus({ minutes: 1 })) },
        },
      );
      await recorder.record(user, 'checkinReservation', 'twice', 'checks in a second time', reference(nowReference));
      await recorder.record(user, 'checkoutReservation', 'checked-in', 'checks out', reference(nowReference));
      await recorder.record(user, 'getReservation', 'checked-out', 'checked out: the end is cut to the check-out', reference(nowReference));
      await recorder.record(user, 'checkinReservation', 'after-check-out', 'checks in again after checking out', reference(nowReference));
      await remove(user, nowReference, 'checked-out', 'the checked-out booking', 'full');
    }
  }
  if (roles.autoRelease !== null) {
    const releasing = await bookNow(journey, create, roles.autoRelease, 'auto-release-now', true);
    if (releasing !== null) {
      await recorder.record(user, 'getReservation', 'auto-release', 'a booking on a resource with auto-release', reference(releasing));
      await recorder.record(
        user,
        'checkinReservation',
        'auto-release',
        'check-in on a resource with auto-release (refused past the auto-release moment)',
        reference(releasing),
      );
      await remove(user, releasing, 'auto-release', 'the auto-release booking', 'full');
    }
  }
  await recorder.record(user, 'checkinReservation', 'unknown', 'a reference no reservation has', reference(UNKNOWN_REFERENCE));
  await recorder.record(user, 'checkoutReservation', 'unknown', 'a reference no reservation has', reference(UNKNOWN_REFERENCE));
}

async function recordApproval(journey: Journey, create: Create, remove: Remove): Promise<void> {
  const { recorder, user, admin, roles } = journey;
  const resource = roles.approval;
  if (resource === null) return;
  const now = DateTime.now().setZone(journey.zone);
  const slot = slotFrom(await freeSlots(journey, resource, 'approval-days'), now.plus({ days: FUTURE_DAYS.single }));
  if (slot === null) return;
  const pending = await create(
    user,
    'pending-approval',
    `${resource.name} requires approval`,
    booking(journey, resource, slot, 'Recorded pending'),
  );
  if (pending === null) return;
  await recorder.record(user, 'getReservation', 'pending-approval', 'waiting for approval', { params: { referenceNumber: pending } });
  await recorder.record(user, 'approveReservation', 'by-user', 'the owner, not an approver, approves', {
    params: { referenceNumber: pending },
  });
  if (admin !== null)
    await recorder.record(admin, 'approveReservation', 'by-admin', 'an administrator approves', { params: { referenceNumber: pending } });
  await remove(user, pending, 'pending-approval', 'the booking that needed approval', 'full');
}
