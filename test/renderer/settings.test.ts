import { render, screen, waitFor } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { describe, expect, test } from 'vitest';
import type { BridgeResult, Settings, StateSnapshot } from '../../electron/bridge.js';
import App from '../../renderer/src/App.svelte';
import { PerchStore } from '../../renderer/src/lib/perch.svelte.js';
import { account, createFakePerch, deferred, defaultSettings, readySnapshot, type FakePerch } from './fake-perch.js';

async function openSettings(fake: FakePerch = createFakePerch(readySnapshot())) {
  const user = userEvent.setup();
  render(App, { props: { perch: new PerchStore(fake.api) } });
  await user.click(await screen.findByRole('tab', { name: 'Settings' }));
  await screen.findByRole('heading', { name: 'Settings' });
  return { fake, user };
}

const input = (name: string) => screen.getByLabelText(name) as HTMLInputElement;

describe('Settings', () => {
  test('loading: says so until the settings arrive', async () => {
    const fake = createFakePerch(readySnapshot());
    const answer = deferred<Settings>();
    fake.handlers.getSettings = () => answer.promise;
    const user = userEvent.setup();
    render(App, { props: { perch: new PerchStore(fake.api) } });
    await user.click(await screen.findByRole('tab', { name: 'Settings' }));
    expect(screen.getByText('Loading settings…')).toBeTruthy();
    answer.resolve(defaultSettings());
    expect(await screen.findByRole('heading', { name: 'Settings' })).toBeTruthy();
  });

  test('says why the last notification could not be shown', async () => {
    const problem = 'no notification server is running (install a notification daemon such as dunst)';
    await openSettings(createFakePerch({ ...readySnapshot(), notifierProblem: problem }));
    expect(screen.getByText(/could not be shown/).textContent).toBe(`The last notification could not be shown: ${problem}`);
  });

  test('shows no notification problem while notifications work', async () => {
    await openSettings();
    expect(screen.queryByText(/could not be shown/)).toBeNull();
  });

  test('loads the current settings into the form', async () => {
    const fake = createFakePerch(readySnapshot());
    fake.handlers.getSettings = async () => ({ ...defaultSettings(), pollIntervalSeconds: 120, theme: 'dark', launchAtLogin: true, autoCheckIn: true, notifications: { ...defaultSettings().notifications, released: false } });
    await openSettings(fake);
    expect(input('Near your bookings, check every').value).toBe('120');
    expect(input('Remind me before a reservation starts').value).toBe('10');
    expect(input('Remind me before a reservation ends').value).toBe('5');
    expect(input('Tell me check-in is open').value).toBe('5');
    expect(input('Dark').checked).toBe(true);
    expect(input('Open Perch when I log in').checked).toBe(true);
    expect(input('A reservation was released').checked).toBe(false);
    expect(input('Check-in is open').checked).toBe(true);
    expect(input("Check in automatically when I unlock or wake this computer during a booking's check-in window").checked).toBe(true);
    expect(screen.getAllByRole('checkbox')).toHaveLength(8);
    expect(document.documentElement.dataset['theme']).toBe('dark');
    expect((screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByText(/Signed in as/).textContent?.replace(/\s+/g, ' ')).toContain('Signed in as Ada Lovelace (ada) on this computer.');
    // The account has its own zone: nothing to say about it.
    expect(screen.queryByText(/time zone/)).toBeNull();
  });

  test('says once which zone Perch shows times in when the server gave the account none', async () => {
    const timezoneNote = "Your account on the server has no time zone; Perch shows times in Europe/London, the server's default.";
    await openSettings(createFakePerch(readySnapshot({ account: { ...account, timezone: 'Europe/London', timezoneNote } })));
    expect(screen.getAllByText(timezoneNote)).toHaveLength(1);
  });

  test('saves every field but the favourites, and applies the theme', async () => {
    const { fake, user } = await openSettings();
    await user.clear(input('Near your bookings, check every'));
    await user.type(input('Near your bookings, check every'), '90');
    await user.click(input('A reservation is about to end'));
    await user.click(input('Light'));
    await user.click(input('Open Perch when I log in'));
    // Off until asked for, and said plainly: what it does, and that nothing else leaves the computer.
    const autoCheckIn = input("Check in automatically when I unlock or wake this computer during a booking's check-in window") as HTMLInputElement;
    expect(autoCheckIn.checked).toBe(false);
    expect(autoCheckIn.getAttribute('aria-describedby')).toBe('auto-check-in-note');
    expect(document.getElementById('auto-check-in-note')?.textContent).toContain('Nothing leaves this computer but the check-in itself.');
    await user.click(autoCheckIn);
    await user.click(screen.getByRole('button', { name: 'Save' }));

    await screen.findByText('Settings saved.');
    const { favouriteResourceIds: _favourites, ...expected } = {
      ...defaultSettings(),
      pollIntervalSeconds: 90,
      theme: 'light' as const,
      launchAtLogin: true,
      autoCheckIn: true,
      notifications: { ...defaultSettings().notifications, endReminder: false },
    };
    expect(fake.requestsOf('setSettings')).toEqual([expected]);
    expect(document.documentElement.dataset['theme']).toBe('light');
    expect((screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement).disabled).toBe(true);
  });

  test("shows the core's validation errors and marks the field, and keeps the edit", async () => {
    const fake = createFakePerch(readySnapshot());
    const answer = deferred<BridgeResult<Settings>>();
    fake.handlers.setSettings = () => answer.promise;
    const { user } = await openSettings(fake);
    await user.clear(input('Near your bookings, check every'));
    await user.type(input('Near your bookings, check every'), '5');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect((screen.getByRole('button', { name: 'Saving…' }) as HTMLButtonElement).disabled).toBe(true);

    answer.resolve({
      ok: false,
      error: {
        kind: 'invalidInput',
        message: 'The settings change is not valid.',
        fields: [{ field: 'pollIntervalSeconds', problem: 'must be a whole number from 15 to 3600' }],
      },
    });
    expect(await screen.findByText('The settings change is not valid.')).toBeTruthy();
    // Named as the form labels it, never by the setting's key.
    expect(screen.getByText('Near your bookings, check every (seconds): must be a whole number from 15 to 3600')).toBeTruthy();
    expect(screen.queryByText(/pollIntervalSeconds/)).toBeNull();
    expect(input('Near your bookings, check every').getAttribute('aria-invalid')).toBe('true');
    expect(input('Near your bookings, check every').value).toBe('5');
    expect(input('Remind me before a reservation ends').getAttribute('aria-invalid')).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Undo changes' }));
    expect(input('Near your bookings, check every').value).toBe('60');
    expect(screen.queryByText('The settings change is not valid.')).toBeNull();
  });

  test('a blank number is caught before anything is sent', async () => {
    const { fake, user } = await openSettings();
    await user.clear(input('Tell me check-in is open'));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Some settings need a number.')).toBeTruthy();
    expect(screen.getByText('Tell me check-in is open (minutes before start): needs a whole number')).toBeTruthy();
    expect(input('Tell me check-in is open').getAttribute('aria-invalid')).toBe('true');
    expect(fake.requestsOf('setSettings')).toEqual([]);
  });

  test('Reload everything reads the kept reference data again, says so while it runs and when it is done', async () => {
    const fake = createFakePerch(readySnapshot());
    const answer = deferred<StateSnapshot>();
    fake.handlers.reloadEverything = () => answer.promise;
    const { user } = await openSettings(fake);
    expect(screen.getByText(/for 12 hours/).textContent).toContain('Reload everything reads them again now');
    await user.click(screen.getByRole('button', { name: 'Reload everything' }));
    const busy = screen.getByRole('button', { name: 'Reloading…' }) as HTMLButtonElement;
    expect(busy.disabled).toBe(true);
    expect(fake.requestsOf('reloadEverything')).toHaveLength(1);
    expect(fake.requestsOf('refresh')).toHaveLength(0);
    answer.resolve(readySnapshot());
    expect((await screen.findByText(/^Everything read again at /)).textContent?.replace(/\s+/g, ' ')).toBe('Everything read again at 10:00 AM.');
    expect((screen.getByRole('button', { name: 'Reload everything' }) as HTMLButtonElement).disabled).toBe(false);
  });

  test('Reload everything while the server cannot be reached says that Perch keeps what it had', async () => {
    const fake = createFakePerch(readySnapshot());
    fake.handlers.reloadEverything = async () => readySnapshot({ offline: true });
    const { user } = await openSettings(fake);
    await user.click(screen.getByRole('button', { name: 'Reload everything' }));
    expect(await screen.findByText('Perch cannot reach the server now; it keeps what it had.')).toBeTruthy();
  });

  test('sign out returns to the sign-in form', async () => {
    const { fake, user } = await openSettings();
    await user.click(screen.getByRole('button', { name: 'Sign out' }));
    expect(await screen.findByRole('heading', { name: 'Get started' })).toBeTruthy();
    expect(fake.requestsOf('signOut')).toHaveLength(1);
    await waitFor(() => expect(screen.queryByRole('tablist')).toBeNull());
  });
});
