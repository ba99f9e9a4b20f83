import { expect, test } from './support/perch.js';

test('Settings › Reload everything reads the kept resource list again, which opening Perch does not: a room renamed on the server shows under its new name', async ({
  page,
  perch,
}) => {
  await perch.signIn();
  await perch.open();
  await expect(page.getByText('Severn (1.02)', { exact: true })).toBeVisible();
  await perch.service.store
    .updateTable('resources')
    .set({ name: 'Severn (1.02, new screen)' })
    .where('id', '=', perch.org.resources.severn)
    .execute();

  // A look asks for the user's list and who is busy; the resource list, read minutes ago, is kept.
  perch.core.popoverOpened();
  await perch.core.idle();
  await expect(page.getByText('Severn (1.02)', { exact: true })).toBeVisible();

  await page.getByRole('tab', { name: 'Settings' }).click();
  await page.getByRole('button', { name: 'Reload everything' }).click();
  await expect(page.getByText(/^Everything read again at /)).toBeVisible();
  await page.getByRole('tab', { name: 'Now' }).click();
  await expect(page.getByText('Severn (1.02, new screen)', { exact: true })).toBeVisible();
  await expect(page.getByText('Severn (1.02)', { exact: true })).toHaveCount(0);
});
