// Git hosts (docs/git.md): connect GitHub, GitLab or Gitea/Forgejo (the
// webhook secret is shown once, with the URL to paste into the host); edit
// each connection (components/GitConnection.tsx: repositories and their
// teams, back-links, credentials) and each team's automation
// (components/GitAutomation.tsx); the delivery log.

import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { branchFormatProblem } from '../../../src/modules/issues/branch-format';
import { Card, ListCard } from '../components/Card';
import { GitAutomation } from '../components/GitAutomation';
import { type Connection, GitConnection, HOST_LABELS } from '../components/GitConnection';
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
import { useAction } from '../lib/action';
import { ok, rest } from '../lib/api';
import { dateTime } from '../lib/dates';
import { keys } from '../lib/query-keys';
import { useRefData } from '../lib/ref';

type Host = Connection['host'];
const HOSTS = (Object.keys(HOST_LABELS) as Host[]).map((value) => ({ value, label: HOST_LABELS[value] }));

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
      <Card title="Connect a host">
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
      </Card>
      <section aria-labelledby="gitconns-h">
        <h2 id="gitconns-h">Connections</h2>
        {list.isLoading && <Loading label="Loading connections" />}
        <ErrorMessage error={list.error} />
        {list.data && list.data.connections.length === 0 && <p className="muted">No host connected.</p>}
        {list.data?.connections.map((c) => (
          <GitConnection key={c.id} connection={c} />
        ))}
      </section>
      {ref.data?.teams.map((t) => (
        <GitAutomation key={t.id} teamId={t.id} teamName={t.name} states={t.states} />
      ))}
      <ListCard
        title="Deliveries"
        actions={
          <Button busy={deliveries.isFetching} onClick={() => void deliveries.refetch()}>
            Refresh deliveries
          </Button>
        }
        query={deliveries}
        loadingLabel="Loading deliveries"
        items={deliveries.data?.deliveries}
        empty="None yet."
        columns={['Received', 'Event', 'Status', 'What it did']}
        row={(d) => (
          <tr key={d.id}>
            <td>{dateTime(d.receivedAt)}</td>
            <td>
              {d.host} {d.event}
            </td>
            <td>
              {d.status}
              {d.attempts > 1 ? ` (${d.attempts} attempts)` : ''}
            </td>
            <td>{d.outcome ?? d.error ?? ''}</td>
          </tr>
        )}
      />
    </div>
  );
}

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
    <Card title="Branch names">
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
    </Card>
  );
}
