import { DateTime } from 'luxon';
import { expect, expectAccessible, screenshot, test } from './support/perch.js';

/** The page shows times in the signed-in user's zone (the demo `user` lives in Berlin). */
const userZone = 'Europe/Berlin';

test('a slot taken while the form was open: plain words, the next free time offered, the times reloaded without the taken one', async ({
  page,
  perch,
}, testInfo) => {
  const shown = (wire: string) => DateTime.fromISO(wire).setZone(userZone).toFormat('HH:mm');
  await perch.signIn();
  await perch.open();
  await page.getByRole('tab', { name: 'Book' }).click();
  await page.getByLabel('Search resources').fill('Severn');
  await page.getByRole('button', { name: /^Severn \(1\.02\)/ }).click();
  const start = page.getByLabel('Start');
  await expect(start).toBeEnabled();
  await start.selectOption({ label: shown(perch.at('12:00')) });
  await expect(page.getByLabel('Duration')).toHaveValue(/.+/);

  // A colleague books the same half hour after the page loaded the free times.
  const tom = await perch.clientFor('tom');
  const taken = await tom.createReservation({
    body: { resourceId: perch.org.resources.severn, title: 'Sales call', startDateTime: perch.at('12:00'), endDateTime: perch.at('12:30') },
  });
  if (!taken.ok) throw new Error(taken.error.message);

  await page.getByRole('button', { name: 'Book', exact: true }).click();
  const nextFree = `${shown(perch.at('12:30'))}`;
  const alert = page.locator('#book-error');
  await expect(alert).toHaveText(`Severn (1.02) was just taken — next free ${nextFree}`);
  // Not the server's own words, with their US dates.
  await expect(alert).not.toContainText('conflicting');
  await expect(alert).not.toContainText('/');
  const instead = page.getByRole('button', { name: `Book ${nextFree}–${shown(perch.at('13:00'))}` });
  await expect(instead).toBeVisible();
  // The free times were asked again: the taken start is gone, and the one offered is chosen.
  await expect(start.locator('option', { hasText: shown(perch.at('12:00')) })).toHaveCount(0);
  await expect(start.locator('option:checked')).toHaveText(nextFree);
  await expectAccessible(page, testInfo, 'book-clash');
  await screenshot(page, testInfo, 'book-clash');

  await instead.click();
  await expect(page.getByRole('status').filter({ hasText: `Booked Severn (1.02) ${nextFree}–${shown(perch.at('13:00'))}` })).toBeVisible();
  const mine = perch.core.snapshot().reservations.filter((reservation) => reservation.resourceName === 'Severn (1.02)');
  expect(mine.map((reservation) => DateTime.fromISO(reservation.start).toMillis())).toEqual([
    DateTime.fromISO(perch.at('12:30')).toMillis(),
  ]);
});

test('booking waits while Perch is offline, and says why', async ({ page, perch }, testInfo) => {
  await perch.signIn();
  await perch.open();
  await page.getByRole('tab', { name: 'Book' }).click();
  await page.getByLabel('Search resources').fill('Severn');
  await page.getByRole('button', { name: /^Severn \(1\.02\)/ }).click();
  await expect(page.getByLabel('Start')).toBeEnabled();
  const book = page.getByRole('button', { name: 'Book', exact: true });
  await expect(book).toBeEnabled();

  await perch.stopService();
  await perch.core.handlers.refresh();
  await expect(book).toBeDisabled();
  await expect(page.getByText('Offline — booking resumes when Perch reaches the server.')).toBeVisible();
  await expect(book).toHaveAccessibleDescription('Offline — booking resumes when Perch reaches the server.');
  await expectAccessible(page, testInfo, 'book-offline');
  await screenshot(page, testInfo, 'book-offline');

  await perch.restartService();
  await perch.core.handlers.refresh();
  await expect(book).toBeEnabled();
  await expect(page.getByText(/booking resumes/)).toHaveCount(0);
});
