// Light or dark: Settings → Theme forces one, or follows the system (`prefers-color-scheme`).
// The choice is kept with the other settings in the worker, and mirrored in localStorage so that
// the page can take it before its first paint, before the worker answers.

import type { Theme } from '../../../workers/protocol.ts';

const KEY = 'trellis-theme';
const DARK = '(prefers-color-scheme: dark)';

let following: { query: MediaQueryList; listener: () => void } | undefined;

/** The theme chosen last in this browser (the page's first paint uses it). */
export function rememberedTheme(): Theme {
  try {
    const value = localStorage.getItem(KEY);
    return value === 'light' || value === 'dark' ? value : 'system';
  } catch {
    // Storage can be off (a locked-down profile): the system's choice will do.
    return 'system';
  }
}

/** Draws the page in `theme`: `data-theme` on <html> is always `light` or `dark`. */
export function applyTheme(theme: Theme): void {
  try {
    localStorage.setItem(KEY, theme);
  } catch {
    // See rememberedTheme: the setting itself lives in the worker's store.
  }
  following?.query.removeEventListener('change', following.listener);
  following = undefined;
  const root = document.documentElement;
  const set = (dark: boolean) => {
    root.dataset.theme = dark ? 'dark' : 'light';
    document
      .querySelector('meta[name="theme-color"]')
      ?.setAttribute('content', dark ? '#111716' : '#1f5f4a');
  };
  if (theme !== 'system') {
    set(theme === 'dark');
    return;
  }
  const query = matchMedia(DARK);
  const listener = () => set(query.matches);
  query.addEventListener('change', listener);
  following = { query, listener };
  listener();
}
