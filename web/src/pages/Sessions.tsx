// Settings → Sessions: where the person is signed in, each with "End", and
// "End all other sessions" (docs/identity.md, "Sessions"). Their API keys,
// the other way in, are on the API keys page this links to.
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { RelativeTime } from '../components/RelativeTime';
import { Button, ErrorMessage, Loading, PageHeader } from '../components/ui';
import { rowError, useAction } from '../lib/action';
import { ok, type RestData, rest } from '../lib/api';
import { keys } from '../lib/query-keys';

type Session = RestData<'get', '/api/sessions'>['sessions'][number];

const HOW: Record<Session['method'], string> = {
  password: 'password',
  registration: 'sign-up',
  passwordChange: 'password change',
  sso: 'single sign-on',
};

export function Sessions() {
  const list = useQuery({
    queryKey: keys.me.sessions,
    queryFn: () => ok(rest.GET('/api/sessions', { params: { query: { limit: 250 } } })),
  });
  const ending = useAction(
    (id: string) => ok(rest.DELETE('/api/sessions/{id}', { params: { path: { id } } })),
    { refreshes: [keys.me.sessions] },
  );
  const others = useAction(() => ok(rest.POST('/api/sessions/end-others', { body: {} })), {
    refreshes: [keys.me.sessions],
  });
  const sessions = list.data?.sessions ?? [];
  const hasOthers = sessions.some((s) => !s.current);

  return (
    <div className="page narrow">
      <PageHeader title="Sessions" />
      <p className="muted">
        Each place you signed in. Ending a session signs that device out at once. Scripts use{' '}
        <Link to="/settings/api-keys">API keys</Link>, which stay until you revoke them.
      </p>
      <section className="card" aria-labelledby="sessions-h">
        <div className="row">
          <h2 id="sessions-h">Signed in</h2>
          {hasOthers && (
            <Button
              variant="danger"
              busy={others.busy}
              onClick={() => {
                if (confirm('Sign out every other device?')) void others.run();
              }}
            >
              End all other sessions
            </Button>
          )}
        </div>
        <ErrorMessage error={others.error} />
        {list.isLoading && <Loading label="Loading sessions" />}
        <ErrorMessage error={list.error} />
        {list.data && (
          <table className="table">
            <thead>
              <tr>
                <th scope="col">Device</th>
                <th scope="col">Address</th>
                <th scope="col">Signed in</th>
                <th scope="col">Last active</th>
                <th scope="col">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {sessions.map((s) => (
                <tr key={s.id}>
                  <td>
                    {s.name}
                    {s.current && <span className="status-pill active">This device</span>}
                  </td>
                  <td>
                    <code>{s.ip}</code>
                  </td>
                  <td>
                    <RelativeTime iso={s.createdAt} /> <span className="muted small">by {HOW[s.method]}</span>
                  </td>
                  <td>
                    <RelativeTime iso={s.lastActiveAt} />
                  </td>
                  <td className="actions">
                    {!s.current && (
                      <Button
                        variant="danger"
                        aria-label={`End the session on ${s.name}`}
                        onClick={() => void ending.run(s.id)}
                      >
                        End
                      </Button>
                    )}
                    <ErrorMessage error={rowError(ending, s.id)} />
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
