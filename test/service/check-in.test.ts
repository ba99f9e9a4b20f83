import { describe, expect, it } from 'vitest';
import {
  checkInOutcome,
  checkOutOutcome,
  isCheckInOpen,
  isCheckOutAllowed,
  toWholeSecond,
  type CheckInState,
} from '../../electron/service/domain/check-in.js';

const minute = 60_000;
const start = Date.UTC(2026, 11, 1, 9, 0);
const end = start + 60 * minute;
const opens = 5;

const state = (overrides: Partial<CheckInState> = {}): CheckInState => ({
  startAt: start,
  endAt: end,
  checkInAt: null,
  checkOutAt: null,
  requiresCheckIn: true,
  isPendingApproval: false,
  ...overrides,
});

describe('isCheckInOpen', () => {
  it.each([
    ['6 minutes before start', start - 6 * minute, false],
    ['1 ms before it opens', start - 5 * minute - 1, false],
    ['5 minutes before start', start - 5 * minute, true],
    ['at start', start, true],
    ['during', start + 30 * minute, true],
    ['1 ms before the end', end - 1, true],
    ['at the end', end, false],
    ['after the end', end + minute, false],
  ])('%s: %s', (_case, now, open) => {
    expect(isCheckInOpen(state(), now, opens)).toBe(open);
  });

  it('follows the configured opening', () => {
    expect(isCheckInOpen(state(), start - 10 * minute, 10)).toBe(true);
    expect(isCheckInOpen(state(), start - 1, 0)).toBe(false);
  });

  it.each([
    ['a resource without check-in', { requiresCheckIn: false }],
    ['a reservation pending approval', { isPendingApproval: true }],
    ['one already checked in', { checkInAt: start }],
  ])('is closed for %s', (_case, overrides) => {
    expect(isCheckInOpen(state(overrides), start, opens)).toBe(false);
  });
});

describe('isCheckOutAllowed', () => {
  const checkedIn = state({ checkInAt: start - 2 * minute });
  it.each([
    ['before start', start - minute, false],
    ['at start (the end would not follow the start)', start, false],
    ['during', start + minute, true],
    ['at the end', end, false],
  ])('%s: %s', (_case, now, allowed) => {
    expect(isCheckOutAllowed(checkedIn, now)).toBe(allowed);
  });

  it('needs a check-in first and allows one check-out', () => {
    expect(isCheckOutAllowed(state(), start + minute)).toBe(false);
    expect(isCheckOutAllowed(state({ checkInAt: start, checkOutAt: start + minute }), start + 2 * minute)).toBe(false);
  });
});

describe('outcomes', () => {
  it('checking in twice is done already, never refused', () => {
    expect(checkInOutcome(state(), start, opens)).toBe('perform');
    expect(checkInOutcome(state({ checkInAt: start }), end + minute, opens)).toBe('alreadyDone');
    expect(checkInOutcome(state(), start - 6 * minute, opens)).toBe('refused');
  });

  it('checking out twice is done already, never refused', () => {
    expect(checkOutOutcome(state({ checkInAt: start }), start + minute)).toBe('perform');
    expect(checkOutOutcome(state({ checkInAt: start, checkOutAt: start + minute }), end + minute)).toBe('alreadyDone');
    expect(checkOutOutcome(state(), start + minute)).toBe('refused');
  });
});

it('toWholeSecond drops the milliseconds the wire cannot carry', () => {
  expect(toWholeSecond(start + 1_999)).toBe(start + 1_000);
  expect(toWholeSecond(start)).toBe(start);
});
