import { render, screen } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { describe, expect, test } from 'vitest';
import type { ResourceKind, ResourceView } from '$bridge/contract.js';
import FavouriteStar from '../../renderer/src/components/FavouriteStar.svelte';
import ResourceIcon from '../../renderer/src/components/ResourceIcon.svelte';
import ResourceMark from '../../renderer/src/components/ResourceMark.svelte';
import ResourcePicker from '../../renderer/src/components/ResourcePicker.svelte';

/** The drawing an icon shows, to tell one kind's from another's. */
const drawingOf = (container: Element) => container.querySelector('svg')!.innerHTML.replace(/<!---->/g, '');

describe('the icon of a resource', () => {
  test('each kind has its own drawing, hidden from screen readers', () => {
    const kinds: ResourceKind[] = ['room', 'desk', 'equipment', 'other'];
    const drawings = kinds.map((kind) => {
      const { container } = render(ResourceIcon, { kind });
      const svg = container.querySelector('svg')!;
      expect(svg.getAttribute('aria-hidden')).toBe('true');
      expect(svg.dataset.kind).toBe(kind);
      return drawingOf(container);
    });
    expect(new Set(drawings).size).toBe(kinds.length);
  });
});

describe("the mark beside a resource's name", () => {
  test("shows the server's colour as a swatch when it set one", () => {
    const { container } = render(ResourceMark, { face: { kind: 'desk', color: '#5d4037' } });
    const swatch = container.querySelector<HTMLElement>('.swatch');
    expect(swatch?.style.backgroundColor).toBe('rgb(93, 64, 55)');
    expect(container.querySelector('svg')?.dataset.kind).toBe('desk');
    expect(container.querySelector('.resource-mark')?.getAttribute('aria-hidden')).toBe('true');
  });

  test('shows no swatch when the server set no colour', () => {
    const { container } = render(ResourceMark, { face: { kind: 'other', color: null } });
    expect(container.querySelector('.swatch')).toBeNull();
    expect(container.querySelector('svg')?.dataset.kind).toBe('other');
  });
});

describe('the favourite star', () => {
  test('is filled for a favourite and outlined otherwise', () => {
    const on = render(FavouriteStar, { on: true });
    const off = render(FavouriteStar, { on: false });
    expect(on.container.querySelector('svg')?.classList.contains('on')).toBe(true);
    expect(off.container.querySelector('svg')?.classList.contains('on')).toBe(false);
  });
});

function resource(resourceId: number, name: string, face: ResourceView['face']): ResourceView {
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
    color: face.color ?? '',
    face,
  };
}

describe("the Book form's list of resources", () => {
  const resources = [resource(1, 'Thames', { kind: 'room', color: '#2e7d32' }), resource(2, 'Hot desk D1', { kind: 'desk', color: null })];

  test('shows each resource with its icon, and its colour where the server set one', () => {
    render(ResourcePicker, {
      resources,
      favouriteIds: [],
      recentIds: [],
      canToggleFavourites: true,
      onpick: () => {},
      ontogglefavourite: () => {},
    });
    const thames = screen.getByRole('button', { name: 'Thames' });
    expect(thames.querySelector('svg')?.dataset.kind).toBe('room');
    expect(thames.querySelector<HTMLElement>('.swatch')?.style.backgroundColor).toBe('rgb(46, 125, 50)');
    const desk = screen.getByRole('button', { name: 'Hot desk D1' });
    expect(desk.querySelector('svg')?.dataset.kind).toBe('desk');
    expect(desk.querySelector('.swatch')).toBeNull();
  });

  test("the star's button says whether it is a favourite, and its star shows it", async () => {
    const toggled: number[] = [];
    render(ResourcePicker, {
      resources,
      favouriteIds: [1],
      recentIds: [],
      canToggleFavourites: true,
      onpick: () => {},
      ontogglefavourite: (id: number) => toggled.push(id),
    });
    const favourite = screen.getByRole('button', { name: 'Favourite Thames' });
    const other = screen.getByRole('button', { name: 'Favourite Hot desk D1' });
    expect(favourite.getAttribute('aria-pressed')).toBe('true');
    expect(favourite.querySelector('svg.favourite-star')?.classList.contains('on')).toBe(true);
    expect(other.getAttribute('aria-pressed')).toBe('false');
    expect(other.querySelector('svg.favourite-star')?.classList.contains('on')).toBe(false);
    expect(favourite.textContent?.trim()).toBe('');
    await userEvent.click(other);
    expect(toggled).toEqual([2]);
  });
});
