/**
 * The rule of a series, for saying it in words. The reservation list does not carry it, so it is
 * read once per series with GetReservation (one cheap request) and kept: a rule only changes when
 * the whole series is edited, which Perch never does.
 */
import type { BridgeResult, RecurrenceView, ReferenceRequest } from '../../bridge/contract.js';
import type { CommandContext } from './command-context.js';
import type { CommandLookups } from './command-lookups.js';
import { failure, success } from '../errors.js';
import { bridgeErrorFromSession } from '../session/session-errors.js';
import { recurrenceView } from '../views/reservation-view.js';

// A person has a handful of series; the bound only keeps a long-running app from growing.
const maxKeptRules = 200;

export function createRecurrenceLookup(
  context: CommandContext,
  lookups: CommandLookups,
): (request: ReferenceRequest) => Promise<BridgeResult<RecurrenceView | null>> {
  const kept = new Map<string, RecurrenceView | null>();
  return async function getRecurrence({ referenceNumber }) {
    const view = lookups.signedIn();
    if (!view.ok) return view;
    const account = context.session.account!;
    // Reference numbers are unique on one server; the account keeps one person's rules from another's.
    const key = `${account.apiRoot}|${account.userId}|${referenceNumber}`;
    if (kept.has(key)) return success(kept.get(key) ?? null);
    const detail = await lookups.readBack(referenceNumber);
    if (!detail.ok) return failure(bridgeErrorFromSession(detail.error));
    const schedules = await context.reference.schedules();
    const scheduleZone = schedules.ok ? schedules.value.find((schedule) => schedule.id === detail.value.scheduleId)?.timezone : undefined;
    const rule = recurrenceView(detail.value, view.value.zone, scheduleZone);
    if (kept.size >= maxKeptRules) kept.delete(kept.keys().next().value!);
    kept.set(key, rule);
    return success(rule);
  };
}
