// Webhook endpoints: register (secret shown once), enable/disable, delivery log, redeliver.

import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import {
  Button,
  copyText,
  ErrorMessage,
  fieldErrors,
  Loading,
  PageHeader,
  TextField,
} from '../components/ui';
import { api } from '../lib/api';
import { invalidate } from '../lib/query';

interface Webhook {
  id: string;
  url: string;
  label: string | null;
  enabled: boolean;
  disabledReason: string | null;
  failingSince: string | null;
  createdAt: string;
}
interface Delivery {
  id: string;
  event: string;
  status: 'pending' | 'delivering' | 'succeeded' | 'failed';
  attemptCount: number;
  lastError: string | null;
  createdAt: string;
  nextAttemptAt: string | null;
  attempts: {
    id: string;
    statusCode: number | null;
    error: string | null;
    durationMs: number;
    startedAt: string;
  }[];
}

export function AdminWebhooks() {
  const hooks = useQuery({
    queryKey: ['admin-webhooks'],
    queryFn: () => api.get<{ webhooks: Webhook[] }>('/admin/webhooks?limit=50'),
  });
  const [form, setForm] = useState({ url: '', label: '' });
  const [state, setState] = useState<{ busy?: boolean; error?: unknown }>({});
  const [secret, setSecret] = useState<{ secret: string; url: string } | null>(null);
  const [open, setOpen] = useState<string | null>(null);
  const [rowError, setRowError] = useState<{ id: string; error: unknown } | null>(null);
  const fields = fieldErrors(state.error);

  async function create(e: FormEvent) {
    e.preventDefault();
    setState({ busy: true });
    try {
      const r = await api.post<{ webhook: Webhook & { secret: string } }>('/admin/webhooks', {
        url: form.url,
        ...(form.label ? { label: form.label } : {}),
      });
      setSecret({ secret: r.webhook.secret, url: r.webhook.url });
      setForm({ url: '', label: '' });
      setState({});
      invalidate('admin-webhooks');
    } catch (error) {
      setState({ error });
    }
  }

  async function act(id: string, fn: () => Promise<unknown>) {
    setRowError(null);
    try {
      await fn();
      invalidate('admin-webhooks');
    } catch (error) {
      setRowError({ id, error });
    }
  }

  return (
    <div className="page">
      <PageHeader title="Webhooks" />
      <p className="muted">
        Issue and comment changes are POSTed to each endpoint, signed with HMAC-SHA256 in{' '}
        <code>X-Service-Signature</code>.
      </p>
      <section className="card" aria-labelledby="newhook-h">
        <h2 id="newhook-h">Add an endpoint</h2>
        <form onSubmit={create} className="inline-form">
          <TextField
            label="Endpoint URL"
            type="url"
            placeholder="https://example.com/hooks/trackway"
            value={form.url}
            onChange={(e) => setForm({ ...form, url: e.target.value })}
            error={fields.url}
          />
          <TextField
            label="Endpoint label"
            value={form.label}
            onChange={(e) => setForm({ ...form, label: e.target.value })}
            error={fields.label}
          />
          <Button type="submit" variant="primary" busy={state.busy}>
            Add endpoint
          </Button>
        </form>
        {state.error && Object.keys(fields).length === 0 ? <ErrorMessage error={state.error} /> : null}
        {secret && (
          <section className="secret-box" aria-label="New webhook secret">
            <p>
              <strong>Signing secret for {secret.url}.</strong> Copy it now: it will not be shown again.
            </p>
            <div className="row">
              <code className="secret">{secret.secret}</code>
              <Button onClick={() => void copyText(secret.secret)}>Copy secret</Button>
              <Button variant="ghost" onClick={() => setSecret(null)}>
                Done
              </Button>
            </div>
          </section>
        )}
      </section>
      <section className="card" aria-labelledby="hooks-h">
        <h2 id="hooks-h">Endpoints</h2>
        {hooks.isLoading && <Loading label="Loading endpoints" />}
        <ErrorMessage error={hooks.error} />
        {hooks.data?.webhooks.length === 0 && <p className="muted">No endpoints yet.</p>}
        <ul className="hook-list">
          {hooks.data?.webhooks.map((h) => (
            <li key={h.id} className="hook">
              <div className="hook-head">
                <div>
                  <strong>{h.label || h.url}</strong>
                  {h.label && <div className="muted small">{h.url}</div>}
                  {h.disabledReason && <div className="field-error">{h.disabledReason}</div>}
                </div>
                <span className={`status-pill ${h.enabled ? '' : 'disabled'}`}>
                  {h.enabled ? 'enabled' : 'disabled'}
                </span>
                <div className="row">
                  <Button
                    onClick={() =>
                      act(h.id, () => api.patch(`/admin/webhooks/${h.id}`, { enabled: !h.enabled }))
                    }
                  >
                    {h.enabled ? 'Disable' : 'Enable'}
                  </Button>
                  <Button aria-expanded={open === h.id} onClick={() => setOpen(open === h.id ? null : h.id)}>
                    {open === h.id ? 'Hide deliveries' : 'Deliveries'}
                  </Button>
                  <Button
                    variant="danger"
                    onClick={() => {
                      if (confirm(`Delete the endpoint ${h.url} and its delivery log?`))
                        void act(h.id, () => api.del(`/admin/webhooks/${h.id}`));
                    }}
                  >
                    Delete
                  </Button>
                </div>
              </div>
              {rowError?.id === h.id && <ErrorMessage error={rowError.error} />}
              {open === h.id && <Deliveries hookId={h.id} />}
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}

function Deliveries({ hookId }: { hookId: string }) {
  const key = ['admin-webhooks', 'deliveries', hookId];
  const q = useQuery({
    queryKey: key,
    queryFn: () => api.get<{ deliveries: Delivery[] }>(`/admin/webhooks/${hookId}/deliveries?limit=20`),
  });
  const [error, setError] = useState<{ id: string; error: unknown } | null>(null);
  if (q.isLoading) return <Loading label="Loading deliveries" />;
  if (q.error) return <ErrorMessage error={q.error} />;
  if (!q.data?.deliveries.length) return <p className="muted">No deliveries yet.</p>;
  return (
    <table className="table deliveries">
      <caption className="sr-only">Delivery log</caption>
      <thead>
        <tr>
          <th scope="col">Event</th>
          <th scope="col">Status</th>
          <th scope="col">Attempts</th>
          <th scope="col">Last result</th>
          <th scope="col">When</th>
          <th scope="col">
            <span className="sr-only">Actions</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {q.data.deliveries.map((d) => {
          const last = d.attempts[d.attempts.length - 1];
          return (
            <tr key={d.id}>
              <td>
                <code>{d.event}</code>
              </td>
              <td>
                <span className={`status-pill ${d.status === 'failed' ? 'disabled' : ''}`}>{d.status}</span>
              </td>
              <td>{d.attemptCount}</td>
              <td>
                {last ? (last.statusCode ? `HTTP ${last.statusCode}` : last.error) : (d.lastError ?? '—')}
              </td>
              <td>{new Date(d.createdAt).toLocaleString()}</td>
              <td className="actions">
                <Button
                  onClick={async () => {
                    try {
                      await api.post(`/admin/webhooks/${hookId}/deliveries/${d.id}/redeliver`);
                      void q.refetch();
                    } catch (e) {
                      setError({ id: d.id, error: e });
                    }
                  }}
                >
                  Redeliver
                </Button>
                {error?.id === d.id && <ErrorMessage error={error.error} />}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
