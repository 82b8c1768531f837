// Sign-in and registration, branded with the workspace's name, tagline and colour.

import { Link, useNavigate } from '@tanstack/react-router';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { Button, ErrorMessage, FormError, fieldErrors, TextField } from '../components/ui';
import { useAction } from '../lib/action';
import { ok, rest, ssoStartUrl } from '../lib/api';
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

/** What each reason single sign-on sent someone back for means to them (the server's words are codes). */
const SSO_ERRORS: Record<string, string> = {
  domain_not_allowed: 'Your email address is not in a domain this workspace allows. Ask a workspace admin.',
  email_not_verified:
    'Your identity provider has not verified your email address, so it cannot be matched to an account.',
  email_missing:
    'Your identity provider did not send an email address. Ask your admin to include the email claim.',
  no_account:
    'There is no account for you here, and accounts are not created at sign-in. Ask a workspace admin.',
  account_suspended: 'This account is suspended.',
  provider_unavailable: 'The identity provider could not be reached. Try again in a moment.',
  denied: 'The sign-in was cancelled at the identity provider.',
  expired: 'The sign-in took too long or was started in another browser. Please try again.',
  too_many_attempts: 'Too many sign-in attempts from this address. Try again in a few minutes.',
};
const ssoMessage = (code: string) => SSO_ERRORS[code] ?? 'Single sign-on did not work. Please try again.';

/** The provider's button: a plain link, since the round trip leaves the app for the provider. */
function SsoButton({ label, next }: { label: string; next?: string }) {
  return (
    <a className="btn btn-primary wide" href={ssoStartUrl(next)}>
      {label}
    </a>
  );
}

export function AuthPage({
  mode,
  next,
  ssoError,
}: {
  mode: 'login' | 'register';
  next?: string;
  ssoError?: string;
}) {
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
  const sso = config?.sso;
  const closed = mode === 'register' && (config?.registration.open === false || sso?.required === true);
  // With single sign-on required, the password form is for break-glass admins: there, but folded away.
  const [showPassword, setShowPassword] = useState(false);
  const passwordHidden = mode === 'login' && sso?.required === true && !showPassword;

  return (
    <AuthCard title={mode === 'login' ? 'Sign in' : closed ? 'Sign-up is closed' : 'Create your account'}>
      {mode === 'login' && ssoError && (
        <p className="error-message" role="alert">
          {ssoMessage(ssoError)}
        </p>
      )}
      {mode === 'login' && sso?.enabled && (
        <>
          <SsoButton label={sso.buttonLabel} next={next} />
          {sso.required ? (
            <p className="auth-switch">
              <button
                type="button"
                className="btn btn-ghost"
                aria-expanded={showPassword}
                onClick={() => setShowPassword((v) => !v)}
              >
                Sign in with a password (administrators)
              </button>
            </p>
          ) : (
            <p className="auth-or" aria-hidden="true">
              or
            </p>
          )}
        </>
      )}
      {closed ? (
        <p className="muted" role="status">
          {sso?.required
            ? 'This workspace signs in with single sign-on: accounts are made at your first sign-in.'
            : 'This workspace is invite-only: ask a workspace admin for an account.'}
        </p>
      ) : passwordHidden ? null : (
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
          <FormError error={error} />
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

/** /sso/complete: takes the session the sign-in made in this browser, then goes where the person started. */
export function SsoComplete() {
  const navigate = useNavigate();
  const { signIn } = useSession();
  const [failed, setFailed] = useState<unknown>(null);
  // The hand-over works once (the server clears its cookie): asked exactly once, whatever re-renders.
  const asked = useRef(false);
  const finish = useRef({ signIn, navigate });
  finish.current = { signIn, navigate };
  useEffect(() => {
    if (asked.current) return;
    asked.current = true;
    ok(rest.POST('/api/auth/sso/exchange', {})).then((r) => {
      finish.current.signIn(r.token, r.user);
      void finish.current.navigate({ to: r.returnTo, replace: true });
    }, setFailed);
  }, []);
  return (
    <AuthCard title="Signing you in">
      {failed ? (
        <>
          <ErrorMessage error={failed} />
          <p className="auth-switch">
            <Link to="/login">Back to sign-in</Link>
          </p>
        </>
      ) : (
        <p className="muted" role="status">
          One moment…
        </p>
      )}
    </AuthCard>
  );
}
