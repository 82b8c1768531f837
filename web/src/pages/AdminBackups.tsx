// Scheduled backups (docs/migrate.md, "Scheduled backups"): where archives go
// (a directory on the server or an S3 bucket), how often and how many are
// kept, a "Back up now" button, and the last runs with their state and size.
// The page polls while a run is pending or running.

import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { Card, ListCard } from '../components/Card';
import {
  Button,
  ErrorMessage,
  FormError,
  fieldErrors,
  Loading,
  PageHeader,
  SelectField,
  TextField,
} from '../components/ui';
import { useAction } from '../lib/action';
import { ok, type RestData, rest } from '../lib/api';
import { dateTime } from '../lib/dates';
import { keys } from '../lib/query-keys';

type View = RestData<'get', '/api/admin/backups/settings'>;
type Run = RestData<'get', '/api/admin/backups'>['backupRuns'][number];

const POLL_MS = 1000;

interface Form {
  enabled: boolean;
  intervalHours: string;
  retention: string;
  kind: 'none' | 'directory' | 's3';
  path: string;
  endpoint: string;
  region: string;
  bucket: string;
  prefix: string;
  accessKeyId: string;
  /** Empty keeps the saved secret. */
  secretAccessKey: string;
  secretSet: boolean;
  forcePathStyle: boolean;
}

function formOf(v: View): Form {
  const s = v.settings;
  const t = s.target;
  return {
    enabled: s.enabled,
    intervalHours: String(s.intervalHours),
    retention: String(s.retention),
    kind: t ? t.kind : 'none',
    path: t?.kind === 'directory' ? t.path : '',
    endpoint: t?.kind === 's3' ? (t.endpoint ?? '') : '',
    region: t?.kind === 's3' ? t.region : 'us-east-1',
    bucket: t?.kind === 's3' ? t.bucket : '',
    prefix: t?.kind === 's3' ? t.prefix : '',
    accessKeyId: t?.kind === 's3' ? (t.accessKeyId ?? '') : '',
    secretAccessKey: '',
    secretSet: t?.kind === 's3' ? t.secretAccessKeySet : false,
    forcePathStyle: t?.kind === 's3' ? t.forcePathStyle : false,
  };
}

function bodyOf(f: Form) {
  const target =
    f.kind === 'directory'
      ? { kind: 'directory' as const, path: f.path.trim() }
      : f.kind === 's3'
        ? {
            kind: 's3' as const,
            endpoint: f.endpoint.trim() || null,
            region: f.region.trim(),
            bucket: f.bucket.trim(),
            prefix: f.prefix.trim(),
            accessKeyId: f.accessKeyId.trim() || null,
            forcePathStyle: f.forcePathStyle,
            ...(f.secretAccessKey ? { secretAccessKey: f.secretAccessKey } : {}),
          }
        : null;
  return {
    enabled: f.enabled,
    intervalHours: Number(f.intervalHours),
    retention: Number(f.retention),
    target,
  };
}

function size(bytes: number | null): string {
  if (bytes === null) return '—';
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let n = bytes / 1024;
  let i = 0;
  while (n >= 1024 && i < units.length - 1) {
    n /= 1024;
    i++;
  }
  return `${n.toFixed(1)} ${units[i]}`;
}

const busy = (r: Run) => r.status === 'pending' || r.status === 'running';

export function AdminBackups() {
  const view = useQuery({
    queryKey: keys.admin.backupSettings,
    queryFn: () => ok(rest.GET('/api/admin/backups/settings')),
  });
  const runs = useQuery({
    queryKey: keys.admin.backupRuns,
    queryFn: () => ok(rest.GET('/api/admin/backups', { params: { query: { limit: 20 } } })),
    refetchInterval: (q) => (q.state.data?.backupRuns.some(busy) ? POLL_MS : false),
  });
  const [form, setForm] = useState<Form | null>(null);
  useEffect(() => {
    if (view.data && !form) setForm(formOf(view.data));
  }, [view.data, form]);
  const saving = useAction(
    (body: ReturnType<typeof bodyOf>) => ok(rest.PUT('/api/admin/backups/settings', { body })),
    { refreshes: [keys.admin.backupSettings], onSuccess: (v) => setForm(formOf(v)) },
  );
  const starting = useAction(() => ok(rest.POST('/api/admin/backups/run')), {
    refreshes: [keys.admin.backupRuns],
  });

  if (view.error) return <ErrorMessage error={view.error} />;
  if (!view.data || !form) return <Loading />;
  const errs = fieldErrors(saving.error);
  const set = (patch: Partial<Form>) => setForm({ ...form, ...patch });
  const text = (
    field: keyof Form,
    label: string,
    extra: { hint?: string; placeholder?: string; type?: string } = {},
  ) => (
    <TextField
      label={label}
      value={form[field] as string}
      onChange={(e) => set({ [field]: e.target.value })}
      error={errs[field]}
      hint={extra.hint}
      placeholder={extra.placeholder}
      type={extra.type}
    />
  );

  function save(e: FormEvent) {
    e.preventDefault();
    if (form) void saving.run(bodyOf(form));
  }

  const saved = view.data.settings;
  return (
    <div className="page narrow">
      <PageHeader title="Backups" />
      <p className="muted">
        A backup is the whole workspace as one archive, the same as an export: every table, the stored files
        and a manifest with checksums. <code>npm run restore</code> loads one into an empty installation.
        Archives hold password and API-key hashes: keep them like the database.
      </p>
      <Card title="Schedule and target">
        <form onSubmit={save}>
          <label className="check">
            <input
              type="checkbox"
              checked={form.enabled}
              onChange={(e) => set({ enabled: e.target.checked })}
            />{' '}
            Back up on a schedule
          </label>
          {text('intervalHours', 'Every (hours)', {
            type: 'number',
            hint: '1 is hourly, 24 daily, 168 weekly',
          })}
          {text('retention', 'Archives to keep', {
            type: 'number',
            hint: 'Older ones this schedule wrote are deleted',
          })}
          <SelectField
            label="Target"
            value={form.kind}
            error={errs['target'] && `The target ${errs['target']}: check its fields`}
            onChange={(e) => set({ kind: e.target.value as Form['kind'] })}
          >
            <option value="none">None</option>
            <option value="directory">A directory on the server</option>
            <option value="s3">An S3 bucket</option>
          </SelectField>
          {form.kind === 'directory' &&
            text('path', 'Directory', {
              placeholder: '/var/backups/trackway',
              hint: 'An absolute path on the server',
            })}
          {form.kind === 's3' && (
            <>
              {text('endpoint', 'Endpoint', {
                placeholder: 'https://s3.example.com',
                hint: 'Empty for AWS itself',
              })}
              {text('region', 'Region')}
              {text('bucket', 'Bucket')}
              {text('prefix', 'Prefix', { placeholder: 'trackway/', hint: 'Empty, or ending in /' })}
              {text('accessKeyId', 'Access key id', { hint: 'Empty: the server’s own credentials' })}
              {text('secretAccessKey', 'Secret access key', {
                type: 'password',
                hint: form.secretSet ? 'Saved; leave empty to keep it' : 'Not set',
              })}
              <label className="check">
                <input
                  type="checkbox"
                  checked={form.forcePathStyle}
                  onChange={(e) => set({ forcePathStyle: e.target.checked })}
                />{' '}
                Path-style addresses (MinIO and most self-hosted services)
              </label>
            </>
          )}
          <FormError error={saving.error} />
          <Button type="submit" variant="primary" busy={saving.busy}>
            Save
          </Button>
        </form>
        {saved.enabled && view.data.nextSlotAt && (
          <p className="muted">Next scheduled backup from {dateTime(view.data.nextSlotAt)}.</p>
        )}
      </Card>
      <ListCard
        title="Runs"
        before={
          <>
            <Button
              variant="primary"
              busy={starting.busy}
              disabled={!saved.target}
              onClick={() => void starting.run()}
            >
              Back up now
            </Button>
            {!saved.target && <p className="muted">Save a target first.</p>}
            <ErrorMessage error={starting.error} />
          </>
        }
        query={runs}
        loadingLabel="Loading runs"
        items={runs.data?.backupRuns}
        empty="No backups yet."
        columns={['Started', 'How', 'State', 'Size', 'Archive']}
        tableLabel="Backup runs"
        row={(r) => (
          <tr key={r.id} data-testid="backup-run">
            <td>{dateTime(r.startedAt ?? r.createdAt)}</td>
            <td>{r.trigger === 'manual' ? 'By hand' : 'Scheduled'}</td>
            <td data-testid="backup-state">
              {r.status}
              {r.error && <div className="field-error">{r.error}</div>}
            </td>
            <td>{size(r.bytes)}</td>
            <td>
              <code>{r.archive}</code>
              <div className="muted">{r.target}</div>
            </td>
          </tr>
        )}
      />
    </div>
  );
}
