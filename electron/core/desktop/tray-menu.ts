/**
 * What the tray shows, as plain data: the shell (electron/shell/tray.ts) maps the model onto
 * Electron's Menu and runs the commands it names through the same core handlers the popover uses,
 * so the menu holds no logic of its own and is tested without Electron.
 */
import { DateTime } from 'luxon';
import type { CommandName, CommandRequest, FreeResourceView, ReservationView, StateSnapshot } from '../../bridge/contract.js';
import { createTimeFormat, type TimeFormat } from '../../bridge/format.js';
import { quickActions, type QuickAction } from '../../bridge/quick-book.js';
import { nextReservation } from '../../bridge/reservations.js';

export type TrayCommand = { [C in CommandName]: { name: C; request: CommandRequest<C> } }[CommandName];

/** What the shell itself does, outside the core. */
export type TrayAction = 'openPerch' | 'quit';

export interface TrayMenuItem {
  label: string;
  enabled?: boolean;
  type?: 'normal' | 'separator';
  submenu?: TrayMenuItem[];
  command?: TrayCommand;
  action?: TrayAction;
}

/** A menu is read at a glance: more than a handful of resources belongs in the popover. */
const bookNowLimit = 5;

/** The menu bar has little room: a longer name is cut, at a word where one ends late enough. */
const titleNameLength = 20;

/** Within this long of its start, a reservation's time reads as a countdown ("in 59 min"). */
const countdownMinutes = 60;
const minuteMs = 60_000;

const separator: TrayMenuItem = { label: '', type: 'separator' };

/** The reservation the tray talks about (see `nextReservation`), once signed in. */
function trayReservation(state: StateSnapshot, now: DateTime): ReservationView | null {
  return state.phase === 'ready' ? nextReservation(state.reservations, now.toMillis()) : null;
}

/** Times as the popover writes them: the snapshot's rules, in the account's zone. */
function formatOf(state: StateSnapshot, now: DateTime): TimeFormat {
  // A fixed-offset zone ("UTC-5") is one luxon knows and Intl does not: before sign-in, UTC will do.
  return createTimeFormat(state.timeFormat, state.account?.timezone ?? (now.zone.type === 'iana' ? now.zoneName : null) ?? 'UTC');
}

export function buildTrayMenu(state: StateSnapshot, now: DateTime): TrayMenuItem[] {
  const format = formatOf(state, now);
  const items: TrayMenuItem[] = [];
  if (state.phase === 'signedOut') {
    items.push({ label: 'Not signed in', enabled: false });
  } else if (state.phase === 'signingIn') {
    items.push({ label: 'Signing in…', enabled: false });
  } else {
    if (state.offline) items.push({ label: offlineLabel(state, now, format), enabled: false });
    items.push(...reservationItems(state, now, format), separator, bookNowItem(state, now, format));
  }
  items.push(separator, { label: 'Open Perch', action: 'openPerch' }, separator, { label: 'Quit Perch', action: 'quit' });
  return items;
}

/**
 * The tray icon's tooltip: the app's name and what is next, as the menu bar title says it
 * ("Design review in 59 min", "Severn until 12:30"), with where and the day when it is not today.
 */
export function trayTooltip(state: StateSnapshot, now: DateTime): string {
  if (state.phase === 'signedOut') return 'Perch — not signed in';
  if (state.phase === 'signingIn') return 'Perch — signing in…';
  const next = trayReservation(state, now);
  const summary = next ? tooltipLine(next, now, formatOf(state, now)) : 'No upcoming reservations';
  return `Perch — ${summary}${state.offline ? ' (offline)' : ''}`;
}

/**
 * The short text beside the icon in the macOS menu bar: the reservation under way and its end
 * ("Severn until 12:30"), or today's next and when it starts ("Design review in 59 min",
 * "Design review at 14:00"); nothing when nothing is on today.
 */
export function trayTitle(state: StateSnapshot, now: DateTime): string {
  const next = trayReservation(state, now);
  if (!next || !startsToday(next, now)) return '';
  return `${shortened(nameOf(next), titleNameLength)} ${when(next, now, formatOf(state, now))}`;
}

/**
 * The next moment the tray's words (title, tooltip, the menu's reservation line) read differently
 * with the same state: the minute of a countdown turning, the hour before a start, a midnight that
 * turns "tomorrow" into today, the end of the booking under way. Null when only a new state changes
 * them, so nothing needs waking for the tray.
 */
export function trayWordsChangeAt(state: StateSnapshot, now: DateTime): DateTime | null {
  const next = trayReservation(state, now);
  if (!next) return null;
  const start = instant(next.start);
  if (start <= now) return instant(next.end);
  const countdownFrom = start.minus({ minutes: countdownMinutes });
  if (now <= countdownFrom) {
    const midnight = now.setZone(start.zone).startOf('day').plus({ days: 1 });
    // The countdown begins once less than the hour is left: just after this moment.
    return DateTime.min(midnight, countdownFrom.plus({ milliseconds: 1 }));
  }
  // The countdown rounds to the minute: "in n min" turns to n − 1 once less than n − ½ minutes are left.
  const shown = Math.round(start.diff(now).as('minutes'));
  return DateTime.min(start, start.minus({ milliseconds: (shown - 0.5) * minuteMs - 1 }));
}

const nameOf = (reservation: ReservationView) => reservation.title.trim() || reservation.resourceName;

function startsToday(reservation: ReservationView, now: DateTime): boolean {
  const start = instant(reservation.start);
  return start <= now || start.hasSame(now.setZone(start.zone), 'day');
}

/** `until 12:30` under way; `in 59 min` within the hour; `at 14:00` later today; `tomorrow 09:00` after. */
function when(reservation: ReservationView, now: DateTime, format: TimeFormat): string {
  const start = instant(reservation.start);
  if (start <= now) return `until ${format.time(reservation.end, reservation.timezone)}`;
  if (start.diff(now, 'minutes').minutes < countdownMinutes) return format.countdown(reservation.start, now.toMillis());
  const at = format.time(reservation.start, reservation.timezone);
  return startsToday(reservation, now) ? `at ${at}` : `${day(start, now).trim()} ${at}`;
}

function tooltipLine(reservation: ReservationView, now: DateTime, format: TimeFormat): string {
  const name = nameOf(reservation);
  const where = name === reservation.resourceName ? '' : `, ${reservation.resourceName}`;
  const status = reservation.isPendingApproval ? ' (pending approval)' : reservation.checkedInAt !== null ? ' · checked in' : '';
  return `${name} ${when(reservation, now, format)}${where}${status}`;
}

/** At most `length` characters: cut at the last word boundary in its second half, else mid-word, and marked with an ellipsis. */
export function shortened(text: string, length: number): string {
  if (text.length <= length) return text;
  const cut = text.slice(0, length - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space >= length / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

function reservationItems(state: StateSnapshot, now: DateTime, format: TimeFormat): TrayMenuItem[] {
  const next = trayReservation(state, now);
  if (!next) return [{ label: 'No upcoming reservations', enabled: false }];
  const items: TrayMenuItem[] = [{ label: reservationLabel(next, now, format), enabled: false }];
  const reference = { referenceNumber: next.referenceNumber };
  if (next.checkInOpen && next.checkedInAt === null) {
    items.push({ label: 'Check in', command: { name: 'checkIn', request: reference } });
  } else if (next.canCheckOut) {
    items.push({ label: 'Check out', command: { name: 'checkOut', request: reference } });
  }
  if (next.requiresCheckIn && next.checkedInAt === null && next.autoReleaseAt !== null) {
    items.push({ label: `Released at ${format.time(next.autoReleaseAt, next.timezone)} unless you check in`, enabled: false });
  }
  return items;
}

function reservationLabel(reservation: ReservationView, now: DateTime, format: TimeFormat): string {
  const start = instant(reservation.start);
  const what = reservation.title.trim() ? `${reservation.title.trim()} · ${reservation.resourceName}` : reservation.resourceName;
  const when =
    start <= now
      ? `until ${format.time(reservation.end, reservation.timezone)}`
      : `${day(start, now)}${format.timeRange(reservation.start, reservation.end, reservation.timezone)}`;
  const status = reservation.isPendingApproval ? ' (pending approval)' : reservation.checkedInAt !== null ? ' · checked in' : '';
  return `${start <= now ? 'Now' : 'Next'}: ${what}, ${when}${status}`;
}

/** The first free resources, in the popover's order, that the popover offers an action for. */
function bookNowResources(
  freeNow: readonly FreeResourceView[],
  now: DateTime,
  format: TimeFormat,
): { resource: FreeResourceView; actions: QuickAction[] }[] {
  const offered: { resource: FreeResourceView; actions: QuickAction[] }[] = [];
  for (const resource of freeNow) {
    if (offered.length === bookNowLimit) break;
    const actions = quickActions(resource, now.toMillis(), format);
    if (actions.length > 0) offered.push({ resource, actions });
  }
  return offered;
}

/** The schedules of the resources the tray's Book now shows: what the background keeps fresh. */
export function bookNowScheduleIds(state: StateSnapshot, now: DateTime): number[] {
  return [...new Set(bookNowResources(state.freeNow, now, formatOf(state, now)).map(({ resource }) => resource.scheduleId))];
}

/** The first free resources, in the popover's order, each with the popover's one-click actions (or its "Book…"). */
function bookNowItem(state: StateSnapshot, now: DateTime, format: TimeFormat): TrayMenuItem {
  if (state.freeNowLoading) return { label: 'Book now — finding what is free…', enabled: false };
  const resources = bookNowResources(state.freeNow, now, format).map(({ resource, actions }) => ({
    label: resource.name,
    submenu: actions.map(actionItem),
  }));
  if (resources.length === 0) return { label: 'Book now — nothing free', enabled: false };
  return { label: 'Book now', submenu: resources };
}

function actionItem(action: QuickAction): TrayMenuItem {
  if (action.kind === 'form')
    return { label: `${action.label} (${action.reason})`, command: { name: 'openBookForm', request: action.draft } };
  return { label: action.label, command: { name: 'book', request: action.request } };
}

function offlineLabel(state: StateSnapshot, now: DateTime, format: TimeFormat): string {
  if (state.fetchedAt === null) return 'Offline';
  return `Offline — updated ${day(instant(state.fetchedAt), now)}${format.time(state.fetchedAt)}`;
}

/** Snapshot instants carry the user's offset; keeping it shows times as the user reads them. */
function instant(value: string): DateTime {
  return DateTime.fromISO(value, { setZone: true });
}

/** A day prefix for times that are not today: "tomorrow ", "Mon ", or "12 Mar ". */
function day(value: DateTime, now: DateTime): string {
  const today = now.setZone(value.zone).startOf('day');
  const days = Math.round(value.startOf('day').diff(today, 'days').days);
  if (days === 0) return '';
  if (days === 1) return 'tomorrow ';
  if (days > 1 && days < 7) return `${value.toFormat('ccc')} `;
  return `${value.toFormat('d LLL')} `;
}
