import type { DateTime } from 'luxon';
import { formatWireDateTime } from '../../api/dates.js';
import { bookingMessages } from '../domain/booking-rules.js';
import { checkInMessages, checkInOutcome, checkOutOutcome, toWholeSecond } from '../domain/check-in.js';
import { readQueryDateTime, usableZone } from '../domain/query-dates.js';
import { forbidden, invalid, notFound, Violations } from '../errors.js';
import { inTransaction, type Store } from '../store/database.js';
import { approveSeries, recordCheckIn, recordCheckOut } from '../store/occurrence-changes.js';
import { administrationCheck, checkInState, findOccurrence, mayChange, type OccurrenceRow } from '../store/occurrences.js';
import { readReservationDetails } from '../store/reservation-details.js';
import { reservationAnswer, reservationReference } from './reservation-answers.js';
import { summariesById } from './reservation-summaries.js';
import type { Caller, HandlerMap } from './types.js';

const messages = {
  approved: 'The reservation was approved',
  notAllowedToApprove: 'You are not allowed to approve this reservation.',
} as const;

/** GetReservations without dates shows the next two weeks; a start alone gets two weeks after it. */
const defaultWindow = { days: 14 } as const;

const positiveInteger = /^[1-9]\d{0,14}$/;

/** One id filter: absent or blank means no filter; anything but one positive integer is refused. */
function readId(value: string | undefined, parameter: string, violations: Violations): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  if (positiveInteger.test(value.trim())) return Number(value.trim());
  violations.add(`Invalid ${parameter}: ${value}`);
  return undefined;
}

function readDate(value: string | undefined, parameter: string, zone: string, violations: Violations): DateTime | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const parsed = readQueryDateTime(value, zone);
  if (parsed === null) violations.add(`Invalid ${parameter}: ${value}`);
  return parsed ?? undefined;
}

async function requireOccurrence(store: Store, referenceNumber: string): Promise<OccurrenceRow> {
  const row = await findOccurrence(store, referenceNumber);
  if (!row) throw notFound();
  return row;
}

function requireChangeRight(caller: Caller, row: OccurrenceRow): void {
  if (!mayChange(caller, row)) throw forbidden(bookingMessages.notAllowed);
}

export const reservationReadHandlers = {
  /**
   * Unknown ids simply match nothing. The window is always answered (real servers answer null
   * for both ends when nothing matched), in UTC like every list.
   */
  async getReservations({ query }, { store, clock, links, caller }) {
    const violations = new Violations();
    const zone = usableZone(caller.user.timezone);
    const userId = readId(query.userId, 'userId', violations);
    const resourceId = readId(query.resourceId, 'resourceId', violations);
    const scheduleId = readId(query.scheduleId, 'scheduleId', violations);
    const start = readDate(query.startDateTime, 'startDateTime', zone, violations);
    const end = readDate(query.endDateTime, 'endDateTime', zone, violations);
    violations.throwIfAny();
    const from = start ?? clock.now();
    const to = end ?? from.plus(defaultWindow);
    const summaries = await summariesById(store, links, {
      from: from.toMillis(),
      to: to.toMillis(),
      viewer: caller,
      ...(userId !== undefined && { userId }),
      ...(resourceId !== undefined && { resourceId }),
      ...(scheduleId !== undefined && { scheduleId }),
    });
    return {
      reservations: [...summaries.values()],
      startDateTime: formatWireDateTime(from.toUTC()),
      endDateTime: formatWireDateTime(to.toUTC()),
      links: [],
      message: null,
    };
  },

  async getReservation({ params }, { store, clock, config, links, caller }) {
    const details = await readReservationDetails(store, params.referenceNumber, caller);
    if (!details) throw notFound();
    return reservationAnswer(links, details, caller, clock.now().toMillis(), config.checkInOpensMinutes);
  },

  /** Approval covers the whole series; approving one already approved answers success again. */
  async approveReservation({ params }, { store, clock, links, caller }) {
    return inTransaction(store, async (trx) => {
      const row = await requireOccurrence(trx, params.referenceNumber);
      const administers = await administrationCheck(trx, caller);
      if (!administers(row)) throw forbidden(messages.notAllowedToApprove);
      if (row.isPendingApproval === 1) await approveSeries(trx, row.seriesId, clock.now().toMillis());
      return reservationReference(links, row.referenceNumber, false, messages.approved);
    });
  },

  async checkinReservation({ params }, { store, clock, config, links, caller }) {
    return inTransaction(store, async (trx) => {
      const row = await requireOccurrence(trx, params.referenceNumber);
      requireChangeRight(caller, row);
      const now = toWholeSecond(clock.now().toMillis());
      const outcome = checkInOutcome(checkInState(row), now, config.checkInOpensMinutes);
      if (outcome === 'refused') throw invalid(checkInMessages.cannotCheckIn);
      if (outcome === 'perform') await recordCheckIn(trx, row.reservationId, now);
      return reservationReference(links, row.referenceNumber, row.isPendingApproval === 1, checkInMessages.checkedIn);
    });
  },

  /** Check-out frees the rest of the slot: the end moves to now (bookings follow) and the planned end is kept. */
  async checkoutReservation({ params }, { store, clock, links, caller }) {
    return inTransaction(store, async (trx) => {
      const row = await requireOccurrence(trx, params.referenceNumber);
      requireChangeRight(caller, row);
      const now = toWholeSecond(clock.now().toMillis());
      const outcome = checkOutOutcome(checkInState(row), now);
      if (outcome === 'refused') throw invalid(checkInMessages.cannotCheckOut);
      if (outcome === 'perform') await recordCheckOut(trx, row, now);
      return reservationReference(links, row.referenceNumber, row.isPendingApproval === 1, checkInMessages.checkedOut);
    });
  },
} satisfies Pick<HandlerMap, 'getReservations' | 'getReservation' | 'approveReservation' | 'checkinReservation' | 'checkoutReservation'>;
