import { DateTime } from 'luxon';
import { parseWireDateTime } from '../../electron/api/dates.js';
import { expect, expectAccessible, screenshot, test } from './support/perch.js';

test('checks in to a reservation whose check-in is open, checks out, and sees the end time cut', async ({ page, perch }, testInfo) => {
  // 10:31 now: the slot began at 10:30. Admins may book in the past, for someone else.
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
  const { referenceNumber } = created.value;

  await perch.signIn();
  await perch.open();
  const next = page.getByRole('article').filter({ hasText: 'Stand-up' });
  await expect(next.getByRole('button', { name: 'Check in to Stand-up' })).toBeVisible();
  await screenshot(page, testInfo, 'check-in-open');
  await next.getByRole('button', { name: 'Check in to Stand-up' }).click();
  await expect(next.getByRole('button', { name: 'Check out of Stand-up' })).toBeVisible();
  await expectAccessible(page, testInfo, 'now-checked-in');
  await screenshot(page, testInfo, 'checked-in');

  await next.getByRole('button', { name: 'Check out of Stand-up' }).click();
  // Checking out ends the booking at once: the card asks first.
  await next.getByRole('button', { name: 'Yes, check out of Stand-up' }).click();
  await expect(page.getByRole('button', { name: 'Check out of Stand-up' })).toHaveCount(0);
  const detail = await admin.getReservation({ params: { referenceNumber } });
  if (!detail.ok) throw new Error(detail.error.message);
  const end = parseWireDateTime(detail.value.endDate, 'UTC')!;
  // The end moved from 11:30 to the moment of checking out.
  expect(end.toMillis()).toBeLessThan(DateTime.fromISO(perch.at('11:30')).toMillis());
  expect(Math.abs(end.toMillis() - perch.clock.now().toMillis())).toBeLessThan(60_000);
  expect(detail.value.checkOutDate).not.toBeNull();
  await page.getByRole('tab', { name: 'My reservations' }).click();
  await expect(page.getByRole('listitem').filter({ hasText: 'Stand-up' })).toHaveCount(0);
  await screenshot(page, testInfo, 'checked-out');
});

test('lists a meeting the user is invited to as someone else’s booking, without the owner’s actions', async ({ page, perch }, testInfo) => {
  // Alex, the administrator, invites the user to a meeting in Thames this afternoon.
  const admin = await perch.clientFor('admin');
  const created = await admin.createReservation({
    body: {
      resourceId: perch.org.resources.thames,
      title: 'Quarterly review',
      startDateTime: perch.at('14:00'),
      endDateTime: perch.at('15:00'),
      invitees: [perch.org.users.user],
    },
  });
  if (!created.ok) throw new Error(created.error.message);

  await perch.signIn();
  await perch.open();
  await page.getByRole('tab', { name: 'My reservations' }).click();
  const row = page.getByRole('listitem').filter({ hasText: 'Quarterly review' });
  await expect(row).toContainText("Alex's booking · you are invited");
  // Check-in, changing and cancelling are the owner's; the details are anyone's to copy or keep.
  await expect(row.getByRole('button', { name: /^Check/ })).toHaveCount(0);
  await row.getByRole('button', { name: 'More actions for Quarterly review' }).click();
  await expect(page.getByRole('menuitem')).toHaveText(['Copy details', 'Add to calendar (.ics)']);
  await page.keyboard.press('Escape');
  await expectAccessible(page, testInfo, 'my-reservations-invited');
  await screenshot(page, testInfo, 'invited');
});

test('lists a series under each day it has a date on, with its rule in words, and cancels one of its dates', async ({
  page,
  perch,
}, testInfo) => {
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
  const wednesday = DateTime.fromISO(perch.at('12:00', 2)).setZone('Europe/Berlin').toFormat('ccc d LLL');
  const tuesday = DateTime.fromISO(perch.at('12:00', 1)).setZone('Europe/Berlin').toFormat('ccc d LLL');

  await perch.signIn();
  await perch.open();
  await page.getByRole('tab', { name: 'My reservations' }).click();
  const rows = page.locator('[role="tabpanel"] section > ul > li').filter({ hasText: 'Daily review' });
  // Today, Tomorrow and Wednesday each list their own date: no later date shows above another day.
  await expect(rows).toHaveCount(3);
  const headings = await rows.evaluateAll((items) => items.map((item) => item.closest('section')?.querySelector('h3')?.textContent));
  expect(headings).toEqual([
    'Today',
    'Tomorrow',
    DateTime.fromISO(perch.at('12:00', 2)).setZone('Europe/Berlin').setLocale('en-GB').toFormat('cccc d LLLL'),
  ]);
  for (const row of await rows.all()) await expect(row).toContainText(`Daily until ${wednesday}`);
  // No buttons for a booking that has not begun but the menu.
  await expect(rows.first().getByRole('button', { name: /^Check (in|out)/ })).toHaveCount(0);
  await expectAccessible(page, testInfo, 'my-reservations-series');
  await screenshot(page, testInfo, 'series');

  const tomorrow = rows.nth(1);
  await tomorrow.getByRole('button', { name: `More actions for Daily review on ${tuesday}` }).click();
  await page.getByRole('menuitem', { name: 'Cancel this occurrence' }).click();
  await tomorrow
    .getByRole('group', { name: 'Confirm cancellation' })
    .getByRole('button', { name: /^Yes, cancel/ })
    .click();
  await expect(rows).toHaveCount(2);
  const starts = perch.core
    .snapshot()
    .reservations.filter((reservation) => reservation.title === 'Daily review')
    .map((reservation) => DateTime.fromISO(reservation.start).setZone('Europe/London').toFormat('ccc HH:mm'));
  expect(starts).toEqual(['Mon 14:00', 'Wed 14:00']);
  await expectAccessible(page, testInfo, 'my-reservations-series-expanded');
  await screenshot(page, testInfo, 'series-after-cancel');
});

test('offers no change the server would refuse: nothing on a booking under way for a normal user, Cancel on a later one', async ({
  page,
  perch,
}, testInfo) => {
  // 10:31 now. The admin books the slot in progress for the user; the user books later ones.
  const admin = await perch.clientFor('admin');
  const underWay = await admin.createReservation({
    body: {
      resourceId: perch.org.resources.phoneBooth,
      userId: perch.org.users.user,
      title: 'Call with the bank',
      startDateTime: perch.at('10:30'),
      endDateTime: perch.at('11:00'),
    },
  });
  if (!underWay.ok) throw new Error(underWay.error.message);
  const user = await perch.clientFor('user');
  const later = await user.createReservation({
    body: { resourceId: perch.org.resources.thames, title: 'Planning', startDateTime: perch.at('15:00'), endDateTime: perch.at('15:30') },
  });
  if (!later.ok) throw new Error(later.error.message);

  const hides: number[] = [];
  perch.core.on('hidePopover', () => hides.push(Date.now()));
  await perch.signIn();
  await perch.open();
  await page.getByRole('tab', { name: 'My reservations' }).click();
  const call = page.getByRole('listitem').filter({ hasText: 'Call with the bank' });
  const planning = page.getByRole('listitem').filter({ hasText: 'Planning' });
  await expect(call).toContainText(/ends in (28|29) min/);
  await expect(planning).toContainText(/in 4 h\b/);
  // The local service, like a stock server, keeps a started reservation as it is for a normal user:
  // neither extending nor cancelling it is offered.
  await call.getByRole('button', { name: 'More actions for Call with the bank' }).click();
  await expect(page.getByRole('menuitem')).toHaveText(['Copy details', 'Add to calendar (.ics)']);
  await page.keyboard.press('Escape');

  await planning.getByRole('button', { name: 'More actions for Planning' }).click();
  await expect(page.getByRole('menu')).toBeVisible();
  // What a user expects, what cannot be undone last; the service on this computer has no website.
  await expect(page.getByRole('menuitem')).toHaveText([
    'Change time…',
    'Change room or desk…',
    'Rename…',
    'Copy details',
    'Add to calendar (.ics)',
    'Cancel booking',
  ]);
  await expect(page.getByRole('menuitem', { name: 'Change time…' })).toBeFocused();
  await expectAccessible(page, testInfo, 'my-reservations-menu');
  await screenshot(page, testInfo, 'menu-later');
  // Escape closes the menu and hands focus back to its button; the popover stays.
  await page.keyboard.press('Escape');
  await expect(page.getByRole('menu')).toHaveCount(0);
  await expect(planning.getByRole('button', { name: 'More actions for Planning' })).toBeFocused();
  // So does Escape on a question the menu asked.
  await page.keyboard.press('Enter');
  await page.getByRole('menuitem', { name: 'Cancel booking' }).click();
  await expect(planning.getByRole('group', { name: 'Confirm cancellation' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(planning.getByRole('group', { name: 'Confirm cancellation' })).toHaveCount(0);
  expect(hides).toEqual([]);
});
