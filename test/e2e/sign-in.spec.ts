import { expect, expectAccessible, screenshot, test } from './support/perch.js';

test('signs in with a wrong password, shows the server\'s message, then signs in with the right one', async ({ page, perch }, testInfo) => {
  await perch.open();
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await expectAccessible(page, testInfo, 'sign-in');

  await page.getByLabel('This computer (local service)').check();
  await page.getByLabel('Username or e-mail').fill('user');
  await page.getByLabel('Password', { exact: true }).fill('not the password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert')).toContainText('Invalid username or password');
  await screenshot(page, testInfo, 'wrong-password');

  await page.getByLabel('Password', { exact: true }).fill('password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('tab', { name: 'Now' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('heading', { name: 'Free now' })).toBeVisible();
  expect(perch.core.snapshot().account?.userName).toBe('user');
  await screenshot(page, testInfo, 'signed-in');
});
