import { render, screen, waitFor } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { describe, expect, test } from 'vitest';
import type { BridgeResult, Settings, SettingsPatch, StateSnapshot } from '$bridge/contract.js';
import { applySettingsPatch } from '../../electron/core/storage/settings-store.js';
import App from '../../renderer/src/App.svelte';
import { PerchStore } from '../../renderer/src/lib/perch.svelte.js';
import { account, createFakePerch, deferred, defaultSettings, readySnapshot, type FakePerch } from './fake-perch.js';

async function openSettings(fake: FakePerch = createFakePerch(readySnapshot())) {
  const user = userEvent.setup();
  const perch = new PerchStore(fake.api);
  render(App, { props: { perch } });
  await user.click(await screen.findByRole('tab', { name: 'Settings' }));
  await screen.findByRole('heading', { name: 'Settings' });
  return { fake, user, perch };
}

const input = (name: string) => screen.getByLabelText(name) as HTMLInputElement;

/** A fake whose settings change the way the core changes them: a refused patch changes nothing. */
function withCoreSettings(fake: FakePerch = createFakePerch(readySnapshot())): FakePerch {
  let stored = defaultSettings();
  fake.handlers.getSettings = async () => structuredClone(stored);
  fake.handlers.setSettings = async (patch: SettingsPatch) => {
    const applied = applySettingsPatch(stored, patch);
    if (applied.ok) stored = applied.value;
    return applied;
  };
  return fake;
}

const autoCheckInLabel = "Check in automatically when I unlock or wake this computer during a booking's check-in window";

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

  test.each([
    'Notifications cannot be shown: no notification service is running on this desktop.',
    'The last notification was sent, but macOS did not confirm it was shown: this copy of Perch is not code-signed.',
  ])('says what became of the last notification, as the core words it: %s', async (problem) => {
    await openSettings(createFakePerch({ ...readySnapshot(), notifierProblem: problem }));
    // The whole sentence, with nothing put before it (the core's sentences say what happened themselves).
    expect(screen.getByText(problem).getAttribute('role')).toBe('status');
  });

  test('shows no notification problem while notifications work', async () => {
    await openSettings();
    expect(document.querySelector('.notifier-problem')).toBeNull();
  });

  test('loads the current settings into the form', async () => {
    const fake = createFakePerch(readySnapshot());
    fake.handlers.getSettings = async () => ({
      ...defaultSettings(),
      pollIntervalSeconds: 120,
      theme: 'dark',
      launchAtLogin: true,
      autoCheckIn: true,
      notifications: { ...defaultSettings().notifications, released: false },
    });
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
    // Nothing to press: every change applies as it is made.
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();
    expect(screen.getByText('Changes apply as you make them').getAttribute('role')).toBe('status');
    expect(screen.getByText(/Signed in as/).textContent?.replace(/\s+/g, ' ')).toContain(
      'Signed in as Ada Lovelace (ada) on this computer.',
    );
    // The account has its own zone: nothing to say about it.
    expect(screen.queryByText(/time zone/)).toBeNull();
  });

  test('says once which zone Perch shows times in when the server gave the account none', async () => {
    const timezoneNote = "Your account on the server has no time zone; Perch shows times in Europe/London, the server's default.";
    await openSettings(createFakePerch(readySnapshot({ account: { ...account, timezone: 'Europe/London', timezoneNote } })));
    expect(screen.getAllByText(timezoneNote)).toHaveLength(1);
  });

  test('groups the settings as Notifications, Appearance, Startup and Advanced, in that order, the polling interval last', async () => {
    await openSettings();
    const legends = [...document.querySelectorAll('legend')].map((legend) => legend.textContent?.trim());
    expect(legends).toEqual(['Notifications', 'Appearance', 'Startup', 'Advanced']);
    const group = (name: string) => screen.getByRole('group', { name });
    expect(group('Advanced').contains(input('Near your bookings, check every'))).toBe(true);
    expect(group('Notifications').contains(input('Remind me before a reservation starts'))).toBe(true);
    expect(group('Notify me when').contains(input('A reservation was released'))).toBe(true);
    expect(group('Startup').contains(input(autoCheckInLabel))).toBe(true);
    expect(group('Startup').contains(input('Open Perch from any app with'))).toBe(true);
    // Keyboard order follows the groups: the polling interval is the last field before the account.
    const fields = [...document.querySelectorAll('form input')];
    expect(fields.at(-1)).toBe(input('Near your bookings, check every'));
  });

  test('each change applies at once, without Save, and says Saved', async () => {
    const { fake, user } = await openSettings(withCoreSettings());
    await user.click(input('A reservation is about to end'));
    await waitFor(() =>
      expect(fake.requestsOf('setSettings')).toEqual([{ notifications: { ...defaultSettings().notifications, endReminder: false } }]),
    );
    expect(await screen.findByText('Saved')).toBeTruthy();

    await user.click(input('Open Perch when I log in'));
    // Off until asked for, and said plainly: what it does, and that nothing else leaves the computer.
    const autoCheckIn = input(autoCheckInLabel);
    expect(autoCheckIn.checked).toBe(false);
    expect(autoCheckIn.getAttribute('aria-describedby')).toBe('auto-check-in-note');
    expect(document.getElementById('auto-check-in-note')?.textContent).toContain('Nothing leaves this computer but the check-in itself.');
    await user.click(autoCheckIn);
    // A number applies when the field is left: typing "9" on the way to "90" sends nothing.
    await user.clear(input('Near your bookings, check every'));
    await user.type(input('Near your bookings, check every'), '90');
    expect(fake.requestsOf('setSettings')).toHaveLength(3);
    await user.tab();

    await waitFor(() => expect(fake.requestsOf('setSettings')).toHaveLength(4));
    expect(fake.requestsOf('setSettings').slice(1)).toEqual([{ launchAtLogin: true }, { autoCheckIn: true }, { pollIntervalSeconds: 90 }]);
    const { favouriteResourceIds: _favourites, ...expected } = {
      ...defaultSettings(),
      pollIntervalSeconds: 90,
      launchAtLogin: true,
      autoCheckIn: true,
      notifications: { ...defaultSettings().notifications, endReminder: false },
    };
    expect(await fake.handlers.getSettings()).toMatchObject(expected);
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();
  });

  test('a number applies on Enter too', async () => {
    const { fake, user } = await openSettings(withCoreSettings());
    await user.clear(input('Remind me before a reservation starts'));
    await user.type(input('Remind me before a reservation starts'), '15{Enter}');
    await waitFor(() => expect(fake.requestsOf('setSettings')).toEqual([{ startReminderMinutes: 15 }]));
    expect(input('Remind me before a reservation starts').value).toBe('15');
  });

  test('the theme applies at once, before the core has answered', async () => {
    const fake = createFakePerch(readySnapshot());
    const answer = deferred<BridgeResult<Settings>>();
    fake.handlers.setSettings = () => answer.promise;
    const { user } = await openSettings(fake);
    await user.click(input('Dark'));
    expect(document.documentElement.dataset['theme']).toBe('dark');
    expect(screen.getByText('Saving…')).toBeTruthy();
    await user.click(input('Light'));
    expect(document.documentElement.dataset['theme']).toBe('light');
    answer.resolve({ ok: true, value: { ...defaultSettings(), theme: 'light' } });
    expect(await screen.findByText('Saved')).toBeTruthy();
    expect(document.documentElement.dataset['theme']).toBe('light');
    expect(input('Light').checked).toBe(true);
  });

  test('switching tabs while typing a number loses nothing', async () => {
    const { fake, user } = await openSettings(withCoreSettings());
    await user.clear(input('Remind me before a reservation ends'));
    await user.type(input('Remind me before a reservation ends'), '12');
    // Ctrl+1 goes to Now without leaving the field first.
    await user.keyboard('{Control>}1{/Control}');
    await screen.findByRole('tab', { name: 'Now', selected: true });
    await waitFor(() => expect(fake.requestsOf('setSettings')).toEqual([{ endReminderMinutes: 12 }]));

    await user.click(screen.getByRole('tab', { name: 'Settings' }));
    expect(input('Remind me before a reservation ends').value).toBe('12');
    await user.click(input('Dark'));
    await user.click(screen.getByRole('tab', { name: 'Book' }));
    await user.click(screen.getByRole('tab', { name: 'Settings' }));
    expect(input('Dark').checked).toBe(true);
    expect(await fake.handlers.getSettings()).toMatchObject({ endReminderMinutes: 12, theme: 'dark' });
  });

  test('a view opened from outside while typing a number (a notification, say) loses nothing either', async () => {
    const { fake, user, perch } = await openSettings(withCoreSettings());
    await user.clear(input('Tell me check-in is open'));
    await user.type(input('Tell me check-in is open'), '8');
    expect(input('Tell me check-in is open')).toBe(document.activeElement);
    perch.tab = 'reservations';
    await screen.findByRole('tab', { name: 'My reservations', selected: true });
    await waitFor(() => expect(fake.requestsOf('setSettings')).toEqual([{ checkInLeadMinutes: 8 }]));
    expect(await fake.handlers.getSettings()).toMatchObject({ checkInLeadMinutes: 8 });
  });

  test('a value out of range is not applied: its reason is beside the field, and the last good value stays', async () => {
    const { fake, user } = await openSettings(withCoreSettings());
    await user.click(input('Light'));
    expect(await screen.findByText('Saved')).toBeTruthy();
    const poll = input('Near your bookings, check every');
    await user.clear(poll);
    await user.type(poll, '5');
    await user.tab();

    const problem = await screen.findByText('Not applied: must be a whole number from 15 to 3600.');
    // Beside its field, named for it, never by the setting's key.
    expect(problem.closest('.number')?.contains(poll)).toBe(true);
    expect(poll.getAttribute('aria-describedby')?.split(' ')).toContain(problem.id);
    expect(poll.getAttribute('aria-invalid')).toBe('true');
    expect(screen.queryByText(/pollIntervalSeconds/)).toBeNull();
    expect(poll.value).toBe('60');
    expect(await fake.handlers.getSettings()).toMatchObject({ pollIntervalSeconds: 60 });
    expect(input('Remind me before a reservation ends').getAttribute('aria-invalid')).toBeNull();
    expect(screen.queryByText('Saved')).toBeNull();

    // Gone at the next change, which applies.
    await user.click(input('A reservation was released'));
    await waitFor(() => expect(screen.queryByText(/Not applied/)).toBeNull());
    expect(poll.getAttribute('aria-invalid')).toBeNull();
    expect(await screen.findByText('Saved')).toBeTruthy();
  });

  test('a shortcut the core refuses is put back, with its reason beside it', async () => {
    const { fake, user } = await openSettings(withCoreSettings());
    const box = input('Open Perch from any app with');
    await user.click(box);
    await user.keyboard('k');
    await waitFor(() => expect(fake.requestsOf('setSettings')).toEqual([{ globalShortcut: 'K' }]));
    const problem = await screen.findByText(/^Not applied: /);
    expect(box.getAttribute('aria-describedby')?.split(' ')).toContain(problem.id);
    expect(await fake.handlers.getSettings()).toMatchObject({ globalShortcut: defaultSettings().globalShortcut });
    expect((screen.getByRole('button', { name: 'Remove' }) as HTMLButtonElement).disabled).toBe(false);
  });

  test('a shortcut the desktop never passes on says so, with the command for a shortcut of the desktop’s own', async () => {
    const problem = 'Ctrl+Alt+P does nothing on this desktop: it does not pass shortcuts to apps.';
    const command = '/home/ada/Applications/Perch-1.2.0.AppImage';
    await openSettings(createFakePerch(readySnapshot({ globalShortcut: { label: 'Ctrl+Alt+P', problem, command } })));
    const box = input('Open Perch from any app with');
    expect(screen.getByText(problem).getAttribute('role')).toBe('status');
    const shownCommand = screen.getByText(command);
    expect(shownCommand.tagName).toBe('CODE');
    expect(box.getAttribute('aria-describedby')?.split(' ')).toEqual(['shortcut-hint', 'shortcut-problem', 'shortcut-command']);
  });

  test('the command shows only beside a problem: a shortcut that works needs none', async () => {
    await openSettings(createFakePerch(readySnapshot({ globalShortcut: { label: 'Ctrl+Alt+P', problem: null, command: 'perch' } })));
    expect(screen.queryByText('perch')).toBeNull();
    expect(input('Open Perch from any app with').getAttribute('aria-describedby')).toBe('shortcut-hint');
  });

  test('a shortcut refused as taken offers the command too, which its reason points to', async () => {
    const { user } = await openSettings(
      withCoreSettings(createFakePerch(readySnapshot({ globalShortcut: { label: 'Ctrl+Alt+P', problem: null, command: 'perch' } }))),
    );
    const box = input('Open Perch from any app with');
    await user.click(box);
    await user.keyboard('k');
    await screen.findByText(/^Not applied: /);
    expect(screen.getByText('perch').tagName).toBe('CODE');
    expect(box.getAttribute('aria-describedby')?.split(' ')).toContain('shortcut-command');
  });

  test('a blank number is caught before anything is sent, and the last good value comes back', async () => {
    const { fake, user } = await openSettings();
    await user.clear(input('Tell me check-in is open'));
    await user.tab();
    expect(await screen.findByText('Not applied: needs a whole number.')).toBeTruthy();
    expect(input('Tell me check-in is open').getAttribute('aria-invalid')).toBe('true');
    expect(input('Tell me check-in is open').value).toBe('5');
    expect(fake.requestsOf('setSettings')).toEqual([]);
  });

  test('a failure that names no field is said above the form, and the control goes back', async () => {
    const fake = createFakePerch(readySnapshot());
    fake.handlers.setSettings = async () => ({
      ok: false,
      error: { kind: 'unexpected', message: 'Perch could not write its settings file.' },
    });
    const { user } = await openSettings(fake);
    await user.click(input('Open Perch when I log in'));
    expect(await screen.findByText('Perch could not write its settings file.')).toBeTruthy();
    expect(input('Open Perch when I log in').checked).toBe(false);
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
    expect((await screen.findByText(/^Everything read again at /)).textContent?.replace(/\s+/g, ' ')).toBe(
      'Everything read again at 10:00 AM.',
    );
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
