import type { Locator, Page } from '@playwright/test';
import { DateTime } from 'luxon';
import { ResourceStatus } from '../../electron/api/schemas/resources.js';
import { expect, expectAccessible, officeZone, screenshot, test, type PerchWorld } from './support/perch.js';

// 10:31 in the office (London): a one-click booking starts at the next slot, 11:00. The popover
// writes times on the user's clock, which may be another zone's.
const userClock = (perch: PerchWorld, time: string) => {
  const [hour, minute] = time.split(':').map(Number) as [number, number];
  const zone = perch.core.snapshot().account?.timezone ?? officeZone;
  return perch.clock.now().setZone(officeZone).set({ hour, minute }).setZone(zone).toFormat('HH:mm');
};

/** Intl writes a thin or no space around the dash, whatever the locale decides; match either. */
const range = (perch: PerchWorld, from: string, to: string) => new RegExp(`${userClock(perch, from)}\\s?–\\s?${userClock(perch, to)}`);
const row = (page: Page, name: string): Locator => page.getByRole('listitem').filter({ has: page.locator('.name', { hasText: name }) });
const rowNames = (page: Page) => page.locator('li .name').evaluateAll((names) => names.map((name) => name.textContent ?? ''));

test('each one-click action says the times it books, and books exactly those', async ({ page, perch }, testInfo) => {
  await perch.signIn();
  await perch.open();
  const thames = row(page, 'Thames (1.01)');
  // One line: what it is and where are in its tooltip; "free all day" nearly everywhere would say nothing.
  await expect(thames).toHaveAttribute('title', /Floor 1 rooms · 6 people · Head office, floor 1/);
  await expect(page.getByText('free all day')).toHaveCount(0);
  const halfHour = thames.getByRole('button', { name: range(perch, '11:00', '11:30') });
  await expect(halfHour).toHaveText(range(perch, '11:00', '11:30'));
  await expect(halfHour).toHaveAccessibleName(new RegExp(`^Book Thames \\(1\\.01\\) ${range(perch, '11:00', '11:30').source}$`));
  await expectAccessible(page, testInfo, 'free-now-actions');
  await screenshot(page, testInfo, 'free-now-ranked');

  await halfHour.click();
  await expect(
    page.getByRole('status').filter({ hasText: new RegExp(`Booked Thames \\(1\\.01\\) ${range(perch, '11:00', '11:30').source}`) }),
  ).toBeVisible();
  const booked = perch.core.snapshot().reservations.find((reservation) => reservation.resourceName === 'Thames (1.01)');
  expect(booked && [booked.start, booked.end].map((instant) => DateTime.fromISO(instant).setZone(officeZone).toFormat('HH:mm'))).toEqual([
    '11:00',
    '11:30',
  ]);
});

test('a resource one click cannot book (approval and a required cost centre) offers "Book…", which opens the Book form filled in', async ({
  page,
  perch,
}, testInfo) => {
  await perch.signIn();
  await perch.open();
  const boardroom = row(page, 'Boardroom');
  const bookForm = boardroom.getByRole('button', { name: 'Book… Boardroom: needs approval and a cost centre' });
  await expect(bookForm).toHaveText('Book…');
  await bookForm.click();

  await expect(page.getByRole('heading', { name: 'Book Boardroom' })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Book' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByLabel('Start').locator('option:checked')).toHaveText(userClock(perch, '11:00'));
  await expect(page.getByLabel('Duration').locator('option:checked')).toHaveText('30 min');
  await expect(page.getByRole('status').filter({ hasText: range(perch, '11:00', '11:30') })).toBeVisible();
  // What is left to fill in has the focus.
  await expect(page.getByRole('textbox', { name: /Cost centre/ })).toBeFocused();
  await expectAccessible(page, testInfo, 'book-filled');
});

test('a favourite leads Free now; rooms come before desks and equipment', async ({ page, perch }) => {
  await perch.signIn();
  await perch.core.handlers.setSettings({ favouriteResourceIds: [perch.org.resources.cameraKit] });
  await perch.open();
  await expect(row(page, 'Camera kit').getByText('favourite')).toBeVisible();
  const names = await rowNames(page);
  expect(names[0]).toBe('Camera kit');
  // Then the rooms one click can book, smallest first.
  expect(names.slice(1, 4)).toEqual(['Phone booth (2.02)', 'Severn (1.02)', 'Thames (1.01)']);
  expect(names.indexOf('Loan laptop')).toBeGreaterThan(names.indexOf('Avon (2.01)'));
});

test('the people filter keeps what holds that many', async ({ page, perch }) => {
  await perch.signIn();
  await perch.open();
  await page.getByLabel('People').selectOption({ label: '8+ people' });
  expect((await rowNames(page)).sort()).toEqual(['Avon (2.01)', 'Boardroom', 'Training room (1.04)']);
  await page.getByRole('searchbox', { name: 'Filter free resources' }).fill('floor 2');
  expect((await rowNames(page)).sort()).toEqual(['Avon (2.01)', 'Boardroom']);
});

test('the filter finds what is not free now, says until when, and looks at that time', async ({ page, perch }) => {
  // Someone else's booking under way (administrators may book from a time already begun).
  const admin = await perch.clientFor('admin');
  const taken = await admin.createReservation({
    body: { resourceId: perch.org.resources.thames, title: 'Stand-up', startDateTime: perch.at('10:30'), endDateTime: perch.at('11:30') },
  });
  if (!taken.ok) throw new Error(taken.error.message);
  await perch.signIn();
  await perch.open();
  await expect(row(page, 'Severn (1.02)')).toBeVisible();
  await expect(row(page, 'Thames (1.01)')).toHaveCount(0);
  await page.getByRole('searchbox', { name: 'Filter free resources' }).fill('thames');
  await expect(page.getByRole('heading', { name: 'Not free now' })).toBeVisible();
  await expect(row(page, 'Thames (1.01)')).toContainText(`busy until ${userClock(perch, '11:30')}`);
  await expect(page.getByRole('region', { name: 'Free now' }).getByText(/^Nothing/)).toHaveCount(0);
  await row(page, 'Thames (1.01)')
    .getByRole('button', { name: /^Look at/ })
    .click();
  await expect(row(page, 'Thames (1.01)').getByRole('button', { name: range(perch, '11:30', '12:00') })).toBeVisible();
});

test('offline, booking from Free now waits and says why', async ({ page, perch }, testInfo) => {
  await perch.signIn();
  await perch.open();
  const action = row(page, 'Severn (1.02)').getByRole('button', { name: range(perch, '11:00', '11:30') });
  await expect(action).toBeVisible();
  await perch.stopService();
  await perch.core.handlers.refresh();
  await expect(page.getByText('Offline — booking resumes when Perch reaches the server.')).toBeVisible();
  await expect(action).toHaveAttribute('aria-disabled', 'true');
  await expect(action).toHaveAccessibleDescription('Offline — booking resumes when Perch reaches the server.');
  // Playwright will not click what says it is disabled; a click that comes anyway books nothing.
  await action.dispatchEvent('click');
  await expect(page.getByRole('status').filter({ hasText: 'Booked' })).toHaveCount(0);
  expect(perch.core.snapshot().reservations).toEqual([]);
  await expectAccessible(page, testInfo, 'free-now-offline');
});

test('the Free now list is one Tab stop; arrow keys move inside it', async ({ page, perch }) => {
  await perch.signIn();
  await perch.open();
  const filter = page.getByRole('searchbox', { name: 'Filter free resources' });
  await expect(filter).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('People')).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Free when')).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('For how long')).toBeFocused();
  await page.keyboard.press('Tab');
  const first = page.locator('button[data-key]').first();
  await expect(first).toBeFocused();
  await page.keyboard.press('ArrowDown');
  const second = page.locator('li').nth(1).locator('button[data-key]').first();
  await expect(second).toBeFocused();
  // Tab leaves the list at once, whatever its length.
  await page.keyboard.press('Tab');
  expect(await page.evaluate('document.activeElement?.hasAttribute("data-key") ?? false')).toBe(false);
  await page.keyboard.press('Shift+Tab');
  await expect(second).toBeFocused();
  expect(await page.locator('button[data-key][tabindex="0"]').count()).toBe(1);
});

test('free at a time to come: what is busy then leaves the list, and the actions book that time', async ({ page, perch }, testInfo) => {
  await perch.signIn();
  const taken = await perch.core.handlers.book({
    resourceId: perch.org.resources.thames,
    start: perch.at('14:00'),
    durationMinutes: 60,
    title: 'Planning',
  });
  expect(taken.ok).toBe(true);
  await perch.open();
  // Free now, until the user's own booking.
  await expect(row(page, 'Thames (1.01)')).toContainText(`until ${userClock(perch, '14:00')}`);
  await page.getByLabel('Free when').selectOption({ label: `At ${userClock(perch, '14:00')}` });
  await page.getByLabel('For how long').selectOption({ label: '1 h' });
  await expect(page.getByRole('heading', { name: `Free at ${userClock(perch, '14:00')}` })).toBeVisible();
  await expect(row(page, 'Severn (1.02)').getByRole('button', { name: range(perch, '14:00', '15:00') })).toBeVisible();
  await expect(row(page, 'Thames (1.01)')).toHaveCount(0);
  await expectAccessible(page, testInfo, 'free-at');
  await page.getByLabel('Free when').selectOption({ label: 'Now' });
  await expect(row(page, 'Thames (1.01)')).toBeVisible();
});

test.describe('at 200% zoom', () => {
  test.use({ viewport: { width: 190, height: 280 }, deviceScaleFactor: 2 });

  test('the Book button stays in view in the filled-in Book form', async ({ page, perch }, testInfo) => {
    await perch.signIn();
    await perch.open();
    await row(page, 'Boardroom')
      .getByRole('button', { name: /^Book… Boardroom/ })
      .click();
    await expect(page.getByRole('heading', { name: 'Book Boardroom' })).toBeVisible();
    const book = page.getByRole('button', { name: 'Book', exact: true });
    await expect(book).toBeInViewport({ ratio: 1 });
    await screenshot(page, testInfo, 'book-form-200');
  });
});

test.describe('before the office opens', () => {
  // Monday 07:00 in London: the head office opens at 08:00.
  test.use({ officeTime: '07:00' });

  test('with everything the user may book closed, Free now names the opening, looks at it in one click, and books it', async ({
    page,
    perch,
  }, testInfo) => {
    // The hub, open round the clock, is out of service this morning: only the head office is left.
    await perch.service.store
      .updateTable('resources')
      .set({ statusId: ResourceStatus.unavailable })
      .where('scheduleId', '=', perch.org.schedules.hub)
      .execute();
    await perch.signIn();
    await perch.open();
    await expect(page.getByText(`Everything is closed now. Head office opens ${userClock(perch, '08:00')}.`)).toBeVisible();
    await expectAccessible(page, testInfo, 'free-now-closed');
    await screenshot(page, testInfo, 'free-now-closed');

    await page.getByRole('button', { name: `Look at ${userClock(perch, '08:00')}` }).click();
    await expect(page.getByLabel('Free when').locator('option:checked')).toHaveText(`At ${userClock(perch, '08:00')}`);
    const thames = row(page, 'Thames (1.01)').getByRole('button', { name: range(perch, '08:00', '08:30') });
    await thames.click();
    await expect(
      page.getByRole('status').filter({ hasText: new RegExp(`Booked Thames \\(1\\.01\\) ${range(perch, '08:00', '08:30').source}`) }),
    ).toBeAttached();
    const booked = perch.core.snapshot().reservations.find((reservation) => reservation.resourceName === 'Thames (1.01)');
    expect(booked && [booked.start, booked.end].map((instant) => DateTime.fromISO(instant).setZone(officeZone).toFormat('HH:mm'))).toEqual([
      '08:00',
      '08:30',
    ]);
  });
});
