import { render, screen } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { describe, expect, test } from 'vitest';
import type { BridgeResult, StateSnapshot } from '../../electron/bridge.js';
import App from '../../renderer/src/App.svelte';
import { PerchStore } from '../../renderer/src/lib/perch.svelte.js';
import { createFakePerch, deferred, readySnapshot, signedOutSnapshot, type FakePerch } from './fake-perch.js';

async function renderSignIn(fake: FakePerch = createFakePerch()) {
  render(App, { props: { perch: new PerchStore(fake.api) } });
  await screen.findByRole('heading', { name: 'Sign in' });
  return fake;
}

const field = (name: string) => screen.getByLabelText(name) as HTMLInputElement;

describe('Sign in', () => {
  test('idle: the local service is chosen, every field has a label and the right autocomplete', async () => {
    await renderSignIn();
    expect(screen.queryByRole('tablist')).toBeNull();
    expect(field('This computer (local service)').checked).toBe(true);
    expect(screen.queryByLabelText('Server address')).toBeNull();
    expect(field('Username or e-mail').autocomplete).toBe('username');
    expect(field('Password').autocomplete).toBe('current-password');
    expect(field('Password').type).toBe('password');
    expect(field('Stay signed in').checked).toBe(true);
    expect(screen.getByRole('alert').textContent?.trim()).toBe('');
    expect((screen.getByRole('button', { name: 'Sign in' }) as HTMLButtonElement).disabled).toBe(false);
  });

  test('asks for what is missing without calling the core', async () => {
    const user = userEvent.setup();
    const fake = await renderSignIn();
    await user.click(screen.getByLabelText("My organisation's server"));
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain("Enter your organisation's server address.");
    expect(alert.textContent).toContain('Enter your username or e-mail.');
    expect(alert.textContent).toContain('Enter your password.');
    expect(fake.requestsOf('signIn')).toEqual([]);
  });

  test('busy: the form is locked while the core signs in, and Enter in the password field submits', async () => {
    const user = userEvent.setup();
    const fake = createFakePerch();
    const answer = deferred<BridgeResult<StateSnapshot>>();
    fake.handlers.signIn = () => answer.promise;
    await renderSignIn(fake);

    await user.type(field('Username or e-mail'), ' ada ');
    await user.type(field('Password'), 'secret{Enter}');

    expect(fake.requestsOf('signIn')).toEqual([{ server: { kind: 'local' }, username: 'ada', password: 'secret', staySignedIn: true }]);
    const button = screen.getByRole('button', { name: 'Signing in…' }) as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    expect(field('Password').disabled).toBe(true);
    expect(button.closest('form')?.getAttribute('aria-busy')).toBe('true');

    answer.resolve({ ok: true, value: readySnapshot() });
    expect(await screen.findByRole('tablist')).toBeTruthy();
  });

  test("error: the server's own message and lines are shown verbatim, and the form stays filled", async () => {
    const user = userEvent.setup();
    const fake = createFakePerch();
    fake.handlers.signIn = async () => ({
      ok: false,
      error: { kind: 'unauthorized', message: 'The username or password is not right.', errors: ['Authentication failed', 'API is disabled'] },
    });
    await renderSignIn(fake);
    await user.click(screen.getByLabelText("My organisation's server"));
    await user.type(field('Server address'), 'https://booking.example.org/Web/');
    await user.type(field('Username or e-mail'), 'ada@example.org');
    await user.type(field('Password'), 'wrong');
    await user.click(field('Stay signed in'));
    await user.click(screen.getByRole('button', { name: 'Sign in' }));

    const alert = await screen.findByText('The username or password is not right.');
    expect(alert.closest('[role="alert"]')).toBeTruthy();
    expect(screen.getAllByRole('listitem').map((item) => item.textContent)).toEqual(['Authentication failed', 'API is disabled']);
    expect(fake.requestsOf('signIn')).toEqual([
      { server: { kind: 'remote', url: 'https://booking.example.org/Web/' }, username: 'ada@example.org', password: 'wrong', staySignedIn: false },
    ]);
    expect(field('Username or e-mail').value).toBe('ada@example.org');
    expect((screen.getByRole('button', { name: 'Sign in' }) as HTMLButtonElement).disabled).toBe(false);
  });

  test('success: the tabs replace the form and the settings are loaded', async () => {
    const user = userEvent.setup();
    const fake = await renderSignIn();
    await user.type(field('Username or e-mail'), 'ada');
    await user.type(field('Password'), 'right');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('tab', { name: 'Now' })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Sign in' })).toBeNull();
    expect(screen.getByText('Design review')).toBeTruthy();
    // Once at start, once for the account that just signed in.
    expect(fake.requestsOf('getSettings')).toHaveLength(2);
  });

  test('explains when the keychain cannot keep the password', async () => {
    await renderSignIn(createFakePerch(signedOutSnapshot({ keychain: { available: false, reason: 'no Secret Service' } })));
    expect(screen.getByText(/The system keychain is not available \(no Secret Service\)/)).toBeTruthy();
    expect(field('Stay signed in').getAttribute('aria-describedby')).toBe('keychain-note');
  });
});
