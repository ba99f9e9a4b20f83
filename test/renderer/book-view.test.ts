import { render, screen, waitFor, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { describe, expect, test } from 'vitest';
import type { AttributeView, BookingOutcome, BridgeResult, ResourceView, SlotView } from '$bridge/contract.js';
import { dayChoices } from '../../renderer/src/lib/book-form.svelte.js';
import { PerchStore } from '../../renderer/src/lib/perch.svelte.js';
import BookView from '../../renderer/src/views/BookView.svelte';
import { createFakePerch, deferred, readySnapshot, reservation, type FakePerch } from './fake-perch.js';

function resource(resourceId: number, name: string, overrides: Partial<ResourceView> = {}): ResourceView {
  return {
    resourceId,
    name,
    location: '',
    scheduleId: 1,
    groupIds: [],
    statusId: 1,
    requiresApproval: false,
    requiresCheckIn: false,
    autoReleaseMinutes: null,
    minLengthMinutes: null,
    maxLengthMinutes: null,
    maxParticipants: null,
    color: '',
    face: { kind: 'other', color: null },
    ...overrides,
  };
}

const resources = [
  resource(3, 'Room Babbage', { location: 'Floor 2' }),
  resource(1, 'Room Ada', { location: 'Floor 1' }),
  resource(5, 'Attic', { requiresApproval: true }),
  resource(7, 'Projector', { location: 'Store room' }),
  resource(4, 'desk 12', { location: 'Floor 2', minLengthMinutes: 30, maxLengthMinutes: 60 }),
];

const at = (time: string) => `2025-11-26T${time}:00.000+01:00`;
const slot = (from: string, to: string, isReservable = true): SlotView => ({ start: at(from), end: at(to), isReservable });
const slots = [
  slot('09:00', '09:30'), // already past at 10:00
  slot('10:00', '10:30'),
  slot('10:30', '11:00'),
  slot('11:00', '11:30', false),
  slot('11:30', '12:00'),
  slot('12:00', '12:30'),
  slot('12:30', '13:00'),
];

function attribute(id: number, label: string, type: number, overrides: Partial<AttributeView> = {}): AttributeView {
  return { id, label, type, required: false, regex: null, possibleValues: [], resourceIds: [], ...overrides };
}

async function setup(configure: (fake: FakePerch) => void = () => {}) {
  const fake = createFakePerch(readySnapshot({ reservations: [reservation({ resourceId: 1 })] }));
  fake.handlers.listResources = async () => ({ ok: true, value: resources });
  fake.handlers.listSlots = async () => ({ ok: true, value: slots });
  configure(fake);
  const perch = new PerchStore(fake.api);
  perch.start();
  await waitFor(() => expect(perch.snapshot).not.toBeNull());
  await waitFor(() => expect(perch.settings).not.toBeNull());
  render(BookView, { props: { perch } });
  await screen.findByRole('heading', { name: 'Choose a resource' });
  await screen.findByText('Room Babbage');
  return { fake, perch, user: userEvent.setup() };
}

const names = (region: string) =>
  within(screen.getByRole('region', { name: region }))
    .getAllByRole('button')
    .filter((button) => !button.hasAttribute('aria-pressed'))
    .map((button) => button.querySelector('.name')?.textContent);

const select = (label: string) => screen.getByLabelText(label) as HTMLSelectElement;
const optionTexts = (label: string) => [...select(label).options].map((option) => option.textContent?.trim());

/** The texts of the live lines, as written (Intl's narrow spaces kept). */
const statusLines = () => screen.getAllByRole('status').map((line) => line.textContent);

async function openForm(user: ReturnType<typeof userEvent.setup>, name: string) {
  await user.click(screen.getByRole('button', { name: new RegExp(`^${name}`) }));
  await screen.findByRole('heading', { name: `Book ${name}` });
  await screen.findByLabelText('Start');
}

describe('Book: resource picker', () => {
  test('lists favourites, then recently booked, then the rest by name', async () => {
    await setup();
    expect(names('Favourites')).toEqual(['Projector']);
    expect(names('Recently booked')).toEqual(['Room Ada']);
    expect(names('All resources')).toEqual(['Attic', 'desk 12', 'Room Babbage']);
  });

  test('searches name and location, ignoring case', async () => {
    const { user } = await setup();
    await user.type(screen.getByLabelText('Search resources'), 'FLOOR 2');
    // With nothing to put first, the one group is simply "Resources".
    expect(names('Resources')).toEqual(['desk 12', 'Room Babbage']);
    expect(screen.queryByRole('region', { name: 'Favourites' })).toBeNull();
    await user.clear(screen.getByLabelText('Search resources'));
    await user.type(screen.getByLabelText('Search resources'), 'proj');
    expect(names('Favourites')).toEqual(['Projector']);
    await user.type(screen.getByLabelText('Search resources'), 'zzz');
    expect(screen.getByText(/No resource matches/)).toBeTruthy();
  });

  test('arrow keys move through the list with one tab stop, Enter picks, Escape goes back', async () => {
    const { user, fake } = await setup();
    await user.click(screen.getByLabelText('Search resources'));
    await user.keyboard('{ArrowDown}');
    expect(document.activeElement?.textContent).toContain('Projector');
    await user.keyboard('{ArrowDown}{ArrowDown}');
    expect(document.activeElement?.textContent).toContain('Attic');
    expect(screen.getAllByRole('button').filter((b) => b.tabIndex === 0 && !b.hasAttribute('aria-pressed'))).toHaveLength(1);
    await user.keyboard('{ArrowUp}');
    expect(document.activeElement?.textContent).toContain('Room Ada');
    await user.keyboard('{Enter}');
    expect(await screen.findByRole('heading', { name: 'Book Room Ada' })).toBeTruthy();
    expect(fake.requestsOf('listSlots')).toEqual([{ resourceId: 1, date: '2025-11-26' }]);
    expect(document.activeElement).toBe(screen.getByLabelText('Day'));

    await user.keyboard('{Escape}');
    expect(await screen.findByRole('heading', { name: 'Choose a resource' })).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByLabelText('Search resources'));

    // Typing and Enter takes the best match.
    await user.type(screen.getByLabelText('Search resources'), 'babb{Enter}');
    expect(await screen.findByRole('heading', { name: 'Book Room Babbage' })).toBeTruthy();
  });

  test('the star saves favourites through the settings', async () => {
    const { user, fake } = await setup();
    const star = screen.getByRole('button', { name: 'Favourite Room Babbage' });
    expect(star.getAttribute('aria-pressed')).toBe('false');
    await user.click(star);
    await waitFor(() => expect(names('Favourites')).toEqual(['Projector', 'Room Babbage']));
    expect(fake.requestsOf('setSettings')).toEqual([{ favouriteResourceIds: [7, 3] }]);
    expect(screen.getByRole('button', { name: 'Favourite Room Babbage' }).getAttribute('aria-pressed')).toBe('true');
    await user.click(screen.getByRole('button', { name: 'Favourite Projector' }));
    await waitFor(() => expect(names('Favourites')).toEqual(['Room Babbage']));
    expect(fake.requestsOf('setSettings')[1]).toEqual({ favouriteResourceIds: [3] });
  });
});

describe('Book: form', () => {
  test('offers the free starts of the day, and ends reachable without crossing a taken slot', async () => {
    const { user, perch } = await setup();
    await openForm(user, 'Room Ada');
    const time = (t: string) => perch.format.time(at(t));
    expect(select('Day').value).toBe('2025-11-26');
    expect(optionTexts('Start')).toEqual(['10:00', '10:30', '11:30', '12:00', '12:30'].map(time));
    expect(optionTexts('Duration')).toEqual(['30 min', '1 h']);
    // The end, which the short Duration choices leave out, is in the line that says what will be booked.
    expect(statusLines()).toContain(`Today, ${perch.format.shortDate(at('10:00'))}, ${perch.format.timeRange(at('10:00'), at('10:30'))}`);

    await user.selectOptions(select('Start'), at('11:30'));
    expect(optionTexts('Duration')).toEqual(['30 min', '1 h', '1 h 30 min']);
  });

  test("keeps to the resource's minimum and maximum length", async () => {
    const { user, perch } = await setup((fake) => {
      fake.handlers.listSlots = async () => ({
        ok: true,
        value: [slot('12:00', '12:15'), slot('12:15', '12:30'), slot('12:30', '12:45'), slot('12:45', '13:00'), slot('13:00', '13:15')],
      });
    });
    await openForm(user, 'desk 12');
    expect(optionTexts('Duration')).toEqual(['30 min', '45 min', '1 h']);
    await user.selectOptions(select('Duration'), at('13:00'));
    expect(statusLines().some((line) => line?.endsWith(`, ${perch.format.timeRange(at('12:00'), at('13:00'))}`))).toBe(true);
    expect(screen.getByText('Bookings last at least 30 min and at most 1 h.')).toBeTruthy();
  });

  test('a new date loads that day; a day without free times says so', async () => {
    const { user, fake } = await setup();
    await openForm(user, 'Room Ada');
    fake.handlers.listSlots = async () => ({ ok: true, value: [slot('10:00', '10:30', false)] });
    await user.selectOptions(select('Day'), '2025-11-27');
    expect(await screen.findByText('No free times on this day.')).toBeTruthy();
    expect(fake.requestsOf('listSlots').at(-1)).toEqual({ resourceId: 1, date: '2025-11-27' });
    expect((screen.getByRole('button', { name: 'Book' }) as HTMLButtonElement).disabled).toBe(true);
  });

  test('books with title, description and attributes, and confirms', async () => {
    const { user, fake, perch } = await setup((fake) => {
      fake.handlers.listReservationAttributes = async () => ({
        ok: true,
        value: [attribute(11, 'Cost centre', 1, { required: true }), attribute(12, 'Only for the attic', 1, { resourceIds: [5] })],
      });
      fake.handlers.book = async () => ({ ok: true, value: { referenceNumber: 'new-1', isPendingApproval: false } });
    });
    await openForm(user, 'Room Ada');
    expect(screen.queryByLabelText('Only for the attic')).toBeNull();
    expect(screen.queryByText(/Needs approval/)).toBeNull();
    await user.selectOptions(select('Duration'), at('11:00'));
    await user.type(screen.getByLabelText('Title'), 'Planning');
    await user.type(screen.getByLabelText('Description'), 'Q1');
    await user.type(screen.getByLabelText(/Cost centre/), 'CC-7{Enter}');

    const status = await screen.findByText(/^Booked Room Ada/);
    expect(status.closest('[role="status"]')).toBeTruthy();
    expect(status.textContent).toBe(`Booked Room Ada ${perch.format.timeRange(at('10:00'), at('11:00'))}`);
    expect(fake.requestsOf('book')).toEqual([
      {
        resourceId: 1,
        start: at('10:00'),
        end: at('11:00'),
        title: 'Planning',
        description: 'Q1',
        customAttributes: [{ attributeId: 11, value: 'CC-7' }],
      },
    ]);
    // The form resets: back to the list, and a new booking starts empty.
    expect(screen.getByRole('heading', { name: 'Choose a resource' })).toBeTruthy();
    await openForm(user, 'Room Ada');
    expect((screen.getByLabelText('Title') as HTMLInputElement).value).toBe('');
    expect((screen.getByLabelText(/Cost centre/) as HTMLInputElement).value).toBe('');
    expect(screen.queryByText(/^Booked Room Ada/)).toBeNull();
  });

  test('a resource that needs approval says so, and the confirmation says pending approval', async () => {
    const { user, fake, perch } = await setup((fake) => {
      fake.handlers.book = async () => ({ ok: true, value: { referenceNumber: 'new-2', isPendingApproval: true } });
    });
    await openForm(user, 'Attic');
    expect(screen.getByText(/^Needs approval/)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Book' }));
    const status = await screen.findByText(/^Booked Attic/);
    expect(status.textContent).toBe(`Booked Attic ${perch.format.timeRange(at('10:00'), at('10:30'))} — pending approval`);
    expect(fake.requestsOf('book')).toEqual([{ resourceId: 5, start: at('10:00'), end: at('10:30'), title: '' }]);
  });

  test("shows the server's error verbatim and keeps the form", async () => {
    const answer = deferred<BridgeResult<BookingOutcome>>();
    const { user } = await setup((fake) => {
      fake.handlers.book = () => answer.promise;
    });
    await openForm(user, 'Room Ada');
    await user.type(screen.getByLabelText('Title'), 'Retro');
    await user.click(screen.getByRole('button', { name: 'Book' }));
    expect((screen.getByRole('button', { name: 'Booking…' }) as HTMLButtonElement).disabled).toBe(true);
    answer.resolve({
      ok: false,
      error: {
        kind: 'validation',
        message: 'The server refused the reservation.',
        errors: ['There are conflicting reservations on Room Ada 26/11/2025 10:00'],
      },
    });
    expect(await screen.findByText('There are conflicting reservations on Room Ada 26/11/2025 10:00')).toBeTruthy();
    expect(screen.getByText('The server refused the reservation.').closest('[role="alert"]')).toBeTruthy();
    expect((screen.getByLabelText('Title') as HTMLInputElement).value).toBe('Retro');
    expect(screen.getByRole('heading', { name: 'Book Room Ada' })).toBeTruthy();
  });

  test('required attributes are checked before sending, then sent once valid', async () => {
    const { user, fake } = await setup((fake) => {
      fake.handlers.listReservationAttributes = async () => ({
        ok: true,
        value: [
          attribute(21, 'Badge number', 1, { required: true, regex: '/^B-\\d{3}$/i' }),
          attribute(22, 'Catering', 3, { required: true, possibleValues: ['None', 'Coffee'] }),
          attribute(23, 'I accept the rules', 4, { required: true }),
        ],
      });
      fake.handlers.book = async () => ({ ok: true, value: { referenceNumber: 'new-3', isPendingApproval: false } });
    });
    await openForm(user, 'Room Ada');
    await user.type(screen.getByLabelText(/Badge number/), 'x1');
    await user.click(screen.getByRole('button', { name: 'Book' }));

    const badge = screen.getByLabelText(/Badge number/);
    expect(badge.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(badge.getAttribute('aria-describedby')!)?.textContent).toBe(
      'Badge number is not in the expected format.',
    );
    expect(screen.getByText('Catering is required.')).toBeTruthy();
    expect(screen.getByText('I accept the rules must be ticked.')).toBeTruthy();
    expect(document.activeElement).toBe(badge);
    expect(fake.requestsOf('book')).toEqual([]);

    await user.clear(badge);
    await user.type(badge, 'b-123');
    expect(badge.getAttribute('aria-invalid')).toBeNull();
    await user.selectOptions(screen.getByLabelText(/Catering/), 'Coffee');
    await user.click(screen.getByLabelText(/I accept the rules/));
    expect(screen.queryByText(/is required|must be ticked/)).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Book' }));
    await screen.findByText(/^Booked Room Ada/);
    expect(fake.requestsOf('book')).toEqual([
      {
        resourceId: 1,
        start: at('10:00'),
        end: at('10:30'),
        title: '',
        customAttributes: [
          { attributeId: 21, value: 'b-123' },
          { attributeId: 22, value: 'Coffee' },
          { attributeId: 23, value: '1' },
        ],
      },
    ]);
  });
});

describe('Book: the day, quick choices, keys and recovery', () => {
  test("days read in the OS's regional format, day and month in its order, today and tomorrow by name", () => {
    const british = dayChoices('2025-11-26', '2025-11-26', 'en-GB');
    expect(british.slice(0, 3).map((day) => day.label)).toEqual(['Today, Wed 26 Nov', 'Tomorrow, Thu 27 Nov', 'Fri 28 Nov']);
    expect(british.slice(0, 3).map((day) => day.date)).toEqual(['Wed 26 Nov', 'Thu 27 Nov', 'Fri 28 Nov']);
    expect(
      dayChoices('2025-11-26', '2025-11-26', 'en-US')
        .slice(0, 3)
        .map((day) => day.label),
    ).toEqual(['Today, Wed Nov 26', 'Tomorrow, Thu Nov 27', 'Fri Nov 28']);
    // Calendar days, whatever the clocks do: across the month, the year and the end of summer time.
    expect(british.find((day) => day.key === '2026-01-01')?.label).toBe('Thu 1 Jan');
    expect(
      dayChoices('2026-03-28', '2026-03-28', 'en-GB')
        .slice(1, 3)
        .map((day) => day.key),
    ).toEqual(['2026-03-29', '2026-03-30']);
    // A day chosen beyond the list (a draft) stays, in its place, with its year.
    const far = dayChoices('2025-11-26', '2026-11-30', 'en-GB');
    expect(far.at(-1)).toEqual({ key: '2026-11-30', date: 'Mon 30 Nov 2026', label: 'Mon 30 Nov 2026' });
  });

  test('Today, Tomorrow and the starts of the free stretches are one click each', async () => {
    const { user, fake, perch } = await setup();
    await openForm(user, 'Room Ada');
    const quick = within(screen.getByRole('group', { name: 'Quick choices' }));
    const time = (t: string) => perch.format.time(at(t));
    expect(quick.getAllByRole('button').map((button) => button.textContent)).toEqual([
      'Today',
      'Tomorrow',
      `from ${time('10:00')}`,
      `from ${time('11:30')}`,
    ]);
    await user.click(quick.getByRole('button', { name: `from ${time('11:30')}` }));
    expect(select('Start').value).toBe(at('11:30'));
    await user.click(quick.getByRole('button', { name: 'Tomorrow' }));
    expect(fake.requestsOf('listSlots').at(-1)).toEqual({ resourceId: 1, date: '2025-11-27' });
    expect(select('Day').value).toBe('2025-11-27');
    expect(quick.getByRole('button', { name: 'Tomorrow' }).getAttribute('aria-pressed')).toBe('true');
  });

  test('while a day loads, the Start and Duration row stays where it is', async () => {
    const { user, fake } = await setup();
    await openForm(user, 'Room Ada');
    const answer = deferred<BridgeResult<SlotView[]>>();
    fake.handlers.listSlots = () => answer.promise;
    await user.selectOptions(select('Day'), '2025-11-28');
    expect(await screen.findByText('Loading free times…')).toBeTruthy();
    expect(select('Start').disabled).toBe(true);
    expect(select('Duration').disabled).toBe(true);
    expect((screen.getByRole('button', { name: 'Book' }) as HTMLButtonElement).disabled).toBe(true);
    answer.resolve({ ok: true, value: slots });
    await waitFor(() => expect(select('Start').disabled).toBe(false));
    expect(screen.queryByText('Loading free times…')).toBeNull();
  });

  test('Ctrl+Enter books from any field, the description included', async () => {
    const { user, fake } = await setup((fake) => {
      fake.handlers.book = async () => ({ ok: true, value: { referenceNumber: 'new-4', isPendingApproval: false } });
    });
    await openForm(user, 'Room Ada');
    await user.type(screen.getByLabelText('Description'), 'Line one{Enter}');
    expect(fake.requestsOf('book')).toEqual([]);
    await user.keyboard('{Control>}{Enter}{/Control}');
    await screen.findByText(/^Booked Room Ada/);
    expect(fake.requestsOf('book')).toEqual([{ resourceId: 1, start: at('10:00'), end: at('10:30'), title: '', description: 'Line one' }]);
  });

  test('opened offline, the form asks again when the next state says online, and recovers', async () => {
    const { user, fake } = await setup((fake) => {
      fake.handlers.listSlots = async () => ({ ok: false, error: { kind: 'network', message: 'Perch cannot reach the server.' } });
    });
    fake.emit('stateChanged', readySnapshot({ offline: true }));
    await openForm(user, 'Room Ada');
    expect(await screen.findByText('Perch cannot reach the server.')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Book' }) as HTMLButtonElement).disabled).toBe(true);

    fake.handlers.listSlots = async () => ({ ok: true, value: slots });
    fake.emit('stateChanged', readySnapshot({ offline: false }));
    await waitFor(() => expect(select('Start').disabled).toBe(false));
    expect(screen.queryByText('Perch cannot reach the server.')).toBeNull();
    expect((screen.getByRole('button', { name: 'Book' }) as HTMLButtonElement).disabled).toBe(false);
  });
});
