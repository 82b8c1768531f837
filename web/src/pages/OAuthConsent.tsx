// The OAuth consent page (/oauth/consent/$uid, docs/agents.md): an app asks
// to act for the signed-in person; the page names the app and each scope in
// words, and the person allows or refuses. The server finishes the
// authorization and answers where the browser goes next (back through the
// provider to the app), which the page follows with a full navigation.
import { useQuery } from '@tanstack/react-query';
import { Button, ErrorMessage, Loading, PageHeader } from '../components/ui';
import { useAction } from '../lib/action';
import { ok, rest } from '../lib/api';
import { keys } from '../lib/query-keys';

const follow = (next: { redirectTo: string }) => window.location.assign(next.redirectTo);

export function OAuthConsent({ uid }: { uid: string }) {
  const request = useQuery({
    queryKey: keys.oauthInteraction(uid),
    queryFn: () => ok(rest.GET('/api/oauth/interactions/{uid}', { params: { path: { uid } } })),
    retry: false,
  });
  const allow = useAction(
    () => ok(rest.POST('/api/oauth/interactions/{uid}/consent', { params: { path: { uid } } })),
    { onSuccess: follow },
  );
  const refuse = useAction(
    () => ok(rest.POST('/api/oauth/interactions/{uid}/deny', { params: { path: { uid } } })),
    { onSuccess: follow },
  );
  if (request.isPending) return <Loading />;
  if (request.error) return <ErrorMessage error={request.error} />;
  const { app, scopes, redirectUri } = request.data;
  const busy = allow.busy || refuse.busy || allow.saved || refuse.saved;

  return (
    <div className="page narrow">
      <PageHeader title={`Authorize ${app.name}`} />
      <p>
        <strong>{app.name}</strong> wants to use Trackway as you. It will be able to:
      </p>
      <ul aria-label="What the app asks for">
        {scopes.length === 0 ? <li>Nothing beyond knowing it is connected</li> : null}
        {scopes.map((s) => (
          <li key={s.name}>
            {s.description} <span className="muted">({s.name})</span>
          </li>
        ))}
      </ul>
      <p className="muted">
        It never gets more than your own access. You will be sent back to{' '}
        {new URL(redirectUri).host || redirectUri}. You can revoke it at any time in Settings, Authorized
        apps.
      </p>
      <ErrorMessage error={allow.error ?? refuse.error} />
      <div className="row">
        <Button onClick={() => void allow.run()} disabled={busy}>
          Allow
        </Button>
        <Button onClick={() => void refuse.run()} disabled={busy}>
          Deny
        </Button>
      </div>
    </div>
  );
}
