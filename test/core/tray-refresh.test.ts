import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import type { ReservationView, StateSnapshot } from '../../electron/bridge/contract.js';
import { trayTitle } from '../../electron/core/desktop/tray-menu.js';
import { createTrayRefresh } from '../../electron/core/desktop/tray-refresh.js';
import { ManualCoreClock } from '../support/manual-clock.js';
import { reservationView, signedOutState, testTimeFormat } from '../support/snapshots.js';

const zone = 'Europe/Berlin';
const account = {
  server: { kind: 'local' as const },
  userId: 2,
  userName: 'ada',
  displayName: 'Ada L',
  timezone: zone,
  timezoneNote: null,
  isAdmin: false,
};
const start = DateTime.fromISO('2025-11-26T14:00:00', { zone });

/** A tray fed by the core's snapshot, as main.ts wires it: what it showed, title by title. */
function trayOn(clock: ManualCoreClock, reservations: ReservationView[]) {
  const state = { snapshots: 0 };
  const snapshot = (): StateSnapshot => {
    state.snapshots += 1;
    return signedOutState(clock.now().toISO()!, { phase: 'ready', account, reservations, timeFormat: testTimeFormat });
  };
  const titles: string[] = [];
  const refresh = createTrayRefresh({ clock, snapshot, show: (shown) => titles.push(trayTitle(shown, clock.now())) });
  return { refresh, titles, state, snapshot };
}

describe('the tray between state changes (issue 23: no timer while nothing is due)', () => {
  it('sets no timer while nothing will change its words', async () => {
    const clock = new ManualCoreClock(DateTime.fromISO('2025-11-26T10:00:00', { zone }));
    const { refresh, titles } = trayOn(clock, []);
    refresh.refresh();
    expect(clock.pendingTimers).toBe(0);
    await clock.advance({ hours: 8 });
    expect(titles).toEqual(['']);
  });

  it('sleeps until the hour before a start, then turns its countdown each minute, with no poll to prompt it', async () => {
    const clock = new ManualCoreClock(DateTime.fromISO('2025-11-26T10:00:00', { zone }));
    const tray = trayOn(clock, [
      reservationView({ title: 'Design review', start: start.toISO()!, end: start.plus({ hours: 1 }).toISO()! }),
    ]);
    const { refresh, titles } = tray;
    refresh.refresh();
    expect(clock.pendingTimers).toBe(1);
    await clock.advance({ hours: 2, minutes: 59 });
    expect(titles).toEqual(['Design review at 14:00']);
    await clock.advance({ minutes: 3 });
    expect(titles).toEqual(['Design review at 14:00', 'Design review in 1 h', 'Design review in 59 min', 'Design review in 58 min']);
    // A state change shows the state it brings at once, working out no other, and re-arms: still one timer.
    const changed = tray.snapshot();
    const worked = tray.state.snapshots;
    refresh.refresh(changed);
    expect(tray.state.snapshots).toBe(worked);
    expect(titles.at(-1)).toBe('Design review in 58 min');
    expect(clock.pendingTimers).toBe(1);
  });
});
