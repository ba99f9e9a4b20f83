import type { ThemeSetting } from '$bridge/contract.js';

type Theme = 'light' | 'dark';

const darkQuery = '(prefers-color-scheme: dark)';

function systemTheme(): Theme {
  return globalThis.matchMedia?.(darkQuery).matches ? 'dark' : 'light';
}

function resolveTheme(setting: ThemeSetting): Theme {
  return setting === 'system' ? systemTheme() : setting;
}

/**
 * Sets `data-theme` on the root from the setting and, for `system`, keeps following the OS while
 * the popover is open. Returns a function that stops following.
 */
export function applyTheme(setting: ThemeSetting, root: HTMLElement = document.documentElement): () => void {
  const set = () => {
    root.dataset['theme'] = resolveTheme(setting);
  };
  set();
  if (setting !== 'system' || !globalThis.matchMedia) return () => {};
  const query = globalThis.matchMedia(darkQuery);
  query.addEventListener('change', set);
  return () => query.removeEventListener('change', set);
}
