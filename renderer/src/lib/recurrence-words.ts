/** A series' rule as people say it: "Daily until Wed 2 Dec", "Weekly on Mon, Wed", "Monthly on the first Tuesday". */
import type { RecurrenceView } from '$bridge/contract.js';
import type { DateFormat } from './format.js';

const units = { daily: 'day', weekly: 'week', monthly: 'month', yearly: 'year' } as const;
const every = { daily: 'Daily', weekly: 'Weekly', monthly: 'Monthly', yearly: 'Yearly' } as const;
const ordinals = ['first', 'second', 'third', 'fourth', 'fifth'] as const;

/** Monday first, as calendars in most of the world start the week. */
const byCalendarWeek = (a: number, b: number) => ((a + 6) % 7) - ((b + 6) % 7);

/** The day of the month and the weekday of a moment, in the account's timezone. */
function calendarDay(iso: string, format: DateFormat): { dayOfMonth: number; weekday: number } {
  const [year = 1970, month = 1, day = 1] = format.dayKey(iso).split('-').map(Number);
  return { dayOfMonth: day, weekday: new Date(Date.UTC(year, month - 1, day)).getUTCDay() };
}

/** `firstStart` is an occurrence's start: monthly rules take their day from it. */
export function recurrenceWords(rule: RecurrenceView, firstStart: string, format: DateFormat): string {
  const parts = [rule.interval === 1 ? every[rule.type] : `Every ${rule.interval} ${units[rule.type]}s`];
  if (rule.type === 'weekly' && rule.weekdays.length > 0) {
    parts.push(
      `on ${[...rule.weekdays]
        .sort(byCalendarWeek)
        .map((day) => format.weekday(day))
        .join(', ')}`,
    );
  }
  if (rule.type === 'monthly') {
    const { dayOfMonth, weekday } = calendarDay(firstStart, format);
    parts.push(
      rule.monthlyType === 'dayOfWeek'
        ? `on the ${ordinals[Math.ceil(dayOfMonth / 7) - 1] ?? 'last'} ${format.weekday(weekday)}`
        : `on day ${dayOfMonth}`,
    );
  }
  if (rule.until !== null) parts.push(`until ${format.shortDate(rule.until)}`);
  return parts.join(' ');
}
