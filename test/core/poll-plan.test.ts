import { describe, expect, it } from 'vitest';
import { plannerReservation, plannerTime } from '../support/planner-reservations.js';
import { nextPollDelay } from '../../electron/core/sync/poll-plan.js';

const t = (clock: string) => plannerTime(clock);
const settings = { pollIntervalSeconds: 60, checkInLeadMinutes: 5 };
const minute = 60_000;

const reservation = plannerReservation;

const checkIn = reservation({ requiresCheckIn: true, autoReleaseMinutes: 15 });

describe('the wait before the next poll', () => {
  it.each([
    ['nothing booked', '08:00', [], 5 * minute, false],
    ['far from the start: the far period', '09:00', [reservation()], 5 * minute, false],
    ['cut short where the start comes near', '09:52', [reservation()], 3 * minute, false],
    ['within 5 minutes of the start', '09:56', [reservation()], minute, true],
    ['just after the start', '10:00:30', [reservation()], minute, true],
    ['in the middle of a plain reservation', '10:30', [reservation()], 5 * minute, false],
    ['within 5 minutes of the end', '10:57', [reservation()], minute, true],
    ['check-in window, not checked in', '10:08', [checkIn], minute, true],
    ['after the auto-release moment, still listed', '10:20', [checkIn], minute, true],
    ['long after the auto-release moment', '10:30', [checkIn], 5 * minute, false],
    ['checked in: only start and end count', '10:08', [{ ...checkIn, checkedIn: true }], 5 * minute, false],
    ['awaiting approval: no check-in window', '10:08', [{ ...checkIn, isPendingApproval: true }], 5 * minute, false],
  ] as const)('%s', (_name, now, reservations, delayMs, near) => {
    expect(nextPollDelay(t(now), reservations, settings, 0)).toEqual({ delayMs, near });
  });

  it('never waits less than the poll interval, however close the next near span', () => {
    expect(nextPollDelay(t('09:54:50'), [reservation()], settings, 0)).toEqual({ delayMs: minute, near: false });
  });

  it('follows the poll interval setting near events; the far period is never shorter than it', () => {
    expect(nextPollDelay(t('09:57'), [reservation()], { ...settings, pollIntervalSeconds: 120 }, 0).delayMs).toBe(2 * minute);
    expect(nextPollDelay(t('08:00'), [], { ...settings, pollIntervalSeconds: 900 }, 0).delayMs).toBe(15 * minute);
  });

  it('stretches both periods by 2^strain, up to 8 times', () => {
    expect(nextPollDelay(t('09:57'), [reservation()], settings, 1).delayMs).toBe(2 * minute);
    expect(nextPollDelay(t('08:00'), [], settings, 2).delayMs).toBe(20 * minute);
    expect(nextPollDelay(t('08:00'), [], settings, 9).delayMs).toBe(40 * minute);
  });
});
