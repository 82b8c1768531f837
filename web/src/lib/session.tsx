// Who is signed in, and the workspace's public configuration (branding, flags).
import { createContext, type ReactNode, useCallback, useContext, useEffect, useState } from 'react';
import { api, setUnauthenticatedHandler, tokenStore } from './api';
import { invalidate, useQuery } from './cache';
import { navigate } from './router';
import { clearIssueLists } from './work';

export interface User {
  id: string;
  name: string;
  email: string;
  role: 'admin' | 'member' | 'guest';
  status: 'active' | 'suspended';
}
export interface Workspace {
  name: string;
  tagline: string;
  accentColor: string;
}
export interface Config {
  workspace: Workspace;
  /** Whether self-registration is open (admins can make it invite-only). */
  registration: { open: boolean };
  flags: { key: string; label: string; enabled: boolean }[];
}

interface Session {
  user: User | null;
  config: Config | undefined;
  signIn(token: string, user: User): void;
  signOut(): void;
  setUser(u: User): void;
  flag(key: string): boolean;
}

const SessionContext = createContext<Session | null>(null);

export const useSession = () => {
  const s = useContext(SessionContext);
  if (!s) throw new Error('useSession outside SessionProvider');
  return s;
};

/** Applies the accent colour to the whole app through one CSS variable. */
export function applyAccent(color: string | undefined) {
  if (!color || !/^#[0-9a-f]{6}$/i.test(color)) return;
  const root = document.documentElement.style;
  root.setProperty('--accent', color);
  root.setProperty('--accent-fg', accentForeground(color));
}

/** White or near-black text, whichever reads better on the accent colour (WCAG luminance). */
export function accentForeground(hex: string) {
  const channel = (i: number) => {
    const c = Number.parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  const lum = 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
  return 1.05 / (lum + 0.05) >= (lum + 0.05) / 0.05 ? '#ffffff' : '#1b1c21';
}

export function SessionProvider({ children }: { children: ReactNode }) {
  const [user, setUser] = useState<User | null>(null);
  const [checking, setChecking] = useState(Boolean(tokenStore.get()));
  const config = useQuery<Config>('config', () => api.get<Config>('/config'));

  useEffect(() => {
    applyAccent(config.data?.workspace.accentColor);
    if (config.data) document.title = config.data.workspace.name;
  }, [config.data]);

  const signOut = useCallback(() => {
    tokenStore.set(null);
    setUser(null);
    invalidate('');
    clearIssueLists();
    navigate('/login');
  }, []);

  useEffect(() => {
    setUnauthenticatedHandler(signOut);
    if (!tokenStore.get()) return;
    api
      .get<{ user: User }>('/auth/me')
      .then((r) => setUser(r.user))
      .catch(() => tokenStore.set(null))
      .finally(() => setChecking(false));
  }, [signOut]);

  const value: Session = {
    user,
    config: config.data,
    signIn(token, u) {
      tokenStore.set(token);
      invalidate('');
      clearIssueLists();
      setUser(u);
    },
    signOut,
    setUser,
    flag: (key) => config.data?.flags.find((f) => f.key === key)?.enabled ?? false,
  };
  if (checking) return <div className="boot" aria-busy="true" />;
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}
