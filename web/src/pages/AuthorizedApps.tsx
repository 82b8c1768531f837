// Settings → Authorized apps: the OAuth apps the person let act for them, with
// what each may do, and revocation (its tokens stop working at once).

import { useQuery } from '@tanstack/react-query';
import { Button, ErrorMessage, Loading, PageHeader } from '../components/ui';
import { rowError, useAction } from '../lib/action';
import { ok, type RestData, rest } from '../lib/api';
import { dateTime, fullDate } from '../lib/dates';
import { keys } from '../lib/query-keys';

type AuthorizedApp = RestData<'get', '/api/oauth/apps'>['apps'][number];

/** The scopes in words, as the consent page asked for them. */
const SCOPE_NAMES: Record<string, string> = {
  read: 'read everything you can see',
  write: 'make changes',
  'issues:create': 'create issues',
  'comments:create': 'comment',
  admin: 'administration',
};

/** An app's icon: only an https image (a plain-http one would be mixed content). */
export function AppIcon({ url }: { url: string | null }) {
  if (!url?.startsWith('https://')) return <span className="app-icon" aria-hidden="true" />;
  return <img className="app-icon" src={url} alt="" width={24} height={24} referrerPolicy="no-referrer" />;
}

export function AuthorizedApps() {
  const list = useQuery({
    queryKey: keys.me.oauthApps,
    queryFn: () => ok(rest.GET('/api/oauth/apps', { params: { query: { limit: 100 } } })),
  });
  const revoking = useAction(
    (clientId: string) => ok(rest.DELETE('/api/oauth/apps/{clientId}', { params: { path: { clientId } } })),
    { refreshes: [keys.me.oauthApps] },
  );

  function revoke(app: AuthorizedApp) {
    if (confirm(`Revoke ${app.name}? It loses access to your account at once.`))
      void revoking.run(app.clientId);
  }

  return (
    <div className="page narrow">
      <PageHeader title="Authorized apps" />
      <p className="muted">
        Apps you allowed to use Trackway for you. Revoking one stops it at once; it has to ask you again.
      </p>
      <section className="card" aria-labelledby="apps-h">
        <h2 id="apps-h">Apps</h2>
        {list.isLoading && <Loading label="Loading apps" />}
        <ErrorMessage error={list.error} />
        {list.data && list.data.apps.length === 0 && (
          <p className="muted">You have not authorized any app.</p>
        )}
        {list.data && list.data.apps.length > 0 && (
          <table className="table">
            <thead>
              <tr>
                <th scope="col">App</th>
                <th scope="col">May</th>
                <th scope="col">Authorized</th>
                <th scope="col">Last used</th>
                <th scope="col">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.data.apps.map((app) => (
                <tr key={app.clientId}>
                  <td>
                    <AppIcon url={app.iconUrl} /> {app.name}
                  </td>
                  <td>{app.scopes.map((s) => SCOPE_NAMES[s] ?? s).join(', ')}</td>
                  <td>{app.authorizedAt ? fullDate(app.authorizedAt) : ''}</td>
                  <td>{app.lastUsedAt ? dateTime(app.lastUsedAt) : 'Never'}</td>
                  <td className="actions">
                    <Button variant="danger" aria-label={`Revoke ${app.name}`} onClick={() => revoke(app)}>
                      Revoke
                    </Button>
                    <ErrorMessage error={rowError(revoking, app.clientId)} />
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
