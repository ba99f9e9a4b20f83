import type { Page } from '@playwright/test';
import { DateTime } from 'luxon';
import { expect, expectAccessible, screenshot, test, type PerchWorld } from './support/perch.js';

test('books through the Book form with a required custom attribute, first invalid then valid, and sees "pending approval"', async ({
  page,
  perch,
}, testInfo) => {
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

test('books a resource that needs approval and sees "pending approval" on the booking and in My reservations', async ({
  page,
  perch,
}, testInfo) => {
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

/** Opens the Book form for a resource by the mouse: the Book tab, then the resource. */
async function openForm(page: Page, name: RegExp): Promise<void> {
  await page.getByRole('tab', { name: 'Book' }).click();
  await page.getByRole('button', { name }).click();
  await expect(page.getByLabel('Start')).toBeEnabled();
}

/**
 * Whatever in the form is cut at the right: an element wider inside than its box, one ending past
 * the page's edge, or a select's option (the chosen one shows) wider than the select's text room.
 * A string, not a function: it runs in the page, and the Node project has no DOM types.
 */
const cutOffScript = `(() => {
  const found = [];
  const root = document.documentElement;
  const canvas = document.createElement('canvas').getContext('2d');
  for (const element of document.querySelectorAll('form, form *')) {
    const box = element.getBoundingClientRect();
    if (box.width === 0) continue;
    const name = element.tagName.toLowerCase() + ' "' + (element.textContent || '').trim().slice(0, 30) + '"';
    // Only a box that clips (or scrolls) cuts its content; the Book footer reaches into the form's padding on purpose.
    const clips = getComputedStyle(element).overflowX !== 'visible';
    if (clips && element.tagName !== 'SELECT' && element.scrollWidth > element.clientWidth + 1) found.push(name + ': ' + element.scrollWidth + ' > ' + element.clientWidth);
    if (box.right > root.clientWidth + 1) found.push(name + ' ends at ' + Math.round(box.right) + ' of ' + root.clientWidth);
    if (element.tagName === 'SELECT') {
      const style = getComputedStyle(element);
      canvas.font = style.font;
      // The drop-down arrow takes about 1.3 em of the select's inner width.
      const room = element.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 1.3 * parseFloat(style.fontSize);
      for (const option of element.options) {
        const width = canvas.measureText(option.text).width;
        if (width > room) found.push(element.id + ' option "' + option.text + '": ' + Math.round(width) + ' > ' + Math.round(room));
      }
    }
  }
  return found.slice(0, 10);
})()`;

const cutOff = (page: Page) => page.evaluate<string[]>(cutOffScript);

/** The signed-in user's zone, which the popover writes every time in. */
const userZone = (perch: PerchWorld) => perch.core.snapshot().account!.timezone;

/** A wire date-time at `time` on the user's day `days` from today, in the user's zone. */
function userAt(perch: PerchWorld, time: string, days = 0): string {
  const [hour, minute] = time.split(':').map(Number) as [number, number];
  return perch.clock.now().setZone(userZone(perch)).plus({ days }).set({ hour, minute, second: 0, millisecond: 0 }).toISO()!;
}

/** How the popover (en-GB, 24-hour) writes the time of `iso` in the user's zone. */
const userTime = (perch: PerchWorld, iso: string) => DateTime.fromISO(iso).setZone(userZone(perch)).toFormat('HH:mm');

/** The calendar day `days` after the world's today in the office, as the locale writes it short. */
function dayWords(perch: PerchWorld, days: number, locale: string): string {
  const day = perch.clock.now().setZone(userZone(perch)).plus({ days }).setLocale(locale);
  // Luxon's tokens read Intl's parts: weekday, day and month in the locale's own order.
  return locale === 'en-US' ? day.toFormat('ccc LLL d') : day.toFormat('ccc d LLL');
}

for (const locale of ['en-GB', 'en-US']) {
  test.describe(`in ${locale}`, () => {
    test.use({ locale });

    test(`the day reads as ${locale} writes it, never as Chromium's own date field would`, async ({ page, perch }) => {
      await perch.signIn();
      await perch.open();
      await openForm(page, /^Hot desk D1/);
      const day = page.getByLabel('Day');
      await expect(day.locator('option:checked')).toHaveText(dayWords(perch, 0, locale));
      await expect(page.getByRole('status').filter({ hasText: `Today, ${dayWords(perch, 0, locale)}, ` })).toBeVisible();
      await page.getByRole('button', { name: 'Tomorrow' }).click();
      await expect(day.locator('option:checked')).toHaveText(dayWords(perch, 1, locale));
      await expect(page.getByRole('status').filter({ hasText: `Tomorrow, ${dayWords(perch, 1, locale)}, ` })).toBeVisible();
      await expect(page.getByRole('button', { name: 'Tomorrow' })).toHaveAttribute('aria-pressed', 'true');
      await expect(day.locator('option').nth(5)).toHaveText(dayWords(perch, 5, locale));
    });
  });
}

test('a desk tomorrow 14:00–15:30 takes seven clicks and Ctrl+Enter; the day, start and length are as chosen', async ({ page, perch }) => {
  await perch.signIn();
  await perch.open();
  // Each step below is what a person does: a click, or a click on a list and one on its choice (two).
  let clicks = 0;
  await openForm(page, /^Hot desk D1/);
  clicks += 2;
  await page.getByRole('button', { name: 'Tomorrow' }).click();
  clicks += 1;
  await page.getByLabel('Start').selectOption({ label: '14:00' });
  clicks += 2;
  await page.getByLabel('Duration').selectOption({ label: '1 h 30 min' });
  clicks += 2;
  await expect(page.getByRole('status').filter({ hasText: `Tomorrow, ${dayWords(perch, 1, 'en-GB')}, 14:00–15:30` })).toBeVisible();
  // Ctrl+Enter books from any field, here the one that had focus last.
  await page.getByLabel('Duration').press('Control+Enter');
  await expect(page.getByRole('status').filter({ hasText: /^Booked Hot desk D1 Tomorrow 14:00–15:30/ })).toBeVisible();
  expect(clicks).toBe(7);

  const booked = perch.core.snapshot().reservations.filter((reservation) => reservation.resourceId === perch.org.resources.deskD1);
  expect(booked.map(({ start, end }) => [Date.parse(start), Date.parse(end)])).toEqual([
    [Date.parse(userAt(perch, '14:00', 1)), Date.parse(userAt(perch, '15:30', 1))],
  ]);
});

test('Ctrl+Enter books from the description, where Enter alone starts a new line', async ({ page, perch }) => {
  await perch.signIn();
  await perch.open();
  await openForm(page, /^Hot desk D2/);
  const description = page.getByLabel('Description');
  await description.fill('Docking');
  await description.press('Enter');
  await expect(description).toHaveValue('Docking\n');
  expect(perch.core.snapshot().reservations.filter((r) => r.resourceId === perch.org.resources.deskD2)).toEqual([]);
  await description.press('Control+Enter');
  await expect(page.getByRole('status').filter({ hasText: /^Booked Hot desk D2/ })).toBeVisible();
  expect(perch.core.snapshot().reservations.filter((r) => r.resourceId === perch.org.resources.deskD2)).toHaveLength(1);
});

test('quick choices start where each free stretch begins', async ({ page, perch }) => {
  await perch.signIn();
  const taken = await perch.core.handlers.book({
    resourceId: perch.org.resources.deskD1,
    start: perch.at('12:00'),
    durationMinutes: 60,
    title: '',
  });
  expect(taken.ok).toBe(true);
  await perch.open();
  await openForm(page, /^Hot desk D1/);
  const quick = page.getByRole('group', { name: 'Quick choices' });
  // The first start on offer, and the end of the booking.
  const first = (await page.getByLabel('Start').locator('option').first().textContent())!;
  const second = userTime(perch, perch.at('13:00'));
  await expect(quick.getByRole('button')).toHaveText(['Today', 'Tomorrow', `from ${first}`, `from ${second}`]);
  await expect(quick.getByRole('button', { name: `from ${first}` })).toHaveAttribute('aria-pressed', 'true');
  await quick.getByRole('button', { name: `from ${second}` }).click();
  await expect(page.getByLabel('Start').locator('option:checked')).toHaveText(second);
  await expect(quick.getByRole('button', { name: `from ${second}` })).toHaveAttribute('aria-pressed', 'true');
});

test('opened offline, the form shows why and recovers by itself once the service is back', async ({ page, perch }) => {
  await perch.signIn();
  await perch.open();
  await page.getByRole('tab', { name: 'Book' }).click();
  await expect(page.getByRole('button', { name: /^Hot desk D1/ })).toBeVisible();
  await perch.stopService();
  await perch.core.handlers.refresh();
  await expect(page.getByText(/^Offline/).first()).toBeVisible();
  await page.getByRole('button', { name: /^Hot desk D1/ }).click();
  const book = page.getByRole('button', { name: 'Book', exact: true });
  await expect(book).toBeDisabled();
  await expect(page.getByLabel('Start')).toBeDisabled();

  await perch.restartService();
  await perch.core.handlers.refresh();
  await expect(page.getByText(/^Offline/)).toHaveCount(0);
  await expect(page.getByLabel('Start')).toBeEnabled();
  await expect(book).toBeEnabled();
  await expect(page.getByRole('alert').filter({ hasText: /\S/ })).toHaveCount(0);
  await book.click();
  await expect(page.getByRole('status').filter({ hasText: /^Booked Hot desk D1/ })).toBeVisible();
});

test.describe('nothing cut off', () => {
  const sizes = [
    { name: 'at 380×560', viewport: { width: 380, height: 560 }, deviceScaleFactor: 1, fontSize: null },
    { name: 'at 200% zoom', viewport: { width: 190, height: 280 }, deviceScaleFactor: 2, fontSize: null },
    { name: 'with a 20 px default font', viewport: { width: 380, height: 560 }, deviceScaleFactor: 1, fontSize: 20 },
  ] as const;
  for (const size of sizes) {
    test.describe(size.name, () => {
      test.use({ viewport: size.viewport, deviceScaleFactor: size.deviceScaleFactor });
      for (const theme of ['light', 'dark'] as const) {
        test(`the Book form shows every field and choice whole, and axe is content (${theme})`, async ({ page, perch }, testInfo) => {
          if (size.fontSize !== null) {
            const session = await page.context().newCDPSession(page);
            await session.send('Page.setFontSizes', { fontSizes: { standard: size.fontSize } });
          }
          await perch.signIn();
          await perch.core.handlers.setSettings({ theme });
          await perch.open();
          // The Training room has limits and long days: the most the form has to show.
          await openForm(page, /^Training room/);
          await page.getByLabel('Duration').selectOption({ index: (await page.getByLabel('Duration').locator('option').count()) - 1 });
          expect(await cutOff(page)).toEqual([]);
          await expectAccessible(page, testInfo, `book-form-${theme}-${size.name}`);
          await screenshot(page, testInfo, `book-form-${theme}-${size.name.replace(/\W+/g, '-')}`);
        });
      }
    });
  }
});

test('a disabled Book button loses the accent colour in both themes', async ({ page, perch }) => {
  await perch.signIn();
  const background = () => page.evaluate<string>(`getComputedStyle(document.querySelector('button.primary')).backgroundColor`);
  for (const theme of ['light', 'dark'] as const) {
    await perch.core.handlers.setSettings({ theme });
    await perch.open();
    await openForm(page, /^Hot desk D1/);
    const book = page.getByRole('button', { name: 'Book', exact: true });
    await expect(book).toBeEnabled();
    const enabled = await background();
    await perch.stopService();
    await perch.core.handlers.refresh();
    await expect(book).toBeDisabled();
    expect(await background(), theme).not.toBe(enabled);
    await perch.restartService();
    await perch.core.handlers.refresh();
    await expect(book).toBeEnabled();
  }
});
