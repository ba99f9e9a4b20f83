import { render, screen, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { describe, expect, test } from 'vitest';
import type { BridgeResult, StateSnapshot } from '$bridge/contract.js';
import App from '../../renderer/src/App.svelte';
import { PerchStore } from '../../renderer/src/lib/perch.svelte.js';
import { createFakePerch, deferred, readySnapshot, signedOutSnapshot, type FakePerch } from './fake-perch.js';

async function renderFirstRun(fake: FakePerch = createFakePerch()) {
  render(App, { props: { perch: new PerchStore(fake.api) } });
  await screen.findByRole('heading', { name: 'Get started' });
  return fake;
}

const field = (name: string) => screen.getByLabelText(name) as HTMLInputElement;
const button = (name: string | RegExp) => screen.getByRole('button', { name }) as HTMLButtonElement;
const alertTexts = () =>
  screen
    .getAllByRole('alert')
    .map((alert) => alert.textContent?.trim() ?? '')
    .filter((text) => text !== '');

async function openServerForm(user: ReturnType<typeof userEvent.setup>) {
  await user.click(button("Connect to my organisation's server"));
}

describe('Try it on this computer', () => {
  test('is the one primary choice, explained in a sentence, with the server form folded away', async () => {
    await renderFirstRun();
    expect(screen.queryByRole('tablist')).toBeNull();
    const tryIt = button('Try it on this computer');
    expect(tryIt.classList.contains('primary')).toBe(true);
    expect(document.querySelectorAll('button.primary')).toHaveLength(1);
    expect(tryIt.getAttribute('aria-describedby')).toBe('try-description');
    expect(document.getElementById('try-description')?.textContent).toMatch(
      /private booking service on this computer, with demo rooms, desks and equipment/,
    );
    expect(button("Connect to my organisation's server").getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByRole('textbox', { name: 'Server address' })).toBeNull();
    expect(alertTexts()).toEqual([]);
  });

  test('each choice is a card with one line saying what happens, the usual one first', async () => {
    await renderFirstRun();
    const cards = screen.getAllByRole('region');
    expect(cards.map((card) => within(card).getByRole('heading').textContent?.trim())).toEqual(['On this computer', 'At work']);
    expect(within(cards[0]!).getByRole('button', { name: 'Try it on this computer' })).toBeTruthy();
    const connect = within(cards[1]!).getByRole('button', { name: "Connect to my organisation's server" });
    expect(document.getElementById(connect.getAttribute('aria-describedby')!)?.textContent).toMatch(
      /Sign in to your organisation's LibreBooking server/,
    );
  });

  test('from the keyboard: it has focus from the start, Enter starts the service, and the tabs replace the choice', async () => {
    const user = userEvent.setup();
    const fake = createFakePerch();
    const answer = deferred<BridgeResult<StateSnapshot>>();
    fake.handlers.tryThisComputer = () => answer.promise;
    await renderFirstRun(fake);

    expect(document.activeElement).toBe(button('Try it on this computer'));
    await user.keyboard('{Enter}');
    expect(fake.requestsOf('tryThisComputer')).toEqual([undefined]);
    expect(button('Starting the service on this computer…').disabled).toBe(true);
    expect(button("Connect to my organisation's server").disabled).toBe(true);

    answer.resolve({ ok: true, value: readySnapshot() });
    expect(await screen.findByRole('tab', { name: 'Now' })).toBeTruthy();
    expect(screen.getByText('Design review')).toBeTruthy();
    expect(fake.requestsOf('signIn')).toEqual([]);
  });

  test('a failure is shown in words beside the button, which works again', async () => {
    const user = userEvent.setup();
    const fake = createFakePerch();
    fake.handlers.tryThisComputer = async () => ({
      ok: false,
      error: {
        kind: 'unexpected',
        message:
          'Perch could not start its service on this computer. The data folder /home/ada/.config/Perch/local-service cannot be used (EACCES).',
      },
    });
    await renderFirstRun(fake);
    await user.click(button('Try it on this computer'));

    const message = await screen.findByText(
      /Perch could not start its service on this computer\. The data folder .* cannot be used \(EACCES\)\./,
    );
    const region = message.closest('[role="alert"]') as HTMLElement;
    expect(region.closest('section')).toBe(button('Try it on this computer').closest('section'));
    expect(alertTexts()).toHaveLength(1);
    expect(button('Try it on this computer').disabled).toBe(false);
    expect(screen.queryByRole('tablist')).toBeNull();
  });

  test('shows why the kept account could not be restored', async () => {
    await renderFirstRun(
      createFakePerch(
        signedOutSnapshot({ lastError: { kind: 'unexpected', message: 'Perch could not start its service on this computer.' } }),
      ),
    );
    expect(alertTexts()).toEqual(['Perch could not start its service on this computer.']);
  });
});

describe("Connect to my organisation's server", () => {
  test('unfolds the sign-in form, focuses the address, and says the API must be enabled', async () => {
    const user = userEvent.setup();
    await renderFirstRun();
    await openServerForm(user);
    expect(button("Connect to my organisation's server").getAttribute('aria-expanded')).toBe('true');
    expect(document.activeElement).toBe(field('Server address'));
    // In place: inside its own card, under the button that opened it.
    expect(field('Server address').closest('section')).toBe(button("Connect to my organisation's server").closest('section'));
    expect(screen.getByText(/API, which an administrator must have enabled on the server/)).toBeTruthy();
    expect(field('Username or e-mail').autocomplete).toBe('username');
    expect(field('Password').autocomplete).toBe('current-password');
    expect(field('Password').type).toBe('password');
    expect(field('Stay signed in').checked).toBe(true);
    expect(button('Sign in').classList.contains('primary')).toBe(false);
  });

  test('asks for what is missing without calling the core', async () => {
    const user = userEvent.setup();
    const fake = await renderFirstRun();
    await openServerForm(user);
    await user.click(button('Sign in'));
    const [text] = alertTexts();
    expect(text).toContain("Enter your organisation's server address.");
    expect(text).toContain('Enter your username or e-mail.');
    expect(text).toContain('Enter your password.');
    expect(fake.requestsOf('signIn')).toEqual([]);
  });

  test('busy: the form is locked while the core signs in, and Enter in the password field submits', async () => {
    const user = userEvent.setup();
    const fake = createFakePerch();
    const answer = deferred<BridgeResult<StateSnapshot>>();
    fake.handlers.signIn = () => answer.promise;
    await renderFirstRun(fake);
    await openServerForm(user);

    await user.type(field('Server address'), 'booking.example.org');
    await user.type(field('Username or e-mail'), ' ada ');
    await user.type(field('Password'), 'secret{Enter}');

    expect(fake.requestsOf('signIn')).toEqual([
      { server: { kind: 'remote', url: 'booking.example.org' }, username: 'ada', password: 'secret', staySignedIn: true },
    ]);
    const submit = button('Signing in…');
    expect(submit.disabled).toBe(true);
    expect(field('Password').disabled).toBe(true);
    expect(button('Try it on this computer').disabled).toBe(true);
    expect(submit.closest('form')?.getAttribute('aria-busy')).toBe('true');

    answer.resolve({ ok: true, value: readySnapshot() });
    expect(await screen.findByRole('tablist')).toBeTruthy();
  });

  test("error: the server's own message and lines are shown verbatim, and the form stays filled", async () => {
    const user = userEvent.setup();
    const fake = createFakePerch();
    fake.handlers.signIn = async () => ({
      ok: false,
      error: {
        kind: 'unauthorized',
        message: 'The username or password is not right.',
        errors: ['Authentication failed', 'API is disabled'],
      },
    });
    await renderFirstRun(fake);
    await openServerForm(user);
    await user.type(field('Server address'), 'https://booking.example.org/Web/');
    await user.type(field('Username or e-mail'), 'ada@example.org');
    await user.type(field('Password'), 'wrong');
    await user.click(field('Stay signed in'));
    await user.click(button('Sign in'));

    const message = await screen.findByText('The username or password is not right.');
    const region = message.closest('[role="alert"]') as HTMLElement;
    expect(region.closest('form')).toBeTruthy();
    expect(
      within(region)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Authentication failed', 'API is disabled']);
    expect(fake.requestsOf('signIn')).toEqual([
      {
        server: { kind: 'remote', url: 'https://booking.example.org/Web/' },
        username: 'ada@example.org',
        password: 'wrong',
        staySignedIn: false,
      },
    ]);
    expect(field('Username or e-mail').value).toBe('ada@example.org');
    expect(button('Sign in').disabled).toBe(false);
  });

  test('success: the tabs replace the form and the settings are loaded', async () => {
    const user = userEvent.setup();
    const fake = await renderFirstRun();
    await openServerForm(user);
    await user.type(field('Server address'), 'booking.example.org');
    await user.type(field('Username or e-mail'), 'ada');
    await user.type(field('Password'), 'right');
    await user.click(button('Sign in'));
    expect(await screen.findByRole('tab', { name: 'Now' })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Get started' })).toBeNull();
    // Once at start, once for the account that just signed in.
    expect(fake.requestsOf('getSettings')).toHaveLength(2);
  });

  test('explains when the keychain cannot keep the password', async () => {
    const user = userEvent.setup();
    const reason = 'The keychain is locked. Perch reads your sign-in from it once it is unlocked.';
    await renderFirstRun(createFakePerch(signedOutSnapshot({ keychain: { available: false, reason } })));
    await openServerForm(user);
    expect(screen.getByText(reason)).toBeTruthy();
    expect(field('Stay signed in').getAttribute('aria-describedby')).toBe('keychain-note');
  });
});
