import type { Page } from '@playwright/test';
import { expect, expectAccessible, test, type PerchWorld } from './support/perch.js';

/**
 * The popover at any size: 200% zoom (half the popover's CSS pixels, twice the device pixels) and a
 * 20 px default font (the browser's font-size setting, which the OS text size feeds), in both themes.
 * No view may scroll sideways, every tab stays on screen, and axe finds nothing serious or
 * critical, at the real size, at 200% and with the larger font.
 */

const views = [
  { tab: 'Now', heading: 'Free now' },
  { tab: 'Book', heading: 'Choose a resource' },
  { tab: 'My reservations', heading: 'My reservations' },
  { tab: 'Settings', heading: 'Settings' },
] as const;

const themes = ['light', 'dark'] as const;

/** Signed in with two bookings today, so Now and My reservations show cards, not empty states. */
async function populatedWorld(perch: PerchWorld, theme: (typeof themes)[number]): Promise<void> {
  await perch.signIn();
  for (const [resource, time] of [
    ['thames', '11:00'],
    ['avon', '15:30'],
  ] as const) {
    const booked = await perch.core.handlers.book({
      resourceId: perch.org.resources[resource],
      start: perch.at(time),
      durationMinutes: 30,
      title: 'Design review with the whole product team',
    });
    expect(booked.ok, `booking ${resource} at ${time}`).toBe(true);
  }
  await perch.core.handlers.setSettings({ theme });
  await perch.open();
}

/**
 * What spills past the right edge: the page, or any element whose content is wider than its box.
 * A string, not a function: this runs in the page, and the Node project has no DOM types.
 */
const sidewaysOverflowScript = `(() => {
  const found = [];
  const root = document.documentElement;
  if (root.scrollWidth > root.clientWidth) found.push('page: ' + root.scrollWidth + ' > ' + root.clientWidth);
  for (const element of document.querySelectorAll('body *')) {
    const style = getComputedStyle(element);
    const scrolls = style.overflowX === 'auto' || style.overflowX === 'scroll';
    const name = element.tagName.toLowerCase() + ' "' + (element.textContent || '').trim().slice(0, 30) + '"';
    if (scrolls && element.scrollWidth > element.clientWidth + 1) found.push(name + ' scrolls: ' + element.scrollWidth + ' > ' + element.clientWidth);
    const box = element.getBoundingClientRect();
    if (box.width > 0 && box.right > root.clientWidth + 1) found.push(name + ' ends at ' + Math.round(box.right) + ' of ' + root.clientWidth);
  }
  return found.slice(0, 10);
})()`;

const sidewaysOverflow = (page: Page) => page.evaluate<string[]>(sidewaysOverflowScript);
const pageWidth = (page: Page) => page.evaluate<number>('document.documentElement.clientWidth');
const bodyFontSize = (page: Page) => page.evaluate<number>('parseFloat(getComputedStyle(document.body).fontSize)');

async function setDefaultFontSize(page: Page, pixels: number): Promise<void> {
  const session = await page.context().newCDPSession(page);
  await session.send('Page.setFontSizes', { fontSizes: { standard: pixels } });
}

async function expectEveryTabOnScreen(page: Page): Promise<void> {
  const width = await pageWidth(page);
  for (const { tab } of views) {
    const box = await page.getByRole('tab', { name: tab }).boundingBox();
    expect(box, `the ${tab} tab is laid out`).not.toBeNull();
    expect(box!.x, `the ${tab} tab starts on screen`).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width, `the ${tab} tab ends on screen`).toBeLessThanOrEqual(width + 1);
  }
}

/**
 * Every view in turn, each handed to `check` once it shows: the first run (signed out), the four
 * tabs of a populated world (with every tab on screen), and the Book form for one resource.
 */
async function everyView(
  page: Page,
  perch: PerchWorld,
  theme: (typeof themes)[number],
  check: (view: string) => Promise<void>,
): Promise<void> {
  await perch.core.handlers.setSettings({ theme });
  await perch.open();
  await expect(page.getByRole('heading', { name: 'Get started' })).toBeVisible();
  await check('First run');
  await populatedWorld(perch, theme);
  await expectEveryTabOnScreen(page);
  for (const { tab, heading } of views) {
    await page.getByRole('tab', { name: tab }).click();
    await expect(page.getByRole('heading', { name: heading, exact: true })).toBeVisible();
    await check(tab);
  }
  await page.getByRole('tab', { name: 'Book' }).click();
  await page.getByRole('button', { name: /^Severn/ }).click();
  await expect(page.getByRole('heading', { name: /^Book Severn/ })).toBeVisible();
  await check('Book form');
}

for (const theme of themes) {
  test.describe(`${theme} theme`, () => {
    test.use({ viewport: { width: 190, height: 280 }, deviceScaleFactor: 2 });

    test(`at 200% zoom no view scrolls sideways, every tab is reachable and axe is content (${theme})`, async ({
      page,
      perch,
    }, testInfo) => {
      // Seven views, each laid out and read by axe: minutes on a loaded machine, not one.
      test.slow();
      await everyView(page, perch, theme, async (view) => {
        expect(await sidewaysOverflow(page), `${view} at 200%`).toEqual([]);
        await expectAccessible(page, testInfo, `${view}-${theme}-200`);
      });
    });
  });

  test(`with a 20 px default font no view scrolls sideways, text follows it and axe is content (${theme})`, async ({
    page,
    perch,
  }, testInfo) => {
    test.slow();
    await setDefaultFontSize(page, 20);
    await everyView(page, perch, theme, async (view) => {
      // 0.875 of the default: 14 px at the usual 16, 17.5 px at 20.
      expect(await bodyFontSize(page), `${view}: body text`).toBeCloseTo(17.5, 1);
      expect(await sidewaysOverflow(page), `${view} with a 20 px font`).toEqual([]);
      await expectAccessible(page, testInfo, `${view}-${theme}-20px`);
    });
  });

  test(`axe finds nothing serious or critical on any view (${theme})`, async ({ page, perch }, testInfo) => {
    test.slow();
    await everyView(page, perch, theme, (view) => expectAccessible(page, testInfo, `${view}-${theme}`));
  });
}
