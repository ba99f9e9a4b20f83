import { describe, expect, it } from 'vitest';
import { availabilityAt, type Availability, type HeldTime } from '../../electron/service/domain/availability.js';

// Times in hours after the asked time (0); the horizon is at 168 (7 days).
const hour = 3_600_000;
const horizon = 168;
const held = (startHour: number, endHour: number, reservationId: number): HeldTime => ({
  startAt: startHour * hour,
  endAt: endHour * hour,
  reservationId,
});
const answer = (available: boolean, at: number | null, until: number | null, reservationId: number | null): Availability => ({
  available,
  availableAt: at === null ? null : at * hour,
  availableUntil: until === null ? null : until * hour,
  reservationId,
});

describe('availabilityAt', () => {
  it.each<[string, HeldTime[], Availability]>([
    ['no bookings: free from now to the horizon', [], answer(true, 0, horizon, null)],
    ['a later booking ends the free stretch', [held(2, 3, 1)], answer(true, 0, 2, 1)],
    ['a booking ending exactly now does not hold it', [held(-1, 0, 1), held(5, 6, 2)], answer(true, 0, 5, 2)],
    ['a booking starting exactly now holds it', [held(0, 1, 1)], answer(false, 1, horizon, 1)],
    ['a booking across now holds it until its end', [held(-1, 2, 1), held(4, 5, 2)], answer(false, 2, 4, 1)],
    ['back-to-back bookings form one run', [held(-1, 1, 1), held(1, 2, 2), held(2, 3, 3), held(6, 7, 4)], answer(false, 3, 6, 1)],
    [
      'overlapping bookings form one run, the longest end counts',
      [held(-2, 4, 1), held(-1, 1, 2), held(3, 5, 3)],
      answer(false, 5, horizon, 1),
    ],
    ['a booking inside the run does not end it', [held(-1, 6, 1), held(1, 2, 2), held(6, 8, 3), held(9, 10, 4)], answer(false, 8, 9, 1)],
    ['a gap of any length frees it', [held(0, 1, 1), held(1.5, 2, 2)], answer(false, 1, 1.5, 1)],
    ['bookings after the horizon do not count', [held(168, 170, 1)], answer(true, 0, horizon, null)],
    ['a booking starting just before the horizon does', [held(167, 170, 1)], answer(true, 0, 167, 1)],
    ['held until past the horizon: no times', [held(-1, 100, 1), held(100, 200, 2)], answer(false, null, null, 1)],
    ['held exactly until the horizon: no times', [held(0, 168, 1)], answer(false, null, null, 1)],
    ['bookings that ended before now are ignored', [held(-5, -3, 1), held(-3, -1, 2)], answer(true, 0, horizon, null)],
  ])('%s', (_name, bookings, expected) => {
    expect(availabilityAt(bookings, 0, horizon * hour, true)).toEqual(expected);
  });

  it.each<[string, HeldTime[]]>([
    ['without bookings', []],
    ['while held', [held(-1, 1, 1)]],
    ['with a booking later', [held(2, 3, 1)]],
  ])('a resource out of service is never available and has no times, %s', (_name, bookings) => {
    expect(availabilityAt(bookings, 0, horizon * hour, false)).toEqual(answer(false, null, null, null));
  });
});
