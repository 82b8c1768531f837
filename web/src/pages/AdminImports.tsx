// Imports from another tracker (docs/migrate.md): pick a source (the hosted
// tracker, GitHub Issues, Jira over REST or its XML export, a CSV file with its
// column mapping), try it as a dry run to see what would be created and who has
// no account here, map those people to accounts (or leave them to placeholders),
// then import. The run goes on in the server; this page polls it for its
// progress (done of the source's total, when the source says) and shows its
// report. Past runs below.

import { useQuery } from '@tanstack/react-query';
import { type ChangeEvent, useState } from 'react';
import { Card, ListCard } from '../components/Card';
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
import { ok, type RestData, rest } from '../lib/api';
import { dateTime } from '../lib/dates';
import { keys } from '../lib/query-keys';
import { useUsers } from '../lib/teams';

type Run = RestData<'get', '/api/admin/imports/{id}'>['importRun'];
type Kind = Run['kind'];
interface Report {
  counts: Record<string, number>;
  missingUsers: string[];
  unknownStates: { team: string; name: string; mappedTo: string }[];
  errors: string[];
}

const SOURCES: { value: Kind; label: string }[] = [
  { value: 'github', label: 'GitHub Issues' },
  { value: 'jira', label: 'Jira (Cloud or Data Center)' },
  { value: 'jira-xml', label: 'Jira XML export file' },
  { value: 'linear', label: 'Linear (or another Trackway)' },
  { value: 'csv', label: 'CSV file' },
];
const EXAMPLE_MAPPING = JSON.stringify({ team: 'OPS', columns: { key: 'Key', title: 'Summary' } }, null, 2);
/** How often a running import is read again. */
const POLL_MS = 1000;

/** The counts as "issue: 3 created": what a person reads. */
function countsText(counts: Record<string, number>, dryRun: boolean): string[] {
  return Object.entries(counts)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([key, n]) => {
      const [entity, what] = key.split('.');
      const created = dryRun ? 'would be created' : 'created';
      const verb = what === 'created' ? created : what === 'existing' ? 'already here' : what;
      return `${entity}: ${n} ${verb}`;
    });
}

export function AdminImports() {
  const [kind, setKind] = useState<Kind>('github');
  const [repo, setRepo] = useState('');
  const [token, setToken] = useState('');
  const [apiUrl, setApiUrl] = useState('');
  const [url, setUrl] = useState('https://api.linear.app');
  const [jiraUrl, setJiraUrl] = useState('');
  const [jql, setJql] = useState('');
  const [jiraEmail, setJiraEmail] = useState('');
  const [jiraToken, setJiraToken] = useState('');
  const [apiKey, setApiKey] = useState('');
  const [csv, setCsv] = useState('');
  const [csvName, setCsvName] = useState('');
  const [mapping, setMapping] = useState(EXAMPLE_MAPPING);
  const [mappingError, setMappingError] = useState<string | null>(null);
  const [current, setCurrent] = useState<string | null>(null);
  const [xml, setXml] = useState('');
  const [xmlName, setXmlName] = useState('');
  const [xmlTeam, setXmlTeam] = useState('');
  /** The dry run's missing people → the account chosen for each ('' leaves a placeholder). */
  const [userMap, setUserMap] = useState<Record<string, string>>({});

  const runs = useQuery({
    queryKey: keys.admin.imports,
    queryFn: () => ok(rest.GET('/api/admin/imports', { params: { query: { limit: 20 } } })),
  });
  const run = useQuery({
    queryKey: keys.admin.importRun(current ?? ''),
    queryFn: () => ok(rest.GET('/api/admin/imports/{id}', { params: { path: { id: current! } } })),
    enabled: !!current,
    refetchInterval: (q) => (q.state.data?.importRun.status === 'running' ? POLL_MS : false),
  });

  const starting = useAction(
    (dryRun: boolean) => {
      const mapped = Object.fromEntries(Object.entries(userMap).filter(([, id]) => id));
      const common = { dryRun, ...(Object.keys(mapped).length ? { userMap: mapped } : {}) };
      if (kind === 'jira-xml')
        return ok(
          rest.POST('/api/admin/imports', {
            body: {
              source: 'jira-xml',
              xml,
              ...(xmlName ? { name: xmlName } : {}),
              ...(xmlTeam.trim() ? { team: xmlTeam.trim().toUpperCase() } : {}),
              ...common,
            },
          }),
        );
      if (kind === 'github')
        return ok(
          rest.POST('/api/admin/imports', {
            body: {
              source: 'github',
              repo: repo.trim(),
              ...(token ? { token } : {}),
              ...(apiUrl.trim() ? { apiUrl: apiUrl.trim() } : {}),
              ...common,
            },
          }),
        );
      if (kind === 'linear')
        return ok(rest.POST('/api/admin/imports', { body: { source: 'linear', url, apiKey, ...common } }));
      if (kind === 'jira') {
        // With an email it is Cloud's email and API token; without, a Data Center personal access token.
        const auth = jiraEmail.trim() ? { email: jiraEmail.trim(), apiToken: jiraToken } : { pat: jiraToken };
        return ok(
          rest.POST('/api/admin/imports', {
            body: { source: 'jira', url: jiraUrl.trim(), jql: jql.trim(), ...auth, ...common },
          }),
        );
      }
      let parsed: unknown;
      try {
        parsed = JSON.parse(mapping);
        setMappingError(null);
      } catch (err) {
        setMappingError(`Not JSON: ${(err as Error).message}`);
        return Promise.reject(new Error('The mapping is not JSON'));
      }
      return ok(
        rest.POST('/api/admin/imports', {
          body: {
            source: 'csv',
            csv,
            // Checked by the server, field by field (400 naming the field).
            mapping: parsed as never,
            ...(csvName ? { name: csvName } : {}),
            ...common,
          },
        }),
      );
    },
    { refreshes: [keys.admin.imports], onSuccess: (r) => setCurrent(r.importRun.id) },
  );
  const errors = fieldErrors(starting.error);

  const readFile = async (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    if (!file) return;
    setCsvName(file.name);
    setCsv(await file.text());
  };
  const readXml = async (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    if (!file) return;
    setXmlName(file.name);
    setXml(await file.text());
  };

  const shown = run.data?.importRun;
  return (
    <div className="page narrow">
      <PageHeader title="Imports" />
      <p className="muted">
        Bring issues from another tracker. Try a <strong>dry run</strong> first: it writes nothing and lists
        what would be created and the people without an account here (they get suspended placeholder
        accounts). Running an import again creates nothing twice and continues one that stopped.
      </p>
      <Card title="Import">
        <form onSubmit={(e) => e.preventDefault()}>
          <SelectField label="Source" value={kind} onChange={(e) => setKind(e.target.value as Kind)}>
            {SOURCES.map((s) => (
              <option key={s.value} value={s.value}>
                {s.label}
              </option>
            ))}
          </SelectField>
          {kind === 'github' && (
            <>
              <TextField
                label="Repository"
                placeholder="owner/name"
                value={repo}
                onChange={(e) => setRepo(e.target.value)}
                error={errors.repo}
              />
              <TextField
                label="Token"
                type="password"
                autoComplete="off"
                hint="A token that can read the repository's issues; used for this run, not stored."
                value={token}
                onChange={(e) => setToken(e.target.value)}
                error={errors.token}
              />
              <TextField
                label="API URL"
                placeholder="https://api.github.com"
                hint="GitHub Enterprise Server: https://your-host/api/v3"
                value={apiUrl}
                onChange={(e) => setApiUrl(e.target.value)}
                error={errors.apiUrl}
              />
            </>
          )}
          {kind === 'jira' && (
            <>
              <TextField
                label="Jira site"
                placeholder="https://your-site.atlassian.net"
                value={jiraUrl}
                onChange={(e) => setJiraUrl(e.target.value)}
                error={errors.url}
              />
              <TextField
                label="JQL"
                placeholder="project = ABC"
                hint="Which issues to bring, as Jira's search would find them."
                value={jql}
                onChange={(e) => setJql(e.target.value)}
                error={errors.jql}
              />
              <TextField
                label="Email"
                hint="Jira Cloud: the account's email. Leave empty for Data Center."
                value={jiraEmail}
                onChange={(e) => setJiraEmail(e.target.value)}
                error={errors.email}
              />
              <TextField
                label="Jira token"
                type="password"
                autoComplete="off"
                hint="Cloud: an API token. Data Center: a personal access token. Used for this run, not stored."
                value={jiraToken}
                onChange={(e) => setJiraToken(e.target.value)}
                error={errors.apiToken ?? errors.pat}
              />
            </>
          )}
          {kind === 'jira-xml' && (
            <>
              <div className="field">
                <label htmlFor="import-xml-file">Jira XML file</label>
                <input
                  id="import-xml-file"
                  type="file"
                  accept=".xml,text/xml,application/xml"
                  onChange={readXml}
                />
                <div className="hint">
                  Jira's issue navigator, Export, XML. Attachments stay links to Jira (the CLI copies them).
                </div>
                {errors.xml && <div className="field-error">{errors.xml}</div>}
              </div>
              <TextField
                label="Team key"
                placeholder="A team per Jira project"
                hint="Optional: import every issue into this team."
                value={xmlTeam}
                onChange={(e) => setXmlTeam(e.target.value)}
                error={errors.team}
              />
            </>
          )}
          {kind === 'linear' && (
            <>
              <TextField
                label="Server URL"
                value={url}
                onChange={(e) => setUrl(e.target.value)}
                error={errors.url}
              />
              <TextField
                label="API key"
                type="password"
                autoComplete="off"
                value={apiKey}
                onChange={(e) => setApiKey(e.target.value)}
                error={errors.apiKey}
              />
            </>
          )}
          {kind === 'csv' && (
            <>
              <div className="field">
                <label htmlFor="import-csv-file">CSV file</label>
                <input id="import-csv-file" type="file" accept=".csv,text/csv" onChange={readFile} />
                {errors.csv && <div className="field-error">{errors.csv}</div>}
              </div>
              <TextArea
                label="Column mapping (JSON)"
                rows={8}
                value={mapping}
                onChange={(e) => setMapping(e.target.value)}
                error={mappingError ?? errors.mapping}
              />
            </>
          )}
          <div className="actions">
            <Button busy={starting.busy} onClick={() => void starting.run(true)}>
              Dry run
            </Button>
            <Button variant="primary" busy={starting.busy} onClick={() => void starting.run(false)}>
              Import
            </Button>
          </div>
        </form>
        {!mappingError && (
          <FormError
            error={starting.error}
            shownAt={[
              'repo',
              'token',
              'apiUrl',
              'url',
              'apiKey',
              'jql',
              'email',
              'apiToken',
              'pat',
              'csv',
              'mapping',
              'xml',
              'team',
              'userMap',
            ]}
          />
        )}
      </Card>
      {current && (
        <section className="card" aria-labelledby="importrun-h" data-testid="import-run">
          <h2 id="importrun-h">
            {shown ? `${shown.dryRun ? 'Dry run' : 'Import'} of ${shown.source}` : 'Import'}
          </h2>
          {run.isLoading && <Loading label="Loading the import" />}
          <ErrorMessage error={run.error} />
          {shown && <RunView run={shown} userMap={userMap} onMap={setUserMap} />}
          {errors.userMap && (
            <p className="field-error" role="alert">
              {errors.userMap}
            </p>
          )}
        </section>
      )}
      <ListCard
        title="Past imports"
        query={runs}
        loadingLabel="Loading imports"
        items={runs.data?.importRuns}
        empty="No import yet."
        columns={['Started', 'Source', 'Kind', 'Status', 'Issues']}
        rowActions
        row={(r) => (
          <tr key={r.id}>
            <td>{dateTime(r.createdAt)}</td>
            <td>{r.source}</td>
            <td>{r.dryRun ? 'Dry run' : 'Import'}</td>
            <td>{r.status}</td>
            <td>{r.counts['issue.created'] ?? 0}</td>
            <td className="actions">
              <Button aria-label={`Show the import of ${r.source}`} onClick={() => setCurrent(r.id)}>
                Show
              </Button>
            </td>
          </tr>
        )}
      />
    </div>
  );
}

/** How far the run is, in words: "42% · 21 of 50 issues", or what is known when the source says no total. */
function progressText({ progress, status }: Run): string {
  const { done, total, unit, percent } = progress;
  const of = total === null ? '' : ` of ${total}`;
  const what = `${done}${of} ${unit === 'page' ? 'pages' : 'issues'} read`;
  if (percent !== null) return `${percent}% · ${what}`;
  return status === 'running' ? `${what}; the source does not say how many it holds` : what;
}

/** One run: a progress bar while it goes on, then its report; after a dry run, a map of its missing people. */
function RunView({
  run,
  userMap,
  onMap,
}: {
  run: Run;
  userMap: Record<string, string>;
  onMap: (m: Record<string, string>) => void;
}) {
  const report = run.report as Report | null;
  const { percent } = run.progress;
  return (
    <div>
      {/* A real bar when the source's size is known; open-ended (no value) while it is not. */}
      <progress
        aria-label="Import progress"
        {...(percent === null ? {} : { value: percent, max: 100 })}
        style={{ width: '100%' }}
      />
      <p data-testid="import-status">
        <strong>{run.status}</strong> · {progressText(run)}
      </p>
      <ul data-testid="import-counts">
        {countsText(run.counts, run.dryRun).map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
      {report && report.missingUsers.length > 0 && (
        <>
          <h3>People without an account here</h3>
          {run.dryRun && (
            <p className="muted">
              Choose the account that stands for each one, or leave them to suspended placeholder accounts.
              The choice goes with the next dry run or import.
            </p>
          )}
          <ul data-testid="import-missing-users">
            {report.missingUsers.map((email) => (
              <li key={email}>
                {run.dryRun ? (
                  <UserChoice
                    email={email}
                    value={userMap[email] ?? ''}
                    onChange={(id) => onMap({ ...userMap, [email]: id })}
                  />
                ) : (
                  email
                )}
              </li>
            ))}
          </ul>
        </>
      )}
      {report && report.unknownStates.length > 0 && (
        <>
          <h3>States mapped</h3>
          <ul>
            {report.unknownStates.map((s) => (
              <li key={`${s.team}:${s.name}`}>
                {s.name} → {s.mappedTo}
              </li>
            ))}
          </ul>
        </>
      )}
      {run.errors.length > 0 && (
        <>
          <h3>Problems</h3>
          <ul data-testid="import-errors">
            {run.errors.map((e) => (
              <li key={e}>{e}</li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}

/** The account chosen for one of the source's people: an existing one, or none (a placeholder). */
function UserChoice({
  email,
  value,
  onChange,
}: {
  email: string;
  value: string;
  onChange: (id: string) => void;
}) {
  // Fresh: the accounts to map to may have been made since the page first read them.
  const users = useUsers({ fresh: true });
  return (
    <SelectField label={email} value={value} onChange={(e) => onChange(e.target.value)}>
      <option value="">Nobody: a placeholder account</option>
      {(users.data?.users ?? [])
        .filter((u) => u.status === 'active')
        .map((u) => (
          <option key={u.id} value={u.id}>
            {u.name} ({u.email})
          </option>
        ))}
    </SelectField>
  );
}
