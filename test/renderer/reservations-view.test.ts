import { render, screen, waitFor, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { describe, expect, onTestFinished, test } from 'vitest';
import type { BridgeResult, ReservationView, StateSnapshot } from '$bridge/contract.js';
import { PerchStore } from '../../renderer/src/lib/perch.svelte.js';
import ReservationsView from '../../renderer/src/views/ReservationsView.svelte';
import { createFakePerch, deferred, readySnapshot, reservation, type FakePerch } from './fake-perch.js';

const text = (element: Element | null) => element?.textContent?.replace(/\s+/g, ' ').trim();
const alerts = () => screen.queryAllByRole('alert').map(text).filter(Boolean).join(' | ');
/** Buttons by what their accessible name says after the visible text (`30 min: Book …`). */
const button = (name: string | RegExp) =>
  screen.getByRole('button', {
    name: typeof name === 'string' ? (accessible: string) => accessible === name || accessible.endsWith(`: ${name}`) : name,
  }) as HTMLButtonElement;
const item = (title: string) => screen.getByText(title).closest('li') as HTMLElement;

async function renderList(fake: FakePerch, options: { waitForState?: boolean } = {}) {
  const user = userEvent.setup();
  const perch = new PerchStore(fake.api);
  onTestFinished(perch.start());
  render(ReservationsView, { props: { perch } });
  if (options.waitForState ?? true) await waitFor(() => expect(perch.snapshot).not.toBeNull());
  return { fake, perch, user };
}

const week = [
  reservation({ referenceNumber: 'a', title: 'Design review', checkInOpen: true, requiresCheckIn: true, awaitsCheckIn: true }),
  reservation({
    referenceNumber: 'b',
    title: 'Focus time',
    start: '2025-11-26T14:00:00.000+01:00',
    end: '2025-11-26T15:00:00.000+01:00',
    isPendingApproval: true,
  }),
  reservation({
    referenceNumber: 'c',
    title: 'Standup',
    start: '2025-11-27T09:00:00.000+01:00',
    end: '2025-11-27T09:30:00.000+01:00',
    isRecurring: true,
    seriesKey: 'standup',
  }),
  reservation({
    referenceNumber: 'd',
    title: '',
    resourceName: 'Desk 7',
    start: '2025-11-28T09:00:00.000+01:00',
    end: '2025-11-28T17:00:00.000+01:00',
  }),
  reservation({
    referenceNumber: 'c2',
    title: 'Standup',
    start: '2025-12-01T09:00:00.000+01:00',
    end: '2025-12-01T09:30:00.000+01:00',
    isRecurring: true,
    seriesKey: 'standup',
  }),
  reservation({
    referenceNumber: 'c3',
    title: 'Standup',
    start: '2025-12-03T09:00:00.000+01:00',
    end: '2025-12-03T09:30:00.000+01:00',
    isRecurring: true,
    seriesKey: 'standup',
  }),
];

/** Checked in and under way: 9:30 to 11:00, now 10:00. */
const underWay = reservation({
  referenceNumber: 'p',
  title: 'Pairing',
  start: '2025-11-26T09:30:00.000+01:00',
  checkedInAt: '2025-11-26T09:30:00.000+01:00',
  requiresCheckIn: true,
  canCheckOut: true,
});

const menuItems = () => screen.getAllByRole('menuitem').map(text);
const buttonName = (element: HTMLElement) => element.getAttribute('aria-label') ?? text(element);
/** What the menu offers for any booking of the user's own that has not begun. */
const notBegunMenu = ['Change time…', 'Change room or desk…', 'Rename…', 'Copy details', 'Add to calendar (.ics)'];

describe('My reservations: states', () => {
  test('loading: says so until the core answers', async () => {
    const fake = createFakePerch(readySnapshot());
    const answer = deferred<StateSnapshot>();
    fake.handlers.getState = () => answer.promise;
    await renderList(fake, { waitForState: false });
    expect(screen.getByRole('status').textContent).toBe('Loading your reservations…');
    answer.resolve(readySnapshot());
    expect(await screen.findByText('Design review')).toBeTruthy();
  });

  test('empty: says so and offers the Book view', async () => {
    const { perch, user } = await renderList(createFakePerch(readySnapshot({ reservations: [] })));
    expect(screen.getByText('You have no upcoming reservations.')).toBeTruthy();
    await user.click(button('Book something'));
    expect(perch.tab).toBe('book');
  });

  test('offline: keeps the cached list and says how old it is', async () => {
    await renderList(createFakePerch(readySnapshot({ offline: true, fetchedAt: '2025-11-26T09:48:00.000+01:00' })));
    expect(screen.getByText(/Showing what was known at 9:48/)).toBeTruthy();
    expect(screen.getByText('Design review')).toBeTruthy();
  });

  test('offline with no data yet', async () => {
    await renderList(createFakePerch(readySnapshot({ offline: true, fetchedAt: null, reservations: [] })));
    expect(screen.getByText('No data yet; your reservations appear once the server answers.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Book something' })).toBeNull();
  });

  test('groups by day; a series is listed under each day it has a date on, with its rule in words', async () => {
    const fake = createFakePerch(readySnapshot({ reservations: week }));
    fake.handlers.getRecurrence = async () => ({
      ok: true,
      value: { type: 'weekly', interval: 1, weekdays: [3, 1, 4], monthlyType: null, until: '2025-12-10T23:00:00.000+01:00' },
    });
    await renderList(fake);
    const days = screen.getAllByRole('heading', { level: 3 });
    expect(days.map(text)).toEqual(['Today', 'Tomorrow', 'Friday, November 28', 'Monday, December 1', 'Wednesday, December 3']);
    expect(within(days[0]!.closest('section')!).getAllByRole('listitem')).toHaveLength(2);

    const standups = screen.getAllByText('Standup').map((title) => title.closest('li')!);
    expect(standups.map((row) => text(row.closest('section')!.querySelector('h3')))).toEqual([
      'Tomorrow',
      'Monday, December 1',
      'Wednesday, December 3',
    ]);
    for (const row of standups) expect(await within(row).findByText('Weekly on Mon, Wed, Thu until Wed Dec 10')).toBeTruthy();
    // The rule is read once per series, from its next occurrence.
    expect(fake.requestsOf('getRecurrence')).toEqual([{ referenceNumber: 'c' }]);
    // Untitled reservations go by their resource, said once.
    expect(within(item('Desk 7')).getAllByText(/Desk 7/)).toHaveLength(1);
  });

  test('a series whose rule cannot be read says that it repeats', async () => {
    const fake = createFakePerch(readySnapshot({ reservations: [week[2]!] }));
    fake.handlers.getRecurrence = async () => ({ ok: false, error: { kind: 'network', message: 'Offline' } });
    await renderList(fake);
    expect(await within(item('Standup')).findByText('Repeats')).toBeTruthy();
  });

  test('one visible action for the moment: Check in when check-in is open, nothing for a later booking; the rest behind the menu', async () => {
    await renderList(createFakePerch(readySnapshot({ reservations: week.slice(0, 2) })));
    expect(within(item('Design review')).getByText('check-in open')).toBeTruthy();
    expect(within(item('Design review')).getByText('in 12 min')).toBeTruthy();
    expect(within(item('Design review')).getAllByRole('button').map(buttonName)).toEqual([
      'Design review',
      'Check in to Design review',
      'More actions for Design review',
    ]);
    expect(within(item('Focus time')).getByText('pending approval')).toBeTruthy();
    expect(within(item('Focus time')).getByText('in 4 h')).toBeTruthy();
    expect(within(item('Focus time')).getAllByRole('button').map(buttonName)).toEqual(['Focus time', 'More actions for Focus time']);
  });

  test('Extend is offered only while a booking is under way, never before it starts or while it awaits approval', async () => {
    const { user } = await renderList(createFakePerch(readySnapshot({ reservations: [underWay, ...week.slice(0, 2)] })));
    expect(within(item('Pairing')).getByText('ends in 1 h')).toBeTruthy();
    await user.click(button('More actions for Pairing'));
    // Under way: longer, or another title; neither another time nor another room.
    expect(menuItems()).toEqual(['Extend by 15 min', 'Extend by 30 min', 'Rename…', 'Copy details', 'Add to calendar (.ics)']);
    await user.keyboard('{Escape}');
    await user.click(button('More actions for Design review'));
    expect(menuItems()).toEqual([...notBegunMenu, 'Cancel booking']);
    await user.keyboard('{Escape}');
    await user.click(button('More actions for Focus time'));
    expect(menuItems()).toEqual([...notBegunMenu, 'Cancel booking']);
  });

  test('a booking under way on a server that refuses changes once started (the core says canChange: false) is offered neither Extend nor Cancel', async () => {
    const locked = { ...underWay, canChange: false };
    const { user } = await renderList(createFakePerch(readySnapshot({ reservations: [locked, ...week.slice(0, 1)] })));
    await user.click(button('More actions for Pairing'));
    expect(menuItems()).toEqual(['Copy details', 'Add to calendar (.ics)']);
    await user.keyboard('{Escape}');
    // A booking still to come is offered its changes and its cancellation as before.
    await user.click(button('More actions for Design review'));
    expect(menuItems()).toEqual([...notBegunMenu, 'Cancel booking']);
  });

  test('checked out: its status and the end it had, and nothing left to do but copy its details', async () => {
    const { user } = await renderList(
      createFakePerch(
        readySnapshot({
          reservations: [
            reservation({
              referenceNumber: 'out',
              title: 'Workshop',
              start: '2025-11-26T09:00:00.000+01:00',
              end: '2025-11-26T09:45:00.000+01:00',
              originalEnd: '2025-11-26T11:00:00.000+01:00',
              checkedInAt: '2025-11-26T09:00:00.000+01:00',
              checkedOutAt: '2025-11-26T09:45:00.000+01:00',
            }),
          ],
        }),
      ),
    );
    expect(within(item('Workshop')).getByText('checked out')).toBeTruthy();
    expect(within(item('Workshop')).getByText(/Ended early; booked until 11:00/)).toBeTruthy();
    expect(within(item('Workshop')).getAllByRole('button').map(buttonName)).toEqual(['Workshop', 'More actions for Workshop']);
    await user.click(button('More actions for Workshop'));
    expect(menuItems()).toEqual(['Copy details']);
  });
});

describe('My reservations: meetings of others the user is in', () => {
  test('say whose booking it is and what the user is to it, and offer none of the owner’s actions', async () => {
    const others = [
      reservation({
        referenceNumber: 'i',
        title: 'Quarterly review',
        ownerName: 'Alex Morgan',
        ownerFirstName: 'Alex',
        isMine: false,
        role: 'invitee',
      }),
      reservation({
        referenceNumber: 'j',
        title: 'Budget',
        start: '2025-11-26T14:00:00.000+01:00',
        end: '2025-11-26T15:00:00.000+01:00',
        ownerName: 'Priya Shah',
        ownerFirstName: '',
        isMine: false,
        role: 'participant',
      }),
    ];
    const { user } = await renderList(createFakePerch(readySnapshot({ reservations: [...others, week[1]!] })));
    expect(text(item('Quarterly review'))).toContain("Alex's booking · you are invited");
    expect(text(item('Budget'))).toContain("Priya Shah's booking · you take part");
    for (const title of ['Quarterly review', 'Budget']) {
      await user.click(button(`More actions for ${title}`));
      expect(menuItems()).toEqual(['Copy details', 'Add to calendar (.ics)']);
      await user.keyboard('{Escape}');
    }
    // The user's own booking says nothing of the kind.
    expect(text(item('Focus time'))).not.toContain('booking ·');
  });
});

describe('My reservations: the action menu', () => {
  test('is a menu button: arrow keys move through its items, Escape closes it without letting the popover see the key', async () => {
    const escapesSeen: KeyboardEvent[] = [];
    const onWindowKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') escapesSeen.push(event);
    };
    window.addEventListener('keydown', onWindowKey);
    onTestFinished(() => window.removeEventListener('keydown', onWindowKey));
    const { user } = await renderList(createFakePerch(readySnapshot({ reservations: [underWay] })));
    const trigger = button('More actions for Pairing');
    expect(trigger.getAttribute('aria-haspopup')).toBe('menu');
    expect(trigger.getAttribute('aria-expanded')).toBe('false');

    trigger.focus();
    await user.keyboard('{Enter}');
    const menu = screen.getByRole('menu');
    expect(trigger.getAttribute('aria-expanded')).toBe('true');
    expect(trigger.getAttribute('aria-controls')).toBe(menu.id);
    expect(text(document.activeElement)).toBe('Extend by 15 min');
    await user.keyboard('{ArrowDown}');
    expect(text(document.activeElement)).toBe('Extend by 30 min');
    await user.keyboard('{End}');
    expect(text(document.activeElement)).toBe('Add to calendar (.ics)');
    await user.keyboard('{ArrowDown}');
    expect(text(document.activeElement)).toBe('Extend by 15 min');
    await user.keyboard('{ArrowUp}');
    expect(text(document.activeElement)).toBe('Add to calendar (.ics)');
    await user.keyboard('{Home}');
    expect(text(document.activeElement)).toBe('Extend by 15 min');

    await user.keyboard('{Escape}');
    expect(screen.queryByRole('menu')).toBeNull();
    expect(document.activeElement).toBe(trigger);
    expect(escapesSeen).toEqual([]);
  });

  test('extend: the request names the minutes; a refusal is one line beside the menu that asked for it, gone at the next action', async () => {
    const fake = createFakePerch(readySnapshot({ reservations: [underWay, ...week.slice(0, 1)] }));
    fake.handlers.extend = async () => ({ ok: false, error: { kind: 'invalidInput', message: 'Room Ada is booked from 11:15 AM.' } });
    const { user } = await renderList(fake);
    await user.click(button('More actions for Pairing'));
    await user.click(screen.getByRole('menuitem', { name: 'Extend by 30 min' }));
    await waitFor(() => expect(alerts()).toBe('Room Ada is booked from 11:15 AM.'));
    // In the row that asked, described as the menu's outcome, one line.
    const line = screen.getByText('Room Ada is booked from 11:15 AM.');
    expect(line.getAttribute('role')).toBe('alert');
    expect(item('Pairing').contains(line)).toBe(true);
    expect(button('More actions for Pairing').getAttribute('aria-describedby')).toBe(line.id);
    expect(button('More actions for Design review').getAttribute('aria-describedby')).toBeNull();

    // Any next action takes it away: here, asking to cancel another booking.
    await user.click(button('More actions for Design review'));
    await user.click(screen.getByRole('menuitem', { name: 'Cancel booking' }));
    expect(alerts()).toBe('');
    expect(button('More actions for Pairing').getAttribute('aria-describedby')).toBeNull();
    await user.click(button('No, keep Design review'));

    fake.handlers.extend = async (request) => ({
      ok: true,
      value: { ...underWay, end: '2025-11-26T11:15:00.000+01:00', referenceNumber: request.referenceNumber },
    });
    await user.click(button('More actions for Pairing'));
    await user.click(screen.getByRole('menuitem', { name: 'Extend by 15 min' }));
    expect(fake.requestsOf('extend')).toEqual([
      { referenceNumber: 'p', minutes: 30 },
      { referenceNumber: 'p', minutes: 15 },
    ]);
    await waitFor(() => expect(text(item('Pairing'))).toContain('11:15 AM'));
    expect(alerts()).toBe('');
  });
});

describe('My reservations: actions', () => {
  test('check in sends the reference number; check out asks first, and Stay keeps the booking', async () => {
    const open = week[0]!;
    const fake = createFakePerch(readySnapshot({ reservations: [open] }));
    const answer = deferred<BridgeResult<ReservationView>>();
    fake.handlers.checkIn = () => answer.promise;
    fake.handlers.checkOut = async () => ({
      ok: true,
      value: {
        ...open,
        checkInOpen: false,
        checkedInAt: '2025-11-26T10:00:00.000+01:00',
        checkedOutAt: '2025-11-26T10:20:00.000+01:00',
        end: '2025-11-26T10:20:00.000+01:00',
        originalEnd: open.end,
      },
    });
    const { user, perch } = await renderList(fake);

    await user.click(button('Check in to Design review'));
    expect(fake.requestsOf('checkIn')).toEqual([{ referenceNumber: 'a' }]);
    expect(text(button('Check in to Design review'))).toBe('Checking in…');
    expect(button('More actions for Design review').disabled).toBe(true);
    expect(item('Design review').getAttribute('aria-busy')).toBe('true');
    answer.resolve({ ok: true, value: { ...open, checkInOpen: false, checkedInAt: '2025-11-26T10:00:00.000+01:00', canCheckOut: true } });
    expect(await within(item('Design review')).findByText('checked in')).toBeTruthy();

    perch.nowMs += 20 * 60_000;
    await user.click(button('Check out of Design review'));
    expect(within(item('Design review')).getByRole('group', { name: 'Confirm check-out' })).toBeTruthy();
    expect(document.activeElement).toBe(button('No, stay checked in to Design review'));
    await user.click(button('No, stay checked in to Design review'));
    expect(fake.requestsOf('checkOut')).toEqual([]);

    await user.click(button('Check out of Design review'));
    await user.click(button('Yes, check out of Design review'));
    expect(fake.requestsOf('checkOut')).toEqual([{ referenceNumber: 'a' }]);
    expect(await screen.findByText('checked out')).toBeTruthy();
  });

  test('a single reservation: Cancel asks, No and Escape keep it, Yes cancels it', async () => {
    const fake = createFakePerch(readySnapshot({ reservations: [week[1]!] }));
    fake.handlers.cancel = async () => ({ ok: true, value: readySnapshot({ reservations: [] }) });
    const { user } = await renderList(fake);
    const cancelFromMenu = async () => {
      await user.click(button('More actions for Focus time'));
      await user.click(screen.getByRole('menuitem', { name: 'Cancel booking' }));
    };
    await cancelFromMenu();
    expect(within(item('Focus time')).getByRole('group', { name: 'Confirm cancellation' })).toBeTruthy();
    expect(screen.getByText('Cancel this booking?')).toBeTruthy();
    expect(document.activeElement).toBe(button('No, keep Focus time'));
    await user.keyboard('{Escape}');
    expect(screen.queryByText('Cancel this booking?')).toBeNull();
    expect(document.activeElement).toBe(button('More actions for Focus time'));
    await cancelFromMenu();
    await user.click(button('No, keep Focus time'));
    expect(fake.requestsOf('cancel')).toEqual([]);

    await cancelFromMenu();
    await user.click(button('Yes, cancel Focus time'));
    expect(fake.requestsOf('cancel')).toEqual([{ referenceNumber: 'b', scope: 'this' }]);
    expect(await screen.findByText('You have no upcoming reservations.')).toBeTruthy();
  });

  test('a series: each date cancels itself or the whole series', async () => {
    const fake = createFakePerch(readySnapshot({ reservations: [week[2]!, week[4]!] }));
    fake.handlers.cancel = async () => ({
      ok: false,
      error: { kind: 'forbidden', message: 'You do not have permission to cancel this reservation.' },
    });
    const { user } = await renderList(fake);
    await user.click(button('More actions for Standup on Thu Nov 27'));
    expect(menuItems()).toEqual([...notBegunMenu, 'Cancel this occurrence', 'Cancel the whole series']);
    await user.click(screen.getByRole('menuitem', { name: 'Cancel this occurrence' }));
    expect(screen.getByText('Cancel this occurrence?')).toBeTruthy();
    await user.click(button('Yes, cancel Standup'));
    await waitFor(() => expect(alerts()).toBe('You do not have permission to cancel this reservation.'));

    await user.click(button('More actions for Standup on Thu Nov 27'));
    await user.click(screen.getByRole('menuitem', { name: 'Cancel the whole series' }));
    expect(screen.getByText('Cancel the whole series?')).toBeTruthy();
    await user.click(button('Yes, cancel the series'));

    await user.click(button('More actions for Standup on Mon Dec 1'));
    expect(menuItems()).toEqual([...notBegunMenu, 'Cancel this occurrence', 'Cancel the whole series']);
    await user.click(screen.getByRole('menuitem', { name: 'Cancel this occurrence' }));
    await user.click(button('Yes, cancel Standup'));
    expect(fake.requestsOf('cancel')).toEqual([
      { referenceNumber: 'c', scope: 'this' },
      { referenceNumber: 'c', scope: 'full' },
      { referenceNumber: 'c2', scope: 'this' },
    ]);
  });

  test('the reservation a notification named is current, focused and scrolled into view', async () => {
    const scrolled: Element[] = [];
    Element.prototype.scrollIntoView = function (this: Element) {
      scrolled.push(this);
    };
    onTestFinished(() => {
      delete (Element.prototype as Partial<Element>).scrollIntoView;
    });
    const { perch } = await renderList(createFakePerch(readySnapshot({ reservations: week })));
    expect(screen.getAllByRole('listitem').filter((li) => li.getAttribute('aria-current') === 'true')).toEqual([]);
    perch.highlight = 'd';
    await waitFor(() => expect(document.activeElement).toBe(item('Desk 7')));
    expect(item('Desk 7').getAttribute('aria-current')).toBe('true');
    expect(item('Design review').getAttribute('aria-current')).toBeNull();
    expect(scrolled).toEqual([item('Desk 7')]);
  });

  test('a notification naming a later date of a series focuses that date, under its own day', async () => {
    const { perch } = await renderList(createFakePerch(readySnapshot({ reservations: week })));
    perch.highlight = 'c3';
    const later = document.querySelector<HTMLElement>('[data-reference="c3"]')!;
    expect(text(later.closest('section')!.querySelector('h3'))).toBe('Wednesday, December 3');
    await waitFor(() => expect(document.activeElement).toBe(later));
  });
});

describe("My reservations: I'm not coming", () => {
  /** Under way since 9:55, not checked in, check-in open until its release at 10:10. */
  const late = reservation({
    referenceNumber: 'late',
    title: 'Retro',
    start: '2025-11-26T09:55:00.000+01:00',
    requiresCheckIn: true,
    awaitsCheckIn: true,
    checkInOpen: true,
    autoReleaseAt: '2025-11-26T10:10:00.000+01:00',
  });

  test('under way and awaiting check-in, the menu gives it back (a check-out) instead of cancelling, asking first', async () => {
    const fake = createFakePerch(readySnapshot({ reservations: [late] }));
    fake.handlers.release = async () => ({ ok: true, value: readySnapshot({ reservations: [] }) });
    const { user } = await renderList(fake);
    await user.click(button('More actions for Retro'));
    expect(menuItems()).toEqual([
      'Extend by 15 min',
      'Extend by 30 min',
      'Rename…',
      'Copy details',
      'Add to calendar (.ics)',
      "I'm not coming",
    ]);
    await user.click(screen.getByRole('menuitem', { name: "I'm not coming" }));
    const question = within(item('Retro')).getByRole('group', { name: 'Confirm giving the booking back' });
    expect(text(question)).toContain('End it now and free Room Ada?');
    await user.click(button('Yes, free it: give Retro back'));
    expect(fake.requestsOf('release')).toEqual([{ referenceNumber: 'late' }]);
    expect(await screen.findByText('You have no upcoming reservations.')).toBeTruthy();
  });

  test("a notification's I'm not coming for a booking that is not next asks on its row", async () => {
    const later = reservation({
      referenceNumber: 'later',
      title: 'Offsite prep',
      start: '2025-11-26T14:00:00.000+01:00',
      end: '2025-11-26T15:00:00.000+01:00',
      requiresCheckIn: true,
      awaitsCheckIn: true,
      checkInOpensAt: '2025-11-26T13:55:00.000+01:00',
    });
    const fake = createFakePerch(readySnapshot({ reservations: [reservation(), later] }));
    const { perch } = await renderList(fake);
    fake.emit('navigate', { referenceNumber: 'later', confirm: 'release' });
    const question = await within(item('Offsite prep')).findByRole('group', { name: 'Confirm giving the booking back' });
    expect(text(question)).toContain('Cancel it and free Room Ada?');
    expect(perch.tab).toBe('reservations');
    expect(perch.releaseAsked).toBeNull();
    expect(fake.requestsOf('release')).toEqual([]);
  });
});

describe('My reservations: changes, details and sharing', () => {
  const later = week[1]!;

  test('the menu opens on its first item, never on what cannot be undone, which comes last', async () => {
    const { user } = await renderList(createFakePerch(readySnapshot({ reservations: [week[2]!] })));
    button('More actions for Standup on Thu Nov 27').focus();
    await user.keyboard('{Enter}');
    expect(text(document.activeElement)).toBe('Change time…');
    const items = screen.getAllByRole('menuitem');
    const destructive = items.filter((element) => element.classList.contains('danger')).map(text);
    expect(destructive).toEqual(['Cancel this occurrence', 'Cancel the whole series']);
    expect(items.slice(-destructive.length).map(text)).toEqual(destructive);
  });

  test('rename: a form in place with the title; Save sends it, Escape keeps it as it was', async () => {
    const fake = createFakePerch(readySnapshot({ reservations: [later] }));
    fake.handlers.retitle = async (request) => ({ ok: true, value: { ...later, title: request.title } });
    const { user } = await renderList(fake);
    await user.click(button('More actions for Focus time'));
    await user.click(screen.getByRole('menuitem', { name: 'Rename…' }));
    const form = within(item('Focus time')).getByRole('form', { name: 'Rename Focus time' });
    const field = within(form).getByRole('textbox', { name: 'Title' }) as HTMLInputElement;
    expect(document.activeElement).toBe(field);
    expect(field.value).toBe('Focus time');
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('form')).toBeNull();
    expect(fake.requestsOf('retitle')).toEqual([]);

    await user.click(button('More actions for Focus time'));
    await user.click(screen.getByRole('menuitem', { name: 'Rename…' }));
    await user.clear(screen.getByRole('textbox', { name: 'Title' }));
    await user.type(screen.getByRole('textbox', { name: 'Title' }), '  Deep work {Enter}');
    expect(fake.requestsOf('retitle')).toEqual([{ referenceNumber: 'b', title: 'Deep work' }]);
    expect(await screen.findByText('Deep work')).toBeTruthy();
    expect(screen.queryByRole('form')).toBeNull();
  });

  test('rename of a date of a series that comes back under a new reference reads the list again', async () => {
    const fake = createFakePerch(readySnapshot({ reservations: [week[2]!] }));
    const renamed = { ...week[2]!, referenceNumber: 'c-detached', title: 'Standup (moved room)', seriesKey: null };
    fake.handlers.retitle = async () => ({ ok: true, value: renamed });
    fake.handlers.refresh = async () => readySnapshot({ reservations: [renamed] });
    const { user } = await renderList(fake);
    await user.click(button('More actions for Standup on Thu Nov 27'));
    await user.click(screen.getByRole('menuitem', { name: 'Rename…' }));
    await user.clear(screen.getByRole('textbox', { name: 'Title' }));
    await user.type(screen.getByRole('textbox', { name: 'Title' }), 'Standup (moved room){Enter}');
    expect(await screen.findByText('Standup (moved room)')).toBeTruthy();
    expect(fake.requestsOf('refresh')).toHaveLength(1);
    expect(screen.queryByText('Standup')).toBeNull();
  });

  test("change time: the free times of the day in the user's clock, its own time among them; a refusal is one line beside Save, and the form stays", async () => {
    const fake = createFakePerch(readySnapshot({ reservations: [later] }));
    /** Half-hour slots 13:00–17:00; 14:00–15:00 is Focus time's own, 16:00–16:30 someone else's. */
    const slot = (hour: number, minute: number, isReservable = true) => {
      const start = new Date(Date.parse(`2025-11-26T${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}:00+01:00`));
      return { start: start.toISOString(), end: new Date(start.getTime() + 30 * 60_000).toISOString(), isReservable };
    };
    fake.handlers.listSlots = async () => ({
      ok: true,
      value: [
        slot(13, 0),
        slot(13, 30),
        slot(14, 0, false),
        slot(14, 30, false),
        slot(15, 0),
        slot(15, 30),
        slot(16, 0, false),
        slot(16, 30),
      ],
    });
    fake.handlers.move = async () => ({ ok: false, error: { kind: 'conflict', message: 'Room Ada is already booked at that time.' } });
    const { user } = await renderList(fake);
    await user.click(button('More actions for Focus time'));
    await user.click(screen.getByRole('menuitem', { name: 'Change time…' }));
    const form = screen.getByRole('form', { name: 'Change the time of Focus time' });
    expect((within(form).getByLabelText('Day') as HTMLSelectElement).value).toBe('2025-11-26');
    expect(fake.requestsOf('listSlots')).toEqual([{ resourceId: later.resourceId, date: '2025-11-26' }]);
    const from = within(form).getByLabelText('From') as HTMLSelectElement;
    const until = within(form).getByLabelText('To') as HTMLSelectElement;
    // Now is 10:00: the times still to come, the booking's own included; the same length chosen to start with.
    await waitFor(() =>
      expect([...from.options].map((option) => option.text)).toEqual([
        '1:00 PM',
        '1:30 PM',
        '2:00 PM',
        '2:30 PM',
        '3:00 PM',
        '3:30 PM',
        '4:30 PM',
      ]),
    );
    expect(from.selectedOptions[0]!.text).toBe('2:00 PM');
    expect([...until.options].map((option) => option.text)).toEqual(['2:30 PM', '3:00 PM', '3:30 PM', '4:00 PM']);
    expect(until.selectedOptions[0]!.text).toBe('3:00 PM');
    await user.selectOptions(from, '3:00 PM');
    // Up to the next booking; still an hour.
    expect([...until.options].map((option) => option.text)).toEqual(['3:30 PM', '4:00 PM']);
    expect(until.selectedOptions[0]!.text).toBe('4:00 PM');
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    expect(fake.requestsOf('move')).toEqual([
      { referenceNumber: 'b', start: slot(15, 0).start, end: slot(15, 30).end, resourceId: later.resourceId },
    ]);
    const line = await within(form).findByRole('alert');
    expect(text(line)).toBe('Room Ada is already booked at that time.');
    expect(within(form).getByRole('button', { name: 'Save' }).getAttribute('aria-describedby')).toBe(line.id);

    fake.handlers.move = async () => ({
      ok: true,
      value: readySnapshot({ reservations: [{ ...later, start: '2025-11-26T15:00:00.000+01:00', end: '2025-11-26T16:00:00.000+01:00' }] }),
    });
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('form')).toBeNull());
    expect(text(item('Focus time'))).toContain('3:00');
  });

  test('change room or desk: the others of its schedule that can be booked, and the same times', async () => {
    const fake = createFakePerch(readySnapshot({ reservations: [later] }));
    const resource = (resourceId: number, name: string, scheduleId = 1, statusId = 1) => ({
      resourceId,
      name,
      location: '',
      scheduleId,
      groupIds: [],
      statusId,
      requiresApproval: false,
      requiresCheckIn: false,
      autoReleaseMinutes: null,
      minLengthMinutes: null,
      maxLengthMinutes: null,
      maxParticipants: null,
      color: '',
      face: { kind: 'room' as const, color: null },
    });
    fake.handlers.listResources = async () => ({
      ok: true,
      value: [
        resource(later.resourceId, 'Room Ada'),
        resource(8, 'Room Babbage'),
        resource(9, 'Elsewhere', 2),
        resource(10, 'Closed room', 1, 2),
        resource(11, 'Annex'),
      ],
    });
    fake.handlers.move = async () => ({
      ok: true,
      value: readySnapshot({ reservations: [{ ...later, resourceId: 8, resourceName: 'Room Babbage' }] }),
    });
    const { user } = await renderList(fake);
    await user.click(button('More actions for Focus time'));
    await user.click(screen.getByRole('menuitem', { name: 'Change room or desk…' }));
    const form = screen.getByRole('form', { name: 'Move Focus time to another room or desk' });
    const select = within(form).getByLabelText('Room or desk') as HTMLSelectElement;
    await waitFor(() => expect([...select.options].map((option) => option.text)).toEqual(['Choose…', 'Annex', 'Room Babbage']));
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    expect(text(within(form).getByRole('alert'))).toBe('Choose a room or desk first.');
    await user.selectOptions(select, 'Room Babbage');
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    expect(fake.requestsOf('move')).toEqual([{ referenceNumber: 'b', start: later.start, end: later.end, resourceId: 8 }]);
    await waitFor(() => expect(text(item('Focus time'))).toContain('Room Babbage'));
  });

  test('copy details: the text in words goes to the clipboard through the core, and the row says so', async () => {
    const fake = createFakePerch(readySnapshot({ reservations: [later] }));
    fake.handlers.getReservationDetails = async () => ({
      ok: true,
      value: { referenceNumber: 'b', description: 'Phones off', resourceNames: ['Room Ada'], participants: [], invitees: [] },
    });
    const { user } = await renderList(fake);
    await user.click(button('More actions for Focus time'));
    await user.click(screen.getByRole('menuitem', { name: 'Copy details' }));
    await waitFor(() => expect(fake.requestsOf('copyText')).toHaveLength(1));
    expect((fake.requestsOf('copyText')[0] as { text: string }).text.replace(/[\u202f\u2009]/g, ' ')).toBe(
      'Focus time\nRoom Ada\nWednesday, November 26, 2:00 – 3:00 PM Berlin time\nPhones off',
    );
    expect(text(await within(item('Focus time')).findByRole('status'))).toBe('Details copied.');
  });

  test("the server's website is offered for an organisation's server only, and asked of the core", async () => {
    const remote = readySnapshot({
      reservations: [later],
      account: { ...readySnapshot().account!, server: { kind: 'remote', url: 'https://booking.example.org' } },
    });
    const fake = createFakePerch(remote);
    fake.handlers.openOnServer = async () => ({ ok: true, value: null });
    const { user } = await renderList(fake);
    await user.click(button('More actions for Focus time'));
    expect(menuItems()).toEqual([...notBegunMenu, "Open on the server's website", 'Cancel booking']);
    await user.click(screen.getByRole('menuitem', { name: "Open on the server's website" }));
    expect(fake.requestsOf('openOnServer')).toEqual([{ referenceNumber: 'b' }]);
  });

  test('details: a click on the title opens them in place, with what the list does not carry', async () => {
    const fake = createFakePerch(
      readySnapshot({
        reservations: [
          {
            ...week[2]!,
            timezone: 'Europe/London',
            requiresCheckIn: true,
            awaitsCheckIn: true,
            checkInOpensAt: '2025-11-27T08:55:00.000+01:00',
            autoReleaseAt: '2025-11-27T09:15:00.000+01:00',
          },
        ],
      }),
    );
    fake.handlers.getRecurrence = async () => ({
      ok: true,
      value: { type: 'daily', interval: 1, weekdays: [], monthlyType: null, until: '2025-12-03T23:00:00.000+01:00' },
    });
    fake.handlers.getReservationDetails = async () => ({
      ok: true,
      value: {
        referenceNumber: 'c',
        description: 'Stand at the board',
        resourceNames: ['Room Ada', 'Projector'],
        participants: ['Grace Hopper'],
        invitees: ['Alan Turing', 'Mary Somerville'],
      },
    });
    const { user } = await renderList(fake);
    const title = within(item('Standup')).getByRole('button', { name: 'Standup' });
    expect(title.getAttribute('aria-expanded')).toBe('false');
    await user.click(title);
    expect(title.getAttribute('aria-expanded')).toBe('true');
    const details = document.getElementById(title.getAttribute('aria-controls')!)!;
    await waitFor(() => expect(within(details).getByText('Stand at the board')).toBeTruthy());
    const pairs = [...details.querySelectorAll('dt')].map((term) => [text(term), text(term.nextElementSibling)]);
    expect(pairs.map((pair) => pair.map((value) => value?.replace(/[\u202f\u2009]/g, ' ')))).toEqual([
      ['When', 'Thursday, November 27, 9:00 – 9:30 AM Berlin time'],
      ['There', '8:00 – 8:30 AM London time'],
      ['Where', 'Room Ada, Projector'],
      ['Repeats', 'Daily until Wed Dec 3'],
      ['Status', 'Booked'],
      ['Check-in', 'opens 8:55 AM; released at 9:15 AM unless you check in'],
      ['Booked by', 'You'],
      ['Description', 'Stand at the board'],
      ['Taking part', 'Grace Hopper'],
      ['Invited', 'Alan Turing, Mary Somerville'],
      ['Reference', 'c'],
    ]);
    expect(fake.requestsOf('getReservationDetails')).toEqual([{ referenceNumber: 'c' }]);
    await user.click(title);
    expect(document.getElementById('details-c')).toBeNull();
  });
});
