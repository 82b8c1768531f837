// One git host connection on the Git admin page (docs/git.md "Set-up"): its
// webhook URL, back-link switch, the repositories it serves and the team of
// each (added, re-teamed and removed at once, put back if refused), and its
// credentials. Secrets are write-only: the page says whether one is set and
// takes a new one, and never shows a stored value; a new webhook secret is
// shown once, to be pasted into the host.

import { useState } from 'react';
import { useAction } from '../lib/action';
import { ok, type RestBody, type RestData, rest } from '../lib/api';
import { keys } from '../lib/query-keys';
import { useRefData } from '../lib/ref';
import { SecretOnce } from './SecretOnce';
import { Button, ErrorMessage, FormError, fieldErrors, SelectField, TextArea, TextField } from './ui';

type ConnectionList = RestData<'get', '/api/admin/git/connections'>;
export type Connection = ConnectionList['connections'][number];
type Repository = Connection['repositories'][number];
type Patch = RestBody<'patch', '/api/admin/git/connections/{id}'>;

export const HOST_LABELS: Record<Connection['host'], string> = {
  github: 'GitHub',
  gitlab: 'GitLab',
  gitea: 'Gitea / Forgejo',
};

/** A webhook secret made in the browser (24 random bytes, base64url), for "Generate". */
function newSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(24));
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}

export function GitConnection({ connection: c }: { connection: Connection }) {
  const ref = useRefData();
  const teamName = (id: string) => ref.data?.teamById.get(id)?.name ?? id;
  const setRepositories = useAction(
    (repositories: Repository[]) =>
      ok(
        rest.PUT('/api/admin/git/connections/{id}/repositories', {
          params: { path: { id: c.id } },
          body: { repositories },
        }),
      ),
    {
      optimistic: {
        key: keys.admin.git,
        apply: (data: ConnectionList, repositories: Repository[]) => ({
          ...data,
          connections: data.connections.map((x) => (x.id === c.id ? { ...x, repositories } : x)),
        }),
      },
    },
  );
  const toggling = useAction(
    () =>
      ok(
        rest.PATCH('/api/admin/git/connections/{id}', {
          params: { path: { id: c.id } },
          body: { backlinks: !c.backlinks },
        }),
      ),
    {
      optimistic: {
        key: keys.admin.git,
        apply: (data: ConnectionList) => ({
          ...data,
          connections: data.connections.map((x) => (x.id === c.id ? { ...x, backlinks: !c.backlinks } : x)),
        }),
      },
    },
  );
  const removing = useAction(
    () => ok(rest.DELETE('/api/admin/git/connections/{id}', { params: { path: { id: c.id } } })),
    { refreshes: [keys.admin.git] },
  );
  const [newRepo, setNewRepo] = useState('');
  const [newTeam, setNewTeam] = useState('');
  const team = newTeam || ref.data?.teams[0]?.id || '';
  const repos = c.repositories;
  const addError = fieldErrors(setRepositories.error);
  const credentials = c.githubApp
    ? `GitHub App ${c.githubApp.appId}${c.githubApp.installationId ? `, installation ${c.githubApp.installationId}` : ''}`
    : c.hasApiToken
      ? 'API token set'
      : 'No token';

  return (
    <section className="card" aria-label={`Connection ${c.name}`}>
      <h3>
        {c.name} <span className="muted">({HOST_LABELS[c.host]})</span>
      </h3>
      <p>
        Webhook URL: <code>{c.webhookUrl}</code>
      </p>
      <div className="row">
        <span>Back-links</span>
        <Button
          aria-label={`Back-links for ${c.name}: ${c.backlinks ? 'on' : 'off'}`}
          aria-pressed={c.backlinks}
          busy={toggling.busy}
          onClick={() => void toggling.run()}
        >
          {c.backlinks ? 'On' : 'Off'}
        </Button>
        <span className="muted">{credentials}</span>
      </div>
      <ErrorMessage error={toggling.error} />

      <h4>Repositories</h4>
      {repos.length === 0 && <p className="muted">No repository yet: deliveries are ignored.</p>}
      {repos.length > 0 && (
        <table className="table">
          <thead>
            <tr>
              <th scope="col">Repository</th>
              <th scope="col">Team</th>
              <th scope="col">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {repos.map((r) => (
              <tr key={r.fullName}>
                <td>
                  {r.fullName} <span className="sr-only">→ {teamName(r.teamId)}</span>
                </td>
                <td>
                  <select
                    aria-label={`Team of ${r.fullName}`}
                    value={r.teamId}
                    disabled={setRepositories.busy}
                    onChange={(e) =>
                      void setRepositories.run(
                        repos.map((x) => (x.fullName === r.fullName ? { ...x, teamId: e.target.value } : x)),
                      )
                    }
                  >
                    {ref.data?.teams.map((t) => (
                      <option key={t.id} value={t.id}>
                        {t.name}
                      </option>
                    ))}
                  </select>
                </td>
                <td className="actions">
                  <Button
                    variant="danger"
                    aria-label={`Remove ${r.fullName}`}
                    disabled={setRepositories.busy}
                    onClick={() => void setRepositories.run(repos.filter((x) => x.fullName !== r.fullName))}
                  >
                    Remove
                  </Button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <form
        className="inline-form"
        aria-label={`Add a repository to ${c.name}`}
        onSubmit={(e) => {
          e.preventDefault();
          const fullName = newRepo.trim().toLowerCase();
          if (!fullName) return;
          void setRepositories.run([...repos, { fullName, teamId: team }]).then((saved) => {
            if (saved) setNewRepo('');
          });
        }}
      >
        <TextField
          label="Add repository"
          placeholder="owner/name"
          value={newRepo}
          onChange={(e) => setNewRepo(e.target.value)}
          error={addError[`repositories/${repos.length}/fullName`] ?? addError.repositories}
        />
        <SelectField label="Its team" value={team} onChange={(e) => setNewTeam(e.target.value)}>
          {ref.data?.teams.map((t) => (
            <option key={t.id} value={t.id}>
              {t.name}
            </option>
          ))}
        </SelectField>
        <Button type="submit" busy={setRepositories.busy}>
          Add repository
        </Button>
      </form>
      <FormError error={setRepositories.error} shownAt={['repositories']} />

      <Credentials connection={c} />

      <div className="row">
        <Button
          variant="danger"
          aria-label={`Disconnect ${c.name}`}
          busy={removing.busy}
          onClick={() => {
            if (confirm(`Disconnect "${c.name}"? Its queued deliveries go too.`)) void removing.run();
          }}
        >
          Disconnect
        </Button>
      </div>
      <ErrorMessage error={removing.error} />
    </section>
  );
}

/** A change to one connection through PATCH; the list is read again once it is over. */
function usePatch(id: string, onSuccess?: (body: Patch) => void) {
  return useAction(
    (body: Patch) => ok(rest.PATCH('/api/admin/git/connections/{id}', { params: { path: { id } }, body })),
    {
      refreshes: [keys.admin.git],
      ...(onSuccess ? { onSuccess: (_r: unknown, body: Patch) => onSuccess(body) } : {}),
    },
  );
}

/** The connection's webhook secret, API token and (GitHub) App: each replaced on its own; none shown back. */
function Credentials({ connection: c }: { connection: Connection }) {
  const [secret, setSecret] = useState('');
  const [shown, setShown] = useState<string | null>(null);
  const [token, setToken] = useState('');
  const [appId, setAppId] = useState(c.githubApp?.appId ?? '');
  const [appKey, setAppKey] = useState('');
  const [installationId, setInstallationId] = useState(c.githubApp?.installationId ?? '');
  const secretSave = usePatch(c.id, (body) => {
    setShown(body.webhookSecret ?? null);
    setSecret('');
  });
  const tokenSave = usePatch(c.id, () => setToken(''));
  const appSave = usePatch(c.id, () => setAppKey(''));
  const secretErrors = fieldErrors(secretSave.error);
  const tokenErrors = fieldErrors(tokenSave.error);
  const appErrors = fieldErrors(appSave.error);

  return (
    <>
      <h4>Credentials</h4>
      <form
        className="inline-form"
        aria-label={`Webhook secret of ${c.name}`}
        onSubmit={(e) => {
          e.preventDefault();
          void secretSave.run({ webhookSecret: secret });
        }}
      >
        <TextField
          label="New webhook secret"
          type="password"
          autoComplete="off"
          value={secret}
          onChange={(e) => setSecret(e.target.value)}
          error={secretErrors.webhookSecret}
          hint="A secret is set; deliveries signed with it are refused once it is replaced."
        />
        <Button onClick={() => setSecret(newSecret())}>Generate</Button>
        <Button type="submit" busy={secretSave.busy} disabled={!secret}>
          Replace secret
        </Button>
      </form>
      <FormError error={secretSave.error} shownAt={['webhookSecret']} />
      {shown && (
        <SecretOnce
          key={shown}
          label="Replaced webhook secret"
          secret={shown}
          copyLabel="Copy secret"
          testId="replaced-git-secret"
          onDone={() => setShown(null)}
        >
          <strong>Paste this secret into the host's webhook settings now.</strong> It will not be shown again.
        </SecretOnce>
      )}

      <form
        className="inline-form"
        aria-label={`API token of ${c.name}`}
        onSubmit={(e) => {
          e.preventDefault();
          // A connection has a token or an App: a new token replaces the App.
          void tokenSave.run({ apiToken: token, ...(c.githubApp ? { githubApp: null } : {}) });
        }}
      >
        <TextField
          label="New API token"
          type="password"
          autoComplete="off"
          value={token}
          onChange={(e) => setToken(e.target.value)}
          error={tokenErrors.apiToken}
          hint={c.hasApiToken ? 'A token is set.' : 'No token is set.'}
        />
        <Button type="submit" busy={tokenSave.busy} disabled={!token}>
          {c.githubApp ? 'Use token instead of App' : c.hasApiToken ? 'Replace token' : 'Save token'}
        </Button>
        {c.hasApiToken && (
          <Button
            variant="danger"
            disabled={tokenSave.busy}
            onClick={() => void tokenSave.run({ apiToken: null })}
          >
            Remove token
          </Button>
        )}
      </form>
      <FormError error={tokenSave.error} shownAt={['apiToken']} />

      {c.host === 'github' && (
        <form
          aria-label={`GitHub App of ${c.name}`}
          onSubmit={(e) => {
            e.preventDefault();
            void appSave.run({
              githubApp: {
                appId,
                installationId: installationId || null,
                ...(appKey ? { privateKey: appKey } : {}),
              },
              ...(c.hasApiToken ? { apiToken: null } : {}),
            });
          }}
        >
          <fieldset>
            <legend>GitHub App (instead of a token)</legend>
            <TextField
              label="App ID"
              inputMode="numeric"
              value={appId}
              onChange={(e) => setAppId(e.target.value)}
              error={appErrors['githubApp/appId'] ?? appErrors.githubApp}
            />
            <TextArea
              label={
                c.githubApp ? 'New App private key (PEM; empty keeps the one set)' : 'App private key (PEM)'
              }
              autoComplete="off"
              spellCheck={false}
              rows={3}
              placeholder="-----BEGIN RSA PRIVATE KEY-----"
              value={appKey}
              onChange={(e) => setAppKey(e.target.value)}
              error={appErrors['githubApp/privateKey']}
            />
            <TextField
              label="Installation ID (empty: found per repository)"
              inputMode="numeric"
              value={installationId}
              onChange={(e) => setInstallationId(e.target.value)}
              error={appErrors['githubApp/installationId']}
            />
            <div className="row">
              <Button type="submit" busy={appSave.busy} disabled={!appId}>
                {c.githubApp
                  ? 'Save GitHub App'
                  : c.hasApiToken
                    ? 'Use App instead of token'
                    : 'Save GitHub App'}
              </Button>
              {c.githubApp && (
                <Button
                  variant="danger"
                  disabled={appSave.busy}
                  onClick={() => void appSave.run({ githubApp: null })}
                >
                  Remove GitHub App
                </Button>
              )}
            </div>
          </fieldset>
        </form>
      )}
      <FormError
        error={appSave.error}
        shownAt={['githubApp', 'githubApp/appId', 'githubApp/privateKey', 'githubApp/installationId']}
      />
    </>
  );
}
