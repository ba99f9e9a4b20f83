import type { CheckInState } from '../domain/check-in.js';
import type { Store } from './database.js';
import type { Viewer } from './permissions.js';

/** Occurrences with their series, owner, primary resource and its schedule: one row each. */
export function occurrences(store: Store) {
  return store
    .selectFrom('reservations')
    .innerJoin('reservationSeries', 'reservationSeries.id', 'reservations.seriesId')
    .innerJoin('users', 'users.id', 'reservationSeries.ownerId')
    .innerJoin('resources', 'resources.id', 'reservationSeries.resourceId')
    .innerJoin('schedules', 'schedules.id', 'resources.scheduleId')
    .select([
      'reservations.id as reservationId',
      'reservations.referenceNumber',
      'reservations.startAt',
      'reservations.endAt',
      'reservations.originalEndAt',
      'reservations.checkInAt',
      'reservations.checkOutAt',
      'reservations.creditsConsumed',
      'reservations.seriesId',
      'reservationSeries.ownerId',
      'reservationSeries.resourceId',
      'reservationSeries.title',
      'reservationSeries.description',
      'reservationSeries.recurrence',
      'reservationSeries.startReminderMinutes',
      'reservationSeries.endReminderMinutes',
      'reservationSeries.isPendingApproval',
      'reservationSeries.allowParticipation',
      'users.firstName as ownerFirstName',
      'users.lastName as ownerLastName',
      'users.emailAddress as ownerEmailAddress',
      'resources.name as resourceName',
      'resources.scheduleId',
      'resources.color',
      'resources.bufferTime',
      'resources.requiresCheckIn',
      'resources.autoReleaseMinutes',
      'resources.statusId as resourceStatusId',
      'resources.adminGroupId as resourceAdminGroupId',
      'schedules.adminGroupId as scheduleAdminGroupId',
    ]);
}

export type OccurrenceRow = Awaited<ReturnType<ReturnType<typeof occurrences>['execute']>>[number];

/** One occurrence by reference number, with everything approval and check-in decide on. */
export async function findOccurrence(store: Store, referenceNumber: string): Promise<OccurrenceRow | undefined> {
  return occurrences(store).where('reservations.referenceNumber', '=', referenceNumber).executeTakeFirst();
}

export const checkInState = (row: OccurrenceRow): CheckInState => ({
  startAt: row.startAt,
  endAt: row.endAt,
  checkInAt: row.checkInAt,
  checkOutAt: row.checkOutAt,
  requiresCheckIn: row.requiresCheckIn === 1,
  isPendingApproval: row.isPendingApproval === 1,
});

/**
 * Who administers an occurrence: application administrators, and members of the admin group of
 * its primary resource or of that resource's schedule. One query for the viewer's groups, then a
 * test per row, so a list never asks per reservation.
 */
export async function administrationCheck(
  store: Store,
  viewer: Viewer,
): Promise<(row: Pick<OccurrenceRow, 'resourceAdminGroupId' | 'scheduleAdminGroupId'>) => boolean> {
  if (viewer.isAdmin) return () => true;
  const memberships = await store.selectFrom('groupMembers').select('groupId').where('userId', '=', viewer.user.id).execute();
  const groups = new Set(memberships.map((row) => row.groupId));
  const member = (groupId: number | null) => groupId !== null && groups.has(groupId);
  return (row) => member(row.resourceAdminGroupId) || member(row.scheduleAdminGroupId);
}

/**
 * The owner and application administrators may change, check in to and check out of a
 * reservation, and see its private attribute values.
 */
export const mayChange = (viewer: Viewer, row: { ownerId: number }) => viewer.isAdmin || row.ownerId === viewer.user.id;
