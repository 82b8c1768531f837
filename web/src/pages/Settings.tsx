// Personal settings: account details, password, personal API keys.

import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { EmailPreferences } from '../components/EmailPreferences';
import { SecretOnce } from '../components/SecretOnce';
import {
  Button,
  ErrorMessage,
  FormError,
  fieldErrors,
  Loading,
  PageHeader,
  SaveRow,
  TextField,
} from '../components/ui';
import { rowError, useAction } from '../lib/action';
import { ok, type RestData, rest, tokenStore } from '../lib/api';
import { dateTime, fullDate } from '../lib/dates';
import { keys } from '../lib/query-keys';
import { useSession } from '../lib/session';

export function AccountSettings() {
  const { user, setUser } = useSession();
  const [name, setName] = useState(user?.name ?? '');
  const nameState = useAction(() => ok(rest.PATCH('/api/auth/me', { body: { name } })), {
    onSuccess: (r) => setUser(r.user),
  });
  const [pw, setPw] = useState({ currentPassword: '', newPassword: '' });
  const pwState = useAction(() => ok(rest.POST('/api/auth/change-password', { body: pw })), {
    onSuccess: (r) => {
      tokenStore.set(r.token);
      setPw({ currentPassword: '', newPassword: '' });
    },
  });
  if (!user) return null;
  const saveName = nameState.submit;
  const changePassword = pwState.submit;
  const pwFields = fieldErrors(pwState.error);

  return (
    <div className="page narrow">
      <PageHeader title="Account" />
      <section className="card" aria-labelledby="profile-h">
        <h2 id="profile-h">Profile</h2>
        <form onSubmit={saveName}>
          <TextField
            label="Name"
            value={name}
            onChange={(e) => setName(e.target.value)}
            error={fieldErrors(nameState.error).name}
          />
          <TextField label="Email" value={user.email} readOnly />
          <p className="muted">Role: {user.role}</p>
          <SaveRow label="Save name" busy={nameState.busy} saved={nameState.saved} />
          {nameState.error && !fieldErrors(nameState.error).name ? (
            <ErrorMessage error={nameState.error} />
          ) : null}
        </form>
      </section>
      <EmailPreferences />
      <section className="card" aria-labelledby="pw-h">
        <h2 id="pw-h">Change password</h2>
        <form onSubmit={changePassword}>
          <TextField
            label="Current password"
            type="password"
            autoComplete="current-password"
            value={pw.currentPassword}
            onChange={(e) => setPw({ ...pw, currentPassword: e.target.value })}
            error={pwFields.currentPassword}
          />
          <TextField
            label="New password"
            type="password"
            autoComplete="new-password"
            value={pw.newPassword}
            onChange={(e) => setPw({ ...pw, newPassword: e.target.value })}
            error={pwFields.newPassword}
            hint="At least 6 characters. Other signed-in sessions will be signed out."
          />
          {pwState.error && Object.keys(pwFields).length === 0 ? (
            <ErrorMessage error={pwState.error} />
          ) : null}
          <div className="row">
            <Button type="submit" variant="primary" busy={pwState.busy}>
              Change password
            </Button>
            {pwState.saved && (
              <span className="ok" role="status">
                Password changed
              </span>
            )}
          </div>
        </form>
      </section>
    </div>
  );
}

type ApiKey = RestData<'get', '/api/api-keys'>['apiKeys'][number];

export function ApiKeys() {
  const list = useQuery({ queryKey: keys.me.apiKeys, queryFn: () => ok(rest.GET('/api/api-keys')) });
  const [label, setLabel] = useState('');
  const [created, setCreated] = useState<{ key: string; label: string } | null>(null);
  const state = useAction(() => ok(rest.POST('/api/api-keys', { body: { label } })), {
    refreshes: [keys.me.apiKeys],
    onSuccess: (r) => {
      setCreated({ key: r.key, label: r.apiKey.label });
      setLabel('');
    },
  });
  const revoking = useAction(
    (id: string) => ok(rest.DELETE('/api/api-keys/{id}', { params: { path: { id } } })),
    {
      refreshes: [keys.me.apiKeys],
    },
  );
  const create = state.submit;

  function revoke(k: ApiKey) {
    if (confirm(`Revoke the key "${k.label}"? Programs using it will stop working.`)) void revoking.run(k.id);
  }

  return (
    <div className="page narrow">
      <PageHeader title="API keys" />
      <p className="muted">
        Personal keys let scripts use the REST and GraphQL APIs as you. Send one as{' '}
        <code>Authorization: &lt;key&gt;</code> to /graphql or <code>Authorization: Bearer &lt;key&gt;</code>{' '}
        to /api.
      </p>
      <section className="card" aria-labelledby="newkey-h">
        <h2 id="newkey-h">Create a key</h2>
        <form onSubmit={create} className="inline-form">
          <TextField
            label="Key label"
            placeholder="e.g. CI sync script"
            value={label}
            onChange={(e) => setLabel(e.target.value)}
            error={fieldErrors(state.error).label}
          />
          <Button type="submit" variant="primary" busy={state.busy}>
            Create key
          </Button>
        </form>
        <FormError error={state.error} shownAt={['label']} />
        {created && (
          <SecretOnce
            key={created.key}
            label="New API key"
            secret={created.key}
            copyLabel="Copy key"
            testId="new-api-key"
            onDone={() => setCreated(null)}
          >
            <strong>Copy the key for “{created.label}” now.</strong> It will not be shown again.
          </SecretOnce>
        )}
      </section>
      <section className="card" aria-labelledby="keys-h">
        <h2 id="keys-h">Your keys</h2>
        {list.isLoading && <Loading label="Loading keys" />}
        <ErrorMessage error={list.error} />
        {list.data && list.data.apiKeys.length === 0 && <p className="muted">No keys yet.</p>}
        {list.data && list.data.apiKeys.length > 0 && (
          <table className="table">
            <thead>
              <tr>
                <th scope="col">Label</th>
                <th scope="col">Key</th>
                <th scope="col">Created</th>
                <th scope="col">Last used</th>
                <th scope="col">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.data.apiKeys.map((k) => (
                <tr key={k.id}>
                  <td>{k.label}</td>
                  <td>
                    <code>{k.hint}</code>
                  </td>
                  <td>{fullDate(k.createdAt)}</td>
                  <td>{k.lastUsedAt ? dateTime(k.lastUsedAt) : 'Never'}</td>
                  <td className="actions">
                    <Button variant="danger" aria-label={`Revoke ${k.label}`} onClick={() => revoke(k)}>
                      Revoke
                    </Button>
                    <ErrorMessage error={rowError(revoking, k.id)} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </div>
  );
}
