// Administration → OAuth apps: every app people can authorize, how it was
// registered (by an admin here, or by itself through dynamic registration, a
// switch here) and how many people use it; registering one (a confidential
// app's secret is shown once) and removing one (everyone's access ends).

import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Card, ListCard } from '../components/Card';
import { SecretOnce } from '../components/SecretOnce';
import {
  Button,
  ErrorMessage,
  FormError,
  fieldErrors,
  PageHeader,
  SelectField,
  TextArea,
  TextField,
} from '../components/ui';
import { rowError, useAction } from '../lib/action';
import { ok, type RestData, rest } from '../lib/api';
import { fullDate } from '../lib/dates';
import { keys } from '../lib/query-keys';
import { AppIcon } from './AuthorizedApps';

type OAuthApp = RestData<'get', '/api/admin/oauth/apps'>['apps'][number];

const lines = (text: string) =>
  text
    .split(/\s+/)
    .map((s) => s.trim())
    .filter(Boolean);

function DynamicRegistration() {
  const settings = useQuery({ queryKey: keys.admin.oauth, queryFn: () => ok(rest.GET('/api/admin/oauth')) });
  const toggling = useAction(
    (on: boolean) => ok(rest.PATCH('/api/admin/oauth', { body: { dynamicRegistration: on } })),
    { refreshes: [keys.admin.oauth] },
  );
  const on = settings.data?.dynamicRegistration;
  return (
    <section className="card flag" aria-labelledby="dcr-h">
      <div>
        <h2 id="dcr-h">
          <label className="flag-label" htmlFor="oauth-dcr">
            Apps may register themselves
          </label>
        </h2>
        <p className="muted" id="oauth-dcr-desc">
          Assistants and other MCP clients register on their own (dynamic client registration) before they ask
          someone to authorize them. When off, only apps registered here can ask.
        </p>
        <ErrorMessage error={settings.error ?? toggling.error} />
      </div>
      {on !== undefined && (
        <input
          id="oauth-dcr"
          type="checkbox"
          role="switch"
          className="switch"
          checked={on}
          aria-checked={on}
          aria-describedby="oauth-dcr-desc"
          disabled={toggling.busy}
          onChange={(e) => void toggling.run(e.target.checked)}
        />
      )}
    </section>
  );
}

export function AdminOAuthApps() {
  const list = useQuery({
    queryKey: keys.admin.oauthApps,
    queryFn: () => ok(rest.GET('/api/admin/oauth/apps', { params: { query: { limit: 100 } } })),
  });
  const [name, setName] = useState('');
  const [redirects, setRedirects] = useState('');
  const [icon, setIcon] = useState('');
  const [kind, setKind] = useState<'confidential' | 'public'>('confidential');
  const [created, setCreated] = useState<{ clientId: string; secret?: string; name: string } | null>(null);
  const registering = useAction(
    () =>
      ok(
        rest.POST('/api/admin/oauth/apps', {
          body: {
            name,
            redirectUris: lines(redirects),
            kind,
            ...(icon.trim() ? { iconUrl: icon.trim() } : {}),
          },
        }),
      ),
    {
      refreshes: [keys.admin.oauthApps],
      onSuccess: (r) => {
        setCreated({
          clientId: r.clientId,
          name: r.name,
          ...(r.clientSecret ? { secret: r.clientSecret } : {}),
        });
        setName('');
        setRedirects('');
        setIcon('');
      },
    },
  );
  const removing = useAction(
    (clientId: string) =>
      ok(rest.DELETE('/api/admin/oauth/apps/{clientId}', { params: { path: { clientId } } })),
    { refreshes: [keys.admin.oauthApps] },
  );
  const fields = fieldErrors(registering.error);

  function remove(app: OAuthApp) {
    const who = app.users === 1 ? '1 person' : `${app.users} people`;
    if (confirm(`Remove ${app.name}? Access ends at once for ${who} who authorized it.`))
      void removing.run(app.clientId);
  }

  return (
    <div className="page narrow">
      <PageHeader title="OAuth apps" />
      <p className="muted">
        Apps people can authorize to use Trackway for them, with the scopes they agree to. Developers point
        their app at <code>{window.location.origin}/oauth/authorize</code>.
      </p>
      <DynamicRegistration />
      <Card title="Register an app">
        <form onSubmit={registering.submit}>
          <TextField
            label="Name"
            value={name}
            onChange={(e) => setName(e.target.value)}
            error={fields.name}
          />
          <TextArea
            label="Redirect URIs (one per line)"
            value={redirects}
            rows={2}
            onChange={(e) => setRedirects(e.target.value)}
            error={fields.redirectUris}
          />
          <TextField
            label="Icon URL (optional)"
            value={icon}
            placeholder="https://"
            onChange={(e) => setIcon(e.target.value)}
            error={fields.iconUrl}
          />
          <SelectField
            label="Kind"
            value={kind}
            onChange={(e) => setKind(e.target.value as 'confidential' | 'public')}
          >
            <option value="confidential">Confidential: a server that keeps a client secret</option>
            <option value="public">Public: a desktop, mobile or browser app (no secret)</option>
          </SelectField>
          <FormError error={registering.error} shownAt={['name', 'redirectUris', 'iconUrl']} />
          <Button type="submit" variant="primary" busy={registering.busy}>
            Register app
          </Button>
        </form>
        {created && (
          <SecretOnce
            key={created.clientId}
            label="New app's credentials"
            secret={created.secret ? `${created.clientId}:${created.secret}` : created.clientId}
            copyLabel={created.secret ? 'Copy client id and secret' : 'Copy client id'}
            testId="new-oauth-app"
            onDone={() => setCreated(null)}
          >
            <strong>“{created.name}” is registered.</strong> Client id <code>{created.clientId}</code>
            {created.secret ? (
              <>
                , client secret <code data-testid="new-oauth-secret">{created.secret}</code>. Copy the secret
                now: it will not be shown again.
              </>
            ) : (
              '. It is public: it has no secret and uses PKCE.'
            )}
          </SecretOnce>
        )}
      </Card>
      <ListCard
        title="Apps"
        query={list}
        loadingLabel="Loading apps"
        items={list.data?.apps}
        empty="No apps yet."
        columns={['App', 'Registered', 'Kind', 'People']}
        rowActions
        row={(app) => (
          <tr key={app.clientId}>
            <td>
              <AppIcon url={app.iconUrl} /> {app.name}
              <div className="muted small">
                <code>{app.clientId}</code>
              </div>
            </td>
            <td>
              {app.registration === 'admin' ? 'By an admin' : 'By itself'}
              {app.registeredAt ? `, ${fullDate(app.registeredAt)}` : ''}
            </td>
            <td>{app.kind}</td>
            <td>{app.users}</td>
            <td className="actions">
              <Button variant="danger" aria-label={`Remove ${app.name}`} onClick={() => remove(app)}>
                Remove
              </Button>
              <ErrorMessage error={rowError(removing, app.clientId)} />
            </td>
          </tr>
        )}
      />
    </div>
  );
}
