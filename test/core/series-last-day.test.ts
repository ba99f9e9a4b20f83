import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { decode } from '../../electron/api/decode.js';
import { Reservation } from '../../electron/api/schemas/reservations.js';
import { recurrenceView } from '../../electron/core/views/reservation-view.js';
import type { WireReservation } from '../../electron/api/wire.js';
import { readRecording } from '../api/recorder/recording.js';

// A series' last day, whichever zone the server wrote its midnight in.
const dayIn = (zone: string, iso: string | null | undefined) =>
  iso ? DateTime.fromISO(iso, { setZone: true }).setZone(zone).toISODate() : null;

function recordedSeries(state = 'filled-in'): WireReservation {
  const decoded = decode(Reservation, readRecording(state, 'getReservation-recurring').body);
  if (!decoded.ok) throw new Error(`the recorded series does not decode: ${decoded.error}`);
  return decoded.value;
}

describe('the last day of a series', () => {
  it('is the day a real server names: midnight in the caller’s zone, sent in UTC', () => {
    const series = recordedSeries();
    // Recorded from a real LibreBooking for a user in New York: "2026-11-29T05:00:00+0000".
    expect(series.recurrenceRule.repeatTerminationDate).toBe('2026-11-29T05:00:00+0000');
    const view = recurrenceView(series, 'America/New_York', 'America/New_York');
    expect(dayIn('America/New_York', view?.until)).toBe('2026-11-29');
  });

  it('is the day a real server names for a user east of the schedule: midnight in Tokyo, not London', () => {
    const series = recordedSeries('tokyo-london');
    // Recorded from a real LibreBooking for a Tokyo user on a London schedule, booked until Tokyo's 30th.
    expect(series.recurrenceRule.repeatTerminationDate).toBe('2026-11-29T15:00:00+0000');
    expect(dayIn('Asia/Tokyo', recurrenceView(series, 'Asia/Tokyo', 'Europe/London')?.until)).toBe('2026-11-30');
  });

  it('is the day a series of another zone names (a local service’s older series: the schedule’s), read by a user west of it', () => {
    const series = {
      ...recordedSeries(),
      recurrenceRule: { ...recordedSeries().recurrenceRule, repeatTerminationDate: '2030-03-15T00:00:00+0000' },
    };
    // Read as an instant in New York it would be 14 March, 19:00: a day early.
    expect(dayIn('America/New_York', recurrenceView(series, 'America/New_York', 'Europe/London')?.until)).toBe('2030-03-15');
    expect(dayIn('Europe/Berlin', recurrenceView(series, 'Europe/Berlin', 'Europe/London')?.until)).toBe('2030-03-15');
  });

  it('falls back to the instant in the user’s zone when no zone makes it a midnight', () => {
    const series = {
      ...recordedSeries(),
      recurrenceRule: { ...recordedSeries().recurrenceRule, repeatTerminationDate: '2030-03-15T13:30:00+0000' },
    };
    expect(recurrenceView(series, 'Europe/Berlin', 'Europe/London')?.until).toBe('2030-03-15T14:30:00+01:00');
  });
});
