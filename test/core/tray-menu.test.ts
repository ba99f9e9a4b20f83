import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import type { FreeResourceView, ReservationView, StateSnapshot } from '../../electron/bridge/contract.js';
import { validateCommandRequest } from '../../electron/core/desktop/ipc-validation.js';
import {
  buildTrayMenu,
  trayTitle,
  shortened,
  trayTooltip,
  trayWordsChangeAt,
  type TrayMenuItem,
} from '../../electron/core/desktop/tray-menu.js';
import { freeResourceView, testTimeFormat } from '../support/snapshots.js';

const zone = 'Europe/Berlin';
// A Monday, half a minute past ten: quick bookings start at the whole minute.
const now = DateTime.fromISO('2025-03-10T10:00:30', { zone });
const at = (clock: string, date = '2025-03-10') => DateTime.fromISO(`${date}T${clock}`, { zone }).toISO({ suppressMilliseconds: true })!;

function snapshot(patch: Partial<StateSnapshot> = {}): StateSnapshot {
  return {
    phase: 'ready',
    account: {
      server: { kind: 'local' },
      userId: 2,
      userName: 'ada',
      displayName: 'Ada L',
      timezone: zone,
      timezoneNote: null,
      isAdmin: false,
    },
    reservations: [],
    freeNow: [],
    freeNowLoading: false,
    notFreeNow: [],
    freeNowClosed: null,
    fetchedAt: at('09:59'),
    offline: false,
    serverStrain: null,
    lastError: null,
    keychain: { available: true, reason: null },
    notifierProblem: null,
    globalShortcut: { label: 'Ctrl+Alt+P', problem: null, command: null },
    now: now.toISO()!,
    timeFormat: testTimeFormat,
    ...patch,
  };
}

function reservation(patch: Partial<ReservationView> = {}): ReservationView {
  return {
    referenceNumber: 'ref-1',
    title: '',
    resourceId: 1,
    resourceName: 'Room A',
    scheduleId: 1,
    timezone: zone,
    start: at('10:05'),
    end: at('11:00'),
    isRecurring: false,
    isPendingApproval: false,
    requiresCheckIn: false,
    checkedInAt: null,
    checkedOutAt: null,
    originalEnd: null,
    autoReleaseAt: null,
    awaitsCheckIn: false,
    checkInOpensAt: null,
    checkInOpen: false,
    canCheckOut: false,
    canChange: true,
    ownerName: 'Ada L',
    ownerFirstName: 'Ada',
    isMine: true,
    role: 'owner',
    seriesKey: null,
    resourceFace: { kind: 'other', color: null },
    ...patch,
  };
}

function free(resourceId: number, name: string, freeUntil: string | null, fields: Partial<FreeResourceView> = {}): FreeResourceView {
  return freeResourceView({ resourceId, name, freeUntil, ...fields });
}

/** The menu as readable lines: labels, submenus indented, actions and commands in brackets. */
function outline(items: TrayMenuItem[], depth = 0): string[] {
  return items.flatMap((item) => {
    const indent = '  '.repeat(depth);
    if (item.type === 'separator') return [`${indent}---`];
    const marks = [
      item.enabled === false ? 'disabled' : null,
      item.action ? `action:${item.action}` : null,
      item.command ? `command:${item.command.name}` : null,
    ].filter(Boolean);
    const line = `${indent}${item.label}${marks.length ? ` [${marks.join(', ')}]` : ''}`;
    return [line, ...(item.submenu ? outline(item.submenu, depth + 1) : [])];
  });
}

function commandsOf(items: TrayMenuItem[]): NonNullable<TrayMenuItem['command']>[] {
  return items.flatMap((item) => [...(item.command ? [item.command] : []), ...commandsOf(item.submenu ?? [])]);
}

const footer = ['---', 'Open Perch [action:openPerch]', '---', 'Quit Perch [action:quit]'];

describe('buildTrayMenu', () => {
  it('signed out: says so, and offers only Open Perch and Quit', () => {
    const menu = buildTrayMenu(snapshot({ phase: 'signedOut', account: null }), now);
    expect(outline(menu)).toEqual(['Not signed in [disabled]', ...footer]);
    // A clock in a fixed-offset zone, which Intl does not know by luxon's name for it.
    const fixedOffset = now.setZone('UTC-5');
    expect(outline(buildTrayMenu(snapshot({ phase: 'signedOut', account: null }), fixedOffset))).toEqual([
      'Not signed in [disabled]',
      ...footer,
    ]);
  });

  it('while signing in: says so', () => {
    expect(outline(buildTrayMenu(snapshot({ phase: 'signingIn' }), now))).toEqual(['Signing in… [disabled]', ...footer]);
  });

  it('no reservations and nothing free', () => {
    expect(outline(buildTrayMenu(snapshot(), now))).toEqual([
      'No upcoming reservations [disabled]',
      '---',
      'Book now — nothing free [disabled]',
      ...footer,
    ]);
  });

  it('while Free now is still loading after sign-in: says so rather than nothing free', () => {
    expect(outline(buildTrayMenu(snapshot({ freeNowLoading: true }), now))).toEqual([
      'No upcoming reservations [disabled]',
      '---',
      'Book now — finding what is free… [disabled]',
      ...footer,
    ]);
  });

  it('the next reservation with check-in open: Check in, and when it will be released', () => {
    const next = reservation({
      title: 'Standup',
      requiresCheckIn: true,
      awaitsCheckIn: true,
      checkInOpen: true,
      autoReleaseAt: at('10:20'),
    });
    const menu = buildTrayMenu(snapshot({ reservations: [next] }), now);
    expect(outline(menu)).toEqual([
      'Next: Standup · Room A, 10:05–11:00 [disabled]',
      'Check in [command:checkIn]',
      'Released at 10:20 unless you check in [disabled]',
      '---',
      'Book now — nothing free [disabled]',
      ...footer,
    ]);
    expect(commandsOf(menu)).toEqual([{ name: 'checkIn', request: { referenceNumber: 'ref-1' } }]);
  });

  it('checked in: the reservation in progress with Check out', () => {
    const current = reservation({
      start: at('09:30'),
      requiresCheckIn: true,
      checkedInAt: at('09:31'),
      canCheckOut: true,
      autoReleaseAt: at('09:45'),
    });
    const menu = buildTrayMenu(snapshot({ reservations: [current] }), now);
    expect(outline(menu).slice(0, 2)).toEqual(['Now: Room A, until 11:00 · checked in [disabled]', 'Check out [command:checkOut]']);
    expect(commandsOf(menu)).toEqual([{ name: 'checkOut', request: { referenceNumber: 'ref-1' } }]);
  });

  it('skips finished and checked-out reservations; a later day is named; pending approval has no action', () => {
    const reservations = [
      reservation({ referenceNumber: 'past', start: at('08:00'), end: at('09:00') }),
      reservation({ referenceNumber: 'done', start: at('09:00'), end: at('10:00'), checkedOutAt: at('09:40') }),
      reservation({
        referenceNumber: 'next',
        resourceName: 'Room B',
        start: at('09:00', '2025-03-11'),
        end: at('10:00', '2025-03-11'),
        isPendingApproval: true,
      }),
    ];
    const menu = buildTrayMenu(snapshot({ reservations }), now);
    expect(outline(menu)[0]).toBe('Next: Room B, tomorrow 09:00–10:00 (pending approval) [disabled]');
    expect(commandsOf(menu)).toEqual([]);
  });

  it('Book now: the first five free resources one click can book, in the core’s order, each with what it books from the next half hour', () => {
    const freeNow = [
      free(11, 'Horizon desk', at('10:00', '2025-03-17')),
      free(12, 'Room C', at('12:30')),
      free(13, 'Room R&D', at('11:00')),
      free(14, 'Booth', at('10:45')),
      free(15, 'Phone box', at('10:10')),
      free(16, 'Sixth', at('18:00')),
    ];
    const menu = buildTrayMenu(snapshot({ freeNow }), now);
    expect(outline(menu)).toEqual([
      'No upcoming reservations [disabled]',
      '---',
      'Book now',
      '  Horizon desk',
      '    10:30–11:00 [command:book]',
      '    10:30–11:30 [command:book]',
      '  Room C',
      '    10:30–11:00 [command:book]',
      '    10:30–11:30 [command:book]',
      '    10:30–12:30 [command:book]',
      '  Room R&D',
      '    10:30–11:00 [command:book]',
      '  Booth',
      '    10:30–10:45 [command:book]',
      // The phone box is taken by 10:30, so the sixth takes its place.
      '  Sixth',
      '    10:30–11:00 [command:book]',
      '    10:30–11:30 [command:book]',
      '    10:30–18:00 [command:book]',
      ...footer,
    ]);
    // It is 10:00:30: the next slot a booking may start at is 10:30. The phone box is taken by then.
    const start = new Date(at('10:30')).toISOString();
    expect(commandsOf(menu).filter((command) => command.name === 'book' && command.request.resourceId === 12)).toEqual([
      { name: 'book', request: { resourceId: 12, start, durationMinutes: 30, title: '' } },
      { name: 'book', request: { resourceId: 12, start, durationMinutes: 60, title: '' } },
      { name: 'book', request: { resourceId: 12, start, end: at('12:30'), title: '' } },
    ]);
  });

  it('Book now with no next booking known: both lengths, no "until"', () => {
    const menu = buildTrayMenu(snapshot({ freeNow: [free(11, 'Horizon desk', null)] }), now);
    expect(outline(menu)).toEqual([
      'No upcoming reservations [disabled]',
      '---',
      'Book now',
      '  Horizon desk',
      '    10:30–11:00 [command:book]',
      '    10:30–11:30 [command:book]',
      ...footer,
    ]);
  });

  it('Book now: free all day (until the schedule closes), no booking to closing time is offered', () => {
    const menu = buildTrayMenu(snapshot({ freeNow: [free(31, 'Room D', at('18:00'), { freeAllDay: true })] }), now);
    expect(outline(menu).slice(3, 6)).toEqual(['  Room D', '    10:30–11:00 [command:book]', '    10:30–11:30 [command:book]']);
  });

  it('Book now: a booking that starts within the minute says "now"', () => {
    const justBefore = DateTime.fromISO('2025-03-10T10:29:20', { zone });
    const menu = buildTrayMenu(snapshot({ freeNow: [free(11, 'Horizon desk', null)], now: justBefore.toISO()! }), justBefore);
    expect(outline(menu).slice(3, 6)).toEqual(['  Horizon desk', '    now–11:00 [command:book]', '    now–11:30 [command:book]']);
  });

  it('Book now: "Book…" opens the Book form filled in where one click cannot book (approval, attributes, length limits)', () => {
    const freeNow = [
      free(21, 'Boardroom', null, { needsForm: 'needs approval and a cost centre' }),
      free(22, 'Lecture hall', null, { minLengthMinutes: 120 }),
      free(23, 'Booth', null, { maxLengthMinutes: 30 }),
    ];
    const menu = buildTrayMenu(snapshot({ freeNow }), now);
    expect(outline(menu).slice(2, 10)).toEqual([
      'Book now',
      '  Boardroom',
      '    Book… (needs approval and a cost centre) [command:openBookForm]',
      '  Lecture hall',
      '    Book… (books for at least 2 h) [command:openBookForm]',
      '  Booth',
      // Its limit rules out the hour, not the half hour.
      '    10:30–11:00 [command:book]',
      '---',
    ]);
    const start = new Date(at('10:30')).toISOString();
    expect(commandsOf(menu).filter((command) => command.name === 'openBookForm')).toEqual([
      { name: 'openBookForm', request: { resourceId: 21, start, durationMinutes: 30 } },
      { name: 'openBookForm', request: { resourceId: 22, start, durationMinutes: 120 } },
    ]);
    for (const command of commandsOf(menu)) expect(validateCommandRequest(command.name, command.request).ok).toBe(true);
  });

  it('every command the menu offers passes the bridge validation main applies', () => {
    const menu = buildTrayMenu(
      snapshot({
        reservations: [reservation({ checkInOpen: true, requiresCheckIn: true, awaitsCheckIn: true })],
        freeNow: [free(12, 'Room C', at('12:30'))],
      }),
      now,
    );
    const commands = commandsOf(menu);
    expect(commands.length).toBe(4);
    for (const command of commands) expect(validateCommandRequest(command.name, command.request).ok).toBe(true);
  });

  it('offline: says since when the data is', () => {
    const menu = buildTrayMenu(snapshot({ offline: true, fetchedAt: at('09:42') }), now);
    expect(outline(menu)[0]).toBe('Offline — updated 09:42 [disabled]');
    expect(outline(buildTrayMenu(snapshot({ offline: true, fetchedAt: null }), now))[0]).toBe('Offline [disabled]');
  });
});

describe('trayTooltip and trayTitle', () => {
  const titled = (patch: Partial<ReservationView> = {}) => reservation({ title: 'Design review', resourceName: 'Thames (1.01)', ...patch });

  it.each([
    ['signed out', snapshot({ phase: 'signedOut', account: null }), 'Perch — not signed in', ''],
    ['signing in', snapshot({ phase: 'signingIn' }), 'Perch — signing in…', ''],
    ['nothing booked', snapshot(), 'Perch — No upcoming reservations', ''],
    ['untitled, within the hour', snapshot({ reservations: [reservation()] }), 'Perch — Room A in 5 min', 'Room A in 5 min'],
    [
      'titled, in 59 minutes: where goes in the tooltip only',
      snapshot({ reservations: [titled({ start: at('10:59'), end: at('11:30') })] }),
      'Perch — Design review in 59 min, Thames (1.01)',
      'Design review in 59 min',
    ],
    [
      'later today: at its time',
      snapshot({ reservations: [titled({ start: at('14:00'), end: at('15:00') })] }),
      'Perch — Design review at 14:00, Thames (1.01)',
      'Design review at 14:00',
    ],
    [
      'under way: until its end',
      snapshot({ reservations: [reservation({ resourceName: 'Severn', start: at('09:00'), end: at('12:30') })] }),
      'Perch — Severn until 12:30',
      'Severn until 12:30',
    ],
    [
      'under way and checked in',
      snapshot({ reservations: [titled({ start: at('09:00'), checkedInAt: at('09:01') })] }),
      'Perch — Design review until 11:00, Thames (1.01) · checked in',
      'Design review until 11:00',
    ],
    [
      'pending approval',
      snapshot({ reservations: [reservation({ isPendingApproval: true })] }),
      'Perch — Room A in 5 min (pending approval)',
      'Room A in 5 min',
    ],
    [
      'tomorrow, offline: the tooltip names the day, the menu bar stays empty',
      snapshot({ offline: true, reservations: [reservation({ start: at('09:00', '2025-03-11'), end: at('10:00', '2025-03-11') })] }),
      'Perch — Room A tomorrow 09:00 (offline)',
      '',
    ],
    [
      'a resource in another zone: its own time, named',
      snapshot({
        reservations: [reservation({ resourceName: 'Severn', timezone: 'Europe/London', start: at('09:00'), end: at('12:30') })],
      }),
      'Perch — Severn until 11:30 London time',
      'Severn until 11:30 London time',
    ],
    [
      'a zone with the same clock is not named',
      snapshot({ reservations: [reservation({ timezone: 'Europe/Rome', start: at('09:00') })] }),
      'Perch — Room A until 11:00',
      'Room A until 11:00',
    ],
  ])('%s', (_name, state, tooltip, title) => {
    expect(trayTooltip(state, now)).toBe(tooltip);
    expect(trayTitle(state, now)).toBe(title);
  });

  it('a long title is cut at a word for the menu bar, and kept whole in the tooltip', () => {
    const long = snapshot({ reservations: [reservation({ title: 'Quarterly planning with the design team', start: at('10:30') })] });
    expect(trayTitle(long, now)).toBe('Quarterly planning… in 30 min');
    expect(trayTooltip(long, now)).toBe('Perch — Quarterly planning with the design team in 30 min, Room A');
  });

  it.each([
    ['Short', 'Short'],
    ['Exactly twenty chars', 'Exactly twenty chars'],
    ['Quarterly planning with the design team', 'Quarterly planning…'],
    ['Supercalifragilisticexpialidocious', 'Supercalifragilisti…'],
  ])('shortened(%j)', (text, expected) => {
    expect(shortened(text, 20)).toBe(expected);
    expect(shortened(text, 20).length).toBeLessThanOrEqual(20);
  });

  it("writes times by the snapshot's rules: a 12-hour clock when the OS has one", () => {
    const us = snapshot({
      timeFormat: { locale: 'en-US', hourCycle: 'h12' },
      reservations: [reservation({ start: at('09:00'), end: at('12:30') })],
    });
    expect(trayTitle(us, now)).toBe('Room A until 12:30 PM');
  });
});

describe('trayWordsChangeAt: when the tray must be shown again, with no new state', () => {
  /** All the tray says that depends on the moment: title, tooltip and menu. */
  const words = (state: StateSnapshot, at: DateTime) =>
    [trayTitle(state, at), trayTooltip(state, at), ...outline(buildTrayMenu(state, at))].join('\n');

  it.each([
    ['within the hour: the countdown turns at the half minute', [reservation()], '2025-03-10T10:00:30.001+01:00'],
    [
      'later today: the countdown begins once less than the hour is left',
      [reservation({ start: at('14:00'), end: at('15:00') })],
      '2025-03-10T13:00:00.001+01:00',
    ],
    ['under way: at its end', [reservation({ start: at('09:00'), end: at('12:30') })], '2025-03-10T12:30:00.000+01:00'],
    [
      'tomorrow: at midnight, when it becomes today',
      [reservation({ start: at('09:00', '2025-03-11'), end: at('10:00', '2025-03-11') })],
      '2025-03-11T00:00:00.000+01:00',
    ],
    [
      'next week: at midnight, when its day reads differently',
      [reservation({ start: at('09:00', '2025-03-17'), end: at('10:00', '2025-03-17') })],
      '2025-03-11T00:00:00.000+01:00',
    ],
  ])('%s; the words hold until then and change at it', (_name, reservations, expected) => {
    const state = snapshot({ reservations });
    const changeAt = trayWordsChangeAt(state, now)!;
    expect(changeAt.toMillis()).toBe(DateTime.fromISO(expected).toMillis());
    const before = words(state, now);
    const steps = 60;
    for (let step = 1; step < steps; step++)
      expect(words(state, now.plus({ milliseconds: Math.floor(((changeAt.toMillis() - now.toMillis()) * step) / steps) }))).toBe(before);
    expect(words(state, changeAt.minus({ milliseconds: 1 }))).toBe(before);
    expect(words(state, changeAt)).not.toBe(before);
  });

  it('nothing booked: nothing to wake for', () => {
    expect(trayWordsChangeAt(snapshot(), now)).toBeNull();
    expect(trayWordsChangeAt(snapshot({ phase: 'signedOut', account: null }), now)).toBeNull();
  });

  it('a morning walked from change to change: once a minute only in the hour before the start, then its start and end', () => {
    const state = snapshot({ reservations: [reservation({ start: at('11:30'), end: at('12:00') })] });
    const moments: DateTime[] = [];
    for (let t: DateTime | null = trayWordsChangeAt(state, now); t !== null; t = trayWordsChangeAt(state, t)) moments.push(t);
    expect(moments[0]!.toISO()).toBe('2025-03-10T10:30:00.001+01:00');
    expect(moments.filter((moment) => moment < DateTime.fromISO(at('10:30')))).toHaveLength(0);
    // "in 1 h", "in 59 min" down to "in 1 min", "now" for the last half minute, then under way, then nothing.
    expect(moments).toHaveLength(63);
    expect(moments.at(-2)!.toISO()).toBe('2025-03-10T11:30:00.000+01:00');
    expect(moments.at(-1)!.toISO()).toBe('2025-03-10T12:00:00.000+01:00');
  });
});
