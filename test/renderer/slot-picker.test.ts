import { render, screen } from '@testing-library/svelte';
import { expect, test } from 'vitest';
import SlotPicker from '../../renderer/src/components/SlotPicker.svelte';
import { BookForm } from '../../renderer/src/lib/book-form.svelte.js';
import { PerchStore } from '../../renderer/src/lib/perch.svelte.js';
import { createFakePerch, readySnapshot } from './fake-perch.js';

test('while the free times load, the Start and Duration row keeps its place, waiting, and says so to assistive technology', () => {
  const perch = new PerchStore(createFakePerch(readySnapshot()).api);
  const form = new BookForm(perch);
  render(SlotPicker, { props: { form, format: perch.format, loading: true } });
  const start = screen.getByLabelText('Start') as HTMLSelectElement;
  const duration = screen.getByLabelText('Duration') as HTMLSelectElement;
  expect([start.disabled, duration.disabled]).toEqual([true, true]);
  expect(screen.getByRole('status').textContent).toBe('Loading free times…');
});
