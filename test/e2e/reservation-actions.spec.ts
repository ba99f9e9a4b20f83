/**
 * My reservations' menu against the local service: the changes a user expects (rename, another
 * time, another room), done in place and held by the server; the details copied and saved for a
 * calendar; a booking's details on a click; the server's website for an organisation's server.
 */
import { readFileSync } from 'node:fs';
import { DateTime } from 'luxon';
import { demoPassword } from '../../electron/service/seed/demo.js';
import { expect, expectAccessible, screenshot, test, type PerchWorld } from './support/perch.js';

/** The user's zone (the demo user lives in Berlin): the forms and the list write times in it. */
const userZone = 'Europe/Berlin';
const clockOf = (wire: string) => DateTime.fromISO(wire).setZone(userZone).toFormat('HH:mm');

/** The user's own booking of Thames this afternoon, made through the API. */
async function planning(perch: PerchWorld): Promise<string> {
  const user = await perch.clientFor('user');
  const created = await user.createReservation({
    body: {
      resourceId: perch.org.resources.thames,
      title: 'Planning',
      description: 'Bring the Q3 numbers',
      startDateTime: perch.at('15:00'),
      endDateTime: perch.at('15:30'),
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

test('renames a booking, moves it to another time and another room, each in place, and the server holds each change', async ({
  page,
  perch,
}, testInfo) => {
  const referenceNumber = await planning(perch);
  await perch.signIn();
  await perch.open();
  await page.getByRole('tab', { name: 'My reservations' }).click();
  const row = (title: string) => page.getByRole('listitem').filter({ hasText: title });

  await row('Planning').getByRole('button', { name: 'More actions for Planning' }).click();
  await page.getByRole('menuitem', { name: 'Rename…' }).click();
  const rename = row('Planning').getByRole('form', { name: 'Rename Planning' });
  await expect(rename.getByRole('textbox', { name: 'Title' })).toBeFocused();
  await rename.getByRole('textbox', { name: 'Title' }).fill('Roadmap');
  await page.keyboard.press('Enter');
  await expect(row('Roadmap').getByRole('form')).toHaveCount(0);
  expect((await onServer(perch, referenceNumber)).title).toBe('Roadmap');

  await row('Roadmap').getByRole('button', { name: 'More actions for Roadmap' }).click();
  await page.getByRole('menuitem', { name: 'Change time…' }).click();
  const time = row('Roadmap').getByRole('form', { name: 'Change the time of Roadmap' });
  const chosen = (label: string) => time.getByLabel(label).locator('option:checked');
  // The day as the Book form writes it, in the region's format (never Chromium's 11/30/2026).
  const bookedDay = DateTime.fromISO(perch.at('15:00')).setZone(userZone);
  await expect(chosen('Day')).toHaveText(new RegExp(`^${bookedDay.setLocale('en').toFormat('ccc')}\\b.*\\b${bookedDay.day}\\b`));
  await expect(chosen('Day')).not.toHaveText(/\//);
  // The day's free times, in the user's clock, starting from its own.
  await expect(chosen('From')).toHaveText(clockOf(perch.at('15:00')));
  await expect(chosen('To')).toHaveText(clockOf(perch.at('15:30')));
  await time.getByLabel('From').selectOption({ label: clockOf(perch.at('16:00')) });
  await expect(chosen('To')).toHaveText(clockOf(perch.at('16:30')));
  await time.getByLabel('To').selectOption({ label: clockOf(perch.at('17:00')) });
  // Someone takes 16:30 meanwhile: the server's refusal is said beside Save, in words, and the form stays.
  const admin = await perch.clientFor('admin');
  const taken = await admin.createReservation({
    body: { resourceId: perch.org.resources.thames, title: 'Taken', startDateTime: perch.at('16:30'), endDateTime: perch.at('17:00') },
  });
  if (!taken.ok) throw new Error(taken.error.message);
  await time.getByRole('button', { name: 'Save' }).click();
  await expect(time.getByRole('alert')).toHaveText('Thames (1.01) is already booked at that time.');
  await expectAccessible(page, testInfo, 'change-time-refused');
  await screenshot(page, testInfo, 'change-time-refused');
  await time.getByLabel('To').selectOption({ label: clockOf(perch.at('16:30')) });
  await time.getByRole('button', { name: 'Save' }).click();
  // The list is on the user's clock, as the whole popover is (said once at the top).
  await expect(row('Roadmap')).toContainText(`${clockOf(perch.at('16:00'))}–${clockOf(perch.at('16:30'))}`);
  await expect(row('Roadmap')).not.toContainText('London time');
  const moved = await onServer(perch, referenceNumber);
  expect(DateTime.fromISO(moved.startDate).toMillis()).toBe(DateTime.fromISO(perch.at('16:00')).toMillis());
  expect(DateTime.fromISO(moved.endDate).toMillis()).toBe(DateTime.fromISO(perch.at('16:30')).toMillis());

  await row('Roadmap').getByRole('button', { name: 'More actions for Roadmap' }).click();
  await page.getByRole('menuitem', { name: 'Change room or desk…' }).click();
  const room = row('Roadmap').getByRole('form', { name: 'Move Roadmap to another room or desk' });
  await room.getByLabel('Room or desk').selectOption({ label: 'Severn (1.02)' });
  await screenshot(page, testInfo, 'change-room');
  await room.getByRole('button', { name: 'Save' }).click();
  await expect(row('Roadmap')).toContainText('Severn (1.02)');
  const elsewhere = await onServer(perch, referenceNumber);
  expect(elsewhere.resourceId).toBe(perch.org.resources.severn);
  expect(DateTime.fromISO(elsewhere.startDate).toMillis()).toBe(DateTime.fromISO(perch.at('16:00')).toMillis());
  // Focus stays in the row it worked on.
  await expect(row('Roadmap').getByRole('button', { name: 'More actions for Roadmap' })).toBeFocused();
});

test('copies the details in words, saves them as a calendar file, and shows them on a click of the title', async ({
  page,
  perch,
}, testInfo) => {
  const referenceNumber = await planning(perch);
  const copied: string[] = [];
  perch.core.on('copyText', (text) => copied.push(text));
  await perch.signIn();
  await perch.open();
  await page.getByRole('tab', { name: 'My reservations' }).click();
  const row = page.getByRole('listitem').filter({ hasText: 'Planning' });
  const day = DateTime.fromISO(perch.at('15:00')).setZone(userZone).setLocale('en-GB').toFormat('cccc d LLLL');

  await row.getByRole('button', { name: 'More actions for Planning' }).click();
  await page.getByRole('menuitem', { name: 'Copy details' }).click();
  await expect(row.getByRole('status')).toHaveText('Details copied.');
  expect(copied).toEqual([
    `Planning\nThames (1.01)\n${day}, ${clockOf(perch.at('15:00'))}–${clockOf(perch.at('15:30'))} Berlin time\nBring the Q3 numbers`,
  ]);

  await row.getByRole('button', { name: 'More actions for Planning' }).click();
  const download = page.waitForEvent('download');
  await page.getByRole('menuitem', { name: 'Add to calendar (.ics)' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe('Planning.ics');
  const text = readFileSync((await file.path())!, 'utf8');
  expect(text.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
  const utc = (wire: string) => DateTime.fromISO(wire).toUTC().toFormat("yyyyLLdd'T'HHmmss'Z'");
  expect(text.split('\r\n')).toEqual([
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Perch//Perch//EN',
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    'BEGIN:VEVENT',
    `UID:${referenceNumber}@perch`,
    expect.stringMatching(/^DTSTAMP:\d{8}T\d{6}Z$/),
    `DTSTART:${utc(perch.at('15:00'))}`,
    `DTEND:${utc(perch.at('15:30'))}`,
    'SUMMARY:Planning',
    'LOCATION:Thames (1.01)',
    'DESCRIPTION:Bring the Q3 numbers',
    'STATUS:CONFIRMED',
    'END:VEVENT',
    'END:VCALENDAR',
    '',
  ]);

  await row.getByRole('button', { name: 'Planning', exact: true }).click();
  const details = row.getByRole('definition');
  await expect(details.filter({ hasText: 'Bring the Q3 numbers' })).toHaveCount(1);
  await expect(row.getByRole('term')).toHaveText(['When', 'There', 'Where', 'Status', 'Check-in', 'Booked by', 'Description', 'Reference']);
  await expect(details.first()).toHaveText(`${day}, ${clockOf(perch.at('15:00'))}–${clockOf(perch.at('15:30'))} Berlin time`);
  await expect(details.nth(1)).toHaveText('15:00–15:30 London time');
  await expect(details.last()).toHaveText(referenceNumber);
  await screenshot(page, testInfo, 'details');
});

for (const theme of ['light', 'dark'] as const) {
  test(`My reservations, its menu and a booking's details are accessible in the ${theme} theme`, async ({ page, perch }, testInfo) => {
    await planning(perch);
    await perch.signIn();
    await perch.core.handlers.setSettings({ theme });
    await perch.open();
    await page.getByRole('tab', { name: 'My reservations' }).click();
    const row = page.getByRole('listitem').filter({ hasText: 'Planning' });
    await expectAccessible(page, testInfo, `my-reservations-${theme}`);
    await row.getByRole('button', { name: 'More actions for Planning' }).click();
    await expectAccessible(page, testInfo, `my-reservations-menu-${theme}`);
    await page.keyboard.press('Escape');
    await row.getByRole('button', { name: 'Planning', exact: true }).click();
    await expect(row.getByRole('definition').filter({ hasText: 'Bring the Q3 numbers' })).toHaveCount(1);
    await expectAccessible(page, testInfo, `details-${theme}`);
    await row.getByRole('button', { name: 'More actions for Planning' }).click();
    await page.getByRole('menuitem', { name: 'Change time…' }).click();
    await expectAccessible(page, testInfo, `change-time-${theme}`);
    await screenshot(page, testInfo, `details-${theme}`);
  });
}

test("opens a booking on an organisation's server's website: LibreBooking's reservation page, through the core", async ({
  page,
  perch,
}) => {
  const referenceNumber = await planning(perch);
  const opened: string[] = [];
  perch.core.on('openExternal', (url) => opened.push(url));
  const signedIn = await perch.core.handlers.signIn({
    server: { kind: 'remote', url: perch.apiRoot },
    username: 'user',
    password: demoPassword,
    staySignedIn: false,
  });
  expect(signedIn.ok).toBe(true);
  await perch.core.idle();
  await perch.open();
  await page.getByRole('tab', { name: 'My reservations' }).click();
  const row = page.getByRole('listitem').filter({ hasText: 'Planning' });
  await row.getByRole('button', { name: 'More actions for Planning' }).click();
  await expect(page.getByRole('menuitem')).toHaveText([
    'Change time…',
    'Change room or desk…',
    'Rename…',
    'Copy details',
    'Add to calendar (.ics)',
    "Open on the server's website",
    'Cancel booking',
  ]);
  await page.getByRole('menuitem', { name: "Open on the server's website" }).click();
  await expect.poll(() => opened).toEqual([`${new URL(perch.apiRoot).origin}/Web/reservation.php?rn=${referenceNumber}`]);
});
