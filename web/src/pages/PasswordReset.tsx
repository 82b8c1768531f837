// Forgotten passwords, when the server can send mail (`passwordReset` in
// /api/config; docs/email.md): ask for a link, then set a new password with it.
// The first answer is the same whether or not the address has an account.
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { Button, ErrorMessage, fieldErrors, TextField } from '../components/ui';
import { useAction } from '../lib/action';
import { ok, rest } from '../lib/api';
import { AuthCard } from './Auth';

function useSubmit(run: () => Promise<unknown>) {
  const a = useAction(run);
  return { submit: a.submit, error: a.error, busy: a.busy, done: a.saved, fields: fieldErrors(a.error) };
}

export function ForgotPasswordPage() {
  const [email, setEmail] = useState('');
  const s = useSubmit(() => ok(rest.POST('/api/auth/password-reset', { body: { email } })));
  return (
    <AuthCard title="Reset your password">
      {s.done ? (
        <p role="status">
          If an account uses {email}, a link to choose a new password is on its way. It works for an hour.
        </p>
      ) : (
        <form onSubmit={s.submit} noValidate>
          <TextField
            label="Email"
            type="email"
            autoComplete="email"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            error={s.fields.email}
            required
          />
          {s.error && Object.keys(s.fields).length === 0 ? <ErrorMessage error={s.error} /> : null}
          <Button type="submit" variant="primary" busy={s.busy} className="btn btn-primary wide">
            Send the link
          </Button>
        </form>
      )}
      <p className="auth-switch">
        <Link to="/login">Back to sign in</Link>
      </p>
    </AuthCard>
  );
}

export function ResetPasswordPage({ token }: { token: string }) {
  const [password, setPassword] = useState('');
  const s = useSubmit(() => ok(rest.POST('/api/auth/password-reset/confirm', { body: { token, password } })));
  return (
    <AuthCard title="Choose a new password">
      {s.done ? (
        <p role="status">
          Your password is changed, and every other session is signed out. <Link to="/login">Sign in</Link>
        </p>
      ) : (
        <form onSubmit={s.submit} noValidate>
          <TextField
            label="New password"
            type="password"
            autoComplete="new-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            error={s.fields.password}
            hint="At least 6 characters"
            required
          />
          {s.error && Object.keys(s.fields).length === 0 ? <ErrorMessage error={s.error} /> : null}
          <Button type="submit" variant="primary" busy={s.busy} className="btn btn-primary wide">
            Set the password
          </Button>
        </form>
      )}
    </AuthCard>
  );
}
