import { DateTime, IANAZone } from 'luxon';

/** One row of a schedule's layout as stored: wall-clock times in the schedule's timezone. */
export interface PeriodRule {
  /** 0 = Sunday … 6 = Saturday; null = every day that has no rules of its own. */
  weekday: number | null;
  /** `HH:mm` (or `HH:mm:ss`); `24:00` is allowed as an end and means the next midnight. */
  startTime: string;
  endTime: string;
  label: string | null;
  isReservable: boolean | number;
}

interface DayPeriod {
  /** Seconds after the day's midnight, wall clock. */
  readonly startSecond: number;
  readonly endSecond: number;
  readonly label: string | null;
  readonly isReservable: boolean;
}

/** A schedule's rules resolved per weekday (index 0 = Sunday), sorted by start. */
export interface ScheduleLayout {
  readonly days: readonly (readonly DayPeriod[])[];
}

/** A period on a concrete date; `start`/`end` are in the schedule's zone. */
export interface LaidOutPeriod {
  start: DateTime;
  end: DateTime;
  label: string | null;
  isReservable: boolean;
}

const SECONDS_PER_DAY = 24 * 60 * 60;
const TIME_OF_DAY = /^(\d{1,2}):([0-5]\d)(?::([0-5]\d))?$/;

/** `HH:mm[:ss]` to seconds after midnight; `24:00` is the end of the day. Null when malformed. */
export function parseTimeOfDay(text: string): number | null {
  const match = TIME_OF_DAY.exec(text.trim());
  if (!match) return null;
  const seconds = Number(match[1]) * 3600 + Number(match[2]) * 60 + Number(match[3] ?? 0);
  return seconds <= SECONDS_PER_DAY ? seconds : null;
}

/**
 * Resolves stored rules: a weekday with rules of its own uses only those, the others use the
 * every-day rules. A row that cannot be a period (malformed time, end not after start) is left out
 * rather than making every read of the schedule fail.
 */
export function buildLayout(rules: readonly PeriodRule[]): ScheduleLayout {
  const everyDay: DayPeriod[] = [];
  const byWeekday = new Map<number, DayPeriod[]>();
  for (const rule of rules) {
    const startSecond = parseTimeOfDay(rule.startTime);
    const endSecond = parseTimeOfDay(rule.endTime);
    if (startSecond === null || endSecond === null || startSecond >= endSecond) continue;
    const period = { startSecond, endSecond, label: rule.label || null, isReservable: Boolean(rule.isReservable) };
    if (rule.weekday === null) everyDay.push(period);
    else byWeekday.set(rule.weekday, [...(byWeekday.get(rule.weekday) ?? []), period]);
  }
  const byStart = (a: DayPeriod, b: DayPeriod) => a.startSecond - b.startSecond || a.endSecond - b.endSecond;
  const days = Array.from({ length: 7 }, (_, weekday) => [...(byWeekday.get(weekday) ?? everyDay)].sort(byStart));
  return { days };
}

/** A date on the calendar, independent of any zone. */
export interface CalendarDate {
  year: number;
  month: number;
  day: number;
}

const MILLIS_PER_DAY = SECONDS_PER_DAY * 1000;

/**
 * The date an instant falls on in `zone`, placed by the zone's offset at that instant without a
 * DateTime in between (the booking checks ask this several times a request). NaN fields for an
 * unknown zone, as luxon gives.
 */
export function calendarDateAt(instant: number, zone: string): CalendarDate {
  const ianaZone = IANAZone.create(zone);
  const local = new Date(instant + ianaZone.offset(instant) * 60_000);
  return { year: local.getUTCFullYear(), month: local.getUTCMonth() + 1, day: local.getUTCDate() };
}

function calendarDateOf(date: string | DateTime | CalendarDate, zone: string): CalendarDate {
  if (typeof date === 'object' && !DateTime.isDateTime(date)) return date;
  if (typeof date === 'object' && date.isValid && IANAZone.create(zone).isValid) return calendarDateAt(date.toMillis(), zone);
  const local = typeof date === 'string' ? DateTime.fromISO(date, { zone: 'UTC' }) : date.setZone(zone);
  if (!local.isValid) throw new RangeError(`Not a calendar date: ${String(date)}`);
  return { year: local.year, month: local.month, day: local.day };
}

function addDays({ year, month, day }: CalendarDate, days: number): CalendarDate {
  const moved = new Date(Date.UTC(year, month - 1, day) + days * MILLIS_PER_DAY);
  return { year: moved.getUTCFullYear(), month: moved.getUTCMonth() + 1, day: moved.getUTCDate() };
}

const weekdayOf = ({ year, month, day }: CalendarDate) => new Date(Date.UTC(year, month - 1, day)).getUTCDay();

const isoDate = ({ year, month, day }: CalendarDate) =>
  `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;

const uniformOffsets = new Map<string, number | null>();

/**
 * The zone's offset on a date when it is the same all around that day (most days), else null.
 * Offset look-ups go through Intl and are costly; on a day without a change one look-up serves
 * every period of the day, and the answer is remembered.
 */
function uniformOffsetOn(zone: IANAZone, date: CalendarDate): number | null {
  const key = `${zone.name}|${date.year}-${date.month}-${date.day}`;
  const known = uniformOffsets.get(key);
  if (known !== undefined) return known;
  const midnight = Date.UTC(date.year, date.month - 1, date.day);
  // Offsets span -12 h to +14 h: these two instants bracket every moment of the local day.
  const before = zone.offset(midnight - 15 * 3_600_000);
  const after = zone.offset(midnight + 39 * 3_600_000);
  const offset = before === after ? before : null;
  if (uniformOffsets.size > 50_000) uniformOffsets.clear();
  uniformOffsets.set(key, offset);
  return offset;
}

/**
 * The instant a wall-clock time of a date happens in `zone`: the first instant whose local time has
 * reached it. A time the day passes twice (clocks going back) is its first occurrence; a time the
 * day skips (clocks going forward) is the moment the clocks jump. Unlike luxon's own resolution this
 * never goes backwards as the wall time grows, so consecutive periods stay consecutive and never
 * overlap on DST days.
 */
export function instantOf(date: CalendarDate, secondOfDay: number, zone: string): DateTime {
  const ianaZone = IANAZone.create(zone);
  if (!ianaZone.isValid) throw new RangeError(`Unknown time zone: ${zone}`);
  const wall = Date.UTC(date.year, date.month - 1, date.day) + secondOfDay * 1000;
  const uniform = uniformOffsetOn(ianaZone, date);
  if (uniform !== null) return DateTime.fromMillis(wall - uniform * 60_000, { zone });
  const localAt = (instant: number) => instant + ianaZone.offset(instant) * 60_000;
  // Every offset near this day; a zone changes offset at most a few times around one date.
  const offsets = new Set([-1, 0, 1].map((days) => ianaZone.offset(wall + days * MILLIS_PER_DAY)));
  const exact = [...offsets]
    .map((offset) => wall - offset * 60_000)
    .filter((instant) => localAt(instant) === wall)
    .sort((a, b) => a - b);
  if (exact[0] !== undefined) return DateTime.fromMillis(exact[0], { zone });
  // Skipped time: the clocks jump at the first instant whose local time is past it.
  let low = wall - Math.max(...offsets) * 60_000;
  let high = wall - Math.min(...offsets) * 60_000;
  while (high - low > 1000) {
    const middle = low + Math.floor((high - low) / 2000) * 1000;
    if (localAt(middle) >= wall) high = middle;
    else low = middle;
  }
  return DateTime.fromMillis(high, { zone });
}

function layOutDay(layout: ScheduleLayout, calendarDate: CalendarDate, zone: string): LaidOutPeriod[] {
  const rules = layout.days[weekdayOf(calendarDate)] ?? [];
  const periods: LaidOutPeriod[] = [];
  for (const rule of rules) {
    const start = instantOf(calendarDate, rule.startSecond, zone);
    const end = instantOf(calendarDate, rule.endSecond, zone);
    if (end > start) periods.push({ start, end, label: rule.label, isReservable: rule.isReservable });
  }
  return periods;
}

const laidOutDays = new WeakMap<ScheduleLayout, Map<string, readonly LaidOutPeriod[]>>();

/**
 * The periods of one calendar date in the schedule's zone (a string `yyyy-MM-dd`, or the date an
 * instant falls on in `zone`). Periods a DST jump swallows whole are left out. Days are remembered
 * per layout, since the rules ask for the same days many times over.
 */
export function periodsOn(layout: ScheduleLayout, date: string | DateTime | CalendarDate, zone: string): LaidOutPeriod[] {
  return rememberedPeriodsOn(layout, date, zone).map((period) => ({ ...period }));
}

/** The remembered periods themselves, for the checks here that only read them. */
function rememberedPeriodsOn(layout: ScheduleLayout, date: string | DateTime | CalendarDate, zone: string): readonly LaidOutPeriod[] {
  const calendarDate = calendarDateOf(date, zone);
  const key = `${zone}|${isoDate(calendarDate)}`;
  let days = laidOutDays.get(layout);
  if (!days) laidOutDays.set(layout, (days = new Map()));
  let periods = days.get(key);
  if (!periods) {
    // Layouts now live as long as their rules; bound the days remembered for each.
    if (days.size >= 5_000) days.clear();
    days.set(key, (periods = layOutDay(layout, calendarDate, zone)));
  }
  return periods;
}

/** The periods that overlap [from, to), in order. */
export function periodsBetween(layout: ScheduleLayout, from: DateTime, to: DateTime, zone: string): LaidOutPeriod[] {
  const periods: LaidOutPeriod[] = [];
  const last = calendarDateOf(to, zone);
  // A period of the day before can reach past midnight only as far as 24:00, so start one day early.
  for (let date = addDays(calendarDateOf(from, zone), -1); isoDate(date) <= isoDate(last); date = addDays(date, 1)) {
    for (const period of rememberedPeriodsOn(layout, date, zone)) {
      if (period.start < to && period.end > from) periods.push({ ...period });
    }
  }
  return periods;
}

// A span this long holds every weekday twice over whole days, so each of the layout's periods
// lies inside it at least once even where a DST change swallows it on one date.
const DAYS_HOLDING_EVERY_PERIOD = 16;

const spansDays = (from: DateTime, to: DateTime, days: number) => to.toMillis() - from.toMillis() > days * MILLIS_PER_DAY;

/**
 * Whether a period that cannot be reserved overlaps [from, to). Its cost does not grow with the
 * span: past a little over two weeks every period of the layout is inside, so the layout answers.
 */
export function includesBlockedPeriod(layout: ScheduleLayout, from: DateTime, to: DateTime, zone: string): boolean {
  if (spansDays(from, to, DAYS_HOLDING_EVERY_PERIOD)) return layout.days.some((day) => day.some((period) => !period.isReservable));
  return periodsBetween(layout, from, to, zone).some((period) => !period.isReservable);
}

/**
 * How many reservable periods overlap [from, to), in time bounded by the layout, not the span: whole
 * weeks (wall clock, so slot boundaries line up week on week) count the layout's week, and only the
 * remainder is laid out. A period a DST change swallows inside the whole weeks is still counted.
 */
export function reservablePeriodCount(layout: ScheduleLayout, from: DateTime, to: DateTime, zone: string): number {
  const start = from.setZone(zone);
  const wholeWeeks = spansDays(from, to, DAYS_HOLDING_EVERY_PERIOD)
    ? Math.floor((to.toMillis() - start.toMillis()) / (7 * MILLIS_PER_DAY)) - 1
    : 0;
  const perWeek = layout.days.reduce((sum, day) => sum + day.filter((period) => period.isReservable).length, 0);
  const rest = periodsBetween(layout, start.plus({ weeks: wholeWeeks }), to, zone).filter((period) => period.isReservable).length;
  return wholeWeeks * perWeek + rest;
}

/** The 7 dates (`yyyy-MM-dd`, Sunday first) of the week that contains `instant` in `zone`. */
export function weekContaining(instant: DateTime, zone: string): string[] {
  const today = calendarDateOf(instant, zone);
  const sunday = addDays(today, -weekdayOf(today));
  return Array.from({ length: 7 }, (_, index) => isoDate(addDays(sunday, index)));
}

/**
 * Whether a reservation may start (`edge` = 'start') or end (`edge` = 'end') at `instant`: it must
 * be the start, or the end, of a reservable period.
 */
export function isOnSlotBoundary(layout: ScheduleLayout, instant: DateTime, zone: string, edge: 'start' | 'end'): boolean {
  const moment = instant.toMillis();
  const today = calendarDateOf(instant, zone);
  // A period ending at 24:00 ends on the next date's midnight, so look at the day before too.
  for (const date of [addDays(today, -1), today]) {
    for (const period of rememberedPeriodsOn(layout, date, zone)) {
      if (period.isReservable && (edge === 'start' ? period.start : period.end).toMillis() === moment) return true;
    }
  }
  return false;
}
