import { DateTime } from 'luxon';
import { parseWireDateTime } from '../../electron/api/dates.js';
import { expect, expectAccessible, officeZone, screenshot, test, type PerchWorld } from './support/perch.js';

// 10:31 in London, the head office's zone. The demo user lives in Berlin, an hour ahead: the card,
// as the whole screen, gives times on the user's clock.

/** A London wall-clock time of today on the user's clock. */
const userClock = (perch: PerchWorld, time: string) =>
  DateTime.fromISO(perch.at(time))
    .setZone(perch.core.snapshot().account?.timezone ?? officeZone)
    .toFormat('HH:mm');

test("before check-in opens, the Next card says by when to check in, and keeps I'm not coming aside, which asks and gives the room back", async ({
  page,
  perch,
}, testInfo) => {
  const user = await perch.clientFor('user');
  const created = await user.createReservation({
    body: {
      resourceId: perch.org.resources.avon,
      title: 'Design review',
      startDateTime: perch.at('11:00'),
      endDateTime: perch.at('11:30'),
    },
  });
  if (!created.ok) throw new Error(created.error.message);

  await perch.signIn();
  await perch.open();
  const next = page.getByRole('article').filter({ hasText: 'Design review' });
  // On the user's clock (Berlin), as every time on the screen: one line for both deadlines.
  await expect(next.getByRole('list', { name: 'Deadlines' }).getByRole('listitem')).toHaveText([
    new RegExp(`^Check in ${userClock(perch, '10:55')}\\s?–\\s?${userClock(perch, '11:15')}, or it is released$`),
  ]);
  await expect(next.getByText('Starts in 29 min')).toBeVisible();
  await expect(next.getByRole('button', { name: /Check in/ })).toHaveCount(0);
  // Giving it back is there, but not as the card's action.
  const notComing = next.getByRole('button', { name: "I'm not coming to Design review" });
  await expect(notComing).toBeVisible();
  await expect(notComing).not.toHaveClass(/primary/);
  await expectAccessible(page, testInfo, 'next-before-check-in');
  await screenshot(page, testInfo, 'next-before-check-in');

  await notComing.click();
  const confirm = next.getByRole('group', { name: 'Confirm giving the booking back' });
  await expect(confirm).toContainText('Cancel it and free Avon (2.01)?');
  await confirm.getByRole('button', { name: 'Yes, free it: give Design review back' }).click();
  await expect(page.getByRole('article').filter({ hasText: 'Design review' })).toHaveCount(0);
  expect(await user.getReservation({ params: { referenceNumber: created.value.referenceNumber } })).toMatchObject({
    ok: false,
    error: { kind: 'notFound' },
  });
});

test('with check-in open, Check in is the action; checked in, Check out asks before it ends the booking', async ({
  page,
  perch,
}, testInfo) => {
  // Admins may book in the past, for someone else: a booking that began at 10:30, check-in open.
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
  await expect(next.getByRole('listitem')).toHaveText([`Released at ${userClock(perch, '10:45')} unless you check in`]);
  const checkIn = next.getByRole('button', { name: 'Check in to Stand-up' });
  await expect(checkIn).toHaveClass(/primary/);
  await expectAccessible(page, testInfo, 'next-check-in-open');
  await screenshot(page, testInfo, 'next-check-in-open');
  await checkIn.click();

  // The local service, like a stock LibreBooking, lets only administrators change a booking under
  // way: nothing to extend, so Check out is the action, and it asks first.
  const checkOut = next.getByRole('button', { name: 'Check out of Stand-up' });
  await expect(checkOut).toHaveClass(/primary/);
  await expect(next.getByRole('list', { name: 'Deadlines' })).toHaveCount(0);
  await expect(next.getByRole('button', { name: /^Extend/ })).toHaveCount(0);
  // My reservations agrees: its row offers Check out, and behind ⋯ no Extend nor any other change.
  await page.getByRole('tab', { name: 'My reservations' }).click();
  const row = page.getByRole('listitem').filter({ hasText: 'Stand-up' });
  await expect(row.getByRole('button', { name: 'Check out of Stand-up' })).toBeVisible();
  await row.getByRole('button', { name: 'More actions for Stand-up' }).click();
  await expect(page.getByRole('menuitem')).toHaveText(['Copy details', 'Add to calendar (.ics)']);
  await page.keyboard.press('Escape');
  await page.getByRole('tab', { name: 'Now' }).click();
  await checkOut.click();
  const confirm = next.getByRole('group', { name: 'Confirm check-out' });
  await expect(confirm).toContainText('End it now and free Avon (2.01)?');
  await expect(confirm.getByRole('button', { name: 'No, keep Stand-up' })).toBeFocused();
  await expectAccessible(page, testInfo, 'next-confirm-check-out');
  await screenshot(page, testInfo, 'next-confirm-check-out');
  await confirm.getByRole('button', { name: 'No, keep Stand-up' }).click();
  const kept = await admin.getReservation({ params: { referenceNumber } });
  expect(kept.ok && kept.value.checkOutDate).toBeNull();

  await checkOut.click();
  await next.getByRole('button', { name: 'Yes, check out of Stand-up' }).click();
  await expect(page.getByRole('article').filter({ hasText: 'Stand-up' })).toHaveCount(0);
  const detail = await admin.getReservation({ params: { referenceNumber } });
  if (!detail.ok) throw new Error(detail.error.message);
  expect(detail.value.checkOutDate).not.toBeNull();
});

test('under way, Extend to the next slot is the action, with Check out beside it', async ({ page, perch }, testInfo) => {
  // The administrator may change a booking under way: his began at 10:30 and runs to 11:00.
  const admin = await perch.clientFor('admin');
  const created = await admin.createReservation({
    body: { resourceId: perch.org.resources.thames, title: 'Planning', startDateTime: perch.at('10:30'), endDateTime: perch.at('11:00') },
  });
  if (!created.ok) throw new Error(created.error.message);
  const { referenceNumber } = created.value;

  await perch.signIn('admin');
  await perch.open();
  const next = page.getByRole('article').filter({ hasText: 'Planning' });
  await next.getByRole('button', { name: 'Check in to Planning' }).click();
  const extend = next.getByRole('button', { name: 'Extend to 11:30: Planning, 30 min more' });
  await expect(extend).toHaveText('Extend to 11:30');
  await expect(extend).toHaveClass(/primary/);
  await expect(next.getByRole('button', { name: 'Check out of Planning' })).not.toHaveClass(/primary/);
  await expect(next.getByText('Ends in 29 min')).toBeVisible();
  await expectAccessible(page, testInfo, 'next-under-way');
  await screenshot(page, testInfo, 'next-under-way');

  await extend.click();
  await expect(next.getByText('Ends in 59 min')).toBeVisible();
  await expect(next.getByRole('button', { name: 'Extend to 12:00: Planning, 30 min more' })).toBeVisible();
  const detail = await admin.getReservation({ params: { referenceNumber } });
  if (!detail.ok) throw new Error(detail.error.message);
  expect(parseWireDateTime(detail.value.endDate, 'UTC')!.toMillis()).toBe(DateTime.fromISO(perch.at('11:30')).toMillis());
});
