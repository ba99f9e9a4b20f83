/**
 * How Perch writes times and durations, the same in the popover, the tray and the notifications:
 * the rules (`TimeFormatRules`, in the snapshot) are applied here, through Intl, on both sides of
 * the bridge. Part of the bridge contract, kept out of contract.ts because that file loads TypeBox,
 * which the renderer must not bundle; this one imports nothing but types.
 *
 * Words are Perch's own and English like the rest of the UI ("30 min", "1 h 30 min", "in 5 min");
 * the locale decides how a time of day and a date are written ("14:30", "2:30 PM", "Wed 26 Nov").
 */
import type { TimeFormatRules } from './contract.js';

export interface TimeFormat {
  readonly rules: TimeFormatRules;
  /** The user's zone: every time is written in it unless another zone is asked for. */
  readonly timeZone: string;
  /** `14:30` / `2:30 PM`; in `zone`, named (`11:30 London time`), when its clock differs from the user's then. */
  time(instant: Instant, zone?: string): string;
  /** `14:30 – 15:00`, named once at the end when `zone` differs (`11:30–12:30 London time`). */
  timeRange(start: Instant, end: Instant, zone?: string): string;
  /** `Today`, `Tomorrow`, or `Wednesday 26 November`. */
  dayHeading(instant: Instant, nowMs: number): string;
  /** `Wednesday 26 November`: a day written out, for text read elsewhere. */
  longDate(instant: Instant): string;
  /** `Wed 26 Nov, 14:30`: for a moment that may not be today. */
  dateTime(instant: Instant): string;
  /** `Wed 26 Nov`. */
  shortDate(instant: Instant): string;
  /** `Mon` for 1: a weekday by its number, 0 Sunday to 6 Saturday. */
  weekday(day: number): string;
  /** The calendar day (`YYYY-MM-DD`) of a moment in the user's zone. */
  dayKey(instant: Instant): string;
  /** `in 12 min`, `5 min ago`, `now`, `in 1 h 30 min`, `in 5 h`, `in 3 days`. */
  countdown(instant: Instant, nowMs: number): string;
  /** `30 min`, `1 h`, `1 h 30 min`. */
  duration(minutes: number): string;
}

/** ISO 8601 text or epoch milliseconds. */
export type Instant = string | number;

const minuteMs = 60_000;

const toDate = (instant: Instant) => new Date(instant);

/** The locale Intl falls back to, with the hour cycle it uses for it: what Node and tests use. */
export function defaultTimeFormatRules(locale?: string): TimeFormatRules {
  const resolved = new Intl.DateTimeFormat(usableLocale(locale), { hour: 'numeric' }).resolvedOptions();
  return { locale: resolved.locale, hourCycle: resolved.hourCycle ?? 'h23' };
}

/**
 * An OS locale as Intl accepts it: `en_GB` and `de_DE@rg=chzzzz` (macOS) become `en-GB` and
 * `de-DE`; anything Intl does not know becomes undefined (Intl's own default).
 */
export function usableLocale(locale: string | undefined): string | undefined {
  if (!locale) return undefined;
  try {
    return Intl.getCanonicalLocales(locale.split(/[@.]/)[0]!.replace(/_/g, '-'))[0];
  } catch {
    return undefined;
  }
}

/** `30 min`, `1 h`, `1 h 30 min`: whole minutes, never negative. */
export function durationWords(total: number): string {
  const whole = Math.max(0, Math.round(total));
  const hours = Math.floor(whole / 60);
  const minutes = whole % 60;
  if (hours === 0) return `${minutes} min`;
  return minutes === 0 ? `${hours} h` : `${hours} h ${minutes} min`;
}

/** How far off a moment is, in the words of a countdown: exact below 3 hours, then hours, then days. */
function distanceWords(minutes: number): string {
  if (minutes < 3 * 60) return durationWords(minutes);
  if (minutes < 48 * 60) return `${Math.round(minutes / 60)} h`;
  return `${Math.round(minutes / 1440)} days`;
}

/** `London time`, `New York time`; a zone without a place (UTC, Etc/GMT+2) by its name. */
export function zoneWords(zone: string): string {
  const place =
    zone.includes('/') && !zone.startsWith('Etc/') ? zone.slice(zone.lastIndexOf('/') + 1).replace(/_/g, ' ') : zone.replace(/^Etc\//, '');
  return `${place} time`;
}

function capitalise(text: string): string {
  return text.charAt(0).toLocaleUpperCase() + text.slice(1);
}

export function createTimeFormat(rules: TimeFormatRules, timeZone: string): TimeFormat {
  const { locale, hourCycle } = rules;
  const clockIn = new Map<string, Intl.DateTimeFormat>();
  const offsetIn = new Map<string, Intl.DateTimeFormat | null>();
  const clock = (zone: string) => {
    let found = clockIn.get(zone);
    // The locale's own short time (`08:05` in en-GB and de, `8:05 AM` in en-US), on the user's clock.
    if (!found) clockIn.set(zone, (found = new Intl.DateTimeFormat(locale, { timeZone: zone, timeStyle: 'short', hourCycle })));
    return found;
  };
  /** `GMT+01:00`, or null for a zone Intl does not know: zones of equal offset show the same clock. */
  const offset = (zone: string, date: Date) => {
    if (!offsetIn.has(zone)) offsetIn.set(zone, offsetFormat(zone));
    return (
      offsetIn
        .get(zone)
        ?.formatToParts(date)
        .find((part) => part.type === 'timeZoneName')?.value ?? null
    );
  };
  /** The zone to write `date` in: another one only when its clock differs from the user's then. */
  const shownZone = (date: Date, zone: string | undefined) => {
    if (zone === undefined || zone === timeZone) return null;
    const other = offset(zone, date);
    return other === null || other === offset(timeZone, date) ? null : zone;
  };

  const weekdayDate = new Intl.DateTimeFormat(locale, { timeZone, weekday: 'long', day: 'numeric', month: 'long' });
  const dateTime = new Intl.DateTimeFormat(locale, {
    timeZone,
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    hour: 'numeric',
    minute: '2-digit',
    hourCycle,
  });
  const shortDate = new Intl.DateTimeFormat(locale, { timeZone, weekday: 'short', day: 'numeric', month: 'short' });
  const weekdayName = new Intl.DateTimeFormat(locale, { timeZone: 'UTC', weekday: 'short' });
  // en-CA writes calendar dates as YYYY-MM-DD, which sorts and compares as text.
  const calendarDay = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
  const relativeDay = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });

  const dayKey = (instant: Instant) => calendarDay.format(toDate(instant));
  const dayNumber = (key: string) => {
    const [y = 0, m = 1, d = 1] = key.split('-').map(Number);
    return Date.UTC(y, m - 1, d) / 86_400_000;
  };

  return {
    rules,
    timeZone,
    time(instant, zone) {
      const date = toDate(instant);
      const other = shownZone(date, zone);
      return other === null ? clock(timeZone).format(date) : `${clock(other).format(date)} ${zoneWords(other)}`;
    },
    timeRange(start, end, zone) {
      const [from, until] = [toDate(start), toDate(end)];
      const other = shownZone(from, zone);
      const range = timesBetween(clock(other ?? timeZone), from, until);
      return other === null ? range : `${range} ${zoneWords(other)}`;
    },
    dayHeading(instant, nowMs) {
      const days = dayNumber(dayKey(instant)) - dayNumber(dayKey(nowMs));
      if (Math.abs(days) <= 1) return capitalise(relativeDay.format(days, 'day'));
      return weekdayDate.format(toDate(instant));
    },
    longDate: (instant) => weekdayDate.format(toDate(instant)),
    dateTime: (instant) => dateTime.format(toDate(instant)),
    // Some locales separate the weekday with a comma ("Wed, 26 Nov"); a date inside a sentence reads better without.
    shortDate: (instant) => shortDate.format(toDate(instant)).replace(',', ''),
    // 4 January 1970 was a Sunday.
    weekday: (day) => weekdayName.format(new Date(Date.UTC(1970, 0, 4 + day))),
    dayKey,
    countdown(instant, nowMs) {
      const minutes = Math.round((toDate(instant).getTime() - nowMs) / minuteMs);
      if (minutes === 0) return 'now';
      return minutes > 0 ? `in ${distanceWords(minutes)}` : `${distanceWords(-minutes)} ago`;
    },
    duration: durationWords,
  };
}

/**
 * `14:00–15:30`. A range shorter than a day that crosses midnight (a late slot of a schedule open
 * round the clock) is two times too, where Intl would write both dates in full.
 */
function timesBetween(clock: Intl.DateTimeFormat, from: Date, until: Date): string {
  const spansDays = clock.formatRangeToParts(from, until).some((part) => part.type === 'day');
  if (!spansDays || until.getTime() - from.getTime() >= 24 * 60 * minuteMs) return clock.formatRange(from, until);
  const [first, last] = [clock.format(from), clock.format(until)];
  return /\s/.test(first + last) ? `${first} – ${last}` : `${first}–${last}`;
}

function offsetFormat(zone: string): Intl.DateTimeFormat | null {
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' });
  } catch {
    return null;
  }
}
