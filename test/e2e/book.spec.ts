import { expect, expectAccessible, screenshot, test } from './support/perch.js';

test('books through the Book form with a required custom attribute, first invalid then valid, and sees "pending approval"', async ({ page, perch }, testInfo) => {
  await perch.signIn();
  await perch.open();
  await page.getByRole('tab', { name: 'Book' }).click();
  await expect(page.getByRole('heading', { name: 'Choose a resource' })).toBeVisible();
  await expectAccessible(page, testInfo, 'book-picker');

  await page.getByLabel('Search resources').fill('Boardroom');
  await page.getByRole('button', { name: /^Boardroom/ }).click();
  await expect(page.getByRole('heading', { name: 'Book Boardroom' })).toBeVisible();
  await expect(page.getByText(/Needs approval/)).toBeVisible();
  await expect(page.getByLabel('Start')).toBeEnabled();
  await page.getByLabel('Title').fill('Board meeting');

  const costCentre = page.getByLabel('Cost centre');
  await costCentre.fill('12');
  await page.getByRole('button', { name: 'Book', exact: true }).click();
  await expect(costCentre).toHaveAttribute('aria-invalid', 'true');
  expect(perch.core.snapshot().reservations.filter((reservation) => reservation.resourceName === 'Boardroom')).toEqual([]);
  await expectAccessible(page, testInfo, 'book-form-invalid');
  await screenshot(page, testInfo, 'book-invalid');

  await costCentre.fill('4711');
  await page.getByRole('button', { name: 'Book', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: /Booked Boardroom .*pending approval/ })).toBeVisible();
  await screenshot(page, testInfo, 'book-valid');

  const booked = perch.core.snapshot().reservations.filter((reservation) => reservation.resourceName === 'Boardroom');
  expect(booked).toHaveLength(1);
  expect(booked[0]!.isPendingApproval).toBe(true);

  await page.getByRole('tab', { name: 'My reservations' }).click();
  const item = page.getByRole('listitem').filter({ hasText: 'Board meeting' });
  await expect(item).toContainText(/pending approval/i);
  await screenshot(page, testInfo, 'pending-approval');
});

test('books a resource that needs approval and sees "pending approval" on the booking and in My reservations', async ({ page, perch }, testInfo) => {
  await perch.signIn();
  await perch.open();
  // The Boardroom needs a cost centre, which a quick booking cannot give; the form is the way there.
  await page.getByRole('tab', { name: 'Book' }).click();
  await page.getByLabel('Search resources').fill('Board');
  await page.getByRole('button', { name: /^Boardroom/ }).click();
  await page.getByLabel('Cost centre').fill('1234');
  await page.getByRole('button', { name: 'Book', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: /pending approval/ })).toBeVisible();
  await page.getByRole('tab', { name: 'Now' }).click();
  await expect(page.getByText(/pending approval/i).first()).toBeVisible();
  await screenshot(page, testInfo, 'now-pending-approval');
});
