// Light, dark, or whatever the system says (the default). The choice lives in
// this browser's storage and is applied as data-theme on <html>, which fixes
// the page's color-scheme; the palette itself is in styles/theme.css.
import { useSyncExternalStore } from 'react';

export type Theme = 'system' | 'light' | 'dark';
const KEY = 'trackway.theme';
const listeners = new Set<() => void>();

function read(): Theme {
  const v = localStorage.getItem(KEY);
  return v === 'light' || v === 'dark' ? v : 'system';
}

export function applyTheme(theme: Theme = read()) {
  const root = document.documentElement;
  if (theme === 'system') delete root.dataset['theme'];
  else root.dataset['theme'] = theme;
}

export function setTheme(theme: Theme) {
  if (theme === 'system') localStorage.removeItem(KEY);
  else localStorage.setItem(KEY, theme);
  applyTheme(theme);
  for (const l of listeners) l();
}

/** The dark palette is on screen (picked, or followed from the system). */
export const isDark = () =>
  read() === 'dark' || (read() === 'system' && window.matchMedia('(prefers-color-scheme: dark)').matches);

const subscribe = (l: () => void) => {
  listeners.add(l);
  const media = window.matchMedia('(prefers-color-scheme: dark)');
  media.addEventListener('change', l);
  return () => {
    listeners.delete(l);
    media.removeEventListener('change', l);
  };
};

/** The stored choice and whether dark is showing, kept current across the app. */
export function useTheme(): { theme: Theme; dark: boolean } {
  const theme = useSyncExternalStore(subscribe, read);
  const dark = useSyncExternalStore(subscribe, isDark);
  return { theme, dark };
}
