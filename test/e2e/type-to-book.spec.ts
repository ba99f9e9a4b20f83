import { DateTime } from 'luxon';
import { expect, expectAccessible, screenshot, test, type PerchWorld } from './support/perch.js';

/**
 * Type to book: the field that has focus when the popover opens reads a line as a booking, says in
 * one line what Enter will book, and books it; a line that is not a booking filters Free now.
 * The world starts on a Monday at 10:31 in London; the demo user's clock is Berlin's.
 */

const userZone = (perch: PerchWorld) => perch.core.snapshot().account?.timezone ?? 'UTC';
/** Intl writes a thin or no space around the dash; match either. */
const range = (from: string, to: string) => `${from}\\s?–\\s?${to}`;

test('"desk tomorrow 14:00 for 90 min" says what Enter books, and Enter books it', async ({ page, perch }, testInfo) => {
  await perch.signIn();
  await perch.open();
  const field = page.getByRole('searchbox', { name: /Filter free resources, or type a booking/ });
  await expect(field).toBeFocused();
  await page.keyboard.type('desk tomorrow 14:00 for 90 min');
  const line = page.locator('#free-line');
  const words = new RegExp(`\\w+ desk \\w+, tomorrow ${range('14:00', '15:30')}`);
  await expect(line).toContainText(words);
  await expect(field).toHaveAccessibleDescription(new RegExp(`Enter books.*${words.source}`));
  // A booking is not a filter: Free now stays whole under it.
  await expect(page.locator('li button[data-key]').first()).toBeVisible();
  await expectAccessible(page, testInfo, 'type-to-book-preview');
  await screenshot(page, testInfo, 'type-to-book-preview');

  await page.keyboard.press('Enter');
  await expect(line).toContainText(new RegExp(`Booked ${words.source}`));
  await expect(field).toHaveValue('');
  const booked = perch.core.snapshot().reservations.filter((reservation) => / desk /.test(reservation.resourceName));
  expect(booked).toHaveLength(1);
  const [start, end] = [booked[0]!.start, booked[0]!.end].map((instant) => DateTime.fromISO(instant).setZone(userZone(perch)));
  const tomorrow = perch.clock.now().setZone(userZone(perch)).plus({ days: 1 }).toISODate();
  expect([start!.toISODate(), start!.toFormat('HH:mm'), end!.toFormat('HH:mm')]).toEqual([tomorrow, '14:00', '15:30']);

  await page.keyboard.press('Control+3');
  await expect(page.getByRole('listitem').filter({ hasText: booked[0]!.resourceName })).toBeVisible();
});

test('Ctrl+Enter books too, from the next half hour when the line says "now"', async ({ page, perch }) => {
  await perch.signIn();
  await perch.open();
  await page.keyboard.type('Thames now 30m');
  // 10:31 in London: the next half hour is 11:00 there, on the user's clock.
  const [from, to] = ['11:00', '11:30'].map((time) => DateTime.fromISO(perch.at(time)).setZone(userZone(perch)).toFormat('HH:mm'));
  await expect(page.locator('#free-line')).toContainText(new RegExp(`Thames \\(1\\.01\\), today ${range(from!, to!)}`));
  await page.keyboard.press('Control+Enter');
  await expect(page.locator('#free-line')).toContainText(/^Booked Thames/);
  const thames = perch.core.snapshot().reservations.find((reservation) => reservation.resourceName === 'Thames (1.01)');
  expect(thames && DateTime.fromISO(thames.start).toMillis()).toBe(DateTime.fromISO(perch.at('11:00')).toMillis());
});

test('a line that is not a booking filters Free now, and Enter books nothing', async ({ page, perch }) => {
  await perch.signIn();
  await perch.open();
  await page.keyboard.type('floor 2');
  // Which rows are left, whatever the core's ranking.
  await expect
    .poll(async () => (await page.locator('li .name').allTextContents()).map((name) => name.trim()).sort())
    .toEqual(['Avon (2.01)', 'Boardroom', 'Phone booth (2.02)']);
  await expect(page.locator('#free-line')).toHaveText('');
  await page.keyboard.press('Enter');
  await expect(page.locator('#free-line')).toHaveText('');
  expect(perch.core.snapshot().reservations).toEqual([]);
});

test('a booking the line cannot make says why, and Enter books nothing', async ({ page, perch }) => {
  await perch.signIn();
  await perch.open();
  await page.keyboard.type('Danube tomorrow 10:00');
  await expect(page.locator('#free-line')).toHaveText('Nothing you can book is called “danube”.');
  await page.keyboard.press('Enter');
  expect(perch.core.snapshot().reservations).toEqual([]);
});
