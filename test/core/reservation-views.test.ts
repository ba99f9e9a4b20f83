import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { detailView, upcomingViews, type ViewContext } from '../../electron/core/views/reservation-view.js';
import { reservationOfSummary } from '../../electron/core/reservations.js';
import { groupNamesByResource } from '../../electron/core/views/resource-views.js';
import type { WireGroupTree, WireReservation, WireSummary } from '../../electron/api/wire.js';

// A 10:00–11:00 UTC booking of a resource that needs check-in and releases after 15 minutes.
const at = (time: string) => DateTime.fromISO(`2030-03-12T${time}:00Z`, { zone: 'utc' });
const context = (time: string): ViewContext => ({ zone: 'UTC', now: at(time), userId: 7 });

const summary: WireSummary = {
  referenceNumber: 'a1',
  startDate: '2030-03-12T10:00:00+0000',
  endDate: '2030-03-12T11:00:00+0000',
  firstName: 'Ada',
  lastName: 'Lovelace',
  resourceName: 'Check-in Desk',
  title: 'Focus',
  description: '',
  requiresApproval: false,
  isRecurring: false,
  scheduleId: 2,
  userId: 7,
  resourceId: 5,
  duration: '1 hours',
  bufferTime: '',
  bufferedStartDate: '2030-03-12T10:00:00+0000',
  bufferedEndDate: '2030-03-12T11:00:00+0000',
  participants: {},
  invitees: {},
  participatingGuests: [],
  invitedGuests: [],
  startReminder: null,
  endReminder: null,
  color: '',
  textColor: '',
  checkInDate: null,
  checkOutDate: null,
  originalEndDate: null,
  isCheckInEnabled: true,
  autoReleaseMinutes: 15,
  resourceStatusId: 1,
  creditsConsumed: null,
  links: [],
  message: null,
};

const detail: WireReservation = {
  referenceNumber: 'a1',
  startDate: '2030-03-12T10:00:00+0000',
  endDate: '2030-03-12T11:00:00+0000',
  title: 'Focus',
  description: '',
  requiresApproval: false,
  isRecurring: false,
  scheduleId: 2,
  resourceId: 5,
  owner: { userId: 7, firstName: 'Ada', lastName: 'Lovelace', emailAddress: 'ada@example.org', links: [], message: null },
  participants: [],
  invitees: [],
  customAttributes: [],
  recurrenceRule: { type: 'none', interval: null, monthlyType: null, weekdays: null, repeatTerminationDate: null },
  attachments: [],
  resources: [{ id: 5, name: 'Check-in Desk', type: null, groups: null, links: [], message: null }],
  accessories: [],
  startReminder: null,
  endReminder: null,
  allowParticipation: false,
  checkInDate: null,
  checkOutDate: null,
  originalEndDate: null,
  isCheckInAvailable: null,
  isCheckoutAvailable: null,
  autoReleaseMinutes: 15,
  links: [],
  message: null,
};

const checkInOpen = (time: string, changes: Partial<WireSummary> = {}) =>
  upcomingViews([reservationOfSummary({ ...summary, ...changes }, context(time))!], context(time))[0]!.checkInOpen;

describe('when check-in is offered', () => {
  it.each([
    ['09:54', false, 'before the server opens it, 5 minutes ahead'],
    ['09:55', true, 'once the server opens it'],
    ['10:14', true, 'until the auto-release moment'],
    ['10:15', false, 'at the auto-release moment: the server refuses it from then on'],
    ['10:40', false, 'after the auto-release moment, though the reservation is still listed'],
  ])('at %s: %s (%s)', (time, open) => {
    expect(checkInOpen(time)).toBe(open);
  });

  it('closes at the end when the resource does not release', () => {
    expect(checkInOpen('10:59', { autoReleaseMinutes: null })).toBe(true);
    // Ended reservations leave the list; a read one still says so.
    expect(detailView({ ...detail, autoReleaseMinutes: null }, true, context('11:00'))!.checkInOpen).toBe(false);
  });

  it("follows the server's own answer when GetReservation gave one, within the auto-release moment", () => {
    const view = (time: string, changes: Partial<WireReservation>) => detailView({ ...detail, ...changes }, true, context(time))!;
    expect(view('10:05', { isCheckInAvailable: false }).checkInOpen).toBe(false);
    expect(view('09:50', { isCheckInAvailable: true }).checkInOpen).toBe(true);
    // The server still says yes after the release moment, then refuses the check-in.
    expect(view('10:20', { isCheckInAvailable: true }).checkInOpen).toBe(false);
    const checkedIn = { checkInDate: '2030-03-12T09:58:00+0000' };
    expect(view('10:05', { ...checkedIn, isCheckoutAvailable: false }).canCheckOut).toBe(false);
    expect(view('10:05', { ...checkedIn, isCheckoutAvailable: null }).canCheckOut).toBe(true);
  });
});

describe('resource group names', () => {
  const resourceNode = (resourceId: number, groupId: number) => ({
    type: 'resource' as const,
    id: `resource-${groupId}-${resourceId}`,
    group_id: groupId,
    resource_id: resourceId,
    resource_name: `Resource ${resourceId}`,
    label: `Resource ${resourceId}`,
    resourceAdminGroupId: null,
    scheduleId: 1,
    statusId: 1,
    scheduleAdminGroupId: null,
    requiresApproval: false,
    isCheckInEnabled: false,
    isAutoReleased: false,
    autoReleaseMinutes: null,
    minLength: null,
    resourceTypeId: null,
    color: '',
    textColor: '',
    maxConcurrentReservations: 1,
    requiredResourceIds: [],
  });
  const group = (id: number, name: string, children: WireGroupTree['groups'][number]['children']) => ({
    type: 'group' as const,
    id,
    name,
    label: name,
    parent: null,
    parent_id: null,
    children,
  });

  it('reads the "All" group with id 0 as no group: every resource appears under it, grouped or not', () => {
    const tree: WireGroupTree = {
      groups: [group(0, 'All', [resourceNode(1, 0), resourceNode(2, 0), group(4, 'Floor 1', [resourceNode(2, 4)])])],
      links: [],
      message: null,
    };
    const names = groupNamesByResource(tree);
    expect(names.get(1)).toEqual([]);
    expect(names.get(2)).toEqual(['Floor 1']);
  });

  it('has nothing to say on an install without resource groups', () => {
    const names = groupNamesByResource({ groups: [group(0, 'All', [resourceNode(1, 0), resourceNode(3, 0)])], links: [], message: null });
    expect([...names.entries()]).toEqual([
      [1, []],
      [3, []],
    ]);
  });
});
