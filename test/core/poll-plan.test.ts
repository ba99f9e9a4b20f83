import { describe, expect, it } from 'vitest';
import { plannerReservation, plannerTime } from '../support/planner-reservations.js';
import { nextPollStep, type PollStep } from '../../electron/core/sync/poll-plan.js';
import { noticeMoments } from '../../electron/core/notifications/planner.js';
import type { Reservation } from '../../electron/core/reservations.js';
import { defaultSettings } from '../../electron/core/storage/settings-store.js';

const t = (clock: string) => plannerTime(clock);
const minute = 60_000;

/** A 10:00–11:00 reservation: start reminder 09:50, end reminder 10:55 (the default leads). */
const plain = plannerReservation();
/** Needs check-in from 09:55 and is released at 10:15 unless checked in: one notice at 09:55 (with the start reminder), the warning at 10:10. */
const checkIn = plannerReservation({ referenceNumber: 'c1', requiresCheckIn: true, autoReleaseMinutes: 15 });

// The test's times are Berlin's (UTC+2 in June); a notification id names its moment in UTC.
interface Known {
  /** When the list was last asked for, as a clock time of the test's day. */
  list: string | null;
  /** When single reservations were last asked about. */
  asked?: Record<string, string>;
  shown?: string[];
}

function step(now: string, reservations: Reservation[], known: Known, settings = defaultSettings, strain = 0): PollStep {
  const nowTime = t(now);
  const at = (clock: string | null | undefined): number =>
    clock === null || clock === undefined ? Number.NEGATIVE_INFINITY : t(clock).toMillis();
  const listAskedAtMs = known.list === null ? null : at(known.list);
  const moments = noticeMoments({ now: nowTime, reservations, settings, shown: new Set(known.shown ?? []) });
  return nextPollStep(
    nowTime,
    {
      listAskedAtMs,
      askedAtMs: (referenceNumber) => Math.max(listAskedAtMs ?? Number.NEGATIVE_INFINITY, at(known.asked?.[referenceNumber])),
      reservations,
      moments,
    },
    settings,
    strain,
  );
}

const list = (delayMs: number): PollStep => ({ delayMs, read: { kind: 'list' } });
const single = (delayMs: number, ...referenceNumbers: string[]): PollStep => ({
  delayMs,
  read: { kind: 'reservations', referenceNumbers },
});
const until = (from: string, to: string) => t(to).toMillis() - t(from).toMillis();

describe('when the own list is read: at a steady pace', () => {
  it('reads the list at once before the first time, then every 5 minutes when nothing is due', () => {
    expect(step('08:00', [], { list: null })).toEqual(list(0));
    expect(step('08:00', [], { list: '08:00' })).toEqual(list(5 * minute));
    expect(step('08:03', [plain], { list: '08:00' })).toEqual(list(2 * minute));
  });

  it('keeps to the poll interval where it is longer than 5 minutes, and stretches by 2^strain up to 8 times', () => {
    expect(step('08:00', [], { list: '08:00' }, { ...defaultSettings, pollIntervalSeconds: 900 })).toEqual(list(15 * minute));
    expect(step('08:00', [], { list: '08:00' }, defaultSettings, 2)).toEqual(list(20 * minute));
    expect(step('08:00', [], { list: '08:00' }, defaultSettings, 9)).toEqual(list(40 * minute));
  });

  it('never reads through a window: in the middle of a reservation nothing comes before the steady read', () => {
    expect(step('10:20', [plain], { list: '10:20' })).toEqual(list(5 * minute));
  });
});

describe('when a reservation is read on its own: just before a notice about it', () => {
  it('reads it half a minute before its start reminder when the list is not due by then', () => {
    expect(step('09:47:10', [plain], { list: '09:47:10' })).toEqual(single(until('09:47:10', '09:49:30'), 'r1'));
  });

  it('does not read it again after that, nor for a notice already shown', () => {
    expect(step('09:49:30', [plain], { list: '09:47:10', asked: { r1: '09:49:30' } })).toEqual(list(until('09:49:30', '09:52:10')));
    expect(step('09:47:10', [plain], { list: '09:47:10', shown: ['startReminder:r1:2026-06-15T08:00:00.000Z'] })).toEqual(list(5 * minute));
  });

  it('merges the read with the list when the list is due within 2 minutes of it', () => {
    expect(step('09:46', [plain], { list: '09:46' })).toEqual(list(until('09:46', '09:49:30')));
  });

  it('needs no read of its own when the list came within 2 minutes before it', () => {
    expect(step('09:43', [plain], { list: '09:43' })).toEqual(list(5 * minute));
    expect(step('09:48', [plain], { list: '09:48' })).toEqual(list(5 * minute));
  });

  it('reads before the end reminder and before check-in opens and the auto-release warning', () => {
    expect(step('10:52', [plain], { list: '10:52' })).toEqual(single(until('10:52', '10:54:30'), 'r1'));
    expect(step('09:52', [checkIn], { list: '09:52' })).toEqual(single(until('09:52', '09:54:30'), 'c1'));
    expect(step('10:07:10', [checkIn], { list: '10:07:10', shown: ['checkInOpen:c1:2026-06-15T08:00:00.000Z'] })).toEqual(
      single(until('10:07:10', '10:09:30'), 'c1'),
    );
  });

  it('reads two reservations due together at once, and the list from three on', () => {
    const second2 = plannerReservation({ referenceNumber: 'r2', resourceName: 'Avon' });
    const third = plannerReservation({ referenceNumber: 'r3', resourceName: 'Severn', start: t('10:01') });
    expect(step('09:47:10', [plain, second2], { list: '09:47:10' })).toEqual(single(until('09:47:10', '09:49:30'), 'r1', 'r2'));
    expect(step('09:47:10', [plain, second2, third], { list: '09:47:10' })).toEqual(list(until('09:47:10', '09:49:30')));
  });

  it('reads a moment already close at once', () => {
    expect(step('09:49:45', [plain], { list: '09:47:00' })).toEqual(single(0, 'r1'));
  });

  it('leaves someone else’s meeting to the meetings read', () => {
    expect(step('09:47:10', [{ ...plain, owned: false }], { list: '09:47:10' })).toEqual(list(5 * minute));
  });
});

describe('watching an auto-release', () => {
  const shownBefore = ['checkInOpen:c1:2026-06-15T08:00:00.000Z', 'autoReleaseWarning:c1:2026-06-15T08:00:00.000Z'];

  it('reads the reservation 15 s after its release moment, then each poll interval while it is still listed unchecked', () => {
    expect(step('10:13', [checkIn], { list: '10:13', shown: shownBefore })).toEqual(single(until('10:13', '10:15:15'), 'c1'));
    expect(step('10:15:15', [checkIn], { list: '10:15', asked: { c1: '10:15:15' }, shown: shownBefore })).toEqual(single(minute, 'c1'));
    expect(step('10:20', [checkIn], { list: '10:19', asked: { c1: '10:20' }, shown: shownBefore })).toEqual(single(minute, 'c1'));
  });

  it('stops watching 10 minutes after the moment, and does not watch a reservation checked in to', () => {
    expect(step('10:25', [checkIn], { list: '10:24', asked: { c1: '10:25' }, shown: shownBefore })).toEqual(list(4 * minute));
    expect(step('10:13', [{ ...checkIn, checkedInAt: plannerTime('10:00') }], { list: '10:13' })).toEqual(list(until('10:13', '10:18')));
  });

  it('stretches the watch by 2^strain', () => {
    expect(step('10:15:15', [checkIn], { list: '10:15', asked: { c1: '10:15:15' }, shown: shownBefore }, defaultSettings, 1)).toEqual(
      single(2 * minute, 'c1'),
    );
  });
});
