// Webhook endpoints: register (secret shown once), enable/disable, delivery log, redeliver.

import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Card, ListCard } from '../components/Card';
import { SecretOnce } from '../components/SecretOnce';
import {
  Button,
  ErrorMessage,
  FormError,
  fieldErrors,
  Loading,
  PageHeader,
  TextField,
} from '../components/ui';
import { rowError, useAction } from '../lib/action';
import { ok, rest } from '../lib/api';
import { dateTime } from '../lib/dates';
import { keys } from '../lib/query-keys';

export function AdminWebhooks() {
  const hooks = useQuery({
    queryKey: keys.admin.webhooks,
    queryFn: () => ok(rest.GET('/api/admin/webhooks', { params: { query: { limit: 50 } } })),
  });
  const [form, setForm] = useState({ url: '', label: '' });
  const [secret, setSecret] = useState<{ secret: string; url: string } | null>(null);
  const [open, setOpen] = useState<string | null>(null);
  const state = useAction(
    () =>
      ok(
        rest.POST('/api/admin/webhooks', {
          body: { url: form.url, ...(form.label ? { label: form.label } : {}) },
        }),
      ),
    {
      refreshes: [keys.admin.webhooks],
      onSuccess: (r) => {
        setSecret({ secret: r.webhook.secret, url: r.webhook.url });
        setForm({ url: '', label: '' });
      },
    },
  );
  /** A change to one endpoint; its error shows on that row. */
  const row = useAction(({ write }: { id: string; write: () => Promise<unknown> }) => write(), {
    refreshes: [keys.admin.webhooks],
  });
  const act = (id: string, write: () => Promise<unknown>) => void row.run({ id, write });
  const byId = (id: string) => ({ params: { path: { id } } });
  const fields = fieldErrors(state.error);
  const create = state.submit;

  return (
    <div className="page">
      <PageHeader title="Webhooks" />
      <p className="muted">
        Issue and comment changes are POSTed to each endpoint, signed with HMAC-SHA256 in{' '}
        <code>X-Service-Signature</code>.
      </p>
      <Card title="Add an endpoint">
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
        <FormError error={state.error} />
        {secret && (
          <SecretOnce
            key={secret.secret}
            label="New webhook secret"
            secret={secret.secret}
            copyLabel="Copy secret"
            onDone={() => setSecret(null)}
          >
            <strong>Signing secret for {secret.url}.</strong> Copy it now: it will not be shown again.
          </SecretOnce>
        )}
      </Card>
      <ListCard
        title="Endpoints"
        query={hooks}
        loadingLabel="Loading endpoints"
        items={hooks.data?.webhooks}
        empty="No endpoints yet."
        listClass="hook-list"
        row={(h) => (
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
                    act(h.id, () =>
                      ok(
                        rest.PATCH('/api/admin/webhooks/{id}', {
                          ...byId(h.id),
                          body: { enabled: !h.enabled },
                        }),
                      ),
                    )
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
                      act(h.id, () => ok(rest.DELETE('/api/admin/webhooks/{id}', byId(h.id))));
                  }}
                >
                  Delete
                </Button>
              </div>
            </div>
            <ErrorMessage error={rowError(row, h.id)} />
            {open === h.id && <Deliveries hookId={h.id} />}
          </li>
        )}
      />
    </div>
  );
}

function Deliveries({ hookId }: { hookId: string }) {
  const q = useQuery({
    queryKey: keys.admin.deliveries(hookId),
    queryFn: () =>
      ok(
        rest.GET('/api/admin/webhooks/{id}/deliveries', {
          params: { path: { id: hookId }, query: { limit: 20 } },
        }),
      ),
  });
  const redeliver = useAction(
    (deliveryId: string) =>
      ok(
        rest.POST('/api/admin/webhooks/{id}/deliveries/{deliveryId}/redeliver', {
          params: { path: { id: hookId, deliveryId } },
        }),
      ),
    { refreshes: [keys.admin.deliveries(hookId)] },
  );
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
              <td>{dateTime(d.createdAt)}</td>
              <td className="actions">
                <Button onClick={() => void redeliver.run(d.id)}>Redeliver</Button>
                <ErrorMessage error={rowError(redeliver, d.id)} />
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
