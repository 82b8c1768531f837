// Sign-in and registration, branded with the workspace's name, tagline and colour.

import { Link, useNavigate } from '@tanstack/react-router';
import { type ReactNode, useState } from 'react';
import { Button, ErrorMessage, fieldErrors, TextField } from '../components/ui';
import { useAction } from '../lib/action';
import { ok, rest } from '../lib/api';
import { useSession } from '../lib/session';

/** The card every signed-out page shares: the workspace's brand, a title, then the page. */
export function AuthCard({ title, children }: { title: string; children: ReactNode }) {
  const ws = useSession().config?.workspace;
  return (
    <main className="auth">
      <div className="auth-card">
        <div className="auth-brand">
          <span className="logo" aria-hidden="true" />
          <h1>{ws?.name ?? 'Trackway'}</h1>
          {ws?.tagline && <p className="tagline">{ws.tagline}</p>}
        </div>
        <h2 className="auth-title">{title}</h2>
        {children}
      </div>
    </main>
  );
}

export function AuthPage({ mode, next }: { mode: 'login' | 'register'; next?: string }) {
  const navigate = useNavigate();
  const { config, signIn } = useSession();
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const signing = useAction(
    () =>
      mode === 'login'
        ? ok(rest.POST('/api/auth/login', { body: { email, password } }))
        : ok(rest.POST('/api/auth/register', { body: { name, email, password } })),
    {
      onSuccess: (r) => {
        signIn(r.token, r.user);
        void navigate({ to: next ?? '/issues', replace: true });
      },
    },
  );
  const { error, busy, submit } = signing;
  const fields = fieldErrors(error);
  // The sign-up link shows once the server says registration is open; the form hides when it is closed.
  const registrationOpen = config?.registration.open === true;
  const closed = mode === 'register' && config?.registration.open === false;

  return (
    <AuthCard title={mode === 'login' ? 'Sign in' : closed ? 'Sign-up is closed' : 'Create your account'}>
      {closed ? (
        <p className="muted" role="status">
          This workspace is invite-only: ask a workspace admin for an account.
        </p>
      ) : (
        <form onSubmit={submit} noValidate>
          {mode === 'register' && (
            <TextField
              label="Name"
              autoComplete="name"
              value={name}
              onChange={(e) => setName(e.target.value)}
              error={fields.name}
              required
            />
          )}
          <TextField
            label="Email"
            type="email"
            autoComplete="email"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            error={fields.email}
            required
          />
          <TextField
            label="Password"
            type="password"
            autoComplete={mode === 'login' ? 'current-password' : 'new-password'}
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            error={fields.password}
            hint={mode === 'register' ? 'At least 6 characters' : undefined}
            required
          />
          {error && Object.keys(fields).length === 0 ? <ErrorMessage error={error} /> : null}
          <Button type="submit" variant="primary" busy={busy} className="btn btn-primary wide">
            {mode === 'login' ? 'Sign in' : 'Create account'}
          </Button>
        </form>
      )}
      {mode === 'login' && config?.passwordReset && (
        <p className="auth-switch">
          <Link to="/forgot-password">Forgot your password?</Link>
        </p>
      )}
      <p className="auth-switch">
        {mode === 'login' ? (
          registrationOpen && (
            <>
              New here? <Link to="/register">Create an account</Link>
            </>
          )
        ) : (
          <>
            Already have an account? <Link to="/login">Sign in</Link>
          </>
        )}
      </p>
    </AuthCard>
  );
}
