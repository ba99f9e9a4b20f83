import { render, screen, within, waitFor } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { describe, expect, test } from 'vitest';
import App from '../../renderer/src/App.svelte';
import { PerchStore } from '../../renderer/src/lib/perch.svelte.js';
import { createFakePerch, readySnapshot, reservation, type FakePerch } from './fake-perch.js';

const text = (element: Element) => element.textContent?.replace(/\s+/g, ' ').replace(/ ,/g, ',').trim();

async function renderApp(fake: FakePerch) {
  const perch = new PerchStore(fake.api);
  render(App, { props: { perch } });
  await screen.findByRole('tablist', { name: 'Perch views' });
  return perch;
}

describe('App tabs', () => {
  test('starts on Now with one tab in the tab order', async () => {
    await renderApp(createFakePerch(readySnapshot()));
    const tabs = screen.getAllByRole('tab');
    expect(tabs.map((tab) => tab.textContent?.trim())).toEqual(['Now', 'Book', 'My reservations', 'Settings']);
    expect(screen.getByRole('tab', { name: 'Now' })).toHaveProperty('tabIndex', 0);
    expect(tabs.filter((tab) => tab.tabIndex === 0)).toHaveLength(1);
    expect(screen.getByRole('tab', { name: 'Now' }).getAttribute('aria-selected')).toBe('true');
    expect(screen.getByRole('tabpanel').getAttribute('aria-labelledby')).toBe('tab-now');
    expect(screen.getByRole('heading', { name: 'Free now' })).toBeTruthy();
  });

  test('arrow keys move focus, Enter and Space select, Home and End jump, and the ends wrap', async () => {
    const user = userEvent.setup();
    await renderApp(createFakePerch(readySnapshot()));
    const tab = (name: string) => screen.getByRole('tab', { name });

    await user.click(tab('Now'));
    await user.keyboard('{ArrowRight}');
    expect(document.activeElement).toBe(tab('Book'));
    // Moving focus alone does not switch the view.
    expect(tab('Now').getAttribute('aria-selected')).toBe('true');
    expect(tab('Book').tabIndex).toBe(0);
    expect(tab('Now').tabIndex).toBe(-1);

    await user.keyboard('{Enter}');
    expect(tab('Book').getAttribute('aria-selected')).toBe('true');
    expect(await screen.findByRole('heading', { name: 'Choose a resource' })).toBeTruthy();

    await user.keyboard('{ArrowRight}{ArrowRight}');
    expect(document.activeElement).toBe(tab('Settings'));
    await user.keyboard(' ');
    expect(tab('Settings').getAttribute('aria-selected')).toBe('true');
    expect(screen.getByRole('tabpanel').getAttribute('aria-labelledby')).toBe('tab-settings');

    await user.keyboard('{ArrowRight}');
    expect(document.activeElement).toBe(tab('Now'));
    await user.keyboard('{ArrowLeft}');
    expect(document.activeElement).toBe(tab('Settings'));
    await user.keyboard('{Home}');
    expect(document.activeElement).toBe(tab('Now'));
    await user.keyboard('{End}');
    expect(document.activeElement).toBe(tab('Settings'));
    await user.keyboard('{ArrowLeft}{Enter}');
    expect(tab('My reservations').getAttribute('aria-selected')).toBe('true');
  });

  test('a clicked notification opens My reservations on that reservation', async () => {
    const fake = createFakePerch(
      readySnapshot({ reservations: [reservation(), reservation({ referenceNumber: 'ref-2', title: 'Standup' })] }),
    );
    await renderApp(fake);
    fake.emit('navigate', { referenceNumber: 'ref-2' });
    await waitFor(() => expect(screen.getByRole('tab', { name: 'My reservations' }).getAttribute('aria-selected')).toBe('true'));
    expect(screen.getByText('Standup').closest('li')?.getAttribute('aria-current')).toBe('true');
  });

  test("a notification's failed button opens the reservation with the reason where its own button would show it", async () => {
    const fake = createFakePerch(
      readySnapshot({ reservations: [reservation(), reservation({ referenceNumber: 'ref-2', title: 'Standup' })] }),
    );
    await renderApp(fake);
    const message = 'This booking has started, and the server does not let you change a booking once it has started.';
    fake.emit('navigate', { referenceNumber: 'ref-2', failed: { command: 'extend', error: { kind: 'validation', message } } });
    await waitFor(() => expect(screen.getByRole('tab', { name: 'My reservations' }).getAttribute('aria-selected')).toBe('true'));
    const item = screen.getByText('Standup').closest('li')!;
    await waitFor(() => expect(item.textContent).toContain(message));
    expect(item.getAttribute('aria-current')).toBe('true');
    // Beside the row's menu, where Extend is asked for there.
    expect(screen.getByRole('button', { name: 'More actions for Standup' }).getAttribute('aria-describedby')).toBe(
      screen.getByText(message).id,
    );
  });

  test('shows the sign-in form when the core signs out', async () => {
    const fake = createFakePerch(readySnapshot());
    await renderApp(fake);
    fake.emit('stateChanged', readySnapshot({ phase: 'signedOut', account: null }));
    expect(await screen.findByRole('heading', { name: 'Get started' })).toBeTruthy();
    expect(screen.queryByRole('tablist')).toBeNull();
  });
});

describe('offline badge', () => {
  test('is absent while online', async () => {
    await renderApp(createFakePerch(readySnapshot()));
    expect(screen.queryByText(/Offline/)).toBeNull();
  });

  test('shows the age of the cached data, and goes when the server answers again', async () => {
    const fake = createFakePerch(readySnapshot({ offline: true, fetchedAt: '2025-11-26T09:48:00.000+01:00' }));
    await renderApp(fake);
    // The badge; Free now says on its own that booking waits ("Offline — booking resumes…").
    const status = await screen.findByText(/^Offline(?! —)/);
    expect(text(status)).toBe('Offline ·, data from 12 min ago');
    expect(status.closest('[role="status"]')).toBeTruthy();
    // The cached data stays on screen.
    expect(screen.getByText('Design review')).toBeTruthy();

    fake.emit('stateChanged', readySnapshot());
    await waitFor(() => expect(screen.queryByText(/Offline/)).toBeNull());
  });

  test('says so when there is no data yet', async () => {
    await renderApp(createFakePerch(readySnapshot({ offline: true, fetchedAt: null, reservations: [] })));
    // The badge beside the tabs; Free now says what waits for the server in its own words.
    expect(text(await within(screen.getByRole('banner')).findByText(/Offline/))).toBe('Offline, no data yet');
  });
});
