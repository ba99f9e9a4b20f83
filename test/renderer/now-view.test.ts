import { render, screen, waitFor, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { describe, expect, onTestFinished, test } from 'vitest';
import type { BookingOutcome, BridgeResult, FreeResourceView, PhrasePreview, ReservationView, StateSnapshot } from '$bridge/contract.js';
import { PerchStore } from '../../renderer/src/lib/perch.svelte.js';
import NowView from '../../renderer/src/views/NowView.svelte';
import { freeResourceView, unavailableResourceView } from '../support/snapshots.js';
import { createFakePerch, deferred, readySnapshot, reservation, type FakePerch } from './fake-perch.js';

const text = (element: Element | null) => element?.textContent?.replace(/\s+/g, ' ').trim();

function free(overrides: Partial<FreeResourceView> = {}): FreeResourceView {
  return freeResourceView({
    resourceId: 3,
    name: 'Room Babbage',
    scheduleName: 'Rooms',
    freeUntil: '2025-11-26T12:00:00.000+01:00',
    ...overrides,
  });
}

async function renderNow(fake: FakePerch, options: { waitForState?: boolean } = {}) {
  const user = userEvent.setup();
  const perch = new PerchStore(fake.api);
  onTestFinished(perch.start());
  render(NowView, { props: { perch } });
  if (options.waitForState ?? true) await waitFor(() => expect(perch.snapshot).not.toBeNull());
  return { fake, perch, user };
}

/** Every action keeps its (empty) alert region in the page; this is what they say. */
const alerts = () => screen.queryAllByRole('alert').map(text).filter(Boolean).join(' | ');
/** Intl writes thin and narrow no-break spaces around times; tests write plain ones. */
const plain = (value: string | null | undefined) => value?.replace(/\s+/g, ' ').trim();
/** Buttons by their accessible name, its spaces plain. */
const button = (name: string | RegExp) =>
  screen.getByRole('button', {
    name: typeof name === 'string' ? (accessible: string) => plain(accessible) === name : name,
  }) as HTMLButtonElement;

describe('Now: states', () => {
  test('loading: says so until the core answers', async () => {
    const fake = createFakePerch(readySnapshot());
    const answer = deferred<StateSnapshot>();
    fake.handlers.getState = () => answer.promise;
    await renderNow(fake, { waitForState: false });
    expect(screen.getByText('Loading your reservations…')).toBeTruthy();
    expect(screen.getByText('Loading what is free…')).toBeTruthy();
    answer.resolve(readySnapshot());
    expect(await screen.findByRole('heading', { name: 'Design review' })).toBeTruthy();
    expect(screen.queryByText(/Loading/)).toBeNull();
  });

  test('loading: signed in but nothing fetched yet still counts as loading', async () => {
    await renderNow(createFakePerch(readySnapshot({ fetchedAt: null, reservations: [], freeNow: [] })));
    expect(screen.getByText('Loading your reservations…')).toBeTruthy();
  });

  test('right after sign-in: My reservations are shown while Free now is still loading, never "nothing free"', async () => {
    await renderNow(createFakePerch(readySnapshot({ freeNow: [], freeNowLoading: true })));
    expect(screen.getByRole('heading', { name: 'Design review' })).toBeTruthy();
    expect(screen.queryByText('Loading your reservations…')).toBeNull();
    expect(screen.getByText('Loading what is free…')).toBeTruthy();
    expect(screen.queryByText(/Nothing is free/)).toBeNull();
  });

  test('empty: nothing booked and nothing free', async () => {
    await renderNow(createFakePerch(readySnapshot({ reservations: [], freeNow: [] })));
    expect(screen.getByText('Nothing booked. Type a booking, or pick a free resource below.')).toBeTruthy();
    expect(screen.getByText('Nothing is free right now.')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Free now' })).toBeTruthy();
  });

  test('error: the last refresh failure is shown with a retry', async () => {
    const fake = createFakePerch(readySnapshot({ lastError: { kind: 'server', message: 'The server answered 500.' } }));
    const { user } = await renderNow(fake);
    expect(alerts()).toBe('The server answered 500.');
    fake.handlers.getState = async () => readySnapshot();
    fake.handlers.refresh = async () => readySnapshot();
    await user.click(button('Try again'));
    expect(fake.requestsOf('refresh')).toHaveLength(1);
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull());
  });

  test('offline: keeps the cached data, says how old it is, and leaves the failure to the badge', async () => {
    await renderNow(
      createFakePerch(
        readySnapshot({
          offline: true,
          fetchedAt: '2025-11-26T09:48:00.000+01:00',
          lastError: { kind: 'network', message: 'The server cannot be reached.' },
        }),
      ),
    );
    expect(screen.getByText(/Showing what was known at 9:48/)).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Design review' })).toBeTruthy();
    // Booking waits, and says why; the action stays where the keyboard can reach it.
    const action = button('Book Room Babbage 10:30 – 11:00 AM');
    expect(action.getAttribute('aria-disabled')).toBe('true');
    expect(action.getAttribute('aria-describedby')).toBe('free-offline');
    expect(text(document.getElementById('free-offline'))).toBe('Offline — booking resumes when Perch reaches the server.');
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
  });

  test('a strained server: says that Perch checks it less often', async () => {
    const message = 'The server is answering slowly, so Perch checks it 2 times less often until it recovers.';
    await renderNow(createFakePerch(readySnapshot({ serverStrain: message })));
    expect(screen.getAllByRole('status').map(text)).toContain(message);
  });

  test('offline with no data yet', async () => {
    await renderNow(createFakePerch(readySnapshot({ offline: true, fetchedAt: null, reservations: [], freeNow: [] })));
    expect(screen.getByText('No data yet; Perch will show what is free once the server answers.')).toBeTruthy();
  });
});

describe('Now: the next reservation', () => {
  test('shows a live countdown, and the time range and resource', async () => {
    const { perch } = await renderNow(createFakePerch(readySnapshot()));
    expect(screen.getByText('Starts in 12 min')).toBeTruthy();
    expect(screen.getByText(/Room Ada/)).toBeTruthy();
    perch.nowMs += 5 * 60_000;
    expect(await screen.findByText('Starts in 7 min')).toBeTruthy();
    perch.nowMs += 20 * 60_000;
    expect(await screen.findByText('Ends in 35 min')).toBeTruthy();
  });

  test('skips reservations that are over or checked out', async () => {
    await renderNow(
      createFakePerch(
        readySnapshot({
          reservations: [
            reservation({
              referenceNumber: 'old',
              title: 'Done early',
              start: '2025-11-26T09:00:00.000+01:00',
              end: '2025-11-26T11:00:00.000+01:00',
              checkedInAt: '2025-11-26T09:00:00.000+01:00',
              checkedOutAt: '2025-11-26T09:40:00.000+01:00',
            }),
            reservation({ referenceNumber: 'next', title: 'Standup' }),
          ],
        }),
      ),
    );
    expect(screen.getByRole('heading', { name: 'Standup' })).toBeTruthy();
    expect(screen.queryByText('Done early')).toBeNull();
  });

  test('pending approval: says so in words, and offers Cancel', async () => {
    await renderNow(createFakePerch(readySnapshot({ reservations: [reservation({ isPendingApproval: true })] })));
    expect(screen.getByText('pending approval')).toBeTruthy();
    expect(button('Cancel Design review')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Check in/ })).toBeNull();
  });

  test('check-in open: Check in is the action, busy while it runs, then Check out', async () => {
    const open = reservation({ requiresCheckIn: true, awaitsCheckIn: true, checkInOpen: true });
    const fake = createFakePerch(readySnapshot({ reservations: [open] }));
    const answer = deferred<BridgeResult<ReservationView>>();
    fake.handlers.checkIn = () => answer.promise;
    const { user } = await renderNow(fake);
    expect(screen.getByText('check-in open')).toBeTruthy();

    await user.click(button('Check in to Design review'));
    expect(fake.requestsOf('checkIn')).toEqual([{ referenceNumber: 'ref-1' }]);
    expect(button('Check in to Design review').disabled).toBe(true);
    expect(text(button('Check in to Design review'))).toBe('Checking in…');

    answer.resolve({ ok: true, value: { ...open, checkInOpen: false, checkedInAt: '2025-11-26T10:00:00.000+01:00', canCheckOut: true } });
    expect(await screen.findByRole('button', { name: 'Check out of Design review' })).toBeTruthy();
    expect(screen.getByText('checked in')).toBeTruthy();
  });

  test('checked in, nothing to extend to: Check out is the action, asks first, and a refusal is one line beside it, gone at the next action', async () => {
    const fake = createFakePerch(
      readySnapshot({
        reservations: [
          reservation({
            requiresCheckIn: true,
            start: '2025-11-26T09:30:00.000+01:00',
            checkedInAt: '2025-11-26T09:31:00.000+01:00',
            canCheckOut: true,
          }),
        ],
      }),
    );
    fake.handlers.offerExtension = async () => ({ ok: true, value: { minutes: null, reason: 'Room Ada is booked from 11:00.' } });
    fake.handlers.checkOut = async () => ({ ok: false, error: { kind: 'validation', message: 'The reservation has already ended.' } });
    const { user } = await renderNow(fake);
    expect(screen.getByText('checked in')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /^Cancel/ })).toBeNull();
    await waitFor(() => expect(fake.requestsOf('offerExtension')).toEqual([{ referenceNumber: 'ref-1' }]));
    expect(button('Check out of Design review').classList.contains('primary')).toBe(true);

    // Checking out ends it at once: asked first, and No (which has focus) or Escape keep it.
    await user.click(button('Check out of Design review'));
    expect(screen.getByRole('group', { name: 'Confirm check-out' }).textContent).toContain('End it now and free Room Ada?');
    expect(document.activeElement).toBe(button('No, keep Design review'));
    await user.keyboard('{Escape}');
    expect(fake.requestsOf('checkOut')).toEqual([]);
    expect(document.activeElement).toBe(button('Check out of Design review'));

    await user.click(button('Check out of Design review'));
    await user.click(button('Yes, check out of Design review'));
    expect(fake.requestsOf('checkOut')).toEqual([{ referenceNumber: 'ref-1' }]);
    await waitFor(() => expect(alerts()).toBe('The reservation has already ended.'));
    const line = screen.getByText('The reservation has already ended.');
    expect(line.getAttribute('role')).toBe('alert');
    expect(button('Check out of Design review').nextElementSibling).toBe(line);
    expect(button('Check out of Design review').getAttribute('aria-describedby')).toBe(line.id);
    // Asking again is the next action: the line goes.
    await user.click(button('Check out of Design review'));
    expect(alerts()).toBe('');
  });

  test("before check-in opens: its deadlines in words, I'm not coming aside, no action forced", async () => {
    const awaiting = reservation({
      requiresCheckIn: true,
      awaitsCheckIn: true,
      checkInOpensAt: '2025-11-26T10:07:00.000+01:00',
      autoReleaseAt: '2025-11-26T10:27:00.000+01:00',
    });
    const { perch } = await renderNow(createFakePerch(readySnapshot({ reservations: [awaiting] })));
    const deadlines = within(screen.getByRole('list', { name: 'Deadlines' }))
      .getAllByRole('listitem')
      .map(text);
    expect(deadlines).toEqual(['Check in 10:07 – 10:27 AM, or it is released']);
    expect(screen.queryByRole('button', { name: /Check in/ })).toBeNull();
    expect(button("I'm not coming to Design review").classList.contains('primary')).toBe(false);
    // Awaiting check-in, giving it back takes Cancel's place.
    expect(screen.queryByRole('button', { name: /^Cancel/ })).toBeNull();
    // Once check-in is open, only the release is left to say.
    perch.snapshot = readySnapshot({ reservations: [{ ...awaiting, checkInOpen: true }] });
    await waitFor(() =>
      expect(
        within(screen.getByRole('list', { name: 'Deadlines' }))
          .getAllByRole('listitem')
          .map(text),
      ).toEqual(['Released at 10:27 AM unless you check in']),
    );
    expect(button('Check in to Design review').classList.contains('primary')).toBe(true);
  });

  test("a resource keeping another zone's clock: its times are on the user's clock, as everything on the screen", async () => {
    const london = reservation({
      timezone: 'Europe/London',
      requiresCheckIn: true,
      awaitsCheckIn: true,
      checkInOpensAt: '2025-11-26T10:07:00.000+01:00',
      autoReleaseAt: '2025-11-26T10:27:00.000+01:00',
    });
    await renderNow(createFakePerch(readySnapshot({ reservations: [london] })));
    expect(
      within(screen.getByRole('list', { name: 'Deadlines' }))
        .getAllByRole('listitem')
        .map(text),
    ).toEqual(['Check in 10:07 – 10:27 AM, or it is released']);
    expect(plain(screen.getByRole('article').querySelector('.time')?.textContent)).toBe('10:12 – 11:00 AM');
    expect(screen.queryByText(/London time/)).toBeNull();
  });

  test('under way: Extend to the next slot is the action, Check out beside it; the end moves and a new offer is asked', async () => {
    const underWay = reservation({
      requiresCheckIn: true,
      start: '2025-11-26T09:30:00.000+01:00',
      checkedInAt: '2025-11-26T09:31:00.000+01:00',
      canCheckOut: true,
    });
    const fake = createFakePerch(readySnapshot({ reservations: [underWay] }));
    fake.handlers.offerExtension = async () => ({ ok: true, value: { minutes: 30, end: '2025-11-26T11:30:00.000+01:00' } });
    const answer = deferred<BridgeResult<ReservationView>>();
    fake.handlers.extend = () => answer.promise;
    const { user } = await renderNow(fake);
    const extend = await screen.findByRole('button', { name: 'Extend to 11:30 AM: Design review, 30 min more' });
    expect(text(extend)).toBe('Extend to 11:30 AM');
    expect(extend.classList.contains('primary')).toBe(true);
    expect(button('Check out of Design review').classList.contains('primary')).toBe(false);
    // A poll that changes nothing about it asks nothing again.
    fake.emit('stateChanged', readySnapshot({ reservations: [{ ...underWay }] }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Extend to 11:30 AM: Design review, 30 min more' })).toBeTruthy());
    expect(fake.requestsOf('offerExtension')).toHaveLength(1);

    await user.click(screen.getByRole('button', { name: 'Extend to 11:30 AM: Design review, 30 min more' }));
    expect(fake.requestsOf('extend')).toEqual([{ referenceNumber: 'ref-1', minutes: 30 }]);
    expect(text(button('Extend to 11:30 AM: Design review, 30 min more'))).toBe('Extending…');
    fake.handlers.offerExtension = async () => ({ ok: true, value: { minutes: null, reason: 'Room Ada is booked from 11:30.' } });
    answer.resolve({ ok: true, value: { ...underWay, end: '2025-11-26T11:30:00.000+01:00' } });
    expect(await screen.findByText('Ends in 1 h 30 min')).toBeTruthy();
    await waitFor(() => expect(fake.requestsOf('offerExtension')).toHaveLength(2));
    await waitFor(() => expect(screen.queryByRole('button', { name: /^Extend/ })).toBeNull());
    expect(button('Check out of Design review').classList.contains('primary')).toBe(true);
  });

  test('under way where the server refuses changes once started (canChange: false): Extend is neither asked about nor offered, as in My reservations', async () => {
    const locked = reservation({
      requiresCheckIn: true,
      start: '2025-11-26T09:30:00.000+01:00',
      checkedInAt: '2025-11-26T09:31:00.000+01:00',
      canCheckOut: true,
      canChange: false,
    });
    const fake = createFakePerch(readySnapshot({ reservations: [locked] }));
    fake.handlers.offerExtension = async () => ({ ok: true, value: { minutes: 30, end: '2025-11-26T11:30:00.000+01:00' } });
    await renderNow(fake);
    expect(button('Check out of Design review').classList.contains('primary')).toBe(true);
    expect(screen.queryByRole('button', { name: /^Extend/ })).toBeNull();
    expect(fake.requestsOf('offerExtension')).toEqual([]);
  });

  test("a refused Extend is one line beside Extend, never under Check out's question, and goes at the next action", async () => {
    const underWay = reservation({
      requiresCheckIn: true,
      start: '2025-11-26T09:30:00.000+01:00',
      checkedInAt: '2025-11-26T09:31:00.000+01:00',
      canCheckOut: true,
    });
    const fake = createFakePerch(readySnapshot({ reservations: [underWay] }));
    fake.handlers.offerExtension = async () => ({ ok: true, value: { minutes: 30, end: '2025-11-26T11:30:00.000+01:00' } });
    const refusal = 'This booking has started, and the server does not let you change a booking once it has started.';
    fake.handlers.extend = async () => ({ ok: false, error: { kind: 'validation', message: refusal } });
    const { user } = await renderNow(fake);
    const extend = await screen.findByRole('button', { name: 'Extend to 11:30 AM: Design review, 30 min more' });
    await user.click(extend);
    await waitFor(() => expect(alerts()).toBe(refusal));
    const line = screen.getByText(refusal);
    expect(line.getAttribute('role')).toBe('alert');
    expect(extend.nextElementSibling).toBe(line);
    expect(extend.getAttribute('aria-describedby')).toBe(line.id);
    expect(button('Check out of Design review').getAttribute('aria-describedby')).toBeNull();
    expect(line.textContent).not.toContain('start.time.constraint');

    // Asking to check out is the next action: the extend failure is gone, not left under the question.
    await user.click(button('Check out of Design review'));
    expect(screen.getByRole('group', { name: 'Confirm check-out' })).toBeTruthy();
    expect(alerts()).toBe('');
  });

  test('not under way yet: nothing to extend is asked', async () => {
    const fake = createFakePerch(readySnapshot());
    await renderNow(fake);
    expect(fake.requestsOf('offerExtension')).toEqual([]);
  });

  test('Cancel asks first; Escape and No keep it, Yes cancels this occurrence only', async () => {
    const fake = createFakePerch(readySnapshot({ reservations: [reservation({ isRecurring: true })] }));
    fake.handlers.cancel = async () => ({ ok: true, value: readySnapshot({ reservations: [] }) });
    const { user } = await renderNow(fake);
    expect(screen.getByText('Repeats')).toBeTruthy();
    // A series is cancelled from My reservations, not from here.
    expect(screen.queryByRole('button', { name: /series/ })).toBeNull();

    await user.click(button('Cancel Design review'));
    expect(screen.getByText('Cancel this occurrence?')).toBeTruthy();
    expect(document.activeElement).toBe(button('No, keep Design review'));
    await user.keyboard('{Escape}');
    expect(screen.queryByText('Cancel this occurrence?')).toBeNull();
    expect(document.activeElement).toBe(button('Cancel Design review'));

    await user.keyboard('{Enter}');
    await user.click(button('No, keep Design review'));
    expect(fake.requestsOf('cancel')).toEqual([]);

    await user.click(button('Cancel Design review'));
    await user.click(button('Yes, cancel Design review'));
    expect(fake.requestsOf('cancel')).toEqual([{ referenceNumber: 'ref-1', scope: 'this' }]);
    expect(await screen.findByText('Nothing booked. Type a booking, or pick a free resource below.')).toBeTruthy();
  });
});

describe('Now: Free now', () => {
  const rooms = [
    free({ resourceId: 3, name: 'Room Babbage', groupNames: ['Head office', 'Floor 1 rooms'], capacity: 6, location: 'Floor 1' }),
    free({ resourceId: 4, name: 'Thames', freeUntil: '2025-11-26T11:45:00.000+01:00' }),
    free({
      resourceId: 5,
      name: 'Desk 7',
      scheduleId: 2,
      scheduleName: 'Desks',
      freeUntil: '2025-11-29T00:00:00.000+01:00',
      features: [{ label: 'Screen', value: 'Two monitors' }],
    }),
    free({ resourceId: 6, name: 'Projector', scheduleId: 3, scheduleName: 'Equipment', freeUntil: '2025-11-26T10:20:00.000+01:00' }),
  ];
  const boardroom = free({
    resourceId: 7,
    name: 'Boardroom',
    freeUntil: null,
    capacity: 14,
    needsForm: 'needs approval and a cost centre',
  });

  test('groups resources by schedule; one line each: name, size, until when, and the one action with the times it books', async () => {
    await renderNow(createFakePerch(readySnapshot({ freeNow: rooms })));
    // The projector, free for less than the length chosen, is no row at all (never a dead "Too short to book").
    expect(screen.getAllByRole('heading', { level: 3 }).map(text)).toEqual(['Design review', 'Rooms', 'Desks']);
    const rows = screen.getAllByRole('listitem');
    // Most rows end today: "free all day" tells something here.
    expect(rows.map(text)).toEqual([
      'Room Babbage 6 people until 12:00 PM 10:30 – 11:00 AM',
      'Thames until 11:45 AM 10:30 – 11:00 AM',
      'Desk 7 free all day 10:30 – 11:00 AM',
    ]);
    // What a row leaves out to stay one line is in its tooltip; the action's name holds what it shows.
    expect(rows[0]!.title).toBe('Room Babbage · Floor 1 rooms · 6 people · Floor 1 · until 12:00 PM');
    expect(
      within(rows[0]!)
        .getAllByRole('button')
        .map((element) => plain(element.getAttribute('aria-label'))),
    ).toEqual(['Book Room Babbage 10:30 – 11:00 AM']);
  });

  test('"free all day" only where it tells something: not on a list free all day nearly everywhere', async () => {
    const allDay = [
      free({ resourceId: 3, name: 'Room Babbage', freeUntil: null }),
      free({ resourceId: 4, name: 'Thames', freeUntil: null }),
      free({ resourceId: 5, name: 'Avon' }),
    ];
    await renderNow(createFakePerch(readySnapshot({ freeNow: allDay })));
    expect(screen.getAllByRole('listitem').map(text)).toEqual([
      'Room Babbage 10:30 – 11:00 AM',
      'Thames 10:30 – 11:00 AM',
      'Avon until 12:00 PM 10:30 – 11:00 AM',
    ]);
  });

  test('a booking that starts within the minute says "now"', async () => {
    const fake = createFakePerch(readySnapshot({ freeNow: [free({ freeUntil: null })], now: '2025-11-26T10:29:30.000+01:00' }));
    await renderNow(fake);
    expect(screen.getAllByRole('button').map(text).at(-1)).toBe('now–11:00 AM');
  });

  test('where one click cannot book, "Book…" says why and opens the Book form filled in', async () => {
    const { perch, user } = await renderNow(createFakePerch(readySnapshot({ freeNow: [boardroom] })));
    const action = button('Book… Boardroom: needs approval and a cost centre');
    expect(text(action)).toBe('Book…');
    await user.click(action);
    expect(perch.tab).toBe('book');
    expect(perch.bookDraft).toEqual({ resourceId: 7, start: '2025-11-26T09:30:00.000Z', durationMinutes: 30 });
  });

  test('one click books from the next slot; the resource leaves the list and a status confirms', async () => {
    const fake = createFakePerch(readySnapshot({ freeNow: rooms }));
    const answer = deferred<BridgeResult<BookingOutcome>>();
    fake.handlers.book = () => answer.promise;
    const { user } = await renderNow(fake);

    await user.click(button('Book Room Babbage 10:30 – 11:00 AM'));
    expect(fake.requestsOf('book')).toEqual([{ resourceId: 3, start: '2025-11-26T09:30:00.000Z', durationMinutes: 30, title: '' }]);
    expect(text(button('Book Room Babbage 10:30 – 11:00 AM'))).toBe('Booking…');
    expect(button('Book Desk 7 10:30 – 11:00 AM').getAttribute('aria-disabled')).toBe('true');
    button('Book Desk 7 10:30 – 11:00 AM').click();
    expect(fake.requestsOf('book')).toHaveLength(1);

    fake.handlers.getState = async () => readySnapshot({ freeNow: rooms.slice(1) });
    answer.resolve({ ok: true, value: { referenceNumber: 'new-1', isPendingApproval: false } });
    await waitFor(() => expect(screen.queryByText('Room Babbage')).toBeNull());
    // Said where the row was (the first of Rooms), and to assistive technology.
    expect(screen.getAllByRole('listitem').map(text).slice(0, 2)).toEqual([
      '✓ Booked Room Babbage 10:30 – 11:00 AM',
      'Thames until 11:45 AM 10:30 – 11:00 AM',
    ]);
    expect(screen.getAllByRole('status').map(text)).toContain('Booked Room Babbage 10:30 – 11:00 AM');
    expect(document.activeElement).toBe(screen.getByLabelText(/^Filter free resources/));
  });

  test('the length chosen is what every action books, and leaves out what is not free that long; approval is reported as pending', async () => {
    const fake = createFakePerch(readySnapshot({ freeNow: rooms }));
    fake.handlers.book = async () => ({ ok: true, value: { referenceNumber: 'new-2', isPendingApproval: true } });
    const { user } = await renderNow(fake);
    await user.selectOptions(screen.getByLabelText('For how long'), '1 h 30 min');
    // Thames is free until 11:45 only.
    expect(screen.getAllByRole('listitem').map((row) => row.querySelector('.name')?.textContent)).toEqual(['Room Babbage', 'Desk 7']);
    await user.click(button('Book Room Babbage 10:30 AM – 12:00 PM'));
    expect(fake.requestsOf('book')).toEqual([{ resourceId: 3, start: '2025-11-26T09:30:00.000Z', durationMinutes: 90, title: '' }]);
    expect(await screen.findByText('✓ Booked Room Babbage 10:30 AM – 12:00 PM — pending approval')).toBeTruthy();
  });

  test("a refused booking shows the core's message verbatim and keeps the resource", async () => {
    const fake = createFakePerch(readySnapshot({ freeNow: rooms }));
    fake.handlers.book = async () => ({
      ok: false,
      error: { kind: 'invalidInput', message: 'Room Babbage cannot be booked for longer than 30 minutes.' },
    });
    const { user } = await renderNow(fake);
    await user.click(button('Book Room Babbage 10:30 – 11:00 AM'));
    await waitFor(() => expect(alerts()).toBe('Room Babbage cannot be booked for longer than 30 minutes.'));
    expect(screen.getByText('Room Babbage')).toBeTruthy();
    expect(screen.queryByText(/Booked/)).toBeNull();
  });

  test('a clash says so in words and offers the next free time, which books the same resource then', async () => {
    const fake = createFakePerch(readySnapshot({ freeNow: rooms }));
    const nextFree = { start: '2025-11-26T11:30:00.000+01:00', end: '2025-11-26T12:00:00.000+01:00' };
    fake.handlers.book = async () => ({
      ok: false,
      error: { kind: 'conflict', message: 'Room Babbage was just taken — next free 11:30 AM', nextFree },
    });
    const { user } = await renderNow(fake);
    await user.click(button('Book Room Babbage 10:30 – 11:00 AM'));
    await waitFor(() => expect(alerts()).toBe('Room Babbage was just taken — next free 11:30 AM'));
    fake.handlers.book = async () => ({ ok: true, value: { referenceNumber: 'new-3', isPendingApproval: false } });
    await user.click(button('Book next free: 11:30 AM – 12:00 PM'));
    expect(fake.requestsOf('book').at(-1)).toEqual({ resourceId: 3, start: nextFree.start, end: nextFree.end, title: '' });
    expect(await screen.findByText('Booked Room Babbage 11:30 AM – 12:00 PM')).toBeTruthy();
  });

  test('the filter narrows by name, place or feature, every word; Escape clears it', async () => {
    const { user } = await renderNow(createFakePerch(readySnapshot({ freeNow: rooms })));
    const filter = screen.getByLabelText(/^Filter free resources/);
    const names = () => screen.getAllByRole('listitem').map((row) => row.querySelector('.name')?.textContent);
    await user.type(filter, 'ROOM');
    // "Room Babbage", and Thames in the schedule "Rooms".
    expect(names()).toEqual(['Room Babbage', 'Thames']);
    expect(screen.queryByRole('heading', { name: 'Desks' })).toBeNull();
    await user.clear(filter);
    await user.type(filter, 'two monitors');
    expect(names()).toEqual(['Desk 7']);
    await user.clear(filter);
    await user.type(filter, 'zzz');
    expect(screen.getByText('Nothing matches the filter.')).toBeTruthy();
    await user.keyboard('{Escape}');
    expect((filter as HTMLInputElement).value).toBe('');
    expect(screen.getAllByRole('listitem')).toHaveLength(3);
  });

  test('the people filter keeps what holds that many', async () => {
    const { user } = await renderNow(createFakePerch(readySnapshot({ freeNow: [...rooms, boardroom] })));
    await user.selectOptions(screen.getByLabelText('People'), '8+ people');
    expect(screen.getAllByRole('listitem').map((row) => row.querySelector('.name')?.textContent)).toEqual(['Boardroom']);
  });

  test('one Tab stop for the list: arrow keys move from the filter box through the actions and back', async () => {
    const { user } = await renderNow(createFakePerch(readySnapshot({ freeNow: rooms })));
    const actions = screen.getAllByRole('button').filter((element) => element.dataset['key'] !== undefined);
    expect(actions.filter((element) => element.tabIndex === 0)).toHaveLength(1);
    await user.click(screen.getByLabelText(/^Filter free resources/));
    await user.keyboard('{ArrowDown}');
    expect(document.activeElement).toBe(button('Book Room Babbage 10:30 – 11:00 AM'));
    await user.keyboard('{ArrowDown}');
    expect(document.activeElement).toBe(button('Book Thames 10:30 – 11:00 AM'));
    await user.keyboard('{ArrowDown}{ArrowDown}');
    expect(document.activeElement).toBe(button('Book Desk 7 10:30 – 11:00 AM'));
    await user.keyboard('{Home}{End}');
    expect(document.activeElement).toBe(button('Book Desk 7 10:30 – 11:00 AM'));
    // The Tab stop follows: leaving and coming back lands where the keyboard was.
    expect(actions.filter((element) => element.tabIndex === 0)).toEqual([button('Book Desk 7 10:30 – 11:00 AM')]);
    await user.keyboard('{Home}{ArrowUp}');
    expect(document.activeElement).toBe(screen.getByLabelText(/^Filter free resources/));
  });

  test('free at a time to come: asks the core about that time and books exactly it', async () => {
    const fake = createFakePerch(readySnapshot({ freeNow: rooms }));
    fake.handlers.freeAt = async () => ({ ok: true, value: [free({ resourceId: 8, name: 'Avon', freeUntil: null })] });
    fake.handlers.book = async () => ({ ok: true, value: { referenceNumber: 'new-4', isPendingApproval: false } });
    const { user } = await renderNow(fake);
    await user.selectOptions(screen.getByLabelText('Free when'), 'At 2:00 PM');
    await user.selectOptions(screen.getByLabelText('For how long'), '1 h');
    await waitFor(() => expect(screen.getAllByRole('listitem').map((row) => row.querySelector('.name')?.textContent)).toEqual(['Avon']));
    // The heading says the time chosen.
    expect(screen.getByRole('heading', { name: 'Free at 2:00 PM' })).toBeTruthy();
    expect(fake.requestsOf('freeAt').at(-1)).toEqual({ start: '2025-11-26T13:00:00.000Z', durationMinutes: 60 });
    await user.click(button('Book Avon 2:00 – 3:00 PM'));
    expect(fake.requestsOf('book')).toEqual([{ resourceId: 8, start: '2025-11-26T13:00:00.000Z', durationMinutes: 60, title: '' }]);
    // Back to now: the snapshot's list again.
    await user.selectOptions(screen.getByLabelText('Free when'), 'Now');
    expect(screen.getByRole('heading', { name: 'Free now' })).toBeTruthy();
    expect(screen.getAllByRole('listitem')).toHaveLength(3);
  });

  test('everything closed: names the next opening, looks at it in one click, and books that time', async () => {
    // Wednesday 10:00 in Berlin; the office opens on Monday at 08:00.
    const closed = { scheduleId: 1, scheduleName: 'Head office', opensAt: '2025-12-01T08:00:00.000+01:00' };
    const fake = createFakePerch(readySnapshot({ freeNow: [], freeNowClosed: closed }));
    fake.handlers.freeAt = async () => ({ ok: true, value: [free({ resourceId: 8, name: 'Avon', freeUntil: null })] });
    fake.handlers.book = async () => ({ ok: true, value: { referenceNumber: 'new-5', isPendingApproval: false } });
    const { user } = await renderNow(fake);
    expect(plain(screen.getByText(/Everything is closed now/).textContent)).toBe(
      'Everything is closed now. Head office opens Mon 8:00 AM.',
    );
    expect(screen.queryByText('Nothing is free right now.')).toBeNull();

    await user.click(button('Look at Mon 8:00 AM'));
    await waitFor(() => expect(screen.getAllByRole('listitem').map((row) => row.querySelector('.name')?.textContent)).toEqual(['Avon']));
    expect(fake.requestsOf('freeAt').at(-1)).toEqual({ start: '2025-12-01T07:00:00.000Z', durationMinutes: 30 });
    expect(plain((screen.getByLabelText('Free when') as HTMLSelectElement).selectedOptions[0]?.textContent)).toBe('At Mon 8:00 AM');
    await user.click(button('Book Avon 8:00 – 8:30 AM'));
    expect(fake.requestsOf('book')).toEqual([{ resourceId: 8, start: '2025-12-01T07:00:00.000Z', durationMinutes: 30, title: '' }]);
  });

  test('everything closed until tomorrow, or with no opening within a week', async () => {
    const closed = { scheduleId: 1, scheduleName: 'Head office', opensAt: '2025-11-27T08:00:00.000+01:00' };
    const fake = createFakePerch(readySnapshot({ freeNow: [], freeNowClosed: closed }));
    await renderNow(fake);
    expect(plain(screen.getByText(/Everything is closed now/).textContent)).toBe(
      'Everything is closed now. Head office opens tomorrow 8:00 AM.',
    );
    expect(button('Look at tomorrow 8:00 AM')).toBeTruthy();
    fake.emit('stateChanged', readySnapshot({ freeNow: [], freeNowClosed: { ...closed, opensAt: null } }));
    await waitFor(() => expect(plain(screen.getByText(/Everything is closed now/).textContent)).toBe('Everything is closed now.'));
    expect(screen.queryByRole('button', { name: /^Look at/ })).toBeNull();
  });
});

describe('Now: Free now finds across everything', () => {
  const names = () => screen.getAllByRole('listitem').map((row) => row.querySelector('.name')?.textContent);
  const filterBox = () => screen.getByLabelText(/^Filter free resources/);

  test('every word typed begins a word of the name, place, schedule, group or features', async () => {
    const freeNow = [
      free({
        resourceId: 10,
        name: 'S05 Desk 23',
        scheduleId: 5,
        scheduleName: 'S05 Office Floor 5',
        groupNames: ['Office Floor 5'],
        capacity: 3,
        features: [{ label: 'Floor', value: '5' }],
      }),
      free({
        resourceId: 11,
        name: 'S03 Desk 31',
        scheduleId: 3,
        scheduleName: 'S03 Office Floor 3',
        features: [{ label: 'Floor', value: '3' }],
      }),
      free({ resourceId: 12, name: 'Severn (1.02)', location: 'Head office', capacity: 8 }),
      free({ resourceId: 13, name: 'Hot desk', scheduleId: 12, scheduleName: 'S12', groupNames: ['Office Floor 12'], capacity: 1 }),
    ];
    const { user } = await renderNow(createFakePerch(readySnapshot({ freeNow })));
    const cases: [string, string[]][] = [
      // "3" is not the beginning of "23", and a number alone is not a size.
      ['floor 3', ['S03 Desk 31']],
      ['S03', ['S03 Desk 31']],
      ['Office Floor 12', ['Hot desk']],
      ['1.02', ['Severn (1.02)']],
      ['(1.0', ['Severn (1.02)']],
      ['desk-23', ['S05 Desk 23']],
      ['HEAD off', ['Severn (1.02)']],
      ['eve', []],
      // A size is typed with "people" or "+": at least that many.
      ['6 people', ['Severn (1.02)']],
      ['3+', ['S05 Desk 23', 'Severn (1.02)']],
    ];
    for (const [typed, expected] of cases) {
      await user.clear(filterBox());
      await user.type(filterBox(), typed);
      expect({ typed, found: screen.queryAllByRole('listitem').map((row) => row.querySelector('.name')?.textContent) }).toEqual({
        typed,
        found: expected,
      });
    }
  });

  test('a busy match shows when it is free again, never "nothing free", and looks at that time in one click', async () => {
    const fake = createFakePerch(
      readySnapshot({
        freeNow: [free({ resourceId: 3, name: 'Room Babbage' })],
        notFreeNow: [
          unavailableResourceView({
            resourceId: 4,
            name: 'Thames (1.01)',
            scheduleName: 'Rooms',
            capacity: 6,
            freeFrom: '2025-11-26T14:30:00.000+01:00',
            standing: 'favourite',
          }),
        ],
      }),
    );
    fake.handlers.freeAt = async () => ({ ok: true, value: [free({ resourceId: 4, name: 'Thames (1.01)', freeUntil: null })] });
    const { user } = await renderNow(fake);
    // Without words typed, Free now lists only what is free.
    expect(names()).toEqual(['Room Babbage']);
    await user.type(filterBox(), 'thames');
    expect(screen.getByRole('heading', { name: 'Not free now' })).toBeTruthy();
    expect(screen.getAllByRole('listitem').map(text)).toEqual(['favourite Thames (1.01) 6 people busy until 2:30 PM Look at 2:30 PM']);
    expect(screen.queryByText(/Nothing/)).toBeNull();

    // The look button is in the list's one Tab stop.
    await user.keyboard('{ArrowDown}');
    expect(document.activeElement).toBe(button('Look at 2:30 PM, when Thames (1.01) is free again'));
    await user.keyboard('{Enter}');
    await waitFor(() => expect(names()).toEqual(['Thames (1.01)']));
    expect(fake.requestsOf('freeAt').at(-1)).toEqual({ start: '2025-11-26T13:30:00.000Z', durationMinutes: 30 });
    expect(plain((screen.getByLabelText('Free when') as HTMLSelectElement).selectedOptions[0]?.textContent)).toBe('At 2:30 PM');
    expect(button('Book Thames (1.01) 2:30 – 3:00 PM')).toBeTruthy();
  });

  test('a closed match says when it opens; booked to closing and not checked yet say so, with nothing to look at', async () => {
    const notFreeNow = [
      unavailableResourceView({
        resourceId: 4,
        name: 'Avon desk',
        reason: 'closed',
        scheduleName: 'Annex',
        freeFrom: '2025-12-01T08:00:00.000+01:00',
      }),
      unavailableResourceView({ resourceId: 5, name: 'Avon room', freeFrom: null }),
      unavailableResourceView({ resourceId: 6, name: 'Avon kit', reason: 'notAsked', freeFrom: null }),
    ];
    const fake = createFakePerch(readySnapshot({ freeNow: [], notFreeNow, freeNowClosed: null }));
    fake.handlers.freeAt = async () => ({ ok: true, value: [free({ resourceId: 9, name: 'Severn' })] });
    const { user } = await renderNow(fake);
    expect(screen.getByText('Nothing is free right now.')).toBeTruthy();
    await user.type(filterBox(), 'avon');
    expect(screen.getAllByRole('listitem').map(text)).toEqual([
      'Avon desk closed · opens Mon 8:00 AM Look at Mon 8:00 AM',
      'Avon room booked until closing',
      'Avon kit not checked yet',
    ]);
    expect(screen.queryByText(/Nothing/)).toBeNull();
    await user.click(button('Look at Mon 8:00 AM, when Avon desk opens'));
    await waitFor(() => expect(fake.requestsOf('freeAt').at(-1)).toEqual({ start: '2025-12-01T07:00:00.000Z', durationMinutes: 30 }));
    // At a time to come only what is free then is listed.
    expect(await screen.findByText('Nothing free then matches the filter.')).toBeTruthy();
  });

  describe('hundreds of rows', () => {
    // 100 free desks over 4 schedules, in the core's order; and 20 not free.
    const many = Array.from({ length: 100 }, (_, index) =>
      free({
        resourceId: 100 + index,
        name: `Desk ${100 + index}`,
        scheduleId: 1 + (index % 4),
        scheduleName: `S0${1 + (index % 4)}`,
        freeUntil: null,
      }),
    );
    const busy = Array.from({ length: 20 }, (_, index) =>
      unavailableResourceView({ resourceId: 300 + index, name: `Desk ${300 + index}`, freeFrom: '2025-11-26T14:30:00.000+01:00' }),
    );

    test('the first 30 are shown by schedule, each saying how many of its schedule; "Show all" reveals the rest and moves the keyboard there', async () => {
      const { user } = await renderNow(createFakePerch(readySnapshot({ freeNow: many, notFreeNow: busy })));
      expect(names()).toEqual(
        many
          .slice(0, 30)
          .map(({ name }) => name)
          .sort((a, b) => (Number(a.slice(5)) % 4) - (Number(b.slice(5)) % 4)),
      );
      expect(screen.getAllByRole('heading', { level: 3 }).map(text).slice(1)).toEqual([
        'S01 · 8 of 25',
        'S02 · 8 of 25',
        'S03 · 7 of 25',
        'S04 · 7 of 25',
      ]);
      await user.click(button('Show all 100 free in 4 schedules'));
      expect(screen.getAllByRole('listitem')).toHaveLength(100);
      expect(screen.getAllByRole('heading', { level: 3 }).map(text).slice(1)).toEqual(['S01', 'S02', 'S03', 'S04']);
      expect(screen.queryByRole('button', { name: /^Show all/ })).toBeNull();
      // The topmost row it added: Desk 132, the ninth of S01.
      expect(document.activeElement).toBe(button('Book Desk 132 10:30 – 11:00 AM'));
    });

    test('one schedule is named; what is not free is cut the same way', async () => {
      const inOne = many.slice(0, 48).map((resource) => ({ ...resource, scheduleId: 3, scheduleName: 'S03' }));
      const { user } = await renderNow(createFakePerch(readySnapshot({ freeNow: inOne, notFreeNow: busy })));
      expect(screen.getAllByRole('listitem')).toHaveLength(30);
      expect(button('Show all 48 free in S03')).toBeTruthy();
      await user.type(filterBox(), 'desk');
      expect(screen.getAllByRole('listitem')).toHaveLength(30 + 10);
      await user.click(button('Show all 20 not free now'));
      expect(screen.getAllByRole('listitem')).toHaveLength(30 + 20);
      expect(document.activeElement).toBe(button('Look at 2:30 PM, when Desk 310 is free again'));
      expect(button('Show all 48 free in S03')).toBeTruthy();
    });

    test('the filter searches every row, not only those shown', async () => {
      const { user } = await renderNow(createFakePerch(readySnapshot({ freeNow: many })));
      expect(screen.queryByText('Desk 187')).toBeNull();
      await user.type(filterBox(), 'desk 187');
      expect(names()).toEqual(['Desk 187']);
      await user.clear(filterBox());
      await user.type(filterBox(), 's02');
      expect(names()).toHaveLength(25);
      expect(screen.queryByRole('button', { name: /^Show all/ })).toBeNull();
    });
  });
});

describe("Now: I'm not coming", () => {
  const awaiting = reservation({
    requiresCheckIn: true,
    awaitsCheckIn: true,
    checkInOpensAt: '2025-11-26T10:07:00.000+01:00',
    autoReleaseAt: '2025-11-26T10:27:00.000+01:00',
  });

  test('before the start, asks once whether to cancel and free the room; No keeps it, Yes gives it back', async () => {
    const fake = createFakePerch(readySnapshot({ reservations: [awaiting] }));
    const answer = deferred<BridgeResult<StateSnapshot>>();
    fake.handlers.release = () => answer.promise;
    const { user } = await renderNow(fake);

    await user.click(button("I'm not coming to Design review"));
    expect(text(screen.getByRole('group', { name: 'Confirm giving the booking back' }))).toContain('Cancel it and free Room Ada?');
    // No has the focus: a reflexive Enter keeps the booking.
    expect(document.activeElement).toBe(button('No, keep Design review'));
    await user.keyboard('{Enter}');
    expect(fake.requestsOf('release')).toEqual([]);
    expect(document.activeElement).toBe(button("I'm not coming to Design review"));

    await user.click(button("I'm not coming to Design review"));
    await user.click(button('Yes, free it: give Design review back'));
    expect(fake.requestsOf('release')).toEqual([{ referenceNumber: 'ref-1' }]);
    expect(text(button("I'm not coming to Design review"))).toBe('Giving it back…');
    answer.resolve({ ok: true, value: readySnapshot({ reservations: [] }) });
    expect(await screen.findByText('Nothing booked. Type a booking, or pick a free resource below.')).toBeTruthy();
  });

  test('after the start, while check-in is open, the question is about ending it now; a refusal is shown', async () => {
    const started = { ...awaiting, start: '2025-11-26T09:55:00.000+01:00', checkInOpen: true };
    const fake = createFakePerch(readySnapshot({ reservations: [started] }));
    fake.handlers.release = async () => ({
      ok: false,
      error: { kind: 'validation', message: 'This reservation cannot be checked out from.' },
    });
    const { user } = await renderNow(fake);
    await user.click(button("I'm not coming to Design review"));
    expect(text(screen.getByRole('group', { name: 'Confirm giving the booking back' }))).toContain('End it now and free Room Ada?');
    await user.click(button('Yes, free it: give Design review back'));
    await waitFor(() => expect(alerts()).toBe('This reservation cannot be checked out from.'));
    expect(button("I'm not coming to Design review").getAttribute('aria-describedby')).toBe(
      screen.getByText('This reservation cannot be checked out from.').id,
    );
  });

  test('is not offered once check-in has closed, nor on a booking that needs none', async () => {
    const closed = { ...awaiting, start: '2025-11-26T09:30:00.000+01:00', checkInOpen: false };
    await renderNow(createFakePerch(readySnapshot({ reservations: [closed] })));
    expect(screen.queryByRole('button', { name: /not coming/ })).toBeNull();
    expect(button('Cancel Design review')).toBeTruthy();
  });

  test("a notification's I'm not coming opens the Next card with the question asked", async () => {
    const fake = createFakePerch(readySnapshot({ reservations: [{ ...awaiting, checkInOpen: true }] }));
    const { perch } = await renderNow(fake);
    fake.emit('navigate', { referenceNumber: 'ref-1', confirm: 'release' });
    expect(await screen.findByRole('group', { name: 'Confirm giving the booking back' })).toBeTruthy();
    expect(perch.tab).toBe('now');
    expect(document.activeElement).toBe(button('No, keep Design review'));
    expect(fake.requestsOf('release')).toEqual([]);
  });
});

describe('Now: type to book', () => {
  const line = () => plain(document.getElementById('free-line')?.textContent);
  const field = () => screen.getByLabelText(/^Filter free resources, or type a booking/) as HTMLInputElement;
  const thames = free({ resourceId: 4, name: 'Thames', freeUntil: null });
  function preview(overrides: Partial<PhrasePreview> = {}): PhrasePreview {
    return {
      words: 'Thames, tomorrow 2:00 – 3:30 PM',
      resourceId: 4,
      start: '2025-11-27T14:00:00.000+01:00',
      end: '2025-11-27T15:30:00.000+01:00',
      understood: [],
      ambiguities: [],
      problem: null,
      draft: null,
      ...overrides,
    };
  }

  test('the line is read once typing rests, shown in one line, and Enter books it, said in place', async () => {
    const fake = createFakePerch(readySnapshot({ freeNow: [free(), thames] }));
    fake.handlers.readPhrase = async ({ text }) => ({ ok: true, value: text === 'thames tomorrow 2pm for 90 min' ? preview() : null });
    fake.handlers.bookPhrase = async () => ({ ok: true, value: { referenceNumber: 'typed-1', isPendingApproval: false } });
    const { user } = await renderNow(fake);
    await user.type(field(), 'thames tomorrow 2pm for 90 min');
    await waitFor(() => expect(line()).toBe('↵Enter books Thames, tomorrow 2:00 – 3:30 PM'));
    // Read when typing rested, not at every key.
    expect(fake.requestsOf('readPhrase').length).toBeLessThan(5);
    expect(field().getAttribute('aria-describedby')).toBe('free-line');
    // A booking is not a filter: both rows stay.
    expect(screen.getAllByRole('listitem')).toHaveLength(2);
    await user.keyboard('{Enter}');
    await waitFor(() => expect(line()).toBe('Booked Thames, tomorrow 2:00 – 3:30 PM'));
    expect(fake.requestsOf('bookPhrase')).toEqual([{ text: 'thames tomorrow 2pm for 90 min', title: '' }]);
    expect(field().value).toBe('');
  });

  test('a slower answer to an earlier line never replaces the answer to the line as it stands', async () => {
    const fake = createFakePerch(readySnapshot({ freeNow: [thames] }));
    const answers = new Map<string, ReturnType<typeof deferred<BridgeResult<PhrasePreview | null>>>>();
    fake.handlers.readPhrase = ({ text }) => {
      const answer = deferred<BridgeResult<PhrasePreview | null>>();
      answers.set(text, answer);
      return answer.promise;
    };
    const { user } = await renderNow(fake);
    await user.type(field(), 'thames 2pm');
    await waitFor(() => expect(answers.has('thames 2pm')).toBe(true));
    await user.type(field(), ' 30m');
    await waitFor(() => expect(answers.has('thames 2pm 30m')).toBe(true));
    answers.get('thames 2pm 30m')!.resolve({ ok: true, value: preview({ words: 'Thames, today 2:00 – 2:30 PM' }) });
    await waitFor(() => expect(line()).toBe('↵Enter books Thames, today 2:00 – 2:30 PM'));
    // The earlier line's answer comes last, and is dropped.
    answers.get('thames 2pm')!.resolve({ ok: true, value: preview({ words: 'Thames, today 2:00 – 2:30 PM', problem: 'Add a length.' }) });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(line()).toBe('↵Enter books Thames, today 2:00 – 2:30 PM');
  });

  test('Ctrl+Enter books too; a line that cannot be booked says why and Enter books nothing; one that needs the form opens it', async () => {
    const fake = createFakePerch(readySnapshot({ freeNow: [thames] }));
    const draft = { resourceId: 7, start: '2025-11-27T13:00:00.000Z', durationMinutes: 60 };
    fake.handlers.readPhrase = async ({ text }) => ({
      ok: true,
      value: text.startsWith('danube')
        ? preview({ words: '“danube”', resourceId: null, problem: 'Nothing you can book is called “danube”.' })
        : text.startsWith('boardroom')
          ? preview({
              words: 'Boardroom, tomorrow 2:00 – 3:00 PM',
              problem: 'Boardroom needs approval: finish it in the Book form.',
              draft,
            })
          : preview(),
    });
    fake.handlers.bookPhrase = async () => ({ ok: true, value: { referenceNumber: 'typed-2', isPendingApproval: false } });
    const { user, perch } = await renderNow(fake);

    await user.type(field(), 'danube 2pm');
    await waitFor(() => expect(line()).toBe('Nothing you can book is called “danube”.'));
    await user.keyboard('{Enter}');
    expect(fake.requestsOf('bookPhrase')).toEqual([]);

    await user.clear(field());
    await user.type(field(), 'thames tomorrow 2pm');
    await waitFor(() => expect(line()).toMatch(/^↵Enter books Thames/));
    await user.keyboard('{Control>}{Enter}{/Control}');
    await waitFor(() => expect(fake.requestsOf('bookPhrase')).toEqual([{ text: 'thames tomorrow 2pm', title: '' }]));

    await user.type(field(), 'boardroom tomorrow 2pm');
    await waitFor(() =>
      expect(line()).toBe(
        'Boardroom, tomorrow 2:00 – 3:00 PM: Boardroom needs approval: finish it in the Book form. Enter opens the Book form.',
      ),
    );
    await user.keyboard('{Enter}');
    expect(perch.tab).toBe('book');
    expect(perch.bookDraft).toEqual(draft);
    expect(fake.requestsOf('bookPhrase')).toHaveLength(1);
  });

  test('a line that is not a booking filters the list, and Enter books nothing', async () => {
    const fake = createFakePerch(readySnapshot({ freeNow: [free(), thames] }));
    const { user } = await renderNow(fake);
    await user.type(field(), 'thames');
    expect(screen.getAllByRole('listitem').map((row) => row.querySelector('.name')?.textContent)).toEqual(['Thames']);
    await waitFor(() => expect(fake.requestsOf('readPhrase')).toContainEqual({ text: 'thames' }));
    await user.keyboard('{Enter}');
    expect(line()).toBe('');
    expect(fake.requestsOf('bookPhrase')).toEqual([]);
  });
});
