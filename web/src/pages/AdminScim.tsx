// Provisioning (SCIM): the tokens identity providers (Entra ID, Okta) use to
// create, change and deactivate accounts and teams (docs/identity.md).
// A token's secret is shown once, at creation.

import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Card, ListCard } from '../components/Card';
import { SecretOnce } from '../components/SecretOnce';
import { Button, ErrorMessage, FormError, fieldErrors, PageHeader, TextField } from '../components/ui';
import { rowError, useAction } from '../lib/action';
import { ok, type RestData, rest } from '../lib/api';
import { dateTime, fullDate } from '../lib/dates';
import { keys } from '../lib/query-keys';

type ScimToken = RestData<'get', '/api/admin/scim-tokens'>['scimTokens'][number];

export function AdminScim() {
  const list = useQuery({
    queryKey: keys.admin.scimTokens,
    queryFn: () => ok(rest.GET('/api/admin/scim-tokens')),
  });
  const [label, setLabel] = useState('');
  const [created, setCreated] = useState<{ token: string; label: string } | null>(null);
  const state = useAction(() => ok(rest.POST('/api/admin/scim-tokens', { body: { label } })), {
    refreshes: [keys.admin.scimTokens],
    onSuccess: (r) => {
      setCreated({ token: r.token, label: r.scimToken.label });
      setLabel('');
    },
  });
  const revoking = useAction(
    (id: string) => ok(rest.DELETE('/api/admin/scim-tokens/{id}', { params: { path: { id } } })),
    { refreshes: [keys.admin.scimTokens] },
  );

  function revoke(t: ScimToken) {
    if (confirm(`Revoke the SCIM token "${t.label}"? Provisioning with it stops at once.`))
      void revoking.run(t.id);
  }

  const baseUrl = `${window.location.origin}/scim/v2`;
  return (
    <div className="page narrow">
      <PageHeader title="Provisioning (SCIM)" />
      <p className="muted">
        Identity providers such as Microsoft Entra ID and Okta create, update and deactivate accounts and
        teams through SCIM 2.0. Give the provider the base URL <code>{baseUrl}</code> and a token created
        here.
      </p>
      <Card title="Create a token">
        <form onSubmit={state.submit} className="inline-form">
          <TextField
            label="Token label"
            placeholder="e.g. Entra ID"
            value={label}
            onChange={(e) => setLabel(e.target.value)}
            error={fieldErrors(state.error).label}
          />
          <Button type="submit" variant="primary" busy={state.busy}>
            Create token
          </Button>
        </form>
        <FormError error={state.error} shownAt={['label']} />
        {created && (
          <SecretOnce
            key={created.token}
            label="New SCIM token"
            secret={created.token}
            copyLabel="Copy token"
            testId="new-scim-token"
            onDone={() => setCreated(null)}
          >
            <strong>Copy the token for “{created.label}” now.</strong> It will not be shown again.
          </SecretOnce>
        )}
      </Card>
      <ListCard
        title="Tokens"
        query={list}
        loadingLabel="Loading tokens"
        items={list.data?.scimTokens}
        empty="No tokens yet."
        columns={['Label', 'Token', 'Created', 'Last used']}
        rowActions
        row={(t) => (
          <tr key={t.id}>
            <td>{t.label}</td>
            <td>
              <code>{t.hint}</code>
            </td>
            <td>{fullDate(t.createdAt)}</td>
            <td>{t.lastUsedAt ? dateTime(t.lastUsedAt) : 'Never'}</td>
            <td className="actions">
              {t.revokedAt ? (
                <span className="muted">Revoked {fullDate(t.revokedAt)}</span>
              ) : (
                <Button variant="danger" aria-label={`Revoke ${t.label}`} onClick={() => revoke(t)}>
                  Revoke
                </Button>
              )}
              <ErrorMessage error={rowError(revoking, t.id)} />
            </td>
          </tr>
        )}
      />
    </div>
  );
}
