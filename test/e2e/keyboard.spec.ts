import { expect, test } from './support/perch.js';

test('Escape hides the popover, unless a control uses it first: the filter clears before it closes', async ({ page, perch }) => {
  const hides: number[] = [];
  perch.core.on('hidePopover', () => hides.push(Date.now()));
  await perch.signIn();
  await perch.open();
  const filter = page.getByRole('searchbox', { name: 'Filter free resources' });
  await expect(filter).toBeFocused();
  await page.keyboard.type('sev');
  await page.keyboard.press('Escape');
  await expect(filter).toHaveValue('');
  expect(hides).toHaveLength(0);
  await page.keyboard.press('Escape');
  await expect.poll(() => hides.length).toBe(1);
});

test('the filter has focus when the popover opens, and typing filters Free now at once', async ({ page, perch }) => {
  await perch.signIn();
  await perch.open();
  await expect(page.getByRole('searchbox', { name: 'Filter free resources' })).toBeFocused();
  await expect(page.getByText('Severn (1.02)')).toBeVisible();
  await page.keyboard.type('tham');
  await expect(page.getByText('Thames (1.01)')).toBeVisible();
  await expect(page.getByText('Severn (1.02)')).toHaveCount(0);
});

test('Ctrl+1–4 switch views; Now lands in its field, ready to type a booking, the others on their tab', async ({ page, perch }) => {
  await perch.signIn();
  await perch.open();
  for (const [key, tab] of [
    ['2', 'Book'],
    ['3', 'My reservations'],
    ['4', 'Settings'],
    ['1', 'Now'],
  ] as const) {
    await page.keyboard.press(`Control+${key}`);
    const selected = page.getByRole('tab', { name: tab });
    await expect(selected).toHaveAttribute('aria-selected', 'true');
    if (tab === 'Now') await expect(page.getByRole('searchbox', { name: /Filter free resources/ })).toBeFocused();
    else await expect(selected).toBeFocused();
  }
});

test('a new shortcut to open Perch is recorded by pressing it, and applies at once', async ({ page, perch }) => {
  await perch.signIn();
  await perch.open();
  await page.keyboard.press('Control+4');
  const box = page.getByLabel('Open Perch from any app with');
  await expect(box).toHaveValue('Ctrl+Alt+P');
  await box.click();
  await page.keyboard.press('Control+Shift+K');
  await expect(box).toHaveValue('Ctrl+Shift+K');
  await expect(page.getByText('Saved', { exact: true })).toBeVisible();
  await expect.poll(async () => (await perch.core.handlers.getSettings()).globalShortcut).toBe('CommandOrControl+Shift+K');
  await expect(box).toHaveValue('Ctrl+Shift+K');
  await expect(page.getByRole('button', { name: 'Save' })).toHaveCount(0);

  await page.getByRole('button', { name: 'Remove' }).click();
  await expect(box).toHaveValue('');
  await expect.poll(async () => (await perch.core.handlers.getSettings()).globalShortcut).toBe('');
});

test('settings apply as they change, the theme at once; switching tabs loses nothing; a value out of range keeps the last good one', async ({
  page,
  perch,
}) => {
  await perch.signIn();
  await perch.open();
  await page.keyboard.press('Control+4');
  const legends = page.locator('form legend');
  await expect(legends).toHaveText(['Notifications', 'Appearance', 'Startup', 'Advanced']);

  await page.getByLabel('Dark').check();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await expect.poll(async () => (await perch.core.handlers.getSettings()).theme).toBe('dark');

  // Typed, then straight to another view by keyboard: the reminder is kept.
  const reminder = page.getByLabel('Remind me before a reservation starts');
  await reminder.fill('20');
  await page.keyboard.press('Control+1');
  await expect(page.getByRole('tab', { name: 'Now' })).toHaveAttribute('aria-selected', 'true');
  await expect.poll(async () => (await perch.core.handlers.getSettings()).startReminderMinutes).toBe(20);
  await page.keyboard.press('Control+4');
  await expect(reminder).toHaveValue('20');
  await expect(page.getByLabel('Dark')).toBeChecked();

  const poll = page.getByLabel('Near your bookings, check every');
  await poll.fill('5');
  await poll.press('Enter');
  const problem = page.getByText('Not applied: must be a whole number from 15 to 3600.');
  await expect(problem).toBeVisible();
  await expect(poll).toHaveValue('60');
  await expect(poll).toHaveAttribute('aria-invalid', 'true');
  expect((await perch.core.handlers.getSettings()).pollIntervalSeconds).toBe(60);
  // Beside its field: just under it, not at the foot of the form.
  const [fieldBox, problemBox] = [await poll.boundingBox(), await problem.boundingBox()];
  expect(problemBox!.y - (fieldBox!.y + fieldBox!.height)).toBeLessThan(20);

  await page.getByLabel('A reservation was released').uncheck();
  await expect(problem).toHaveCount(0);
  await expect.poll(async () => (await perch.core.handlers.getSettings()).notifications.released).toBe(false);
});

test('My reservations is one Tab stop, with the arrow keys between and within its rows', async ({ page, perch }) => {
  await perch.signIn();
  for (const [resource, time] of [
    ['thames', '14:00'],
    ['avon', '15:00'],
    ['severn', '16:00'],
  ] as const) {
    const booked = await perch.core.handlers.book({
      resourceId: perch.org.resources[resource],
      start: perch.at(time),
      durationMinutes: 30,
      title: `Review ${time}`,
    });
    expect(booked.ok).toBe(true);
  }
  await perch.open();
  await page.keyboard.press('Control+3');
  const rows = page.locator('[data-reference]');
  await expect(rows).toHaveCount(3);
  // Where focus is: the row it is in (its reference), or nothing when it is outside the list.
  const focusedRow = () =>
    page.evaluate<string | null>('document.activeElement?.closest("[data-reference]")?.getAttribute("data-reference") ?? null');
  const references = await rows.evaluateAll((elements) => elements.map((element) => element.getAttribute('data-reference')));

  // From the tab bar, one Tab reaches the list, and the next one leaves it.
  await page.getByRole('tab', { name: 'My reservations' }).focus();
  await page.keyboard.press('Tab');
  expect(await focusedRow()).toBe(references[0]);
  await page.keyboard.press('Tab');
  expect(await focusedRow()).toBeNull();
  await page.keyboard.press('Shift+Tab');
  expect(await focusedRow()).toBe(references[0]);

  await page.keyboard.press('ArrowDown');
  expect(await focusedRow()).toBe(references[1]);
  await page.keyboard.press('End');
  expect(await focusedRow()).toBe(references[2]);
  await page.keyboard.press('Home');
  expect(await focusedRow()).toBe(references[0]);
  // The list remembers where the user was: leaving and coming back lands there.
  await page.keyboard.press('ArrowDown');
  await page.getByRole('tab', { name: 'My reservations' }).focus();
  await page.keyboard.press('Tab');
  expect(await focusedRow()).toBe(references[1]);
});
