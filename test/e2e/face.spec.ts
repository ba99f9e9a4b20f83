import type { Locator, Page } from '@playwright/test';
import { expect, expectAccessible, screenshot, test } from './support/perch.js';

/**
 * Issue 22's face: a first run that guides (the usual choice focused, the server form in its own
 * card), and resources shown with their kind's icon and the server's colour, in both themes.
 */

const themes = ['light', 'dark'] as const;

/** Whether the element lies wholly inside the viewport, so it needs no scrolling to be seen. */
async function inView(page: Page, locator: Locator): Promise<boolean> {
  const box = await locator.boundingBox();
  const viewport = page.viewportSize();
  if (box === null || viewport === null) return false;
  return box.y >= 0 && box.x >= 0 && box.y + box.height <= viewport.height && box.x + box.width <= viewport.width;
}

const kindOf = (row: Locator) => row.locator('svg.resource-icon').getAttribute('data-kind');
/** A string, not a function: this runs in the page, and the Node project has no DOM types. */
const scrollsSideways = (page: Page) =>
  page.evaluate<boolean>('document.documentElement.scrollWidth > document.documentElement.clientWidth');

for (const theme of themes) {
  test(`first run: the usual choice has focus, the server form opens in its card, axe finds nothing (${theme})`, async ({
    page,
    perch,
  }, testInfo) => {
    await perch.core.handlers.setSettings({ theme });
    await perch.open();
    await expect(page.getByRole('heading', { name: 'Get started' })).toBeVisible();
    const tryIt = page.getByRole('button', { name: 'Try it on this computer' });
    await expect(tryIt).toBeFocused();
    await expect(page.getByText('Where are they booked?')).toBeVisible();
    await expectAccessible(page, testInfo, `first-run-${theme}`);
    await screenshot(page, testInfo, `first-run-${theme}`);

    const connect = page.getByRole('button', { name: "Connect to my organisation's server" });
    await connect.click();
    const card = page.getByRole('region', { name: 'At work' });
    await expect(card.getByLabel('Server address')).toBeFocused();
    await expect(card.getByRole('button', { name: 'Sign in' })).toBeVisible();
    await expectAccessible(page, testInfo, `server-form-${theme}`);

    // Enter on the focused choice takes it: the service starts and Free now shows.
    await tryIt.focus();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('tab', { name: 'Now' })).toHaveAttribute('aria-selected', 'true');
  });

  test.describe(`at 200% zoom (${theme})`, () => {
    test.use({ viewport: { width: 190, height: 280 }, deviceScaleFactor: 2 });

    test(`first run: the usual choice is on screen and focused, and the server form opens in place (${theme})`, async ({
      page,
      perch,
    }, testInfo) => {
      await perch.core.handlers.setSettings({ theme });
      await perch.open();
      const tryIt = page.getByRole('button', { name: 'Try it on this computer' });
      await expect(tryIt).toBeFocused();
      expect(await inView(page, tryIt), 'the main button needs no scrolling').toBe(true);
      await expectAccessible(page, testInfo, `first-run-200-${theme}`);

      await page.getByRole('button', { name: "Connect to my organisation's server" }).click();
      const address = page.getByRole('region', { name: 'At work' }).getByLabel('Server address');
      await expect(address).toBeFocused();
      expect(await inView(page, address), 'the focused field is scrolled into view').toBe(true);
      expect(await scrollsSideways(page), 'nothing scrolls sideways').toBe(false);
      await expectAccessible(page, testInfo, `server-form-200-${theme}`);
      await screenshot(page, testInfo, `server-form-200-${theme}`);
    });
  });

  test(`resources show their kind's icon and the server's colour in the Book form and Free now (${theme})`, async ({
    page,
    perch,
  }, testInfo) => {
    await perch.signIn();
    await perch.core.handlers.setSettings({ theme });
    await perch.open();

    const freeRow = page.getByRole('listitem').filter({ hasText: 'Hub desk H1' });
    expect(await kindOf(freeRow)).toBe('desk');
    await expect(freeRow.locator('.swatch')).toHaveCSS('background-color', 'rgb(78, 52, 46)');
    await screenshot(page, testInfo, `free-now-${theme}`);

    await page.getByRole('tab', { name: 'Book' }).click();
    await expect(page.getByRole('heading', { name: 'Choose a resource', exact: true })).toBeVisible();
    const row = (name: RegExp) => page.getByRole('button', { name });
    expect(await kindOf(row(/^Thames/))).toBe('room');
    await expect(row(/^Thames/).locator('.swatch')).toHaveCSS('background-color', 'rgb(46, 125, 50)');
    await expect(row(/^Hot desk D1/).locator('.swatch')).toHaveCSS('background-color', 'rgb(93, 64, 55)');
    expect(await kindOf(row(/^Hot desk D1/))).toBe('desk');
    expect(await kindOf(row(/^Loan laptop/))).toBe('equipment');

    const star = page.getByRole('button', { name: 'Favourite Thames (1.01)' });
    await expect(star).toHaveAttribute('aria-pressed', 'false');
    await expect(star.locator('svg.favourite-star')).not.toHaveClass(/\bon\b/);
    await star.click();
    const starred = page.getByRole('region', { name: 'Favourites' }).getByRole('button', { name: 'Favourite Thames (1.01)' });
    await expect(starred).toHaveAttribute('aria-pressed', 'true');
    await expect(starred.locator('svg.favourite-star')).toHaveClass(/\bon\b/);
    await expectAccessible(page, testInfo, `book-list-${theme}`);
    await screenshot(page, testInfo, `book-list-${theme}`);
  });
}
