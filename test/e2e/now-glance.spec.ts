import type { Page } from '@playwright/test';
import { expect, expectAccessible, screenshot, test, type PerchWorld } from './support/perch.js';

/**
 * The Now view read in one look, at the popover's real size (380×560): the next booking in two
 * lines, then one line per free resource with its action at the right.
 */

/** A booking of the user's later this morning, so the Next card is there. */
async function bookingComing(perch: PerchWorld): Promise<void> {
  await perch.signIn();
  const booked = await perch.core.handlers.book({
    resourceId: perch.org.resources.avon,
    start: perch.at('11:30'),
    durationMinutes: 30,
    title: 'Design review with the whole product team',
  });
  expect(booked.ok).toBe(true);
  await perch.open();
}

/**
 * How many Free now actions are wholly inside the popover's visible part (one per row). A string,
 * not a function: this runs in the page, and the Node project has no DOM types.
 */
const actionsInView = (page: Page) =>
  page.evaluate<number>(`[...document.querySelectorAll('li button[data-key]')].filter((button) => {
    const box = button.getBoundingClientRect();
    return box.height > 0 && box.top >= 0 && box.bottom <= document.documentElement.clientHeight;
  }).length`);

for (const theme of ['light', 'dark'] as const) {
  test(`with a booking coming, the next booking takes two lines and at least five resources show with their action (${theme})`, async ({
    page,
    perch,
  }, testInfo) => {
    await perch.core.handlers.setSettings({ theme });
    await bookingComing(perch);
    const next = page.getByRole('article').filter({ hasText: 'Design review' });
    await expect(next).toBeVisible();
    await expect(page.locator('li button[data-key]').first()).toBeVisible();
    expect(await actionsInView(page)).toBeGreaterThanOrEqual(5);
    // What and where, when and how soon: one line each, the action at their right.
    for (const line of [next.locator('.what'), next.locator('.when')]) expect((await line.boundingBox())!.height).toBeLessThan(30);
    const [words, action] = [
      await next.locator('.words').boundingBox(),
      await next.getByRole('button', { name: /not coming/ }).boundingBox(),
    ];
    expect(action!.x).toBeGreaterThan(words!.x + words!.width - 1);
    // With the check-in deadline under them, still under half the old card's 190 px.
    expect((await next.boundingBox())!.height).toBeLessThan(95);
    // Each free resource is one line: no taller than its action button and a little air.
    const rowHeights = await Promise.all(
      (await page.locator('li:has(button[data-key])').all()).map(async (row) => (await row.boundingBox())!.height),
    );
    expect(Math.max(...rowHeights)).toBeLessThan(40);
    await expectAccessible(page, testInfo, `now-${theme}`);
    await screenshot(page, testInfo, `now-glance-${theme}`);
  });
}

/** The title and tab row: one row is about one tab high, never two. */
async function expectOneSlimRow(page: Page): Promise<number> {
  const [header, tab] = [await page.locator('header').boundingBox(), await page.getByRole('tab', { name: 'Now' }).boundingBox()];
  expect(header!.height, 'the title and the tabs share one row').toBeLessThan(tab!.height * 1.5);
  for (const name of ['Now', 'Book', 'My reservations', 'Settings']) {
    const box = (await page.getByRole('tab', { name }).boundingBox())!;
    expect(Math.abs(box.y - tab!.y), `${name} is on the row`).toBeLessThan(2);
  }
  return header!.height;
}

test('the title and the tabs are one slim row, at 380×560 and at 200% zoom', async ({ page, perch }, testInfo) => {
  await bookingComing(perch);
  expect(await expectOneSlimRow(page)).toBeLessThan(45);
  await page.setViewportSize({ width: 190, height: 280 });
  await expectOneSlimRow(page);
  await screenshot(page, testInfo, 'now-200-percent');
});

test.describe('a few minutes before the booking, check-in open', () => {
  test.use({ officeTime: '11:26' });

  test('at 200% zoom the Next card keeps to half the view: the action of the moment in sight, the others behind More', async ({
    page,
    perch,
  }, testInfo) => {
    await bookingComing(perch);
    await page.setViewportSize({ width: 190, height: 280 });
    const next = page.getByRole('article').filter({ hasText: 'Design review' });
    const checkIn = next.getByRole('button', { name: /^Check in/ });
    await expect(checkIn).toBeVisible();
    // "check-in open" gives way to the button that says it; the deadline stays, in its short form.
    await expect(next.getByText('check-in open')).toBeHidden();
    await expect(next.getByRole('listitem')).toHaveText([/^Check in by \d\d:\d\d$/]);
    expect((await next.boundingBox())!.height, 'the card takes at most half the view').toBeLessThanOrEqual(140);
    await expect(page.getByRole('searchbox', { name: /Filter free resources/ })).toBeInViewport();

    const more = next.getByRole('button', { name: 'More actions for Design review with the whole product team' });
    const notComing = next.getByRole('button', { name: /not coming/ });
    await expect(notComing).toBeHidden();
    await expect(more).toHaveAttribute('aria-expanded', 'false');
    await more.press('Enter');
    await expect(more).toHaveAttribute('aria-expanded', 'true');
    await notComing.click();
    // Its question stays in sight even if More is closed again, until it is answered.
    await more.click();
    const question = next.getByRole('group', { name: 'Confirm giving the booking back' });
    await expect(question).toBeVisible();
    await expectAccessible(page, testInfo, 'now-next-200');
    await question.getByRole('button', { name: /No, keep/ }).click();
    await expect(notComing).toBeHidden();

    // At the real size there is room: no More, both actions beside the words, the badge too.
    await page.setViewportSize({ width: 380, height: 560 });
    await expect(more).toBeHidden();
    await expect(notComing).toBeVisible();
    await expect(next.getByText('check-in open')).toBeVisible();
    await expect(next.getByRole('listitem')).toHaveText([/^Released at \d\d:\d\d unless you check in$/]);
  });
});

test('booking with one click moves nothing: the Next card has its place kept, and the confirmation is said where the row was', async ({
  page,
  perch,
}) => {
  await perch.signIn();
  await perch.open();
  const field = page.getByRole('searchbox', { name: /Filter free resources/ });
  const before = (await field.boundingBox())!.y;
  const firstRow = page.locator('li:has(button[data-key])').first();
  const rowTop = (await firstRow.boundingBox())!.y;
  const name = (await firstRow.locator('.name').textContent())!.trim();
  await firstRow.locator('button[data-key]').click();
  const booked = page.locator('li.booked-row');
  await expect(booked).toContainText(`Booked ${name}`);
  await expect(page.getByRole('article')).toBeVisible();
  expect((await field.boundingBox())!.y, 'the field stays put as the Next card appears').toBeCloseTo(before, 0);
  expect(Math.abs((await booked.boundingBox())!.y - rowTop), 'the confirmation is where the row was').toBeLessThan(4);
});

test('the headings follow the time chosen', async ({ page, perch }) => {
  await perch.signIn();
  await perch.open();
  await expect(page.getByRole('heading', { name: 'Free now' })).toBeVisible();
  const fourteen = (await page.getByLabel('Free when').locator('option').allTextContents()).find((label) => /^At 1[45]:00$/.test(label))!;
  await page.getByLabel('Free when').selectOption({ label: fourteen });
  await expect(page.getByRole('heading', { name: `Free ${fourteen.replace('At', 'at')}` })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Free now' })).toHaveCount(0);
  await expect(page.locator('li button[data-key]').first()).toBeVisible();
});

test("one zone per screen: an account on another clock than the device's is said once, and every time is on it", async ({
  page,
  perch,
}, testInfo) => {
  // The administrator lives in London; the page (the device) keeps Berlin's clock.
  await perch.signIn('admin');
  const booked = await perch.core.handlers.book({
    resourceId: perch.org.resources.avon,
    start: perch.at('11:30'),
    durationMinutes: 30,
    title: 'Planning',
  });
  expect(booked.ok).toBe(true);
  await perch.open();
  await expect(page.getByRole('article')).toContainText('11:30–12:00');
  await expect(page.getByText(/London time/)).toHaveCount(1);
  await expect(page.getByText('Times in London time')).toBeVisible();
  await expectAccessible(page, testInfo, 'now-zone');
});
