/**
 * "Try it on this computer" at an hour the demo's head office is closed: Saturday 23:00 in London.
 * The core provisions its account in the demo organisation (served in-process on a manual clock)
 * and Free now still offers something one click books; when all the user books in is closed, it
 * names the next opening, and that time can be looked at and booked.
 */
import { DateTime } from 'luxon';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { StateSnapshot } from '../../electron/bridge/contract.js';
import { createTimeFormat } from '../../electron/bridge/format.js';
import { quickActions } from '../../electron/bridge/quick-book.js';
import { ResourceStatus } from '../../electron/api/schemas/resources.js';
import { localProfile } from '../../electron/core/local-service/local-account.js';
import { startCoreHarness, type CoreHarness, type CoreUnderTest } from '../support/core-harness.js';

// Saturday 28 November 2026, 23:00 in London (GMT, so 23:00 UTC): the head office is closed until Monday 08:00.
const saturdayNight = DateTime.fromISO('2026-11-28T23:00', { zone: 'Europe/London' });
const mondayMorning = DateTime.fromISO('2026-11-30T08:00', { zone: 'Europe/London' });
const hubNames = ['Focus booth', 'Hub desk H1', 'Hub desk H2', 'Loan headset'];

let harness: CoreHarness;

beforeEach(async () => {
  harness = await startCoreHarness(saturdayNight.toUTC());
});

afterEach(() => harness.dispose());

function value<T>(result: { ok: true; value: T } | { ok: false; error: { message: string } }): T {
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
}

async function triedBy(timezone: string): Promise<{ created: CoreUnderTest; snapshot: StateSnapshot }> {
  const created = harness.newCore({ localProfile: () => localProfile('jane.doe', timezone) });
  await created.core.start();
  value(await created.core.handlers.tryThisComputer());
  // The sign-in answers with the user's list; Free now comes after.
  await harness.idle();
  return { created, snapshot: created.core.snapshot() };
}

/** What the popover's Free now offers for one resource, decided as it decides it. */
function offered(snapshot: StateSnapshot, name: string) {
  const resource = snapshot.freeNow.find((entry) => entry.name === name);
  if (resource === undefined) throw new Error(`${name} is not free now`);
  const format = createTimeFormat(snapshot.timeFormat, snapshot.account!.timezone);
  return { resource, actions: quickActions(resource, Date.parse(snapshot.now), format) };
}

/** When a booking runs, as the user's list has it (UTC instants). */
async function bookedTimes({ core }: CoreUnderTest, referenceNumber: string): Promise<string[]> {
  const listed = (await core.handlers.refresh()).reservations.find((reservation) => reservation.referenceNumber === referenceNumber);
  return listed === undefined
    ? []
    : [listed.start, listed.end].map((instant) => DateTime.fromISO(instant).toUTC().toISO({ suppressMilliseconds: true })!);
}

describe('the demo at an hour the office is closed', () => {
  it('offers the hub, open round the clock, to book now with one click on a Saturday at 23:00 in London', async () => {
    const { created, snapshot } = await triedBy('Europe/London');
    expect(snapshot).toMatchObject({ phase: 'ready', lastError: null, freeNowClosed: null });
    const names = snapshot.freeNow.map((resource) => resource.name);
    expect(names.sort()).toEqual(hubNames);
    // Nothing of the closed head office is offered.
    expect(new Set(snapshot.freeNow.map((resource) => resource.scheduleName))).toEqual(new Set(['Hub (open 24/7)']));

    const { actions } = offered(snapshot, 'Hub desk H1');
    const halfHour = actions[0];
    expect(halfHour).toMatchObject({ kind: 'book', label: '23:30–00:00' });
    if (halfHour?.kind !== 'book') throw new Error('no one-click booking');
    const booked = value(await created.core.handlers.book(halfHour.request));
    expect(await bookedTimes(created, booked.referenceNumber)).toEqual(['2026-11-28T23:30:00Z', '2026-11-29T00:00:00Z']);
  });

  it('runs free-until past London midnight for a user in Tokyo, to their own next booking', async () => {
    // 08:00 on Sunday in Tokyo; London's midnight is 09:00 there.
    const { created } = await triedBy('Asia/Tokyo');
    const tokyo = (time: string) => DateTime.fromISO(`2026-11-29T${time}`, { zone: 'Asia/Tokyo' });
    const deskH1 = harness.org.resources.deskH1;
    value(
      await created.core.handlers.book({ resourceId: deskH1, start: tokyo('10:00').toISO()!, durationMinutes: 60, title: 'Early call' }),
    );
    const snapshot = await created.core.handlers.refresh();
    const freeUntil = new Map(snapshot.freeNow.map((resource) => [resource.name, [resource.freeUntil, resource.freeAllDay]]));
    expect(freeUntil.get('Hub desk H1')).toEqual([tokyo('10:00').toISO({ suppressMilliseconds: true }), false]);
    expect(freeUntil.get('Hub desk H2')).toEqual([null, true]);
    // One click books up to that booking, past London's midnight.
    const { actions } = offered(snapshot, 'Hub desk H1');
    expect(actions.map((action) => action.label)).toEqual(['08:30–09:00', '08:30–09:30', '08:30–10:00']);
  });

  it('names the next opening when everything the user may book is closed, and books that time', async () => {
    // The hub is out of service tonight: only the head office is left, closed until Monday.
    await harness.service.store
      .updateTable('resources')
      .set({ statusId: ResourceStatus.unavailable })
      .where('scheduleId', '=', harness.org.schedules.hub)
      .execute();
    const { created } = await triedBy('Europe/London');
    const snapshot = await created.core.handlers.refresh();
    expect(snapshot.freeNow).toEqual([]);
    // The filter still finds the head office's rooms: closed, and when they open.
    expect(snapshot.notFreeNow.find((resource) => resource.name === 'Severn (1.02)')).toMatchObject({
      reason: 'closed',
      freeFrom: mondayMorning.toISO({ suppressMilliseconds: true }),
    });
    expect(snapshot.freeNowClosed).toEqual({
      scheduleId: harness.org.schedules.headOffice,
      scheduleName: 'Head office',
      opensAt: mondayMorning.toISO({ suppressMilliseconds: true }),
    });

    // Looking at that time lists the head office as the When filter does, and one click books it.
    const then = value(await created.core.handlers.freeAt({ start: snapshot.freeNowClosed!.opensAt!, durationMinutes: 60 }));
    expect(then.map((resource) => resource.name)).toContain('Severn (1.02)');
    const severn = then.find((resource) => resource.name === 'Severn (1.02)')!;
    const format = createTimeFormat(snapshot.timeFormat, 'Europe/London');
    const [action] = quickActions(severn, Date.parse(snapshot.now), format, { startMs: mondayMorning.toMillis(), minutes: 60 });
    expect(action).toMatchObject({ kind: 'book', label: '08:00–09:00' });
    if (action?.kind !== 'book') throw new Error('no one-click booking');
    const booked = value(await created.core.handlers.book(action.request));
    expect(await bookedTimes(created, booked.referenceNumber)).toEqual(['2026-11-30T08:00:00Z', '2026-11-30T09:00:00Z']);
  });
});
