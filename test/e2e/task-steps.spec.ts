import type { Locator, Page } from '@playwright/test';
import { DateTime } from 'luxon';
import { parseWireDateTime } from '../../electron/api/dates.js';
import { expect, officeZone, test, type PerchWorld } from './support/perch.js';

/**
 * What each everyday task costs in clicks and keys, done as a user does it at the popover's size
 * (380×560) against a real core and the local service. The table below is what the README shows;
 * each test measures its task and fails when the measure and the table part, so the two cannot drift.
 * The world starts on a Monday at 10:31 in London; the demo user's clock is Berlin's.
 */

interface TaskCost {
  clicks: number;
  keys: number;
  /** The way taken, in the words of the README's table. */
  how: string;
}

const typedDesk = 'desk tomorrow 14:00-15:30';

const taskSteps = {
  'First run': { clicks: 1, keys: 0, how: '“Try it on this computer” on the first-run screen: signed in to the service on this computer' },
  'A free room for 4 now': {
    clicks: 1,
    keys: 0,
    how: 'the time button of the first room for 4 or more in Free now (each line shows its size)',
  },
  'A desk tomorrow 14:00–15:30': {
    clicks: 0,
    keys: typedDesk.length + 1,
    how: `“${typedDesk}” typed in the field focused on open, then Enter`,
  },
  'Check in': { clicks: 1, keys: 0, how: 'Check in on the Next card' },
  Extend: {
    clicks: 1,
    keys: 0,
    how: 'Extend on the Next card, as an administrator: the local service, like a stock LibreBooking, lets only administrators change a booking under way, and Perch offers it to no one else',
  },
  'Check out': { clicks: 2, keys: 0, how: 'Check out on the Next card, then “Yes, check out”' },
  'Cancel one date of a series': {
    clicks: 4,
    keys: 0,
    how: 'My reservations, ⋯ on that date, “Cancel this occurrence”, then “Yes, cancel”',
  },
  'Change a setting': { clicks: 2, keys: 0, how: 'Settings, then the Dark theme: applied at once, no Save' },
  'Offline and back': {
    clicks: 1,
    keys: 0,
    how: 'nothing while offline (Perch tries again by itself); once back, one click books from Free now',
  },
} satisfies Record<string, TaskCost>;

type Task = keyof typeof taskSteps;

/** Each step a user takes, counted: a click, a key (a chord is one), or a line typed (a key per character). */
interface Steps {
  clicks: number;
  keys: number;
  click(target: Locator): Promise<void>;
  press(key: string): Promise<void>;
  type(text: string): Promise<void>;
}

function countedSteps(page: Page): Steps {
  return {
    clicks: 0,
    keys: 0,
    async click(target) {
      // What the user clicks is in view: a scroll would be a step the count does not see.
      await expect(target).toBeInViewport();
      await target.click();
      this.clicks += 1;
    },
    async press(key) {
      await page.keyboard.press(key);
      this.keys += 1;
    },
    async type(text) {
      await page.keyboard.type(text);
      this.keys += text.length;
    },
  };
}

const measured = new Map<Task, { clicks: number; keys: number }>();

function expectCost(task: Task, steps: Steps): void {
  measured.set(task, { clicks: steps.clicks, keys: steps.keys });
  expect({ clicks: steps.clicks, keys: steps.keys }, `${task}: the table says ${JSON.stringify(taskSteps[task])}`).toEqual({
    clicks: taskSteps[task].clicks,
    keys: taskSteps[task].keys,
  });
}

test.afterAll(() => {
  // For the README: what was measured, in the table's order.
  const rows = (Object.keys(taskSteps) as Task[]).map((task) => {
    const cost = measured.get(task);
    return `| ${task} | ${cost?.clicks ?? 'not measured'} | ${cost?.keys ?? 'not measured'} | ${taskSteps[task].how} |`;
  });
  console.log(['| Task | Clicks | Keys | How |', '| --- | ---: | ---: | --- |', ...rows].join('\n'));
});

const userZone = (perch: PerchWorld) => perch.core.snapshot().account?.timezone ?? officeZone;
const instant = (wire: string) => DateTime.fromISO(wire).toMillis();

/** The user's booking of Avon that began at 10:30, check-in open (administrators may book a time begun, for someone else). */
async function standUp(perch: PerchWorld): Promise<string> {
  const admin = await perch.clientFor('admin');
  const created = await admin.createReservation({
    body: {
      resourceId: perch.org.resources.avon,
      userId: perch.org.users.user,
      title: 'Stand-up',
      startDateTime: perch.at('10:30'),
      endDateTime: perch.at('11:30'),
    },
  });
  if (!created.ok) throw new Error(created.error.message);
  return created.value.referenceNumber;
}

async function onServer(perch: PerchWorld, referenceNumber: string) {
  const admin = await perch.clientFor('admin');
  const detail = await admin.getReservation({ params: { referenceNumber } });
  if (!detail.ok) throw new Error(detail.error.message);
  return detail.value;
}

test('First run', async ({ page, perch }) => {
  await perch.open();
  const steps = countedSteps(page);
  await steps.click(page.getByRole('button', { name: 'Try it on this computer' }));
  await expect(page.getByRole('tab', { name: 'Now' })).toHaveAttribute('aria-selected', 'true');
  expect(perch.core.snapshot().account).toMatchObject({ server: { kind: 'local' }, userName: 'ada.lovelace' });
  expectCost('First run', steps);
});

test('A free room for 4 now', async ({ page, perch }) => {
  await perch.signIn();
  await perch.open();
  const rows = page.locator('li:has(button[data-key])');
  await expect(rows.first()).toBeVisible();
  // The user reads the sizes on the lines; the first that holds four is the one to click.
  const sizes = await rows.evaluateAll((items) =>
    items.map((item) => Number(item.querySelector('.size')?.textContent?.match(/\d+/)?.[0] ?? 0)),
  );
  const forFour = sizes.findIndex((size) => size >= 4);
  expect(forFour).toBeGreaterThanOrEqual(0);
  const name = (await rows.nth(forFour).locator('.name').textContent())!.trim();
  expect(perch.core.snapshot().freeNow.find((resource) => resource.name === name)?.capacity).toBeGreaterThanOrEqual(4);

  const steps = countedSteps(page);
  await steps.click(rows.nth(forFour).locator('button[data-key]'));
  await expect(page.locator('li.booked-row')).toContainText(`Booked ${name}`);
  const booked = perch.core.snapshot().reservations;
  expect(booked.map((reservation) => reservation.resourceName)).toEqual([name]);
  // Now: from the next half hour at the latest.
  expect(instant(booked[0]!.start) - perch.clock.now().toMillis()).toBeLessThanOrEqual(30 * 60_000);
  expectCost('A free room for 4 now', steps);
});

test('A desk tomorrow 14:00–15:30', async ({ page, perch }) => {
  await perch.signIn();
  await perch.open();
  await expect(page.getByRole('searchbox', { name: /Filter free resources, or type a booking/ })).toBeFocused();
  const steps = countedSteps(page);
  await steps.type(typedDesk);
  await expect(page.locator('#free-line')).toContainText(/desk \w+, tomorrow 14:00\s?–\s?15:30/);
  await steps.press('Enter');
  await expect(page.locator('#free-line')).toContainText(/^Booked /);
  const booked = perch.core.snapshot().reservations;
  expect(booked).toHaveLength(1);
  expect(booked[0]!.resourceName).toMatch(/ desk /i);
  const [start, end] = [booked[0]!.start, booked[0]!.end].map((wire) => DateTime.fromISO(wire).setZone(userZone(perch)));
  const tomorrow = perch.clock.now().setZone(userZone(perch)).plus({ days: 1 }).toISODate();
  expect([start!.toISODate(), start!.toFormat('HH:mm'), end!.toFormat('HH:mm')]).toEqual([tomorrow, '14:00', '15:30']);
  expectCost('A desk tomorrow 14:00–15:30', steps);
});

test('Check in', async ({ page, perch }) => {
  const referenceNumber = await standUp(perch);
  await perch.signIn();
  await perch.open();
  const steps = countedSteps(page);
  const next = page.getByRole('article').filter({ hasText: 'Stand-up' });
  await steps.click(next.getByRole('button', { name: 'Check in to Stand-up' }));
  await expect(next.getByRole('button', { name: 'Check out of Stand-up' })).toBeVisible();
  expect((await onServer(perch, referenceNumber)).checkInDate).not.toBeNull();
  expectCost('Check in', steps);
});

test('Extend', async ({ page, perch }) => {
  // The administrator's own booking, under way since 10:30 and checked in, runs to 11:00.
  const admin = await perch.clientFor('admin');
  const created = await admin.createReservation({
    body: { resourceId: perch.org.resources.thames, title: 'Planning', startDateTime: perch.at('10:30'), endDateTime: perch.at('11:00') },
  });
  if (!created.ok) throw new Error(created.error.message);
  const { referenceNumber } = created.value;
  await perch.signIn('admin');
  expect((await perch.core.handlers.checkIn({ referenceNumber })).ok).toBe(true);
  await perch.open();
  const steps = countedSteps(page);
  const next = page.getByRole('article').filter({ hasText: 'Planning' });
  await steps.click(next.getByRole('button', { name: /^Extend to/ }));
  await expect(next.getByText('Ends in 59 min')).toBeVisible();
  const end = parseWireDateTime((await onServer(perch, referenceNumber)).endDate, 'UTC')!;
  expect(end.toMillis()).toBe(instant(perch.at('11:30')));
  expectCost('Extend', steps);
});

test('Check out', async ({ page, perch }) => {
  const referenceNumber = await standUp(perch);
  await perch.signIn();
  expect((await perch.core.handlers.checkIn({ referenceNumber })).ok).toBe(true);
  await perch.open();
  const steps = countedSteps(page);
  const next = page.getByRole('article').filter({ hasText: 'Stand-up' });
  await steps.click(next.getByRole('button', { name: 'Check out of Stand-up' }));
  await steps.click(next.getByRole('button', { name: 'Yes, check out of Stand-up' }));
  await expect(page.getByRole('article').filter({ hasText: 'Stand-up' })).toHaveCount(0);
  expect((await onServer(perch, referenceNumber)).checkOutDate).not.toBeNull();
  expectCost('Check out', steps);
});

test('Cancel one date of a series', async ({ page, perch }) => {
  const user = await perch.clientFor('user');
  const created = await user.createReservation({
    body: {
      resourceId: perch.org.resources.severn,
      title: 'Daily review',
      startDateTime: perch.at('14:00'),
      endDateTime: perch.at('14:30'),
      recurrenceRule: { type: 'daily', interval: 1, repeatTerminationDate: perch.at('20:00', 2) },
    },
  });
  if (!created.ok) throw new Error(created.error.message);
  const tomorrow = DateTime.fromISO(perch.at('12:00', 1)).setZone('Europe/Berlin').toFormat('ccc d LLL');
  await perch.signIn();
  await perch.open();
  const steps = countedSteps(page);
  await steps.click(page.getByRole('tab', { name: 'My reservations' }));
  // Tomorrow's date of the three (its row loses the ⋯ button to the question, so not found by it).
  const row = page.locator('[role="tabpanel"] section > ul > li').filter({ hasText: 'Daily review' }).nth(1);
  await steps.click(row.getByRole('button', { name: `More actions for Daily review on ${tomorrow}` }));
  await steps.click(page.getByRole('menuitem', { name: 'Cancel this occurrence' }));
  await steps.click(row.getByRole('group', { name: 'Confirm cancellation' }).getByRole('button', { name: /^Yes, cancel/ }));
  await expect(page.getByRole('button', { name: /^More actions for Daily review/ })).toHaveCount(2);
  const starts = perch.core
    .snapshot()
    .reservations.map((reservation) => DateTime.fromISO(reservation.start).setZone(officeZone).toFormat('ccc HH:mm'));
  expect(starts).toEqual(['Mon 14:00', 'Wed 14:00']);
  expectCost('Cancel one date of a series', steps);
});

test('Change a setting', async ({ page, perch }) => {
  await perch.signIn();
  await perch.open();
  const steps = countedSteps(page);
  await steps.click(page.getByRole('tab', { name: 'Settings' }));
  await steps.click(page.getByLabel('Dark'));
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await expect.poll(async () => (await perch.core.handlers.getSettings()).theme).toBe('dark');
  expectCost('Change a setting', steps);
});

test('Offline and back', async ({ page, perch }) => {
  await perch.signIn();
  await perch.open();
  const firstAction = page.locator('li button[data-key]').first();
  await expect(firstAction).toBeVisible();
  const steps = countedSteps(page);
  await perch.stopService();
  // The core's next poll finds the service gone.
  await perch.core.handlers.refresh();
  await expect(page.getByText(/^Offline/).first()).toBeVisible();
  await expect(firstAction).toHaveAttribute('aria-disabled', 'true');
  await perch.restartService();
  // Stands for the core's own next try (its backoff), which the user does not wait on by hand.
  await perch.core.handlers.refresh();
  await expect(page.getByText(/^Offline/)).toHaveCount(0);
  await steps.click(firstAction);
  await expect(page.locator('li.booked-row')).toContainText('Booked ');
  expect(perch.core.snapshot().reservations).toHaveLength(1);
  expectCost('Offline and back', steps);
});
