import { DateTime } from 'luxon';
import { parseWireDateTime } from '../../electron/api/dates.js';
import { expect, expectAccessible, screenshot, test } from './support/perch.js';

test('checks in to a reservation whose check-in is open, checks out, and sees the end time cut', async ({ page, perch }, testInfo) => {
  // 10:31 now: the slot began at 10:30. Admins may book in the past, for someone else.
  const admin = await perch.clientFor('admin');
  const created = await admin.createReservation({
    body: { resourceId: perch.org.resources.avon, userId: perch.org.users.user, title: 'Stand-up', startDateTime: perch.at('10:30'), endDateTime: perch.at('11:30') },
  });
  if (!created.ok) throw new Error(created.error.message);
  const { referenceNumber } = created.data;

  await perch.signIn();
  await perch.open();
  const next = page.getByRole('article').filter({ hasText: 'Stand-up' });
  await expect(next.getByRole('button', { name: 'Check in to Stand-up' })).toBeVisible();
  await screenshot(page, testInfo, 'check-in-open');
  await next.getByRole('button', { name: 'Check in to Stand-up' }).click();
  await expect(next.getByRole('button', { name: 'Check out of Stand-up' })).toBeVisible();
  await expectAccessible(page, testInfo, 'now-checked-in');
  await screenshot(page, testInfo, 'checked-in');

  await next.getByRole('button', { name: 'Check out of Stand-up' }).click();
  await expect(page.getByRole('button', { name: 'Check out of Stand-up' })).toHaveCount(0);
  const detail = await admin.getReservation({ params: { referenceNumber } });
  if (!detail.ok) throw new Error(detail.error.message);
  const end = parseWireDateTime(detail.data.endDate, 'UTC')!;
  // The end moved from 11:30 to the moment of checking out.
  expect(end.toMillis()).toBeLessThan(DateTime.fromISO(perch.at('11:30')).toMillis());
  expect(Math.abs(end.toMillis() - perch.clock.now().toMillis())).toBeLessThan(60_000);
  expect(detail.data.checkOutDate).not.toBeNull();
  await page.getByRole('tab', { name: 'My reservations' }).click();
  await expect(page.getByRole('listitem').filter({ hasText: 'Stand-up' })).toHaveCount(0);
  await screenshot(page, testInfo, 'checked-out');
});

test('cancels one instance of a recurring series', async ({ page, perch }, testInfo) => {
  const user = await perch.clientFor('user');
  const created = await user.createReservation({
    body: {
      resourceId: perch.org.resources.severn,
      title: 'Daily review',
      startDateTime: perch.at('14:00'),
      endDateTime: perch.at('14:30'),
      recurrenceRule: { type: 'daily', interval: 1, repeatTerminationDate: perch.at('23:00', 2) },
    },
  });
  if (!created.ok) throw new Error(created.error.message);

  await perch.signIn();
  await perch.open();
  await page.getByRole('tab', { name: 'My reservations' }).click();
  const occurrences = page.getByRole('listitem').filter({ hasText: 'Daily review' });
  await expect(occurrences).toHaveCount(3);
  await expect(occurrences.first()).toContainText('Repeats');
  await screenshot(page, testInfo, 'series');

  await occurrences.nth(1).getByRole('button', { name: 'Cancel this occurrence of Daily review' }).click();
  await page.getByRole('group', { name: 'Confirm cancellation' }).getByRole('button', { name: /^Yes, cancel/ }).click();
  await expect(occurrences).toHaveCount(2);
  const starts = perch.core.snapshot().reservations.filter((reservation) => reservation.title === 'Daily review').map((reservation) => DateTime.fromISO(reservation.start).setZone('Europe/London').toFormat('ccc HH:mm'));
  expect(starts).toEqual(['Mon 14:00', 'Wed 14:00']);
  await expectAccessible(page, testInfo, 'my-reservations-series');
  await screenshot(page, testInfo, 'series-after-cancel');
});
