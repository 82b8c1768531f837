// Administration: accounts (and who may sign up), feature flags and workspace branding.

import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import {
  Button,
  ErrorMessage,
  fieldErrors,
  Loading,
  PageHeader,
  SaveRow,
  SelectField,
  TextField,
} from '../components/ui';
import { api } from '../lib/api';
import { invalidate } from '../lib/query';
import { accentForeground, applyAccent, type User, useSession, type Workspace } from '../lib/session';
import { RegistrationSettings } from './AdminRegistration';

const ROLES = ['admin', 'member', 'guest'] as const;

export function AdminUsers() {
  const { user: me } = useSession();
  const users = useQuery({
    queryKey: ['admin-users'],
    queryFn: () => api.get<{ users: User[] }>('/admin/users?limit=250'),
  });
  const [form, setForm] = useState({ name: '', email: '', password: '', role: 'member' });
  const [createState, setCreateState] = useState<{ busy?: boolean; error?: unknown }>({});
  const [rowError, setRowError] = useState<{ id: string; error: unknown } | null>(null);
  const fields = fieldErrors(createState.error);

  async function create(e: FormEvent) {
    e.preventDefault();
    setCreateState({ busy: true });
    try {
      await api.post('/admin/users', form);
      setForm({ name: '', email: '', password: '', role: 'member' });
      setCreateState({});
      invalidate('admin-users');
      invalidate('ref');
    } catch (error) {
      setCreateState({ error });
    }
  }

  async function act(u: User, fn: () => Promise<unknown>) {
    setRowError(null);
    try {
      await fn();
      invalidate('admin-users');
      invalidate('ref');
    } catch (error) {
      setRowError({ id: u.id, error });
    }
  }

  return (
    <div className="page">
      <PageHeader title="Users" />
      <RegistrationSettings />
      <section className="card" aria-labelledby="newuser-h">
        <h2 id="newuser-h">Add a user</h2>
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
            onChange={(e) => setForm({ ...form, role: e.target.value })}
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
        {createState.error && Object.keys(fields).length === 0 ? (
          <ErrorMessage error={createState.error} />
        ) : null}
      </section>
      <section className="card" aria-labelledby="users-h">
        <h2 id="users-h">Accounts</h2>
        {users.isLoading && <Loading label="Loading users" />}
        <ErrorMessage error={users.error} />
        {users.data && (
          <table className="table">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Email</th>
                <th scope="col">Role</th>
                <th scope="col">Status</th>
                <th scope="col">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {users.data.users.map((u) => (
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
                      onChange={(e) =>
                        act(u, () => api.patch(`/admin/users/${u.id}`, { role: e.target.value }))
                      }
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
                          api.patch(`/admin/users/${u.id}`, {
                            status: u.status === 'active' ? 'suspended' : 'active',
                          }),
                        )
                      }
                    >
                      {u.status === 'active' ? 'Suspend' : 'Reactivate'}
                    </Button>
                    <Button
                      variant="danger"
                      aria-label={`Delete ${u.name}`}
                      onClick={() => {
                        if (confirm(`Delete ${u.name}? What they wrote stays, under their name.`))
                          void act(u, () => api.del(`/admin/users/${u.id}`));
                      }}
                    >
                      Delete
                    </Button>
                    {rowError?.id === u.id && <ErrorMessage error={rowError.error} />}
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

interface AdminFlag {
  key: string;
  label: string;
  description: string;
  enabled: boolean;
}

export function AdminFlags() {
  const flags = useQuery({
    queryKey: ['admin-flags'],
    queryFn: () => api.get<{ flags: AdminFlag[] }>('/admin/flags'),
  });
  const [state, setState] = useState<{ key?: string; error?: unknown }>({});

  async function toggle(f: AdminFlag) {
    setState({ key: f.key });
    try {
      await api.patch(`/admin/flags/${encodeURIComponent(f.key)}`, { enabled: !f.enabled });
      setState({});
      invalidate('admin-flags');
      invalidate('config');
    } catch (error) {
      setState({ key: f.key, error });
    }
  }

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
  const [state, setState] = useState<{ busy?: boolean; error?: unknown; saved?: boolean }>({});
  const fields = fieldErrors(state.error);
  const validColor = /^#[0-9a-f]{6}$/i.test(form.accentColor);

  async function save(e: FormEvent) {
    e.preventDefault();
    setState({ busy: true });
    try {
      await api.patch('/admin/workspace', { ...form, accentColor: form.accentColor.toLowerCase() });
      invalidate('config');
      setState({ saved: true });
    } catch (error) {
      setState({ error });
    }
  }

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
          {state.error && Object.keys(fields).length === 0 ? <ErrorMessage error={state.error} /> : null}
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
