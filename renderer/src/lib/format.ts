/**
 * Every date the popover shows goes through here: the user's locale, the account's timezone.
 * Formatters are built once per (locale, timezone) because Intl constructors are slow and the
 * popover re-renders countdowns every few seconds.
 */

export interface DateFormat {
  readonly locale: string;
  readonly timeZone: string;
  /** `14:30` / `2:30 PM`. */
  time(iso: string): string;
  /** `14:30 – 15:00`. */
  timeRange(startIso: string, endIso: string): string;
  /** `Today`, `Tomorrow`, or `Wednesday, 26 November`. */
  dayHeading(iso: string, nowMs: number): string;
  /** `Wed 26 Nov, 14:30` — for a moment that may not be today. */
  dateTime(iso: string): string;
  /** `Wed 26 Nov`. */
  shortDate(iso: string): string;
  /** `Mon` for 1: a weekday by its number, 0 Sunday to 6 Saturday. */
  weekday(day: number): string;
  /** The calendar day (`YYYY-MM-DD`) of a moment in the account's timezone. */
  dayKey(iso: string | number): string;
  /** `in 12 min`, `5 min ago`, `now`. */
  countdown(iso: string, nowMs: number): string;
  /** `1 hr 30 min`. */
  duration(minutes: number): string;
}

const minuteMs = 60_000;

function capitalise(text: string): string {
  return text.charAt(0).toLocaleUpperCase() + text.slice(1);
}

/** The user's locale as the browser reports it; Intl falls back when it is unknown. */
function userLocale(): string {
  return globalThis.navigator?.language || 'en';
}

/** The system's timezone, used until an account tells us its own. */
export function systemTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

export function createDateFormat(timeZone: string = systemTimeZone(), locale: string = userLocale()): DateFormat {
  const time = new Intl.DateTimeFormat(locale, { timeZone, hour: 'numeric', minute: '2-digit' });
  const weekdayDate = new Intl.DateTimeFormat(locale, { timeZone, weekday: 'long', day: 'numeric', month: 'long' });
  const dateTime = new Intl.DateTimeFormat(locale, { timeZone, weekday: 'short', day: 'numeric', month: 'short', hour: 'numeric', minute: '2-digit' });
  const shortDate = new Intl.DateTimeFormat(locale, { timeZone, weekday: 'short', day: 'numeric', month: 'short' });
  const weekdayName = new Intl.DateTimeFormat(locale, { timeZone: 'UTC', weekday: 'short' });
  // en-CA writes calendar dates as YYYY-MM-DD, which sorts and compares as text.
  const calendarDay = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
  const relative = new Intl.RelativeTimeFormat(locale, { numeric: 'auto', style: 'short' });
  const relativeDay = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
  const hours = new Intl.NumberFormat(locale, { style: 'unit', unit: 'hour', unitDisplay: 'short' });
  const minutes = new Intl.NumberFormat(locale, { style: 'unit', unit: 'minute', unitDisplay: 'short' });

  const dayKey = (value: string | number) => calendarDay.format(new Date(value));
  const dayNumber = (key: string) => {
    const [y = 0, m = 1, d = 1] = key.split('-').map(Number);
    return Date.UTC(y, m - 1, d) / 86_400_000;
  };

  return {
    locale,
    timeZone,
    time: (iso) => time.format(new Date(iso)),
    timeRange: (startIso, endIso) => time.formatRange(new Date(startIso), new Date(endIso)),
    dayHeading(iso, nowMs) {
      const offset = dayNumber(dayKey(iso)) - dayNumber(dayKey(nowMs));
      if (Math.abs(offset) <= 1) return capitalise(relativeDay.format(offset, 'day'));
      return weekdayDate.format(new Date(iso));
    },
    dateTime: (iso) => dateTime.format(new Date(iso)),
    // Some locales separate the weekday with a comma ("Wed, 26 Nov"); a date inside a sentence reads better without.
    shortDate: (iso) => shortDate.format(new Date(iso)).replace(',', ''),
    // 4 January 1970 was a Sunday.
    weekday: (day) => weekdayName.format(new Date(Date.UTC(1970, 0, 4 + day))),
    dayKey,
    countdown(iso, nowMs) {
      const diff = Math.round((Date.parse(iso) - nowMs) / minuteMs);
      const [value, unit]: [number, Intl.RelativeTimeFormatUnit] =
        Math.abs(diff) < 90 ? [diff, 'minute'] : Math.abs(diff) < 48 * 60 ? [Math.round(diff / 60), 'hour'] : [Math.round(diff / 1440), 'day'];
      // Short styles abbreviate with a dot in some locales ("in 12 min.", "12 min. ago"), which reads oddly in a badge.
      return relative.format(value, unit).replace(/\.(\s|$)/g, '$1');
    },
    duration(total) {
      const whole = Math.max(0, Math.round(total));
      const h = Math.floor(whole / 60);
      const m = whole % 60;
      if (h === 0) return minutes.format(m);
      return m === 0 ? hours.format(h) : `${hours.format(h)} ${minutes.format(m)}`;
    },
  };
}
