import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { defaultSettings } from '../../electron/core/storage/settings-store.js';
import { plannerReservation, plannerTime } from '../support/planner-reservations.js';
import {
  notificationId,
  planNotifications,
  retainShown,
  snoozedUntil,
  type NotificationKind,
  type PlannedNotification,
  type PlannerInput,
} from '../../electron/core/notifications/planner.js';
import type { Reservation } from '../../electron/core/reservations.js';
import { testTimeFormat } from '../support/snapshots.js';

const berlin = 'Europe/Berlin';
const newYork = 'America/New_York';
const day = '2026-06-15';

/** A wall-clock time in Berlin (or another zone) on the test day. */
function t(clock: string, zone = berlin, date = day): DateTime {
  return DateTime.fromISO(`${date}T${clock}`, { zone });
}

/** The tests read a 24-hour British clock, whatever the machine's locale. */
const timeFormat = testTimeFormat;

/** The default lead times and switches, as a new user has them. */
const settings: PlannerInput['settings'] = defaultSettings;

const reservation = plannerReservation;

/**
 * 10:00–11:00 on a resource that requires check-in and releases 15 minutes after start. Its start
 * reminder (09:50) and check-in opening (09:55) are 5 minutes apart: they come as one, at 09:55.
 */
const checkInRoom = reservation({ requiresCheckIn: true, autoReleaseMinutes: 15 });

/** The same with its own start reminder half an hour before: too far from check-in to merge. */
const earlyReminderRoom = { ...checkInRoom, startReminderMinutes: 30 };

function plan(now: DateTime | string, reservations: Reservation[], extra: Partial<PlannerInput> = {}) {
  return planNotifications({
    now: typeof now === 'string' ? t(now) : now,
    zone: berlin,
    timeFormat,
    reservations,
    previous: null,
    settings,
    shown: new Set(),
    ...extra,
  });
}

/** A notification as plain data, its moment as an ISO string in the user's zone. */
function plain(notification: PlannedNotification) {
  return { ...notification, at: notification.at.toISO() };
}

function titlesOf(notifications: PlannedNotification[], kind: NotificationKind): string[] {
  return notifications.filter((n) => n.kind === kind).map((n) => n.title);
}

interface Shown {
  clock: string;
  kind: NotificationKind;
  referenceNumber: string;
  id: string;
}

/**
 * Polls every `stepMinutes` from `from` to `to`: each poll's list comes from `listAt`, the
 * poll before is `previous`, and every due id is fed back into `shown` as the core does.
 */
function simulatePolls(options: {
  from: DateTime;
  to: DateTime;
  stepMinutes: number;
  listAt: (now: DateTime) => Reservation[];
  settings?: PlannerInput['settings'];
  shown?: Set<string>;
  previous?: Reservation[] | null;
}): { shown: Shown[]; shownIds: Set<string> } {
  const shownIds = options.shown ?? new Set<string>();
  const log: Shown[] = [];
  let previous = options.previous ?? null;
  // A previous list given at the start was read one step before it.
  let previousReadAt = options.from.minus({ minutes: options.stepMinutes });
  for (let now = options.from; now <= options.to; now = now.plus({ minutes: options.stepMinutes })) {
    const reservations = options.listAt(now);
    const { due, passedOver } = planNotifications({
      now,
      zone: berlin,
      timeFormat,
      reservations,
      previous,
      previousReadAt,
      settings: options.settings ?? settings,
      shown: shownIds,
    });
    for (const id of passedOver) shownIds.add(id);
    for (const notification of due) {
      log.push({
        clock: now.setZone(berlin).toFormat('HH:mm'),
        kind: notification.kind,
        referenceNumber: notification.referenceNumber,
        id: notification.id,
      });
      shownIds.add(notification.id);
    }
    previous = reservations;
    previousReadAt = now;
  }
  return { shown: log, shownIds };
}

describe('each kind at, before and after its moment', () => {
  it.each<[NotificationKind, string, string | null]>([
    ['startReminder', '09:49', null],
    ['startReminder', '09:50', 'Planning starts in 10 min — Thames (1.01)'],
    ['startReminder', '09:55', 'Planning starts in 5 min — Thames (1.01)'],
    ['startReminder', '09:59:31', 'Planning starts now — Thames (1.01)'],
    ['startReminder', '10:00', 'Planning starts now — Thames (1.01)'],
    ['startReminder', '10:01', null],
    ['endReminder', '10:54', null],
    ['endReminder', '10:55', 'Planning ends in 5 min — Thames (1.01)'],
    ['endReminder', '10:58', 'Planning ends in 2 min — Thames (1.01)'],
    ['endReminder', '11:00', 'Planning ends now — Thames (1.01)'],
    ['endReminder', '11:01', null],
  ])('%s at %s → %s', (kind, clock, title) => {
    const { due } = plan(clock, [reservation()]);
    expect(titlesOf(due, kind)).toEqual(title === null ? [] : [title]);
  });

  it.each<[NotificationKind, string, string | null]>([
    ['startReminder', '09:30', 'Planning starts in 30 min — Thames (1.01)'],
    ['checkInOpen', '09:54', null],
    ['checkInOpen', '09:55', 'Check in to keep Thames (1.01)'],
    ['checkInOpen', '10:09', 'Check in to keep Thames (1.01)'],
    // Its moment and the warning's both passed unseen: the warning alone comes, as the one catch-up.
    ['checkInOpen', '10:14', null],
    ['checkInOpen', '10:15', null],
    ['autoReleaseWarning', '10:09', null],
    ['autoReleaseWarning', '10:10', 'Check in to keep Thames (1.01) — 5 min left'],
    ['autoReleaseWarning', '10:14', 'Check in to keep Thames (1.01) — 1 min left'],
    ['autoReleaseWarning', '10:14:30', 'Check in to keep Thames (1.01) — 1 min left'],
    ['autoReleaseWarning', '10:15', null],
  ])('check-in apart from the start reminder: %s at %s → %s', (kind, clock, title) => {
    const { due } = plan(clock, [earlyReminderRoom]);
    expect(titlesOf(due, kind)).toEqual(title === null ? [] : [title]);
  });

  it('gives stable ids, the moment each became due, and texts; of notices on one subject that passed unseen, the latest', () => {
    const { due, passedOver } = plan('10:09', [checkInRoom]);
    expect(due.map(plain)).toEqual([
      {
        id: 'checkInOpen:r1:2026-06-15T08:00:00.000Z',
        kind: 'checkInOpen',
        referenceNumber: 'r1',
        at: '2026-06-15T09:55:00.000+02:00',
        // Shown after the start (a late timer): about checking in alone, no longer about starting.
        title: 'Check in to keep Thames (1.01)',
        body: 'Released at 10:15 unless you check in. Planning · 10:00–11:00',
        actions: ['checkIn', 'notComing', 'snooze'],
      },
    ]);
    expect(passedOver).toEqual([]);
    const caughtUp = plan('10:11', [checkInRoom]);
    expect(caughtUp.passedOver).toEqual(['checkInOpen:r1:2026-06-15T08:00:00.000Z']);
    expect(caughtUp.due.map(plain)).toEqual([
      {
        id: 'autoReleaseWarning:r1:2026-06-15T08:00:00.000Z',
        kind: 'autoReleaseWarning',
        referenceNumber: 'r1',
        at: '2026-06-15T10:10:00.000+02:00',
        title: 'Check in to keep Thames (1.01) — 4 min left',
        body: 'Released at 10:15 unless you check in. Planning · 10:00–11:00',
        actions: ['checkIn', 'notComing'],
      },
    ]);
  });

  describe('a start reminder close to check-in opening comes with it, as one', () => {
    it.each<[string, Partial<Reservation>, Partial<PlannerInput['settings']>, [string, NotificationKind, string][]]>([
      [
        '10 and 5 minutes before: one, when check-in opens',
        {},
        {},
        [['09:55', 'checkInOpen', 'Planning starts in 5 min — check in to keep Thames (1.01)']],
      ],
      [
        'at the same moment',
        { startReminderMinutes: 5 },
        {},
        [['09:55', 'checkInOpen', 'Planning starts in 5 min — check in to keep Thames (1.01)']],
      ],
      [
        'the reminder after check-in opens',
        { startReminderMinutes: 2 },
        {},
        [['09:55', 'checkInOpen', 'Planning starts in 5 min — check in to keep Thames (1.01)']],
      ],
      ['untitled', { title: '' }, {}, [['09:55', 'checkInOpen', 'Thames (1.01) starts in 5 min — check in to keep it']]],
      [
        'no auto-release',
        { autoReleaseMinutes: null },
        {},
        [['09:55', 'checkInOpen', 'Planning starts in 5 min — check in to Thames (1.01)']],
      ],
      [
        '25 minutes apart: two',
        { startReminderMinutes: 30 },
        {},
        [
          ['09:30', 'startReminder', 'Planning starts in 30 min — Thames (1.01)'],
          ['09:55', 'checkInOpen', 'Check in to keep Thames (1.01)'],
        ],
      ],
      [
        'check-in notices off: the start reminder at its own moment',
        {},
        { notifications: { ...settings.notifications, checkInOpen: false } },
        [['09:50', 'startReminder', 'Planning starts in 10 min — Thames (1.01)']],
      ],
      [
        'start reminders off: check-in alone',
        {},
        { notifications: { ...settings.notifications, startReminder: false } },
        [['09:55', 'checkInOpen', 'Check in to keep Thames (1.01)']],
      ],
    ])('%s', (_name, overrides, settingsPatch, expected) => {
      const booked = { ...checkInRoom, ...overrides };
      const shown: [string, NotificationKind, string][] = [];
      const ids = new Set<string>();
      for (let now = t('09:00'); now < t('10:05'); now = now.plus({ minutes: 1 })) {
        const { due } = plan(now, [booked], { settings: { ...settings, ...settingsPatch }, shown: ids });
        for (const n of due) {
          ids.add(n.id);
          shown.push([now.toFormat('HH:mm'), n.kind, n.title]);
        }
      }
      expect(shown).toEqual(expected);
    });

    it('offers Check in and Snooze, and says until when check-in keeps the room', () => {
      const { due } = plan('09:55', [checkInRoom]);
      expect(due.map((n) => [n.kind, n.body, n.actions])).toEqual([
        ['checkInOpen', 'Released at 10:15 unless you check in. 10:00–11:00', ['checkIn', 'notComing', 'snooze']],
      ]);
    });
  });

  it.each([
    ['09:50', 'startReminder', 'Planning starts in 10 min — Thames (1.01)', '10:00–11:00'],
    ['10:55', 'endReminder', 'Planning ends in 5 min — Thames (1.01)', '10:00–11:00'],
  ])('%s: %s text', (clock, kind, title, body) => {
    const { due } = plan(clock, [reservation()]);
    expect(due.map((n) => [n.kind, n.title, n.body])).toEqual([[kind, title, body]]);
  });

  it.each([
    ['09:55', ['Planning starts in 5 min — check in to Thames (1.01)']],
    ['10:59', ['Check in to Thames (1.01)']],
    ['11:00', []],
  ])('without auto-release check-in stays open until the end (%s)', (clock, titles) => {
    const open = reservation({ requiresCheckIn: true, startReminderMinutes: 0, endReminderMinutes: 0 });
    const { due } = plan(clock, [open]);
    expect(titlesOf(due, 'checkInOpen')).toEqual(titles);
    if (titles.length > 0)
      expect(due.find((n) => n.kind === 'checkInOpen')?.body).toMatch(/^Check-in is open\. (Planning · )?10:00–11:00$/);
  });

  it.each<[string, Partial<Reservation>, string, NotificationKind[]]>([
    ['checked in', { checkedInAt: plannerTime('10:00') }, '10:12', []],
    ['checked in, end reminder still comes', { checkedInAt: plannerTime('10:00') }, '10:55', ['endReminder']],
    ['checked in early, no start reminder', { checkedInAt: plannerTime('10:00') }, '09:56', []],
    ['checked out', { checkedInAt: plannerTime('10:00'), checkedOutAt: plannerTime('10:30') }, '10:55', []],
    ['pending approval cannot be checked in to', { isPendingApproval: true }, '10:12', []],
    ['no check-in needed', { requiresCheckIn: false }, '10:12', []],
    ['release after the end gives no warning', { autoReleaseMinutes: 60 }, '10:56', ['checkInOpen', 'endReminder']],
    ['pending approval: the start reminder alone, at its moment', { isPendingApproval: true }, '09:50', ['startReminder']],
  ])('%s', (_name, overrides, clock, kinds) => {
    const { due } = plan(clock, [{ ...checkInRoom, ...overrides }]);
    expect(due.map((n) => n.kind)).toEqual(kinds);
  });

  it('says when a reminded reservation awaits approval', () => {
    const { due } = plan('09:50', [reservation({ isPendingApproval: true })]);
    expect(due.map((n) => n.body)).toEqual(['10:00–11:00 · awaiting approval']);
  });

  it('leaves out an empty title', () => {
    const { due } = plan('09:50', [reservation({ title: '  ' })]);
    expect(due.map((n) => [n.title, n.body])).toEqual([['Thames (1.01) starts in 10 min', '10:00–11:00']]);
  });

  it('warns relative to now when the warning lead is not the default', () => {
    const { due } = plan('10:05', [checkInRoom], { autoReleaseWarningMinutes: 10 });
    expect(titlesOf(due, 'autoReleaseWarning')).toEqual(['Check in to keep Thames (1.01) — 10 min left']);
  });
});

describe("the reservation's own reminders before the defaults", () => {
  it.each<[string, number | null, number | null, string, string[]]>([
    ['default start lead', null, null, '09:50', ['Planning starts in 10 min — Thames (1.01)']],
    ['own start lead 30', 30, null, '09:30', ['Planning starts in 30 min — Thames (1.01)']],
    ['own start lead 30, not at the default moment', 30, null, '09:29', []],
    ['own start lead 60', 60, null, '09:00', ['Planning starts in 1 h — Thames (1.01)']],
    ['own start lead 90', 90, null, '08:30', ['Planning starts in 1 h 30 min — Thames (1.01)']],
    ['own start lead 0 replaces the default', 0, null, '09:50', []],
    ['own start lead 0 at the start', 0, null, '10:00', ['Planning starts now — Thames (1.01)']],
    ['default end lead', null, null, '10:55', ['Planning ends in 5 min — Thames (1.01)']],
    ['own end lead 15', null, 15, '10:45', ['Planning ends in 15 min — Thames (1.01)']],
    ['own end lead 15, not at the default moment', null, 15, '10:44', []],
  ])('%s', (_name, startOwn, endOwn, clock, titles) => {
    const { due } = plan(clock, [reservation({ startReminderMinutes: startOwn, endReminderMinutes: endOwn })]);
    expect(due.map((n) => n.title)).toEqual(titles);
  });

  it('uses the settings when the reservation has none', () => {
    const custom = { ...settings, startReminderMinutes: 20, endReminderMinutes: 0 };
    expect(plan('09:40', [reservation()], { settings: custom }).due.map((n) => n.title)).toEqual([
      'Planning starts in 20 min — Thames (1.01)',
    ]);
    expect(plan('10:59', [reservation()], { settings: custom }).due).toEqual([]);
    expect(plan('11:00', [reservation()], { settings: custom }).due.map((n) => n.title)).toEqual(['Planning ends now — Thames (1.01)']);
  });

  it('opens check-in at the lead of the settings', () => {
    const lead10 = { ...settings, checkInLeadMinutes: 10 };
    expect(titlesOf(plan('09:50', [earlyReminderRoom], { settings: lead10 }).due, 'checkInOpen')).toEqual([
      'Check in to keep Thames (1.01)',
    ]);
    expect(titlesOf(plan('09:49', [earlyReminderRoom], { settings: lead10 }).due, 'checkInOpen')).toEqual([]);
  });
});

/**
 * One morning with every kind: r1 requires check-in and is never checked in, so the server
 * deletes it at 10:15; r2 is pending and approved at 09:00; r3 is pending and declined at 09:30.
 */
const morning = {
  from: t('08:00'),
  to: t('16:00'),
  listAt(now: DateTime): Reservation[] {
    const list: Reservation[] = [];
    if (now < t('10:15')) list.push(checkInRoom);
    list.push(
      reservation({
        referenceNumber: 'r2',
        resourceName: 'Boardroom',
        start: t('14:00'),
        end: t('15:00'),
        isPendingApproval: now < t('09:00'),
      }),
    );
    if (now < t('09:30')) {
      list.push(reservation({ referenceNumber: 'r3', resourceName: 'Loft', start: t('16:00'), end: t('17:00'), isPendingApproval: true }));
    }
    return list;
  },
};

const morningTimeline = [
  ['09:00', 'approved', 'r2'],
  ['09:30', 'approvalGone', 'r3'],
  // r1's start reminder comes with check-in opening.
  ['09:55', 'checkInOpen', 'r1'],
  ['10:10', 'autoReleaseWarning', 'r1'],
  ['10:15', 'released', 'r1'],
];

describe('settings switches', () => {
  const all = simulatePolls({ ...morning, stepMinutes: 1 }).shown.map((s) => s.kind);

  it.each<[keyof PlannerInput['settings']['notifications'], NotificationKind[]]>([
    ['startReminder', ['startReminder']],
    ['endReminder', ['endReminder']],
    ['autoReleaseWarning', ['autoReleaseWarning']],
    ['released', ['released']],
    ['approvalOutcome', ['approved', 'approvalGone']],
  ])('%s off', (switchName, kinds) => {
    const off = { ...settings, notifications: { ...settings.notifications, [switchName]: false } };
    const withOff = simulatePolls({ ...morning, stepMinutes: 1, settings: off }).shown.map((s) => s.kind);
    expect(all).toEqual(expect.arrayContaining(kinds));
    expect(withOff).toEqual(all.filter((kind) => !kinds.includes(kind)));
  });

  it('checkInOpen off: no check-in notice, and the start reminder it carried comes at its own moment', () => {
    const off = { ...settings, notifications: { ...settings.notifications, checkInOpen: false } };
    const withOff = simulatePolls({ ...morning, stepMinutes: 1, settings: off }).shown.filter((s) => s.referenceNumber === 'r1');
    expect(withOff.map((s) => [s.clock, s.kind])).toEqual([
      ['09:50', 'startReminder'],
      ['10:10', 'autoReleaseWarning'],
      ['10:15', 'released'],
    ]);
  });

  it('all off: nothing due, nothing to wake for', () => {
    const off = {
      ...settings,
      notifications: Object.fromEntries(
        Object.keys(settings.notifications).map((key) => [key, false]),
      ) as PlannerInput['settings']['notifications'],
    };
    expect(simulatePolls({ ...morning, stepMinutes: 1, settings: off }).shown).toEqual([]);
    expect(plan('08:00', [checkInRoom], { settings: off })).toEqual({ due: [], nextWakeAt: null, passedOver: [] });
  });
});

describe('re-planning after polls', () => {
  it.each([1, 3, 7])('polling every %i minutes shows each notification once, in order', (step) => {
    const { shown } = simulatePolls({ ...morning, stepMinutes: step });
    expect(new Set(shown.map((s) => s.id)).size).toBe(shown.length);
    expect(shown.map((s) => [s.kind, s.referenceNumber])).toEqual([
      ['approved', 'r2'],
      ['approvalGone', 'r3'],
      ['checkInOpen', 'r1'],
      ['autoReleaseWarning', 'r1'],
      ['released', 'r1'],
      ['startReminder', 'r2'],
      ['endReminder', 'r2'],
    ]);
  });

  it('shows each at its moment when polled every minute', () => {
    const { shown } = simulatePolls({ ...morning, stepMinutes: 1 });
    expect(shown.slice(0, morningTimeline.length).map((s) => [s.clock, s.kind, s.referenceNumber])).toEqual(morningTimeline);
  });

  it('re-planning the same moment again gives nothing new', () => {
    const first = plan('10:11', [checkInRoom]);
    const shown = new Set([...first.due.map((n) => n.id), ...first.passedOver]);
    expect(plan('10:11', [checkInRoom], { shown, previous: [checkInRoom] })).toEqual({
      due: [],
      nextWakeAt: t('10:55'),
      passedOver: [],
    });
  });

  it('a reservation moved to a new start is reminded again', () => {
    const shown = new Set(plan('09:50', [reservation()]).due.map((n) => n.id));
    const moved = reservation({ start: t('10:05'), end: t('11:00') });
    expect(plan('09:55', [moved], { shown, previous: [reservation()] }).due.map((n) => n.id)).toEqual([
      'startReminder:r1:2026-06-15T08:05:00.000Z',
    ]);
  });

  it('an extended reservation gets a new end reminder', () => {
    const shown = new Set(plan('10:55', [reservation()]).due.map((n) => n.id));
    const extended = reservation({ end: t('11:30') });
    expect(plan('10:56', [extended], { shown }).due).toEqual([]);
    expect(plan('11:25', [extended], { shown }).due.map((n) => n.id)).toEqual(['endReminder:r1:2026-06-15T09:30:00.000Z']);
  });

  it('ignores a reservation listed twice and one with invalid dates', () => {
    const broken = reservation({ referenceNumber: 'bad', start: DateTime.invalid('unparsable') });
    expect(plan('09:50', [reservation(), reservation(), broken]).due.map((n) => n.id)).toEqual([
      'startReminder:r1:2026-06-15T08:00:00.000Z',
    ]);
  });
});

describe('released and approval outcomes', () => {
  const released = [checkInRoom];

  it.each<[string, Reservation[] | null, Reservation[], string, Partial<PlannerInput>, string[]]>([
    ['released after start, unchecked', released, [], '10:16', {}, ['released']],
    ['first poll after start: no detection', null, [], '10:16', {}, []],
    ['checked in, then gone', [{ ...checkInRoom, checkedInAt: plannerTime('10:00') }], [], '10:16', {}, []],
    ['gone before start (cancelled)', released, [], '09:40', {}, []],
    ['gone after its end (dropped from the list)', released, [], '11:00', {}, []],
    ['no auto-release on the resource (cancelled)', [{ ...checkInRoom, autoReleaseMinutes: null }], [], '10:20', {}, []],
    ['no check-in needed (cancelled)', [{ ...checkInRoom, requiresCheckIn: false }], [], '10:16', {}, []],
    ['still listed', released, [checkInRoom], '10:14', {}, ['autoReleaseWarning']],
  ])('%s', (_name, previous, reservations, clock, extra, kinds) => {
    const { due } = plan(clock, reservations, { previous, ...extra });
    expect(due.map((n) => n.kind)).toEqual(kinds);
  });

  it('says what was released, at the moment it was noticed, when the read before saw it unchecked just before', () => {
    const { due } = plan('10:16', [], { previous: [checkInRoom], previousReadAt: t('10:15') });
    expect(due.map(plain)).toEqual([
      {
        id: 'released:r1:2026-06-15T08:00:00.000Z',
        kind: 'released',
        referenceNumber: 'r1',
        at: '2026-06-15T10:16:00.000+02:00',
        title: 'Thames (1.01) released: you did not check in',
        body: 'Not checked in within 15 min of its start. Planning · 10:00–11:00',
        actions: [],
      },
    ]);
  });

  it.each<[string, DateTime | null, string]>([
    ['the read before is unknown', null, '10:16'],
    ['the read before came long before the release moment (a sleep)', t('08:05'), '10:16'],
    ['it is found gone long after the release moment', t('10:14'), '10:40'],
  ])('gone unwatched, it is "cancelled or released", not "you did not check in": %s', (_name, previousReadAt, clock) => {
    const { due } = plan(clock, [], { previous: [checkInRoom], previousReadAt });
    expect(due.map((n) => [n.id, n.title, n.body])).toEqual([
      [
        'released:r1:2026-06-15T08:00:00.000Z',
        'Thames (1.01) cancelled or released',
        'No longer in your reservations. Planning · 10:00–11:00',
      ],
    ]);
  });

  const pending = reservation({
    referenceNumber: 'p1',
    resourceName: 'Boardroom',
    start: t('14:00'),
    end: t('15:00'),
    isPendingApproval: true,
  });
  const approved = { ...pending, isPendingApproval: false };

  it.each<[string, Reservation[] | null, Reservation[], string, string[]]>([
    ['pending → approved', [pending], [approved], '09:00', ['approved']],
    ['pending → gone', [pending], [], '09:00', ['approvalGone']],
    ['pending → pending', [pending], [pending], '09:00', []],
    ['approved → approved', [approved], [approved], '09:00', []],
    ['first poll: approved, no detection', null, [approved], '09:00', []],
    ['pending, gone after its end', [pending], [], '15:00', []],
    ['pending, gone after its start, before its end', [pending], [], '14:30', ['approvalGone']],
  ])('%s', (_name, previous, reservations, clock, kinds) => {
    const { due } = plan(clock, reservations, { previous });
    expect(due.map((n) => n.kind)).toEqual(kinds);
  });

  it('says which booking was approved or declined', () => {
    expect(plan('09:00', [approved], { previous: [pending] }).due.map(plain)).toEqual([
      {
        id: 'approved:p1:2026-06-15T12:00:00.000Z',
        kind: 'approved',
        referenceNumber: 'p1',
        at: '2026-06-15T09:00:00.000+02:00',
        title: 'Approved: Boardroom',
        body: 'Planning · 14:00–15:00',
        actions: [],
      },
    ]);
    expect(plan('09:00', [], { previous: [pending] }).due.map((n) => [n.title, n.body])).toEqual([
      ['Declined or removed: Boardroom', 'Planning · 14:00–15:00 · awaiting approval'],
    ]);
  });

  it('does not take a reservation beyond a narrower window for gone', () => {
    const later = { ...pending, start: t('14:00', berlin, '2026-06-18'), end: t('15:00', berlin, '2026-06-18') };
    const horizon = t('00:00', berlin, '2026-06-17');
    expect(plan('09:00', [], { previous: [later], horizon }).due).toEqual([]);
    expect(plan('09:00', [], { previous: [later] }).due.map((n) => n.kind)).toEqual(['approvalGone']);
    // Within the window it is gone indeed.
    expect(plan('09:00', [], { previous: [pending], horizon }).due.map((n) => n.kind)).toEqual(['approvalGone']);
  });

  it('reports an approval once even if the next poll still sees the change', () => {
    const first = plan('09:00', [approved], { previous: [pending] });
    const shown = new Set(first.due.map((n) => n.id));
    expect(plan('09:01', [approved], { previous: [pending], shown }).due).toEqual([]);
  });
});

describe('restart', () => {
  it('shows nothing twice after a restart with the shown ids restored', () => {
    const before = simulatePolls({ ...morning, to: t('10:12'), stepMinutes: 1 });
    expect(before.shown.map((s) => s.kind)).toEqual(['approved', 'approvalGone', 'checkInOpen', 'autoReleaseWarning']);
    // The app restarts at 10:13: shown ids come back from disk, there is no previous poll.
    const after = simulatePolls({
      ...morning,
      from: t('10:13'),
      stepMinutes: 1,
      shown: new Set(before.shownIds),
      previous: null,
    });
    // r1 vanishes at 10:15, after the first poll after restart, so its release is still seen.
    expect(after.shown.map((s) => [s.clock, s.kind, s.referenceNumber])).toEqual([
      ['10:15', 'released', 'r1'],
      ['13:50', 'startReminder', 'r2'],
      ['14:55', 'endReminder', 'r2'],
    ]);
  });

  it('detects no release or approval on the first poll after a restart', () => {
    const { due } = plan('10:16', morning.listAt(t('10:16')), { previous: null });
    expect(due).toEqual([]);
  });

  it('without the shown ids a restart would repeat what is still meaningful', () => {
    // Guards the test above: it passes because of `shown`, not because nothing is due.
    expect(plan('10:13', [checkInRoom]).due.map((n) => n.kind)).toEqual(['autoReleaseWarning']);
  });
});

describe('sleep and resume', () => {
  const running = checkInRoom; // 10:00–11:00, check-in, released at 10:15
  const openCheckIn = reservation({ referenceNumber: 'r4', start: t('10:00'), end: t('11:00'), requiresCheckIn: true });
  const later = reservation({ referenceNumber: 'r5', start: t('10:30'), end: t('11:30') });
  const ending = reservation({ referenceNumber: 'r6', start: t('08:30'), end: t('10:07') });

  it('drops reminders of reservations that started while asleep, keeps what is still open', () => {
    const beforeSleep = plan('08:05', [running, openCheckIn, later, ending]);
    expect(beforeSleep.due).toEqual([]);
    expect(beforeSleep.nextWakeAt).toEqual(t('08:20'));

    // Asleep from 08:05 to 10:05: every timer was missed.
    const { due, nextWakeAt } = plan('10:05', [running, openCheckIn, later, ending], {
      previous: [running, openCheckIn, later, ending],
    });
    expect(due.map((n) => [n.kind, n.referenceNumber, n.title])).toEqual([
      // Started while asleep: about checking in, no longer about the start.
      ['checkInOpen', 'r1', 'Check in to keep Thames (1.01)'],
      ['checkInOpen', 'r4', 'Check in to Thames (1.01)'],
      ['endReminder', 'r6', 'Planning ends in 2 min — Thames (1.01)'],
    ]);
    expect(nextWakeAt).toEqual(t('10:10'));
  });

  it('drops a check-in notice once the reservation was released while asleep', () => {
    expect(plan('10:20', [running, later], { previous: [running, later] }).due.map((n) => [n.kind, n.referenceNumber])).toEqual([
      ['startReminder', 'r5'],
    ]);
  });

  it('does not call an ended reservation released after a long sleep', () => {
    expect(plan('11:05', [later], { previous: [running, later] }).due.map((n) => [n.kind, n.referenceNumber])).toEqual([]);
  });
});

describe('timezone texts', () => {
  /** 08:00–09:00 UTC: 10:00–11:00 in Berlin, 04:00–05:00 in New York. */
  const utcRoom = reservation({
    requiresCheckIn: true,
    autoReleaseMinutes: 15,
    start: DateTime.fromISO('2026-06-15T08:00:00Z'),
    end: DateTime.fromISO('2026-06-15T09:00:00Z'),
  });
  /** The same hour on a resource without check-in. */
  const plainUtcRoom = { ...utcRoom, requiresCheckIn: false, autoReleaseMinutes: null };
  const utc = (iso: string) => DateTime.fromISO(iso, { zone: 'utc' });

  it.each<[string, string, NotificationKind, string, string]>([
    [berlin, '2026-06-15T07:50:00Z', 'startReminder', 'Planning starts in 10 min — Thames (1.01)', '10:00–11:00'],
    [newYork, '2026-06-15T07:50:00Z', 'startReminder', 'Planning starts in 10 min — Thames (1.01)', '04:00–05:00'],
    [
      berlin,
      '2026-06-15T07:55:00Z',
      'checkInOpen',
      'Planning starts in 5 min — check in to keep Thames (1.01)',
      'Released at 10:15 unless you check in. 10:00–11:00',
    ],
    [
      newYork,
      '2026-06-15T07:55:00Z',
      'checkInOpen',
      'Planning starts in 5 min — check in to keep Thames (1.01)',
      'Released at 04:15 unless you check in. 04:00–05:00',
    ],
    [
      berlin,
      '2026-06-15T08:10:00Z',
      'autoReleaseWarning',
      'Check in to keep Thames (1.01) — 5 min left',
      'Released at 10:15 unless you check in. Planning · 10:00–11:00',
    ],
    [
      newYork,
      '2026-06-15T08:10:00Z',
      'autoReleaseWarning',
      'Check in to keep Thames (1.01) — 5 min left',
      'Released at 04:15 unless you check in. Planning · 04:00–05:00',
    ],
  ])('%s at %s: %s', (zone, now, kind, title, body) => {
    const { due } = plan(utc(now), [kind === 'startReminder' ? plainUtcRoom : utcRoom], { zone });
    expect(due.filter((n) => n.kind === kind).map((n) => [n.title, n.body])).toEqual([[title, body]]);
    // `at` is expressed in the user's zone too.
    expect(due[0]?.at.zoneName).toBe(zone);
  });

  it.each([
    [berlin, 'Not checked in within 15 min of its start. Planning · 10:00–11:00'],
    [newYork, 'Not checked in within 15 min of its start. Planning · 04:00–05:00'],
  ])('released text in %s', (zone, body) => {
    const { due } = plan(utc('2026-06-15T08:16:00Z'), [], { zone, previous: [utcRoom], previousReadAt: utc('2026-06-15T08:15:00Z') });
    expect(due.map((n) => n.body)).toEqual([body]);
  });

  it.each([
    [berlin, 'Planning · Wed 17 Jun 10:00–11:00'],
    [newYork, 'Planning · Wed 17 Jun 04:00–05:00'],
  ])('names the day when it is not today (%s)', (zone, body) => {
    const pending = {
      ...utcRoom,
      start: utc('2026-06-17T08:00:00Z'),
      end: utc('2026-06-17T09:00:00Z'),
      isPendingApproval: true,
    };
    const { due } = plan(utc('2026-06-15T12:00:00Z'), [{ ...pending, isPendingApproval: false }], {
      zone,
      previous: [pending],
    });
    expect(due.map((n) => n.body)).toEqual([body]);
  });

  it('names the end day of a reservation across midnight', () => {
    const overnight = reservation({
      start: utc('2026-06-16T02:00:00Z'), // 22:00 in New York on the 15th
      end: utc('2026-06-16T06:00:00Z'), // 02:00 on the 16th
    });
    const { due } = plan(utc('2026-06-16T01:50:00Z'), [overnight], { zone: newYork });
    expect(due.map((n) => n.body)).toEqual(['22:00–Tue 16 Jun 02:00']);
  });

  it("names the resource's zone where its clock differs from the user's, and follows the user's clock", () => {
    const london = { ...utcRoom, resourceName: 'Avon (2.01)', timezone: 'Europe/London' };
    const warning = plan(utc('2026-06-15T08:10:00Z'), [london]).due.find((n) => n.kind === 'autoReleaseWarning');
    expect([warning?.title, warning?.body]).toEqual([
      'Check in to keep Avon (2.01) — 5 min left',
      'Released at 09:15 London time unless you check in. Planning · 09:00–10:00 London time',
    ]);
    const twelveHour = plan(utc('2026-06-15T08:10:00Z'), [utcRoom], { timeFormat: { locale: 'en-US', hourCycle: 'h12' } }).due.find(
      (n) => n.kind === 'autoReleaseWarning',
    );
    // Intl keeps "AM" to its time with a narrow no-break space, and the range dash with thin spaces.
    expect(twelveHour?.body.replace(/[\u202f\u2009]/g, ' ')).toBe('Released at 10:15 AM unless you check in. Planning · 10:00 – 11:00 AM');
    // Rome keeps Berlin's clock: nothing to name.
    const rome = plan(utc('2026-06-15T08:10:00Z'), [{ ...utcRoom, timezone: 'Europe/Rome' }]).due.find(
      (n) => n.kind === 'autoReleaseWarning',
    );
    expect(rome?.body).toBe('Released at 10:15 unless you check in. Planning · 10:00–11:00');
  });

  it('falls back to UTC for an unknown zone', () => {
    const { due } = plan(utc('2026-06-15T07:50:00Z'), [plainUtcRoom], { zone: 'Not/AZone' });
    expect(due.map((n) => n.body)).toEqual(['08:00–09:00']);
  });

  describe('across the DST change (Berlin, 2026-10-25: 03:00 CEST → 02:00 CET)', () => {
    const dst = (iso: string) => DateTime.fromISO(iso, { setZone: true });

    it.each<[string, Reservation, string, string[]]>([
      [
        'start reminder before the change, times labelled with their offsets',
        reservation({ start: dst('2026-10-25T02:30:00+02:00'), end: dst('2026-10-25T02:30:00+01:00') }),
        '2026-10-25T02:20:00+02:00',
        ['Planning starts in 10 min — Thames (1.01)', '02:30 UTC+2–02:30 UTC+1'],
      ],
      [
        'end reminder after the change, in real minutes',
        reservation({ start: dst('2026-10-25T02:30:00+02:00'), end: dst('2026-10-25T02:30:00+01:00') }),
        '2026-10-25T02:25:00+01:00',
        ['Planning ends in 5 min — Thames (1.01)', '02:30 UTC+2–02:30 UTC+1'],
      ],
      [
        'a 3-hour reservation over the change: its end reminder',
        reservation({ start: dst('2026-10-25T01:30:00+02:00'), end: dst('2026-10-25T03:30:00+01:00') }),
        '2026-10-25T03:25:00+01:00',
        ['Planning ends in 5 min — Thames (1.01)', '01:30 UTC+2–03:30 UTC+1'],
      ],
      [
        'a 24-hour lead counts real hours across the change',
        reservation({ startReminderMinutes: 1440, start: dst('2026-10-25T09:00:00+01:00'), end: dst('2026-10-25T10:00:00+01:00') }),
        // 24 real hours earlier is 10:00 CEST the day before, not 09:00.
        '2026-10-24T10:00:00+02:00',
        ['Planning starts in 24 h — Thames (1.01)', 'Sun 25 Oct 09:00–10:00'],
      ],
    ])('%s', (_name, booked, now, text) => {
      const { due } = plan(dst(now), [booked]);
      expect(due.map((n) => [n.title, n.body])).toEqual([text]);
    });

    it('is not early by the hour the clocks go back', () => {
      const booked = reservation({
        startReminderMinutes: 1440,
        start: dst('2026-10-25T09:00:00+01:00'),
        end: dst('2026-10-25T10:00:00+01:00'),
      });
      const { due, nextWakeAt } = plan(dst('2026-10-24T09:00:00+02:00'), [booked]);
      expect(due).toEqual([]);
      expect(nextWakeAt?.toISO()).toBe('2026-10-24T10:00:00.000+02:00');
    });

    it('wakes at the end reminder in the right offset', () => {
      const booked = reservation({ start: dst('2026-10-25T02:30:00+02:00'), end: dst('2026-10-25T02:30:00+01:00') });
      const first = plan(dst('2026-10-25T02:20:00+02:00'), [booked]);
      const shown = new Set(first.due.map((n) => n.id));
      expect(first.nextWakeAt?.toISO()).toBe('2026-10-25T02:25:00.000+01:00');
      expect(plan(dst('2026-10-25T02:25:00+02:00'), [booked], { shown }).due).toEqual([]);
    });

    it('labels both offsets in New York too (2026-11-01: 02:00 EDT → 01:00 EST)', () => {
      const booked = reservation({ start: dst('2026-11-01T01:30:00-04:00'), end: dst('2026-11-01T01:30:00-05:00') });
      const { due } = plan(dst('2026-11-01T01:20:00-04:00'), [booked], { zone: newYork });
      expect(due.map((n) => n.body)).toEqual(['01:30 UTC-4–01:30 UTC-5']);
    });
  });
});

describe('nextWakeAt', () => {
  const ids = (...pairs: [NotificationKind, string][]) =>
    new Set(pairs.map(([kind, clock]) => notificationId(kind, 'r1', t(clock).toMillis())));

  it.each<[string, Reservation[], string, Set<string>, string | null]>([
    ['nothing booked', [], '08:00', new Set(), null],
    ['the start reminder first', [earlyReminderRoom], '08:00', new Set(), '09:30'],
    ['the start reminder with check-in: when check-in opens', [checkInRoom], '08:00', new Set(), '09:55'],
    ['after the start reminder was shown: check-in opens', [earlyReminderRoom], '09:30', ids(['startReminder', '10:00']), '09:55'],
    ['a shown one is no reason to wake', [earlyReminderRoom], '08:00', ids(['startReminder', '10:00']), '09:55'],
    ['due ones are not future', [checkInRoom], '09:56', new Set(), '10:10'],
    ['then the end reminder', [checkInRoom], '10:16', new Set(), '10:55'],
    ['checked in: no check-in moments', [{ ...checkInRoom, checkedInAt: plannerTime('10:00') }], '09:00', new Set(), '10:55'],
    [
      'all shown',
      [checkInRoom],
      '08:00',
      ids(['startReminder', '10:00'], ['checkInOpen', '10:00'], ['autoReleaseWarning', '10:00'], ['endReminder', '11:00']),
      null,
    ],
    ['after the end', [checkInRoom], '11:01', new Set(), null],
    [
      'the earliest over several reservations',
      [checkInRoom, reservation({ referenceNumber: 'r2', start: t('09:30'), end: t('09:45') })],
      '08:00',
      new Set(),
      '09:20',
    ],
  ])('%s', (_name, reservations, clock, shown, expected) => {
    const { nextWakeAt } = plan(clock, reservations, { shown });
    expect(nextWakeAt?.toISO() ?? null).toBe(expected === null ? null : t(expected).toISO());
  });

  it('never wakes for a moment that is meaningless by then', () => {
    // Auto-release at start and check-in lead 0: check-in would open when it closes.
    const instant = reservation({ requiresCheckIn: true, autoReleaseMinutes: 0, startReminderMinutes: 0, endReminderMinutes: 0 });
    const lead0 = { ...settings, checkInLeadMinutes: 0, notifications: { ...settings.notifications, autoReleaseWarning: false } };
    const shown = new Set([notificationId('startReminder', 'r1', t('10:00').toMillis())]);
    expect(plan('09:00', [instant], { settings: lead0, shown }).nextWakeAt).toEqual(t('11:00'));
  });

  it('following the timer alone shows every timed notification at its moment', () => {
    const shown = new Set<string>();
    const log: string[] = [];
    let now: DateTime | null = t('08:00');
    let wakes = 0;
    while (now !== null && wakes < 20) {
      const result = plan(now, [checkInRoom], { shown, previous: [checkInRoom] });
      for (const n of result.due) {
        log.push(`${now.toFormat('HH:mm')} ${n.kind}`);
        shown.add(n.id);
      }
      now = result.nextWakeAt;
      wakes += 1;
    }
    expect(log).toEqual([
      // The start reminder comes with check-in opening.
      '09:55 checkInOpen',
      '10:10 autoReleaseWarning',
      '10:55 endReminder',
    ]);
    expect(wakes).toBe(4);
  });
});

describe('actions: the buttons that fit the moment', () => {
  const noCheckInNotice = { ...settings, notifications: { ...settings.notifications, checkInOpen: false } };

  it.each<[string, string, Reservation, PlannerInput['settings'], [NotificationKind, string[]][]]>([
    ['a start reminder before check-in opens', '09:30', earlyReminderRoom, settings, [['startReminder', ['snooze']]]],
    ['a start reminder with check-in opening', '09:55', checkInRoom, settings, [['checkInOpen', ['checkIn', 'notComing', 'snooze']]]],
    [
      'a start reminder once check-in is open, check-in notices off',
      '09:55',
      { ...checkInRoom, startReminderMinutes: 5 },
      noCheckInNotice,
      [['startReminder', ['checkIn', 'notComing', 'snooze']]],
    ],
    [
      'a start reminder where no check-in is needed',
      '09:56',
      reservation({ startReminderMinutes: 5 }),
      settings,
      [['startReminder', ['snooze']]],
    ],
    ['the auto-release warning: nothing to put off', '10:10', checkInRoom, settings, [['autoReleaseWarning', ['checkIn', 'notComing']]]],
    ['an end reminder', '10:55', reservation(), settings, [['endReminder', ['extend', 'snooze']]]],
  ])('%s', (_name, clock, booked, chosen, expected) => {
    expect(plan(clock, [booked], { settings: chosen }).due.map((n) => [n.kind, n.actions])).toEqual(expected);
  });

  it('offers no Extend at the end where the server refuses changes once a booking has started', () => {
    expect(plan('10:55', [reservation()], { lockedOnceStarted: true }).due.map((n) => [n.kind, n.actions])).toEqual([
      ['endReminder', ['snooze']],
    ]);
  });
});

describe('snooze', () => {
  const startReminderId = notificationId('startReminder', 'r1', t('10:00').toMillis());
  const endReminderId = notificationId('endReminder', 'r1', t('11:00').toMillis());

  it.each([
    ['5 minutes later', startReminderId, '09:50', '09:55'],
    ['at the moment it is about, when that comes sooner', startReminderId, '09:57', '10:00'],
    ['5 minutes later, once the moment has passed', startReminderId, '10:02', '10:07'],
    ['an end reminder: at the end at the latest', endReminderId, '10:58', '11:00'],
  ])('%s', (_name, id, at, until) => {
    expect(snoozedUntil(id, t(at))?.toISO()).toBe(t(until).toISO());
  });

  it("knows nothing of ids not the planner's", () => {
    expect(snoozedUntil('garbage', t('10:00'))).toBeNull();
  });

  it('raises a snoozed reminder again at the end of its snooze, with its text as of then, and wakes for it', () => {
    const shown = new Set([startReminderId]);
    const snoozed = new Map([[startReminderId, t('09:55')]]);
    const before = plan('09:51', [reservation()], { shown, snoozed });
    expect(before.due).toEqual([]);
    expect(before.nextWakeAt?.toISO()).toBe(t('09:55').toISO());
    const then = plan('09:55', [reservation()], { shown, snoozed });
    expect(then.due.map((n) => [n.id, n.title, n.at.toISO(), n.actions])).toEqual([
      [startReminderId, 'Planning starts in 5 min — Thames (1.01)', t('09:55').toISO(), ['snooze']],
    ]);
  });

  it('drops a snoozed notification that no longer applies when its snooze ends', () => {
    const checkInId = notificationId('checkInOpen', 'r1', t('10:00').toMillis());
    const shown = new Set([startReminderId, checkInId]);
    // Checked in meanwhile: neither the start reminder nor the check-in notice comes back.
    const checkedIn = { ...checkInRoom, checkedInAt: plannerTime('10:00') };
    const snoozed = new Map([
      [startReminderId, t('09:55')],
      [checkInId, t('10:00')],
    ]);
    expect(plan('10:00', [checkedIn], { shown, snoozed }).due).toEqual([]);
    // Snoozed past the release: the check-in notice does not come back after it.
    expect(plan('10:15', [checkInRoom], { shown, snoozed: new Map([[checkInId, t('10:15')]]) }).due.map((n) => n.kind)).toEqual([]);
  });
});

describe('retainShown', () => {
  it('keeps ids of listed reservations and recent ones, drops old and malformed ones', () => {
    const listed = reservation({ referenceNumber: 'kept', start: t('10:00', berlin, '2026-06-01') });
    const shown = new Set([
      notificationId('startReminder', 'kept', t('10:00', berlin, '2026-06-01').toMillis()),
      notificationId('released', 'old', t('10:00', berlin, '2026-06-12').toMillis()),
      notificationId('released', 'recent', t('10:00', berlin, '2026-06-14').toMillis()),
      notificationId('approved', 'future', t('10:00', berlin, '2026-06-20').toMillis()),
      'garbage',
    ]);
    expect([...retainShown(shown, [listed], t('12:00'))]).toEqual([
      'startReminder:kept:2026-06-01T08:00:00.000Z',
      'released:recent:2026-06-14T08:00:00.000Z',
      'approved:future:2026-06-20T08:00:00.000Z',
    ]);
  });
});

describe('someone else’s meeting the user is in', () => {
  /** The check-in room as someone else's booking: the user takes part or is invited. */
  const attended = { ...checkInRoom, referenceNumber: 'm1', owned: false };

  it('gives the start reminder alone, at its own moment, with nothing to do but snooze', () => {
    const { shown } = simulatePolls({ from: t('09:00'), to: t('11:30'), stepMinutes: 1, listAt: () => [attended] });
    expect(shown.map(({ clock, kind }) => `${clock} ${kind}`)).toEqual(['09:50 startReminder']);
    const { due } = plan('09:50', [attended]);
    expect(due.map(({ title, actions }) => ({ title, actions }))).toEqual([
      { title: 'Planning starts in 10 min — Thames (1.01)', actions: ['snooze'] },
    ]);
  });

  it('says nothing when it drops out of sight or is approved: that is news for its owner', () => {
    expect(plan('10:16', [], { previous: [attended] }).due).toEqual([]);
    const pendingMeeting = reservation({
      referenceNumber: 'm2',
      start: t('14:00'),
      end: t('15:00'),
      isPendingApproval: true,
      owned: false,
    });
    expect(plan('09:00', [{ ...pendingMeeting, isPendingApproval: false }], { previous: [pendingMeeting] }).due).toEqual([]);
  });
});
