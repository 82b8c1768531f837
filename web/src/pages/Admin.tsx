// Administration: accounts (and who may sign up), feature flags and workspace branding.

import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Card, ListCard } from '../components/Card';
import {
  Button,
  ErrorMessage,
  FormError,
  fieldErrors,
  Loading,
  PageHeader,
  SaveRow,
  SelectField,
  TextField,
} from '../components/ui';
import { rowError, useAction } from '../lib/action';
import { ok, type RestData, rest } from '../lib/api';
import { keys } from '../lib/query-keys';
import { accentForeground, applyAccent, type User, useSession, type Workspace } from '../lib/session';
import { RegistrationSettings } from './AdminRegistration';

const ROLES = ['admin', 'member', 'guest'] as const;

export function AdminUsers() {
  const { user: me } = useSession();
  const users = useQuery({
    queryKey: keys.admin.users,
    queryFn: () => ok(rest.GET('/api/admin/users', { params: { query: { limit: 250 } } })),
  });
  const empty = { name: '', email: '', password: '', role: 'member' as User['role'] };
  const [form, setForm] = useState(empty);
  const createState = useAction(() => ok(rest.POST('/api/admin/users', { body: form })), {
    refreshes: [keys.admin.users, keys.ref.all],
    onSuccess: () => setForm(empty),
  });
  /** A change to one user's row; its error shows on that row. */
  const row = useAction(({ write }: { id: string; write: () => Promise<unknown> }) => write(), {
    refreshes: [keys.admin.users, keys.ref.all],
  });
  const act = (u: User, write: () => Promise<unknown>) => void row.run({ id: u.id, write });
  const byId = (u: User) => ({ params: { path: { id: u.id } } });
  const fields = fieldErrors(createState.error);
  const create = createState.submit;

  return (
    <div className="page">
      <PageHeader title="Users" />
      <RegistrationSettings />
      <Card title="Add a user">
        <form onSubmit={create} className="grid-form">
          <TextField
            label="Name"
            value={form.name}
            onChange={(e) => setForm({ ...form, name: e.target.value })}
            error={fields.name}
          />
          <TextField
            label="Email"
            type="email"
            value={form.email}
            onChange={(e) => setForm({ ...form, email: e.target.value })}
            error={fields.email}
          />
          <TextField
            label="Initial password"
            type="password"
            autoComplete="new-password"
            value={form.password}
            onChange={(e) => setForm({ ...form, password: e.target.value })}
            error={fields.password}
          />
          <SelectField
            label="Role"
            value={form.role}
            onChange={(e) => setForm({ ...form, role: e.target.value as User['role'] })}
          >
            {ROLES.map((r) => (
              <option key={r} value={r}>
                {r}
              </option>
            ))}
          </SelectField>
          <div className="grid-form-submit">
            <Button type="submit" variant="primary" busy={createState.busy}>
              Add user
            </Button>
          </div>
        </form>
        <FormError error={createState.error} />
      </Card>
      <ListCard
        title="Accounts"
        query={users}
        loadingLabel="Loading users"
        items={users.data?.users}
        columns={['Name', 'Email', 'Role', 'Status']}
        rowActions
        row={(u) => (
          <tr key={u.id}>
            <td>
              {u.name} {u.id === me?.id && <span className="badge">you</span>}
            </td>
            <td>{u.email}</td>
            <td>
              <label className="sr-only" htmlFor={`role-${u.id}`}>
                Role of {u.name}
              </label>
              <select
                id={`role-${u.id}`}
                value={u.role}
                onChange={(e) => {
                  // Read now: the write runs later, when the controlled select shows the old role again.
                  const role = e.target.value as User['role'];
                  act(u, () => ok(rest.PATCH('/api/admin/users/{id}', { ...byId(u), body: { role } })));
                }}
              >
                {ROLES.map((r) => (
                  <option key={r} value={r}>
                    {r}
                  </option>
                ))}
              </select>
            </td>
            <td>
              <span className={`status-pill ${u.status}`}>{u.status}</span>
            </td>
            <td className="actions">
              <Button
                aria-label={`${u.status === 'active' ? 'Suspend' : 'Reactivate'} ${u.name}`}
                onClick={() =>
                  act(u, () =>
                    ok(
                      rest.PATCH('/api/admin/users/{id}', {
                        ...byId(u),
                        body: { status: u.status === 'active' ? 'suspended' : 'active' },
                      }),
                    ),
                  )
                }
              >
                {u.status === 'active' ? 'Suspend' : 'Reactivate'}
              </Button>
              {u.status === 'active' && u.id !== me?.id && (
                <Button
                  aria-label={`End all sessions of ${u.name}`}
                  onClick={() => {
                    if (confirm(`Sign ${u.name} out everywhere? Their API keys keep working.`))
                      act(u, () => ok(rest.DELETE('/api/admin/users/{id}/sessions', byId(u))));
                  }}
                >
                  End sessions
                </Button>
              )}
              <Button
                variant="danger"
                aria-label={`Delete ${u.name}`}
                onClick={() => {
                  if (confirm(`Delete ${u.name}? What they wrote stays, under their name.`))
                    act(u, () => ok(rest.DELETE('/api/admin/users/{id}', byId(u))));
                }}
              >
                Delete
              </Button>
              <ErrorMessage error={rowError(row, u.id)} />
            </td>
          </tr>
        )}
      />
    </div>
  );
}

type AdminFlag = RestData<'get', '/api/admin/flags'>['flags'][number];

export function AdminFlags() {
  const flags = useQuery({ queryKey: keys.admin.flags, queryFn: () => ok(rest.GET('/api/admin/flags')) });
  const toggling = useAction(
    (f: AdminFlag) =>
      ok(
        rest.PATCH('/api/admin/flags/{key}', {
          params: { path: { key: f.key } },
          body: { enabled: !f.enabled },
        }),
      ),
    { refreshes: [keys.admin.flags, keys.config] },
  );
  const toggle = (f: AdminFlag) => void toggling.run(f);
  const state = {
    key: toggling.busy || toggling.error ? toggling.input?.key : undefined,
    error: toggling.error,
  };

  return (
    <div className="page narrow">
      <PageHeader title="Feature flags" />
      <p className="muted">Switch features on or off for everyone in the workspace.</p>
      {flags.isLoading && <Loading label="Loading flags" />}
      <ErrorMessage error={flags.error} />
      <ul className="flag-list">
        {flags.data?.flags.map((f) => (
          <li key={f.key} className="card flag">
            <div>
              <label className="flag-label" htmlFor={`flag-${f.key}`}>
                {f.label}
              </label>
              <p className="muted" id={`flag-${f.key}-desc`}>
                {f.description}
              </p>
              {state.key === f.key && state.error ? <ErrorMessage error={state.error} /> : null}
            </div>
            <input
              id={`flag-${f.key}`}
              type="checkbox"
              role="switch"
              className="switch"
              checked={f.enabled}
              aria-checked={f.enabled}
              aria-describedby={`flag-${f.key}-desc`}
              disabled={state.key === f.key && !state.error}
              onChange={() => toggle(f)}
            />
          </li>
        ))}
      </ul>
    </div>
  );
}

export function AdminBranding() {
  const { config } = useSession();
  const ws = config?.workspace;
  const [form, setForm] = useState<Workspace>(ws ?? { name: '', tagline: '', accentColor: '#5e6ad2' });
  const state = useAction(
    () =>
      ok(
        rest.PATCH('/api/admin/workspace', {
          body: { ...form, accentColor: form.accentColor.toLowerCase() },
        }),
      ),
    { refreshes: [keys.config] },
  );
  const fields = fieldErrors(state.error);
  const validColor = /^#[0-9a-f]{6}$/i.test(form.accentColor);
  const save = state.submit;

  return (
    <div className="page narrow">
      <PageHeader title="Branding" />
      <div className="branding">
        <form onSubmit={save} className="card">
          <TextField
            label="Workspace name"
            value={form.name}
            onChange={(e) => setForm({ ...form, name: e.target.value })}
            error={fields.name}
          />
          <TextField
            label="Tagline"
            value={form.tagline}
            onChange={(e) => setForm({ ...form, tagline: e.target.value })}
            error={fields.tagline}
          />
          <div className="color-row">
            <TextField
              label="Accent colour"
              value={form.accentColor}
              onChange={(e) => {
                setForm({ ...form, accentColor: e.target.value });
                applyAccent(e.target.value);
              }}
              error={fields.accentColor ?? (validColor ? undefined : 'Use the form #rrggbb')}
            />
            <label className="sr-only" htmlFor="accent-picker">
              Pick accent colour
            </label>
            <input
              id="accent-picker"
              type="color"
              value={validColor ? form.accentColor.toLowerCase() : '#5e6ad2'}
              onChange={(e) => {
                setForm({ ...form, accentColor: e.target.value });
                applyAccent(e.target.value);
              }}
            />
          </div>
          <FormError error={state.error} />
          <SaveRow label="Save branding" busy={state.busy} saved={state.saved} disabled={!validColor} />
        </form>
        <div
          className="preview"
          aria-label="Sign-in preview"
          role="img"
          style={
            validColor
              ? {
                  ['--accent' as string]: form.accentColor,
                  ['--accent-fg' as string]: accentForeground(form.accentColor),
                }
              : undefined
          }
        >
          <span className="logo" />
          <strong>{form.name || 'Workspace'}</strong>
          <span className="muted">{form.tagline}</span>
          <span className="btn btn-primary">Sign in</span>
        </div>
      </div>
    </div>
  );
}
