import { expect, expectAccessible, screenshot, test } from './support/perch.js';

test('"Try it on this computer" signs in to a new account of the local service and shows its demo resources', async ({
  page,
  perch,
}, testInfo) => {
  await perch.open();
  await expect(page.getByRole('heading', { name: 'Get started' })).toBeVisible();
  await expectAccessible(page, testInfo, 'first-run');
  await screenshot(page, testInfo, 'first-run');

  await page.getByRole('button', { name: 'Try it on this computer' }).click();
  await expect(page.getByRole('tab', { name: 'Now' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('heading', { name: 'Free now' })).toBeVisible();
  await expect(page.getByText('Thames (1.01)')).toBeVisible();
  expect(perch.core.snapshot().account).toMatchObject({
    server: { kind: 'local' },
    userName: 'ada.lovelace',
    displayName: 'Ada Lovelace',
    isAdmin: false,
  });
  await screenshot(page, testInfo, 'tried');
});

test("signs in to an organisation's server: a wrong password shows the server's message, then the right one works", async ({
  page,
  perch,
}, testInfo) => {
  await perch.open();
  await page.getByRole('button', { name: "Connect to my organisation's server" }).click();
  await expect(page.getByLabel('Server address')).toBeFocused();
  await expectAccessible(page, testInfo, 'server-form');

  await page.getByLabel('Server address').fill(perch.apiRoot);
  await page.getByLabel('Username or e-mail').fill('user');
  await page.getByLabel('Password', { exact: true }).fill('not the password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Invalid username or password' })).toBeVisible();
  await screenshot(page, testInfo, 'wrong-password');

  await page.getByLabel('Password', { exact: true }).fill('password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('tab', { name: 'Now' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('heading', { name: 'Free now' })).toBeVisible();
  expect(perch.core.snapshot().account).toMatchObject({ server: { kind: 'remote', url: perch.apiRoot }, userName: 'user' });
  await screenshot(page, testInfo, 'signed-in');
});
