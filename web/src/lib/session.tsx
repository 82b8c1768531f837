// Who is signed in, and the workspace's public configuration (branding, flags).

import { useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { createContext, type ReactNode, useCallback, useContext, useEffect, useState } from 'react';
import { ApiError, ok, type RestData, rest, setUnauthenticatedHandler, tokenStore } from './api';
import { onReachable } from './connection';
import { queryClient } from './query';
import { keys } from './query-keys';
import { discardWaiting, setQueueOwner, setQueueSignedOutHandler } from './write-queue';

export type User = RestData<'get', '/api/auth/me'>['user'];
export type Config = RestData<'get', '/api/config'>;
export type Workspace = Config['workspace'];

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
  const [offline, setOffline] = useState(false);
  const navigate = useNavigate();
  const config = useQuery({ queryKey: keys.config, queryFn: () => ok(rest.GET('/api/config')) });

  useEffect(() => applyAccent(config.data?.workspace.accentColor), [config.data]);

  /** `expired`: the server refused the session; edits waiting to be sent are kept for the next sign-in. */
  const endSession = useCallback(
    (expired: boolean) => {
      const token = tokenStore.get();
      // The server ends the session too, so a copy of the token stops working.
      // Not through `ok`: a 401 here (the session already ended) must not sign out again.
      if (token) {
        const headers = { authorization: `Bearer ${token}` };
        void rest.POST('/api/auth/logout', { body: {}, headers }).catch(() => undefined);
      }
      tokenStore.set(null);
      setUser(null);
      if (!expired) discardWaiting();
      // Another user may see other issues: nothing cached survives a change of user.
      queryClient.clear();
      void navigate({ to: '/login' });
    },
    [navigate],
  );
  const signOut = useCallback(() => endSession(false), [endSession]);
  const expire = useCallback(() => endSession(true), [endSession]);
  useEffect(() => setQueueOwner(user?.id ?? null), [user]);

  const check = useCallback(() => {
    if (!tokenStore.get()) return;
    setChecking(true);
    setOffline(false);
    ok(rest.GET('/api/auth/me'))
      .then((r) => setUser(r.user))
      // Only the server saying the token is no good ends the session; an unreachable
      // server (offline, restarting) keeps it, and the app offers to try again.
      .catch((e) => (e instanceof ApiError && e.status === 401 ? tokenStore.set(null) : setOffline(true)))
      .finally(() => setChecking(false));
  }, []);

  useEffect(() => {
    setUnauthenticatedHandler(expire);
    setQueueSignedOutHandler(expire);
    check();
  }, [expire, check]);

  const value: Session = {
    user,
    config: config.data,
    signIn(token, u) {
      tokenStore.set(token);
      queryClient.clear();
      setUser(u);
    },
    signOut,
    setUser,
    flag: (key) => config.data?.flags.find((f) => f.key === key)?.enabled ?? false,
  };
  if (checking) return <div className="boot" aria-busy="true" />;
  if (offline) return <Unreachable onRetry={check} />;
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

function Unreachable({ onRetry }: { onRetry: () => void }) {
  // Comes back by itself once the server answers again (lib/connection.ts probes it).
  useEffect(() => onReachable(onRetry), [onRetry]);
  return (
    <main className="auth">
      <div className="auth-card" role="alert">
        <h1 className="auth-title">Cannot reach the server</h1>
        <p className="muted">You are still signed in. Check your connection, then try again.</p>
        <button type="button" className="btn btn-primary" onClick={onRetry}>
          Try again
        </button>
      </div>
    </main>
  );
}
