/**
 * `npm run screenshots`: every view of the popover, light and dark, at its real size (380 × 560,
 * twice the pixels) and at 200% zoom (190 × 280 CSS pixels, the same picture size), drawn by the built renderer in Chromium over a real core and local service with
 * the demo organisation, into build/screenshots/. The README shows them.
 */
import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from '@playwright/test';
import { chromiumLaunchOptions } from '../../build/scripts/chromium.js';
import type { ThemeSetting } from '../../electron/bridge/contract.js';
import { serveBuiltPopover } from './support/global-setup.js';
import { bindPerch, nextOfficeMorning, startWorld } from './support/perch.js';

const folder = fileURLToPath(new URL('../../build/screenshots/', import.meta.url));
const themes = ['light', 'dark'] as const satisfies readonly ThemeSetting[];

/** The popover's real size, and 200% zoom: half the CSS pixels, twice the device pixels per CSS pixel. */
const sizes = [
  { suffix: '', viewport: { width: 380, height: 560 }, deviceScaleFactor: 2 },
  { suffix: '-200', viewport: { width: 190, height: 280 }, deviceScaleFactor: 4 },
] as const;

type World = Awaited<ReturnType<typeof startWorld>>;

interface View {
  name: string;
  /** Brings the page to the view, from a freshly opened popover. */
  show(page: Page): Promise<void>;
}

const tab = (name: string, heading: string) => async (page: Page) => {
  await page.getByRole('tab', { name }).click();
  await page.getByRole('heading', { name: heading, exact: true }).waitFor();
};

const signedInViews: View[] = [
  { name: 'now', show: tab('Now', 'Free now') },
  { name: 'book', show: tab('Book', 'Choose a resource') },
  {
    name: 'book-form',
    async show(page) {
      await tab('Book', 'Choose a resource')(page);
      await page.getByRole('button', { name: /^Severn/ }).click();
      await page.getByRole('heading', { name: /^Book Severn/ }).waitFor();
    },
  },
  { name: 'my-reservations', show: tab('My reservations', 'My reservations') },
  {
    name: 'reservation-details',
    async show(page) {
      await tab('My reservations', 'My reservations')(page);
      await page.getByRole('button', { name: 'Design review', exact: true }).click();
      await page.getByRole('definition').first().waitFor();
    },
  },
  { name: 'settings', show: tab('Settings', 'Settings') },
];

/** The user's morning: a room that needs check-in in a few minutes, and a booking this afternoon. */
async function bookTheMorning(world: World): Promise<void> {
  const bookings = [
    { resource: 'thames', time: '10:30', minutes: 60, title: 'Design review' },
    { resource: 'avon', time: '15:00', minutes: 30, title: 'Weekly planning' },
  ] as const;
  for (const booking of bookings) {
    const booked = await world.core.handlers.book({
      resourceId: world.org.resources[booking.resource],
      start: world.at(booking.time),
      durationMinutes: booking.minutes,
      title: booking.title,
    });
    if (!booked.ok) throw new Error(`could not book ${booking.resource}: ${booked.error.message}`);
  }
}

async function capture(browser: Browser, url: string, world: World, theme: ThemeSetting, views: View[], prefix = ''): Promise<string[]> {
  const written: string[] = [];
  for (const view of views)
    for (const size of sizes) {
      const page = await browser.newPage({
        viewport: size.viewport,
        deviceScaleFactor: size.deviceScaleFactor,
        locale: 'en-GB',
        timezoneId: 'Europe/London',
      });
      // Only loopback: the popover must not reach out while it is drawn.
      await page.route(/^(?!https?:\/\/127\.0\.0\.1[:/]|data:|blob:)/, (route) => route.abort());
      // tsx (esbuild keepNames) wraps named functions in `__name(...)`, which page scripts lack.
      await page.addInitScript('globalThis.__name = (fn) => fn;');
      await bindPerch(page, world.core);
      await page.goto(url);
      await page.getByText('Loading…').waitFor({ state: 'detached' });
      await view.show(page);
      // No caret or focus ring in a picture meant to show the view at rest.
      await page.evaluate('document.activeElement?.blur()');
      const file = `${folder}${prefix}${view.name}-${theme}${size.suffix}.png`;
      await page.screenshot({ path: file });
      written.push(file);
      await page.close();
    }
  return written;
}

async function main(): Promise<void> {
  await mkdir(folder, { recursive: true });
  const popover = await serveBuiltPopover();
  const browser = await chromium.launch(chromiumLaunchOptions);
  const written: string[] = [];
  try {
    for (const theme of themes) {
      const world = await startWorld(nextOfficeMorning('10:26'));
      try {
        await world.core.handlers.setSettings({ theme });
        written.push(
          ...(await capture(browser, popover.url, world, theme, [
            { name: 'first-run', show: async (page) => void (await page.getByRole('heading', { name: 'Get started' }).waitFor()) },
          ])),
        );
        await world.signIn();
        await bookTheMorning(world);
        await world.core.idle();
        written.push(...(await capture(browser, popover.url, world, theme, signedInViews)));
      } finally {
        await world.dispose();
      }
    }
  } finally {
    await browser.close();
    popover.stop();
  }
  for (const file of written) console.log(`wrote ${file}`);
}

await main();
