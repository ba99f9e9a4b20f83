/**
 * What the tray shows, as plain data: the shell (electron/shell/tray.ts) maps the model onto
 * Electron's Menu and runs the commands it names through the same core handlers the popover uses,
 * so the menu holds no logic of its own and is tested without Electron.
 */
import { DateTime } from 'luxon';
import type { CommandName, CommandRequest, FreeResourceView, ReservationView, StateSnapshot } from '../../bridge.js';

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

export interface TrayFormat {
  /** BCP 47 locale for times; the system's when absent. */
  locale?: string;
}

/** A menu is read at a glance: more than a handful of resources belongs in the popover. */
const bookNowLimit = 5;
const quickDurations = [
  { label: '30 min', minutes: 30 },
  { label: '1 h', minutes: 60 },
] as const;

const separator: TrayMenuItem = { label: '', type: 'separator' };

/** The reservation the tray talks about: the one in progress, else the next to start. */
function nextReservation(state: StateSnapshot, now: DateTime): ReservationView | null {
  if (state.phase !== 'ready') return null;
  return (
    state.reservations.find((reservation) => reservation.checkedOutAt === null && instant(reservation.end) > now) ?? null
  );
}

export function buildTrayMenu(state: StateSnapshot, now: DateTime, format: TrayFormat = {}): TrayMenuItem[] {
  const items: TrayMenuItem[] = [];
  if (state.phase === 'signedOut') {
    items.push({ label: 'Not signed in', enabled: false });
  } else if (state.phase === 'signingIn') {
    items.push({ label: 'Signing in…', enabled: false });
  } else {
    if (state.offline) items.push({ label: offlineLabel(state, now, format), enabled: false });
    items.push(...reservationItems(state, now, format), separator, bookNowItem(state.freeNow, now, format));
  }
  items.push(separator, { label: 'Open Perch', action: 'openPerch' }, separator, { label: 'Quit Perch', action: 'quit' });
  return items;
}

/** The tray icon's tooltip: the app's name and what is next. */
export function trayTooltip(state: StateSnapshot, now: DateTime, format: TrayFormat = {}): string {
  if (state.phase === 'signedOut') return 'Perch — not signed in';
  if (state.phase === 'signingIn') return 'Perch — signing in…';
  const next = nextReservation(state, now);
  const summary = next ? reservationLabel(next, now, format) : 'No upcoming reservations';
  return `Perch — ${summary}${state.offline ? ' (offline)' : ''}`;
}

/** The short text beside the icon in the macOS menu bar: today's next start, or nothing. */
export function trayTitle(state: StateSnapshot, now: DateTime, format: TrayFormat = {}): string {
  const next = nextReservation(state, now);
  if (!next) return '';
  const start = instant(next.start);
  if (start <= now || !start.hasSame(now.setZone(start.zone), 'day')) return '';
  return time(start, format);
}

function reservationItems(state: StateSnapshot, now: DateTime, format: TrayFormat): TrayMenuItem[] {
  const next = nextReservation(state, now);
  if (!next) return [{ label: 'No upcoming reservations', enabled: false }];
  const items: TrayMenuItem[] = [{ label: reservationLabel(next, now, format), enabled: false }];
  const reference = { referenceNumber: next.referenceNumber };
  if (next.checkInOpen && next.checkedInAt === null) {
    items.push({ label: 'Check in', command: { name: 'checkIn', request: reference } });
  } else if (next.canCheckOut) {
    items.push({ label: 'Check out', command: { name: 'checkOut', request: reference } });
  }
  if (next.requiresCheckIn && next.checkedInAt === null && next.autoReleaseAt !== null) {
    items.push({ label: `Released at ${time(instant(next.autoReleaseAt), format)} unless checked in`, enabled: false });
  }
  return items;
}

function reservationLabel(reservation: ReservationView, now: DateTime, format: TrayFormat): string {
  const start = instant(reservation.start);
  const end = instant(reservation.end);
  const what = reservation.title.trim() ? `${reservation.title.trim()} · ${reservation.resourceName}` : reservation.resourceName;
  const when = start <= now ? `until ${time(end, format)}` : `${day(start, now)}${time(start, format)}–${time(end, format)}`;
  const status = reservation.isPendingApproval ? ' (pending approval)' : reservation.checkedInAt !== null ? ' · checked in' : '';
  return `${start <= now ? 'Now' : 'Next'}: ${what}, ${when}${status}`;
}

/**
 * Bookings start on slot boundaries and never in the past: "now" means the next half-hour boundary, as in
 * the popover (the demo and most LibreBooking layouts use 30-minute slots; the core refuses others).
 */
function nextHalfHour(now: DateTime): DateTime {
  return now.startOf('hour').plus({ minutes: now.minute < 30 ? 30 : 60 });
}

function bookNowItem(freeNow: FreeResourceView[], now: DateTime, format: TrayFormat): TrayMenuItem {
  const start = nextHalfHour(now);
  const resources = freeNow
    .slice(0, bookNowLimit)
    .map((resource) => ({ label: resource.name, submenu: bookingChoices(resource, start, format) }))
    .filter((item) => item.submenu.length > 0);
  if (resources.length === 0) return { label: 'Book now — nothing free', enabled: false };
  return { label: 'Book now', submenu: resources };
}

function bookingChoices(resource: FreeResourceView, start: DateTime, format: TrayFormat): TrayMenuItem[] {
  // Unknown: nothing seen ahead; the server refuses a booking that meets one, in its own words.
  const freeUntil = resource.freeUntil === null ? null : instant(resource.freeUntil);
  const freeMinutes = freeUntil === null ? Number.POSITIVE_INFINITY : Math.floor(freeUntil.diff(start, 'minutes').minutes);
  const startIso = iso(start);
  const choices: TrayMenuItem[] = quickDurations
    .filter((choice) => choice.minutes <= freeMinutes)
    .map((choice) => ({
      label: choice.label,
      command: { name: 'book', request: { resourceId: resource.resourceId, start: startIso, durationMinutes: choice.minutes, title: '' } },
    }));
  // "Until" only means something when the next booking is known and later today.
  const repeatsQuickChoice = quickDurations.some((choice) => choice.minutes === freeMinutes);
  if (freeUntil !== null && resource.freeUntil !== null && freeMinutes > 0 && !repeatsQuickChoice && freeUntil.hasSame(start.setZone(freeUntil.zone), 'day')) {
    choices.push({
      label: `Until ${time(freeUntil, format)}`,
      command: { name: 'book', request: { resourceId: resource.resourceId, start: startIso, end: resource.freeUntil, title: '' } },
    });
  }
  return choices;
}

function offlineLabel(state: StateSnapshot, now: DateTime, format: TrayFormat): string {
  if (state.fetchedAt === null) return 'Offline';
  const fetched = instant(state.fetchedAt);
  return `Offline — updated ${day(fetched, now)}${time(fetched, format)}`;
}

/** Snapshot instants carry the user's offset; keeping it shows times as the user reads them. */
function instant(value: string): DateTime {
  return DateTime.fromISO(value, { setZone: true });
}

function iso(value: DateTime): string {
  return value.toISO({ suppressMilliseconds: true }) ?? value.toUTC().toISO() ?? '';
}

function time(value: DateTime, format: TrayFormat): string {
  return value.toLocaleString(DateTime.TIME_SIMPLE, format.locale ? { locale: format.locale } : {});
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
