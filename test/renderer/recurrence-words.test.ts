import { describe, expect, test } from 'vitest';
import type { RecurrenceView } from '$bridge/contract.js';
import { createDateFormat } from '../../renderer/src/lib/format.js';
import { recurrenceWords } from '../../renderer/src/lib/recurrence-words.js';

const berlin = createDateFormat('Europe/Berlin', { locale: 'en-GB', hourCycle: 'h23' });
// Tuesday 10 November 2026, the second Tuesday of the month.
const firstStart = '2026-11-10T09:00:00+01:00';
const rule = (fields: Partial<RecurrenceView>): RecurrenceView => ({
  type: 'daily',
  interval: 1,
  weekdays: [],
  monthlyType: null,
  until: null,
  ...fields,
});

describe('a series rule in words', () => {
  test.each([
    [rule({ until: '2026-12-02T00:00:00+01:00' }), 'Daily until Wed 2 Dec'],
    [rule({ interval: 3 }), 'Every 3 days'],
    [rule({ type: 'weekly', weekdays: [3, 1] }), 'Weekly on Mon, Wed'],
    // Sunday comes last, as in a week that starts on Monday.
    [
      rule({ type: 'weekly', interval: 2, weekdays: [0, 5], until: '2026-12-18T00:00:00+01:00' }),
      'Every 2 weeks on Fri, Sun until Fri 18 Dec',
    ],
    [rule({ type: 'monthly', monthlyType: 'dayOfMonth' }), 'Monthly on day 10'],
    [rule({ type: 'monthly', monthlyType: 'dayOfWeek' }), 'Monthly on the second Tue'],
    [rule({ type: 'yearly' }), 'Yearly'],
  ])('%j reads "%s"', (given, words) => {
    expect(recurrenceWords(given, firstStart, berlin)).toBe(words);
  });

  test('the last day is the day in the account timezone', () => {
    // Midnight in Berlin is still the day before in UTC.
    expect(recurrenceWords(rule({ until: '2026-12-01T23:00:00Z' }), firstStart, berlin)).toBe('Daily until Wed 2 Dec');
  });
});
