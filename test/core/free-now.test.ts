import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { ResourceStatus } from '../../electron/api/schemas/resources.js';
import { freeNowSchedules } from '../../electron/core/sync/free-now-schedules.js';
import type { ScheduleHours } from '../../electron/core/views/opening-hours.js';
import { freeNowViews, type FreeNowContext, type WireResource, type WireSchedule, type WireSummary } from '../../electron/core/views/state.js';

const at = (time: string, date = '2030-03-12') => DateTime.fromISO(`${date}T${time.length === 5 ? `${time}:00` : time}Z`, { zone: 'utc' });

// Only the members these functions read; the rest of the wire objects does not matter here.
const resource = (resourceId: number, name: string, scheduleId: number, statusId: number = ResourceStatus.available) =>
  ({ resourceId, name, scheduleId, statusId }) as WireResource;
const schedule = (id: number, name: string, isDefault = false) => ({ id, name, isDefault }) as WireSchedule;
const booking = (resourceId: number, scheduleId: number, start: string, end: string) =>
  ({ referenceNumber: `${resourceId}-${start}`, resourceId, scheduleId, startDate: at(start).toISO(), endDate: at(end).toISO() }) as WireSummary;

const resources = [resource(1, 'Thames', 1), resource(2, 'Severn', 1), resource(3, 'Avon', 1), resource(4, 'Broken desk', 1, ResourceStatus.unavailable), resource(5, 'Lab bench', 2)];
const schedules = [schedule(1, 'Head office', true), schedule(2, 'Lab')];

function context(time: string, own: WireSummary[] = [], hours: ScheduleHours[] = []): FreeNowContext {
  return { zone: 'UTC', now: at(time), resources, schedules, groupNames: new Map(), own, hours };
}

/**
 * The head office's layout as a real server writes it for a caller in New York: the office keeps
 * London hours (08:00–18:00 on weekdays, closed at weekends), written in the caller's zone.
 */
function headOfficeHours(): ScheduleHours {
  const london = (date: string, time: string) => DateTime.fromISO(`${date}T${time}`, { zone: 'Europe/London' }).setZone('America/New_York');
  const period = (date: string, from: string, to: string, isReservable: boolean) => {
    const start = london(date, from);
    const end = to === '24:00' ? london(date, '00:00').plus({ days: 1 }) : london(date, to);
    return { start: start.toISO()!, end: end.toISO()!, label: null, startTime: start.toFormat('HH:mm:ss'), endTime: end.toFormat('HH:mm:ss'), isReservable };
  };
  // The week of 10 March 2030, Sunday first.
  const days = ['2030-03-10', '2030-03-11', '2030-03-12', '2030-03-13', '2030-03-14', '2030-03-15', '2030-03-16'];
  const periods = days.map((date, index) =>
    index === 0 || index === 6
      ? [period(date, '00:00', '24:00', false)]
      : [period(date, '00:00', '08:00', false), period(date, '08:00', '12:00', true), period(date, '12:00', '18:00', true), period(date, '18:00', '24:00', false)],
  );
  return { scheduleId: 1, timezone: 'Europe/London', fetchedAt: at('08:00'), periods };
}

describe('free now from who is busy', () => {
  const answer = { scheduleId: 1, reservations: [booking(1, 1, '09:30', '10:00'), booking(2, 1, '10:00:30', '11:00')] };

  it('leaves out the busy and the unavailable, and schedules not asked about', () => {
    const views = freeNowViews([answer], context('09:45'));
    expect(views.map((view) => [view.name, view.freeUntil])).toEqual([
      ['Avon', null],
      // Starts within the minute asked about: free until then.
      ['Severn', '2030-03-12T10:00:30Z'],
    ]);
    expect(views[0]).toEqual({ resourceId: 3, name: 'Avon', scheduleId: 1, scheduleName: 'Head office', groupNames: [], freeUntil: null });
  });

  it('counts a listed booking that has ended since as over, and one that has begun as busy', () => {
    expect(freeNowViews([answer], context('10:05')).map((view) => view.name)).toEqual(['Avon', 'Thames']);
  });

  it('knows until when a resource is free from the user’s own later booking that day, not from one tomorrow', () => {
    const own = [booking(3, 1, '14:00', '15:00'), booking(1, 1, '09:00', '09:30')];
    // Longest free first.
    expect(freeNowViews([answer], context('09:45', own)).map((view) => [view.name, view.freeUntil])).toEqual([
      ['Avon', '2030-03-12T14:00:00Z'],
      ['Severn', '2030-03-12T10:00:30Z'],
    ]);
    const tomorrow = [{ ...booking(3, 1, '14:00', '15:00'), startDate: at('14:00', '2030-03-13').toISO()!, endDate: at('15:00', '2030-03-13').toISO()! }];
    expect(freeNowViews([answer], context('09:45', tomorrow)).find((view) => view.name === 'Avon')?.freeUntil).toBeNull();
  });

  it('lists nothing of a schedule that is closed now, and an open one as free until it closes', () => {
    const hours = [headOfficeHours()];
    // 12 March 2030 is a Tuesday; London is on GMT then. At 07:30 the office is closed.
    expect(freeNowViews([answer], context('07:30', [], hours))).toEqual([]);
    expect(freeNowViews([answer], context('09:45', [], hours)).map((view) => [view.name, view.freeUntil])).toEqual([
      ['Avon', '2030-03-12T18:00:00Z'],
      ['Severn', '2030-03-12T10:00:30Z'],
    ]);
    expect(freeNowViews([answer], context('18:00', [], hours))).toEqual([]);
    // A week later, on the Saturday, the same layout says closed.
    const saturday = { ...context('10:00', [], hours), now: at('10:00', '2030-03-23') };
    expect(freeNowViews([answer], saturday)).toEqual([]);
    // In summer time (London on BST), the same wall-clock hours, an hour earlier in UTC.
    const summer = { ...context('07:30', [], hours), now: at('07:30', '2030-06-11') };
    expect(freeNowViews([answer], summer).map((view) => [view.name, view.freeUntil])).toEqual([
      ['Avon', '2030-06-11T17:00:00Z'],
      ['Severn', '2030-06-11T17:00:00Z'],
      ['Thames', '2030-06-11T17:00:00Z'],
    ]);
  });

  it('shows nothing before any schedule was asked about', () => {
    expect(freeNowViews([], context('09:45'))).toEqual([]);
  });
});

describe('the schedules free now asks about', () => {
  const data = (reservations: WireSummary[]) => ({ reservations, resources, schedules });

  it('is the schedules holding resources the user sees, default first, while the user has booked nothing', () => {
    const withAnnex = [schedule(3, 'Annex'), ...schedules.slice().reverse()];
    expect(freeNowSchedules({ ...data([]), schedules: withAnnex }, [])).toEqual([1, 2]);
    expect(freeNowSchedules({ ...data([]), resources: resources.filter((resource) => resource.scheduleId === 2), schedules: withAnnex }, [])).toEqual([2]);
  });

  it('follows the user’s reservations, most used first', () => {
    expect(freeNowSchedules(data([booking(5, 2, '09:00', '10:00'), booking(5, 2, '11:00', '12:00'), booking(1, 1, '13:00', '14:00')]), [])).toEqual([2, 1]);
  });

  it('puts the schedules of favourites first, and asks about two at most', () => {
    const busy = [booking(5, 2, '09:00', '10:00'), booking(5, 2, '11:00', '12:00'), booking(7, 3, '13:00', '14:00')];
    expect(freeNowSchedules({ ...data(busy), schedules: [...schedules, schedule(3, 'Annex')] }, [1])).toEqual([1, 2]);
  });

  it('ignores schedules it does not know (the user can no longer see them)', () => {
    expect(freeNowSchedules(data([booking(9, 9, '09:00', '10:00'), booking(5, 2, '11:00', '12:00')]), [])).toEqual([2]);
  });
});
