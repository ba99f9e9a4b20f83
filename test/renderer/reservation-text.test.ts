import { describe, expect, test } from 'vitest';
import { createDateFormat } from '../../renderer/src/lib/format.js';
import { detailsText } from '../../renderer/src/lib/reservation-text.js';
import { reservationView } from '../support/snapshots.js';

const london = createDateFormat('Europe/London', { locale: 'en-GB', hourCycle: 'h23' });
const newYork = createDateFormat('America/New_York', { locale: 'en-US', hourCycle: 'h12' });
const plain = (text: string) => text.replace(/[\u202f\u2009]/g, ' ');
const booking = reservationView({
  title: 'Design review',
  resourceName: 'Thames (1.01)',
  timezone: 'Europe/London',
  start: '2026-12-01T14:00:00Z',
  end: '2026-12-01T15:30:00Z',
});

describe('Copy details', () => {
  test('what, where, the day and times in words with the zone named once', () => {
    expect(detailsText(booking, london)).toBe('Design review\nThames (1.01)\nTuesday 1 December, 14:00–15:30 London time');
  });

  test("in the user's zone and clock, whatever the resource's", () => {
    expect(plain(detailsText(booking, newYork))).toBe('Design review\nThames (1.01)\nTuesday, December 1, 9:00 – 10:30 AM New York time');
  });

  test('an untitled booking names its resource once; a series its rule; the details their resources and description', () => {
    const untitled = { ...booking, title: '' };
    expect(detailsText(untitled, london)).toBe('Thames (1.01)\nTuesday 1 December, 14:00–15:30 London time');
    const details = {
      referenceNumber: booking.referenceNumber,
      description: 'Agenda in the shared folder',
      resourceNames: ['Thames (1.01)', 'Projector 2'],
      participants: [],
      invitees: [],
    };
    expect(detailsText(booking, london, { rule: 'Daily until Fri 4 Dec', details })).toBe(
      'Design review\nThames (1.01), Projector 2\nTuesday 1 December, 14:00–15:30 London time\nDaily until Fri 4 Dec\nAgenda in the shared folder',
    );
  });
});
