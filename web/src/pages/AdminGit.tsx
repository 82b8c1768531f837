// Git hosts (docs/git.md): connect GitHub, GitLab or Gitea/Forgejo (the
// webhook secret is shown once, with the URL to paste into the host), the
// repositories each serves, back-link settings, each team's automation and
// the delivery log.

import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { branchFormatProblem } from '../../../src/modules/issues/branch-format';
import { SecretOnce } from '../components/SecretOnce';
import {
  Button,
  ErrorMessage,
  FormError,
  fieldErrors,
  Loading,
  PageHeader,
  SelectField,
  TextArea,
  TextField,
} from '../components/ui';
import { rowError, useAction } from '../lib/action';
import { ok, type RestData, rest } from '../lib/api';
import { dateTime } from '../lib/dates';
import { keys } from '../lib/query-keys';
import { useRefData } from '../lib/ref';

type Connection = RestData<'get', '/api/admin/git/connections'>['connections'][number];
type Host = Connection['host'];
const HOSTS: { value: Host; label: string }[] = [
  { value: 'github', label: 'GitHub' },
  { value: 'gitlab', label: 'GitLab' },
  { value: 'gitea', label: 'Gitea / Forgejo' },
];
const STEPS: Record<string, string> = {
  draft: 'Draft opened',
  start: 'Opened',
  review: 'Review requested',
  mergeable: 'Approved',
  merge: 'Merged',
};

export function AdminGit() {
  const ref = useRefData();
  const list = useQuery({
    queryKey: keys.admin.git,
    queryFn: () => ok(rest.GET('/api/admin/git/connections')),
  });
  const deliveries = useQuery({
    queryKey: keys.admin.gitDeliveries,
    queryFn: () => ok(rest.GET('/api/admin/git/deliveries')),
  });
  const [host, setHost] = useState<Host>('github');
  const [name, setName] = useState('');
  const [apiToken, setApiToken] = useState('');
  const [apiBaseUrl, setApiBaseUrl] = useState('');
  // A GitHub App instead of a token (GitHub only); the key is sent once and never shown back.
  const [appId, setAppId] = useState('');
  const [appKey, setAppKey] = useState('');
  const [installationId, setInstallationId] = useState('');
  const [repo, setRepo] = useState('');
  const [teamId, setTeamId] = useState('');
  const [created, setCreated] = useState<{ secret: string; url: string; name: string } | null>(null);
  const team = teamId || ref.data?.teams[0]?.id || '';
  const creating = useAction(
    () =>
      ok(
        rest.POST('/api/admin/git/connections', {
          body: {
            host,
            name,
            ...(apiToken ? { apiToken } : {}),
            ...(apiBaseUrl ? { apiBaseUrl } : {}),
            ...(host === 'github' && (appId || appKey)
              ? { githubApp: { appId, privateKey: appKey, installationId: installationId || null } }
              : {}),
            repositories: repo ? [{ fullName: repo, teamId: team }] : [],
          },
        }),
      ),
    {
      refreshes: [keys.admin.git],
      onSuccess: (r) => {
        setCreated({ secret: r.webhookSecret, url: r.connection.webhookUrl, name: r.connection.name });
        setName('');
        setApiToken('');
        setApiBaseUrl('');
        setAppId('');
        setAppKey('');
        setInstallationId('');
        setRepo('');
      },
    },
  );
  const toggling = useAction(
    (c: Connection) =>
      ok(
        rest.PATCH('/api/admin/git/connections/{id}', {
          params: { path: { id: c.id } },
          body: { backlinks: !c.backlinks },
        }),
      ),
    { refreshes: [keys.admin.git] },
  );
  const removing = useAction(
    (id: string) => ok(rest.DELETE('/api/admin/git/connections/{id}', { params: { path: { id } } })),
    { refreshes: [keys.admin.git] },
  );
  const teamName = (id: string) => ref.data?.teamById.get(id)?.name ?? id;
  const errors = fieldErrors(creating.error);

  return (
    <div className="page narrow">
      <PageHeader title="Git" />
      <p className="muted">
        Pull and merge requests that name an issue (<code>ENG-123</code>) link it and move it through its
        team's workflow. Connect a host, paste the webhook URL and secret into it, and list the repositories
        whose pull requests belong to each team.
      </p>
      <BranchFormat />
      <section className="card" aria-labelledby="newgit-h">
        <h2 id="newgit-h">Connect a host</h2>
        <form onSubmit={creating.submit}>
          <SelectField label="Host" value={host} onChange={(e) => setHost(e.target.value as Host)}>
            {HOSTS.map((h) => (
              <option key={h.value} value={h.value}>
                {h.label}
              </option>
            ))}
          </SelectField>
          <TextField
            label="Connection name"
            value={name}
            onChange={(e) => setName(e.target.value)}
            error={errors.name}
          />
          <TextField
            label="Repository"
            placeholder="owner/name"
            value={repo}
            onChange={(e) => setRepo(e.target.value)}
            error={errors['repositories/0/fullName'] ?? errors.repositories}
          />
          <SelectField label="Team" value={team} onChange={(e) => setTeamId(e.target.value)}>
            {ref.data?.teams.map((t) => (
              <option key={t.id} value={t.id}>
                {t.name}
              </option>
            ))}
          </SelectField>
          <TextField
            label="API token (for back-link comments)"
            type="password"
            autoComplete="off"
            value={apiToken}
            onChange={(e) => setApiToken(e.target.value)}
            error={errors.apiToken}
          />
          {host === 'github' && (
            <fieldset>
              <legend>Or a GitHub App (instead of a token)</legend>
              <TextField
                label="App ID"
                inputMode="numeric"
                value={appId}
                onChange={(e) => setAppId(e.target.value)}
                error={errors['githubApp/appId'] ?? errors.githubApp}
              />
              <TextArea
                label="App private key (PEM)"
                autoComplete="off"
                spellCheck={false}
                rows={4}
                placeholder="-----BEGIN RSA PRIVATE KEY-----"
                value={appKey}
                onChange={(e) => setAppKey(e.target.value)}
                error={errors['githubApp/privateKey']}
              />
              <TextField
                label="Installation ID (empty: found per repository)"
                inputMode="numeric"
                value={installationId}
                onChange={(e) => setInstallationId(e.target.value)}
                error={errors['githubApp/installationId']}
              />
            </fieldset>
          )}
          <TextField
            label="API base URL"
            placeholder={host === 'gitea' ? 'https://gitea.example.com/api/v1' : 'the public host by default'}
            value={apiBaseUrl}
            onChange={(e) => setApiBaseUrl(e.target.value)}
            error={errors.apiBaseUrl}
          />
          <Button type="submit" variant="primary" busy={creating.busy}>
            Connect
          </Button>
        </form>
        <FormError
          error={creating.error}
          shownAt={[
            'name',
            'apiToken',
            'apiBaseUrl',
            'repositories',
            'githubApp',
            'githubApp/appId',
            'githubApp/privateKey',
            'githubApp/installationId',
          ]}
        />
        {created && (
          <SecretOnce
            key={created.secret}
            label="New webhook secret"
            secret={created.secret}
            copyLabel="Copy secret"
            testId="new-git-secret"
            onDone={() => setCreated(null)}
          >
            <strong>Copy the secret for “{created.name}” now.</strong> It will not be shown again. Paste it
            into the host's webhook settings with the URL{' '}
            <code data-testid="git-webhook-url">{created.url}</code>.
          </SecretOnce>
        )}
      </section>
      <section className="card" aria-labelledby="gitconns-h">
        <h2 id="gitconns-h">Connections</h2>
        {list.isLoading && <Loading label="Loading connections" />}
        <ErrorMessage error={list.error} />
        {list.data && list.data.connections.length === 0 && <p className="muted">No host connected.</p>}
        {list.data && list.data.connections.length > 0 && (
          <table className="table">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Webhook URL</th>
                <th scope="col">Repositories</th>
                <th scope="col">Back-links</th>
                <th scope="col">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.data.connections.map((c) => (
                <tr key={c.id}>
                  <td>
                    {c.name} <span className="muted">({HOSTS.find((h) => h.value === c.host)?.label})</span>
                  </td>
                  <td>
                    <code>{c.webhookUrl}</code>
                  </td>
                  <td>
                    {c.repositories.map((r) => (
                      <div key={r.fullName}>
                        {r.fullName} → {teamName(r.teamId)}
                      </div>
                    ))}
                  </td>
                  <td>
                    <Button
                      aria-label={`Back-links for ${c.name}: ${c.backlinks ? 'on' : 'off'}`}
                      aria-pressed={c.backlinks}
                      onClick={() => void toggling.run(c)}
                    >
                      {c.backlinks ? 'On' : 'Off'}
                    </Button>
                    {c.githubApp ? (
                      <div className="muted">
                        GitHub App {c.githubApp.appId}
                        {c.githubApp.installationId ? `, installation ${c.githubApp.installationId}` : ''}
                      </div>
                    ) : (
                      !c.hasApiToken && <div className="muted">No token</div>
                    )}
                    <ErrorMessage error={rowError(toggling, c.id)} />
                  </td>
                  <td className="actions">
                    <Button
                      variant="danger"
                      aria-label={`Disconnect ${c.name}`}
                      onClick={() => {
                        if (confirm(`Disconnect "${c.name}"? Its queued deliveries go too.`))
                          void removing.run(c.id);
                      }}
                    >
                      Disconnect
                    </Button>
                    <ErrorMessage error={rowError(removing, c.id)} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      {ref.data?.teams.map((t) => (
        <Automation key={t.id} teamId={t.id} teamName={t.name} />
      ))}
      <section className="card" aria-labelledby="gitdeliveries-h">
        <h2 id="gitdeliveries-h">Deliveries</h2>
        {deliveries.isLoading && <Loading label="Loading deliveries" />}
        <ErrorMessage error={deliveries.error} />
        {deliveries.data && deliveries.data.deliveries.length === 0 && <p className="muted">None yet.</p>}
        {deliveries.data && deliveries.data.deliveries.length > 0 && (
          <table className="table">
            <thead>
              <tr>
                <th scope="col">Received</th>
                <th scope="col">Event</th>
                <th scope="col">Status</th>
                <th scope="col">What it did</th>
              </tr>
            </thead>
            <tbody>
              {deliveries.data.deliveries.map((d) => (
                <tr key={d.id}>
                  <td>{dateTime(d.receivedAt)}</td>
                  <td>
                    {d.host} {d.event}
                  </td>
                  <td>{d.status}</td>
                  <td>{d.outcome ?? d.error ?? ''}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </div>
  );
}

/** A team's automation: the state each step moves an issue to (its rules, else the defaults). */
/** The workspace's branch name format (docs/git.md "Branch names"), checked here as the server checks it. */
function BranchFormat() {
  const settings = useQuery({
    queryKey: keys.admin.gitSettings,
    queryFn: () => ok(rest.GET('/api/admin/git/settings')),
  });
  const [format, setFormat] = useState<string | null>(null);
  const value = format ?? settings.data?.branchFormat ?? '';
  const saving = useAction(() => ok(rest.PUT('/api/admin/git/settings', { body: { branchFormat: value } })), {
    refreshes: [keys.admin.gitSettings],
    onSuccess: () => setFormat(null),
  });
  if (settings.error) return <ErrorMessage error={settings.error} />;
  if (!settings.data) return <Loading />;
  const problem = format === null ? null : branchFormatProblem(value);
  return (
    <section className="card" aria-labelledby="branch-h">
      <h2 id="branch-h">Branch names</h2>
      <form onSubmit={saving.submit}>
        <TextField
          label="Branch name format"
          value={value}
          onChange={(e) => setFormat(e.target.value)}
          error={problem ?? fieldErrors(saving.error).branchFormat}
        />
        <p className="muted small">
          Placeholders:{' '}
          {settings.data.placeholders.map((p, i) => (
            <span key={p.name} title={p.description}>
              {i > 0 && ', '}
              <code>{p.name}</code>
            </span>
          ))}
        </p>
        <FormError error={saving.error} />
        <Button type="submit" disabled={saving.busy || format === null || problem !== null}>
          Save format
        </Button>
      </form>
    </section>
  );
}

function Automation({ teamId, teamName }: { teamId: string; teamName: string }) {
  const ref = useRefData();
  const q = useQuery({
    queryKey: keys.admin.gitAutomation(teamId),
    queryFn: () => ok(rest.GET('/api/admin/git/teams/{teamId}/automation', { params: { path: { teamId } } })),
  });
  const stateName = (id: string | null) => (id ? (ref.data?.stateById.get(id)?.name ?? id) : "Don't move");
  return (
    <section className="card" aria-label={`Automation of ${teamName}`}>
      <h2>Automation: {teamName}</h2>
      <ErrorMessage error={q.error} />
      {q.data && (
        <table className="table">
          <thead>
            <tr>
              <th scope="col">When a pull request is</th>
              <th scope="col">Target branch</th>
              <th scope="col">The issue moves to</th>
            </tr>
          </thead>
          <tbody>
            {q.data.defaults
              .filter((d) => !q.data.rules.some((r) => r.event === d.event && r.targetBranch === null))
              .map((d) => (
                <tr key={`default-${d.event}`}>
                  <td>{STEPS[d.event]}</td>
                  <td className="muted">any (default)</td>
                  <td>{stateName(d.stateId)}</td>
                </tr>
              ))}
            {q.data.rules.map((r) => (
              <tr key={`${r.event}-${r.targetBranch ?? ''}`}>
                <td>{STEPS[r.event]}</td>
                <td>{r.targetBranch ?? 'any'}</td>
                <td>{stateName(r.stateId)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
