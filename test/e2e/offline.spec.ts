import { expect, expectAccessible, screenshot, test } from './support/perch.js';

test('goes offline when the service stops, keeps showing cached data with the offline badge, then recovers', async ({
  page,
  perch,
}, testInfo) => {
  await perch.signIn();
  await perch.open();
  await expect(page.getByText('Severn (1.02)')).toBeVisible();
  await expect(page.getByText(/^Offline/)).toHaveCount(0);

  await perch.stopService();
  await perch.core.handlers.refresh();
  await expect(page.getByText(/Offline/).first()).toBeVisible();
  await expect(page.getByText('Severn (1.02)')).toBeVisible();
  expect(perch.core.snapshot().offline).toBe(true);
  await expectAccessible(page, testInfo, 'now-offline');
  await screenshot(page, testInfo, 'offline');

  await perch.restartService();
  await perch.core.handlers.refresh();
  await expect(page.getByText(/Offline/)).toHaveCount(0);
  expect(perch.core.snapshot().offline).toBe(false);
  await expect(page.getByText('Severn (1.02)')).toBeVisible();
  await screenshot(page, testInfo, 'recovered');
});

test('the Settings view has no serious accessibility problems', async ({ page, perch }, testInfo) => {
  await perch.signIn();
  await perch.open();
  await page.getByRole('tab', { name: 'Settings' }).click();
  await expect(page.getByRole('tabpanel')).toBeVisible();
  await expectAccessible(page, testInfo, 'settings');
  await screenshot(page, testInfo, 'settings');
});
