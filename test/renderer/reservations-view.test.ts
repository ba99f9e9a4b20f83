import { render, screen, waitFor, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { describe, expect, onTestFinished, test } from 'vitest';
import type { BridgeResult, ReservationView, StateSnapshot } from '../../electron/bridge.js';
import { PerchStore } from '../../renderer/src/lib/perch.svelte.js';
import ReservationsView from '../../renderer/src/views/ReservationsView.svelte';
import { createFakePerch, deferred, readySnapshot, reservation, type FakePerch } from './fake-perch.js';

const text = (element: Element | null) => element?.textContent?.replace(/\s+/g, ' ').trim();
const alerts = () => screen.getAllByRole('alert').map(text).filter(Boolean).join(' | ');
/** Buttons by what their accessible name says after the visible text (`30 min: Book …`). */
const button = (name: string | RegExp) =>
  screen.getByRole('button', { name: typeof name === 'string' ? (accessible: string) => accessible === name || accessible.endsWith(`: ${name}`) : name }) as HTMLButtonElement;
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
  reservation({ referenceNumber: 'a', title: 'Design review', checkInOpen: true, requiresCheckIn: true }),
  reservation({ referenceNumber: 'b', title: 'Focus time', start: '2025-11-26T14:00:00.000+01:00', end: '2025-11-26T15:00:00.000+01:00', isPendingApproval: true }),
  reservation({ referenceNumber: 'c', title: 'Standup', start: '2025-11-27T09:00:00.000+01:00', end: '2025-11-27T09:30:00.000+01:00', isRecurring: true }),
  reservation({ referenceNumber: 'd', title: '', resourceName: 'Desk 7', start: '2025-11-28T09:00:00.000+01:00', end: '2025-11-28T17:00:00.000+01:00' }),
];

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

  test('groups by day, each with its status in words, the series marked, and only the actions that apply', async () => {
    await renderList(createFakePerch(readySnapshot({ reservations: week })));
    const days = screen.getAllByRole('heading', { level: 3 });
    expect(days.map(text)).toEqual(['Today', 'Tomorrow', 'Friday, November 28']);
    expect(within(days[0]!.closest('section')!).getAllByRole('listitem')).toHaveLength(2);

    expect(within(item('Design review')).getByText('check-in open')).toBeTruthy();
    expect(within(item('Design review')).getAllByRole('button').map((b) => b.getAttribute('aria-label'))).toEqual([
      'Check in to Design review',
      '+15 min: Extend Design review by 15 minutes',
      '+30 min: Extend Design review by 30 minutes',
      'Cancel Design review',
    ]);
    expect(within(item('Focus time')).getByText('pending approval')).toBeTruthy();
    expect(within(item('Focus time')).queryByRole('button', { name: /Check in/ })).toBeNull();
    expect(within(item('Standup')).getByText('Repeats')).toBeTruthy();
    expect(within(item('Standup')).getAllByRole('button').map(text)).toEqual(['+15 min', '+30 min', 'Cancel this', 'Cancel series']);
    // Untitled reservations go by their resource.
    expect(text(within(item('Desk 7')).getByText('Desk 7', { selector: '.title' }))).toBe('Desk 7');
  });

  test('checked in and checked out: statuses, check out offered only while checked in, nothing left to do once ended', async () => {
    await renderList(
      createFakePerch(
        readySnapshot({
          reservations: [
            reservation({ referenceNumber: 'in', title: 'Pairing', start: '2025-11-26T09:30:00.000+01:00', checkedInAt: '2025-11-26T09:30:00.000+01:00', canCheckOut: true }),
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
    expect(within(item('Pairing')).getByText('checked in')).toBeTruthy();
    expect(within(item('Pairing')).getAllByRole('button').map(text)).toEqual(['Check out', '+15 min', '+30 min']);
    expect(within(item('Workshop')).getByText('checked out')).toBeTruthy();
    expect(within(item('Workshop')).getByText(/Ended early; booked until 11:00/)).toBeTruthy();
    expect(within(item('Workshop')).queryAllByRole('button')).toEqual([]);
  });
});

describe('My reservations: actions', () => {
  test('check in, then check out, each sending the reference number', async () => {
    const open = week[0]!;
    const fake = createFakePerch(readySnapshot({ reservations: [open] }));
    const answer = deferred<BridgeResult<ReservationView>>();
    fake.handlers.checkIn = () => answer.promise;
    fake.handlers.checkOut = async () => ({ ok: true, value: { ...open, checkInOpen: false, checkedInAt: '2025-11-26T10:00:00.000+01:00', checkedOutAt: '2025-11-26T10:20:00.000+01:00', end: '2025-11-26T10:20:00.000+01:00', originalEnd: open.end } });
    const { user, perch } = await renderList(fake);

    await user.click(button('Check in to Design review'));
    expect(fake.requestsOf('checkIn')).toEqual([{ referenceNumber: 'a' }]);
    expect(text(button('Check in to Design review'))).toBe('Checking in…');
    expect(button('Extend Design review by 15 minutes').disabled).toBe(true);
    expect(item('Design review').getAttribute('aria-busy')).toBe('true');
    answer.resolve({ ok: true, value: { ...open, checkInOpen: false, checkedInAt: '2025-11-26T10:00:00.000+01:00', canCheckOut: true } });
    expect(await within(item('Design review')).findByText('checked in')).toBeTruthy();

    perch.nowMs += 20 * 60_000;
    await user.click(button('Check out of Design review'));
    expect(fake.requestsOf('checkOut')).toEqual([{ referenceNumber: 'a' }]);
    expect(await screen.findByText('checked out')).toBeTruthy();
  });

  test("extend by 15 and 30 minutes; a refusal is the core's message verbatim, cleared by the next action", async () => {
    const fake = createFakePerch(readySnapshot({ reservations: [week[1]!] }));
    fake.handlers.extend = async () => ({ ok: false, error: { kind: 'invalidInput', message: 'Room Ada is booked from 3:30 PM.' } });
    const { user } = await renderList(fake);
    await user.click(button('Extend Focus time by 30 minutes'));
    await waitFor(() => expect(alerts()).toBe('Room Ada is booked from 3:30 PM.'));

    fake.handlers.extend = async (request) => ({ ok: true, value: { ...week[1]!, end: '2025-11-26T15:15:00.000+01:00', referenceNumber: request.referenceNumber } });
    await user.click(button('Extend Focus time by 15 minutes'));
    expect(fake.requestsOf('extend')).toEqual([
      { referenceNumber: 'b', minutes: 30 },
      { referenceNumber: 'b', minutes: 15 },
    ]);
    await waitFor(() => expect(alerts()).toBe(''));
    expect(text(item('Focus time'))).toContain('3:15 PM');
  });

  test('a single reservation: Cancel asks, No and Escape keep it, Yes cancels it', async () => {
    const fake = createFakePerch(readySnapshot({ reservations: [week[1]!] }));
    fake.handlers.cancel = async () => ({ ok: true, value: readySnapshot({ reservations: [] }) });
    const { user } = await renderList(fake);
    await user.click(button('Cancel Focus time'));
    expect(within(item('Focus time')).getByRole('group', { name: 'Confirm cancellation' })).toBeTruthy();
    expect(screen.getByText('Cancel?')).toBeTruthy();
    expect(document.activeElement).toBe(button('No, keep Focus time'));
    await user.keyboard('{Escape}');
    expect(screen.queryByText('Cancel?')).toBeNull();
    expect(document.activeElement).toBe(button('Cancel Focus time'));
    await user.click(button('Cancel Focus time'));
    await user.click(button('No, keep Focus time'));
    expect(fake.requestsOf('cancel')).toEqual([]);

    await user.click(button('Cancel Focus time'));
    await user.click(button('Yes, cancel Focus time'));
    expect(fake.requestsOf('cancel')).toEqual([{ referenceNumber: 'b', scope: 'this' }]);
    expect(await screen.findByText('You have no upcoming reservations.')).toBeTruthy();
  });

  test('a recurring reservation: Cancel this sends scope this, Cancel series sends scope full', async () => {
    const fake = createFakePerch(readySnapshot({ reservations: [week[2]!] }));
    fake.handlers.cancel = async () => ({ ok: false, error: { kind: 'forbidden', message: 'You do not have permission to cancel this reservation.' } });
    const { user } = await renderList(fake);
    await user.click(button('Cancel this occurrence of Standup'));
    expect(screen.getByText('Cancel this occurrence?')).toBeTruthy();
    await user.click(button('Yes, cancel Standup'));
    await waitFor(() => expect(alerts()).toBe('You do not have permission to cancel this reservation.'));

    await user.click(button('Cancel series of Standup'));
    expect(screen.getByText('Cancel the whole series?')).toBeTruthy();
    await user.click(button('Yes, cancel the series'));
    expect(fake.requestsOf('cancel')).toEqual([
      { referenceNumber: 'c', scope: 'this' },
      { referenceNumber: 'c', scope: 'full' },
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
    perch.highlight = 'c';
    await waitFor(() => expect(document.activeElement).toBe(item('Standup')));
    expect(item('Standup').getAttribute('aria-current')).toBe('true');
    expect(item('Design review').getAttribute('aria-current')).toBeNull();
    expect(scrolled).toEqual([item('Standup')]);
  });
});
