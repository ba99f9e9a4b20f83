import { DateTime } from 'luxon';
import { expect, expectAccessible, screenshot, test } from './support/perch.js';

// Just before a slot boundary: the quick booking starts at 11:00, which is "now" moments later.
test.use({ officeTime: '10:59:40' });

test('books a free room for 30 minutes from "Free now" in two clicks; it shows under My reservations and leaves Free now', async ({
  page,
  perch,
}, testInfo) => {
  // Waits for the booked slot to begin.
  test.setTimeout(120_000);
  await perch.signIn();
  await perch.open();
  await expect(page.getByRole('heading', { name: 'Free now' })).toBeVisible();
  // The booking starts at the next slot, 11:00, within the minute: the action says "now".
  const thirtyMinutes = page.getByRole('button', { name: /^Book Thames \(1\.01\) now–\d\d:30$/ });
  await expect(thirtyMinutes).toHaveText(/^now–\d\d:30$/);
  await expect(thirtyMinutes).toBeVisible();
  await expectAccessible(page, testInfo, 'now');
  await screenshot(page, testInfo, 'free-now');

  await thirtyMinutes.click();
  await expect(page.getByRole('status').filter({ hasText: /Booked Thames \(1\.01\)/ })).toBeVisible();
  await expect(page.getByRole('button', { name: /Book Thames \(1\.01\)/ })).toHaveCount(0);
  const mine = perch.core.snapshot().reservations.filter((reservation) => reservation.resourceName === 'Thames (1.01)');
  expect(mine).toHaveLength(1);
  expect(DateTime.fromISO(mine[0]!.start).setZone('Europe/London').toFormat('HH:mm')).toBe('11:00');
  expect(DateTime.fromISO(mine[0]!.end).diff(DateTime.fromISO(mine[0]!.start), 'minutes').minutes).toBe(30);

  await page.getByRole('tab', { name: 'My reservations' }).click();
  await expect(page.getByRole('heading', { name: 'My reservations' })).toBeVisible();
  await expect(page.getByRole('listitem').filter({ hasText: 'Thames (1.01)' })).toBeVisible();
  await expectAccessible(page, testInfo, 'my-reservations');
  await screenshot(page, testInfo, 'my-reservations');

  // Once the booking has begun, Thames is not free now at all.
  const wait = DateTime.fromISO(mine[0]!.start).toMillis() - perch.clock.now().toMillis();
  if (wait > 0) await page.waitForTimeout(wait + 1_000);
  await perch.core.handlers.refresh();
  await page.getByRole('tab', { name: 'Now' }).click();
  await expect(page.getByRole('heading', { name: 'Free now' })).toBeVisible();
  await expect(page.getByRole('region', { name: /Head office/ }).getByText('Thames (1.01)')).toHaveCount(0);
  await expect(page.getByText('Severn (1.02)')).toBeVisible();
  await screenshot(page, testInfo, 'free-now-after');
});
