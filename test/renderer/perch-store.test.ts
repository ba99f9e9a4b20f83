import { afterEach, beforeEach, describe, expect, onTestFinished, test, vi } from 'vitest';
import { PerchStore } from '../../renderer/src/lib/perch.svelte.js';
import { createFakePerch, now, readySnapshot } from './fake-perch.js';

/** The popover's page as Electron reports it: hidden while the window is, with a visibilitychange either way. */
let hidden = false;
function setHidden(next: boolean): void {
  hidden = next;
  document.dispatchEvent(new Event('visibilitychange'));
}

beforeEach(() => {
  hidden = false;
  Object.defineProperty(document, 'hidden', { configurable: true, get: () => hidden });
  // The page's clock may read any hour: the store follows the snapshot's `now`, not this.
  vi.useFakeTimers({ now: Date.parse('2031-06-01T03:00:00Z') });
});

afterEach(() => {
  vi.useRealTimers();
  delete (document as { hidden?: boolean }).hidden;
});

async function startedStore(): Promise<PerchStore> {
  const perch = new PerchStore(createFakePerch(readySnapshot()).api);
  onTestFinished(perch.start());
  await vi.advanceTimersByTimeAsync(0);
  expect(perch.snapshot).not.toBeNull();
  return perch;
}

describe('the countdowns clock (issue 23: nothing spent while idle)', () => {
  test('moves while the popover is shown', async () => {
    const perch = await startedStore();
    expect(perch.nowMs).toBe(Date.parse(now));
    await vi.advanceTimersByTimeAsync(60_000);
    expect(perch.nowMs).toBe(Date.parse(now) + 60_000);
  });

  test('sets no timer while the popover is hidden, and is right again the moment it is shown', async () => {
    const perch = await startedStore();
    setHidden(true);
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(5 * 60_000);
    expect(perch.nowMs).toBe(Date.parse(now));

    setHidden(false);
    expect(perch.nowMs).toBe(Date.parse(now) + 5 * 60_000);
    expect(vi.getTimerCount()).toBe(1);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(perch.nowMs).toBe(Date.parse(now) + 6 * 60_000);
  });

  test('a page loaded hidden (the popover before it is first opened) starts without a timer', async () => {
    hidden = true;
    const perch = await startedStore();
    expect(vi.getTimerCount()).toBe(0);
    setHidden(false);
    expect(vi.getTimerCount()).toBe(1);
    expect(perch.nowMs).toBe(Date.parse(now));
  });
});
