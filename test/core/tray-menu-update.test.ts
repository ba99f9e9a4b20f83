import { DateTime } from 'luxon';
import type { FreeResourceView } from '../../electron/bridge/contract.js';
import { describe, expect, it } from 'vitest';
import { menuItemAt, sameMenuStructure, trayMenuUpdate } from '../../electron/core/desktop/tray-menu-update.js';
import { buildTrayMenu, type TrayMenuItem } from '../../electron/core/desktop/tray-menu.js';
import { freeResourceView, reservationView, signedOutState, testTimeFormat } from '../support/snapshots.js';

const zone = 'Europe/Berlin';
const now = DateTime.fromISO('2025-03-10T10:00:30', { zone });
const standup = reservationView({
  referenceNumber: 'ref-7',
  title: 'Standup',
  start: '2025-03-10T10:00:00+01:00',
  end: '2025-03-10T11:00:00+01:00',
  requiresCheckIn: true,
  awaitsCheckIn: true,
  checkInOpen: true,
});
const ready = signedOutState(now.toISO()!, { phase: 'ready', reservations: [standup], timeFormat: testTimeFormat });
const free = (name: string, resourceId: number): FreeResourceView =>
  freeResourceView({ resourceId, name, freeUntil: '2025-03-10T18:00:00+01:00' });

describe('sameMenuStructure', () => {
  const item = (label: string): TrayMenuItem => ({ label });
  const separator: TrayMenuItem = { label: '', type: 'separator' };

  it('the same kinds in the same places, whatever they say or do', () => {
    expect(
      sameMenuStructure(
        [item('a'), separator, { label: 'Quit', action: 'quit' }],
        [item('b'), separator, { label: 'Open', action: 'openPerch' }],
      ),
    ).toBe(true);
  });

  it.each([
    ['an item more', [item('a')], [item('a'), item('b')]],
    ['a separator where an item was', [item('a'), item('b')], [item('a'), separator]],
    ['a submenu where an item was', [item('a')], [{ label: 'a', submenu: [item('x')] }]],
    ['a submenu with an item more', [{ label: 'a', submenu: [item('x')] }], [{ label: 'a', submenu: [item('x'), item('y')] }]],
  ] satisfies [string, TrayMenuItem[], TrayMenuItem[]][])('differs with %s', (_name, a, b) => {
    expect(sameMenuStructure(a, b)).toBe(false);
    expect(sameMenuStructure(b, a)).toBe(false);
  });
});

describe('trayMenuUpdate', () => {
  it('nothing built yet: build', () => {
    expect(trayMenuUpdate(null, buildTrayMenu(ready, now))).toEqual({ kind: 'rebuild' });
  });

  it('a poll that changes nothing: nothing to do', () => {
    expect(trayMenuUpdate(buildTrayMenu(ready, now), buildTrayMenu(ready, now.plus({ seconds: 20 })))).toEqual({
      kind: 'inPlace',
      changes: [],
    });
  });

  it('checked in: the reservation and its button change their labels in place', () => {
    const checkedIn = { ...ready, reservations: [{ ...standup, checkInOpen: false, checkedInAt: standup.start, canCheckOut: true }] };
    expect(trayMenuUpdate(buildTrayMenu(ready, now), buildTrayMenu(checkedIn, now))).toEqual({
      kind: 'inPlace',
      changes: [
        { path: [0], label: 'Now: Standup · Room A, until 11:00 · checked in', enabled: false },
        { path: [1], label: 'Check out', enabled: true },
      ],
    });
  });

  it('a change deep in a submenu is found by its path', () => {
    const before = { ...ready, freeNow: [free('Room A', 1), free('Room B', 2)] };
    const after = { ...ready, freeNow: [free('Room A', 1), { ...free('Room C', 3), freeUntil: '2025-03-10T14:00:00+01:00' }] };
    const update = trayMenuUpdate(buildTrayMenu(before, now), buildTrayMenu(after, now));
    expect(update).toEqual({
      kind: 'inPlace',
      changes: [
        { path: [3, 1], label: 'Room C', enabled: true },
        { path: [3, 1, 2], label: '10:30–14:00', enabled: true },
      ],
    });
  });

  it('an item turned off is changed in place', () => {
    const offline = { ...ready, offline: true, fetchedAt: now.toISO() };
    const items = buildTrayMenu(offline, now);
    const disabledQuit = items.map((item) => (item.action === 'quit' ? { ...item, enabled: false } : item));
    expect(trayMenuUpdate(items, disabledQuit)).toEqual({
      kind: 'inPlace',
      changes: [{ path: [items.length - 1], label: 'Quit Perch', enabled: false }],
    });
  });

  it.each([
    ['signing out', { ...ready, phase: 'signedOut' as const, reservations: [] }],
    ['going offline (a line more)', { ...ready, offline: true, fetchedAt: now.toISO() }],
    ['a resource coming free (Book now gets a submenu)', { ...ready, freeNow: [free('Room A', 1)] }],
    ['check-in closing (its button goes)', { ...ready, reservations: [{ ...standup, checkInOpen: false }] }],
  ])('rebuilds on %s', (_name, state) => {
    expect(trayMenuUpdate(buildTrayMenu(ready, now), buildTrayMenu(state, now))).toEqual({ kind: 'rebuild' });
  });
});

describe('menuItemAt', () => {
  const items = buildTrayMenu({ ...ready, freeNow: [free('Room A', 1)] }, now);

  it('finds items at the top and in submenus', () => {
    expect(menuItemAt(items, [1])?.label).toBe('Check in');
    expect(menuItemAt(items, [3, 0, 1])).toMatchObject({
      label: '10:30–11:30',
      command: { name: 'book', request: { resourceId: 1, durationMinutes: 60 } },
    });
  });

  it('answers null where there is no item', () => {
    expect(menuItemAt(items, [])).toBeNull();
    expect(menuItemAt(items, [99])).toBeNull();
    expect(menuItemAt(items, [1, 0])).toBeNull();
    expect(menuItemAt(items, [3, 5])).toBeNull();
  });
});
