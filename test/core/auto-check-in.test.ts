import { describe, expect, it } from 'vitest';
import { autoCheckInKey, autoCheckInTarget, autoCheckInWindow } from '../../electron/core/auto-check-in.js';
import { plannerReservation, plannerTime } from '../support/planner-reservations.js';

// 10:00–11:00, released at 10:15 unless checked in.
const awaiting = plannerReservation({ requiresCheckIn: true, autoReleaseMinutes: 15 });
const none = new Set<string>();

describe('autoCheckInWindow', () => {
  it("opens at the later of the user's check-in moment and the server's, and closes at the release moment", () => {
    const window = autoCheckInWindow(awaiting, 5);
    expect(window).toEqual([plannerTime('09:55').toMillis(), plannerTime('10:15').toMillis()]);
    // A longer lead tells the user earlier, but the server opens check-in 5 minutes before the start.
    expect(autoCheckInWindow(awaiting, 10)?.[0]).toBe(plannerTime('09:55').toMillis());
    expect(autoCheckInWindow(awaiting, 0)?.[0]).toBe(plannerTime('10:00').toMillis());
  });

  it('closes at the end where the resource never releases', () => {
    expect(autoCheckInWindow({ ...awaiting, autoReleaseMinutes: null }, 5)?.[1]).toBe(plannerTime('11:00').toMillis());
  });

  it.each([
    ['someone else’s booking', { owned: false }],
    ['a booking that needs no check-in', { requiresCheckIn: false }],
    ['one already checked in', { checkedInAt: plannerTime('10:00') }],
    ['one checked out', { checkedOutAt: plannerTime('10:30') }],
    ['one awaiting approval', { isPendingApproval: true }],
  ])('has none for %s', (_case, overrides) => {
    expect(autoCheckInWindow({ ...awaiting, ...overrides }, 5)).toBeNull();
  });
});

describe('autoCheckInTarget', () => {
  it('is the reservation whose window is open, only within it', () => {
    expect(autoCheckInTarget([awaiting], plannerTime('09:54:59'), 5, none)).toBeNull();
    expect(autoCheckInTarget([awaiting], plannerTime('09:55'), 5, none)).toBe(awaiting);
    expect(autoCheckInTarget([awaiting], plannerTime('10:14:59'), 5, none)).toBe(awaiting);
    expect(autoCheckInTarget([awaiting], plannerTime('10:15'), 5, none)).toBeNull();
  });

  it('never tries the same booking twice, but tries it again once moved to another time', () => {
    const tried = new Set([autoCheckInKey(awaiting)]);
    expect(autoCheckInTarget([awaiting], plannerTime('10:05'), 5, tried)).toBeNull();
    const moved = { ...awaiting, start: plannerTime('10:30'), end: plannerTime('11:30') };
    expect(autoCheckInTarget([moved], plannerTime('10:30'), 5, tried)).toBe(moved);
  });

  it('back to back, picks the booking starting nearest to now', () => {
    const first = { ...awaiting, referenceNumber: 'first', autoReleaseMinutes: null, end: plannerTime('10:30') };
    const second = { ...awaiting, referenceNumber: 'second', start: plannerTime('10:30'), end: plannerTime('11:30') };
    expect(autoCheckInTarget([first, second], plannerTime('10:27'), 5, none)).toBe(second);
    expect(autoCheckInTarget([first, second], plannerTime('10:05'), 5, none)).toBe(first);
  });

  it("never picks someone else's booking, even with its window open", () => {
    expect(autoCheckInTarget([{ ...awaiting, owned: false }], plannerTime('10:00'), 5, none)).toBeNull();
  });
});
