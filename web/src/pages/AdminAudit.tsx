// Administration → Audit log: who did what, newest first, narrowed by type,
// time and address, searched by text, and the same selection exported as NDJSON
// (docs/identity.md, "Audit log").
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ListCard } from '../components/Card';
import { RelativeTime } from '../components/RelativeTime';
import { Button, ErrorMessage, PageHeader } from '../components/ui';
import { useAction } from '../lib/action';
import { ok, rest } from '../lib/api';
import { keys } from '../lib/query-keys';

const PAGE = 50;

export function AdminAudit() {
  const [type, setType] = useState('');
  const [from, setFrom] = useState('');
  // The search and the address apply when submitted, not at each keystroke:
  // half an address is not one, and the server would say so.
  const [draft, setDraft] = useState({ q: '', ip: '' });
  const [applied, setApplied] = useState({ q: '', ip: '' });
  const query = {
    ...(type ? { type: [type] } : {}),
    ...(from ? { from: new Date(from).toISOString() } : {}),
    ...(applied.q ? { q: applied.q } : {}),
    ...(applied.ip ? { ip: applied.ip } : {}),
    // The select offers only the catalogue's types, which the route's schema lists as literals.
  } as { type?: never[]; from?: string; q?: string; ip?: string };
  const types = useQuery({
    queryKey: keys.admin.auditTypes,
    queryFn: () => ok(rest.GET('/api/admin/audit-entry-types')),
  });
  const entries = useInfiniteQuery({
    queryKey: keys.admin.audit(type, from, applied.q, applied.ip),
    initialPageParam: 0,
    queryFn: ({ pageParam }) =>
      ok(
        rest.GET('/api/admin/audit-entries', {
          params: { query: { ...query, limit: PAGE, offset: pageParam } },
        }),
      ),
    getNextPageParam: (last) =>
      last.pageInfo.offset + last.auditEntries.length < last.pageInfo.total
        ? last.pageInfo.offset + PAGE
        : undefined,
  });
  const exporting = useAction(async () => {
    const { data, error } = await rest.GET('/api/admin/audit-entries/export', {
      params: { query },
      parseAs: 'blob',
    });
    if (error || !data) throw new Error('The export failed; try again.');
    const href = URL.createObjectURL(new Blob([data as Blob], { type: 'application/octet-stream' }));
    const a = Object.assign(document.createElement('a'), { href, download: 'audit-log.ndjson' });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(href), 60_000);
  });
  const rows = entries.data?.pages.flatMap((p) => p.auditEntries) ?? [];
  const total = entries.data?.pages[0]?.pageInfo.total;

  return (
    <div className="page">
      <PageHeader title="Audit log" />
      <section className="card" aria-label="Filters">
        <div className="row">
          <label>
            Type{' '}
            <select value={type} onChange={(e) => setType(e.target.value)}>
              <option value="">Any</option>
              {types.data?.auditEntryTypes.map((t) => (
                <option key={t.type} value={t.type}>
                  {t.description}
                </option>
              ))}
            </select>
          </label>
          <label>
            Since <input type="date" value={from} onChange={(e) => setFrom(e.target.value)} />
          </label>
          <Button busy={exporting.busy} onClick={() => void exporting.run()}>
            Export NDJSON
          </Button>
        </div>
        <search aria-label="Search the audit log">
          <form
            className="row"
            onSubmit={(e) => {
              e.preventDefault();
              setApplied({ q: draft.q.trim(), ip: draft.ip.trim() });
            }}
          >
            <label>
              Search{' '}
              <input
                type="search"
                value={draft.q}
                maxLength={200}
                placeholder="Who, what or which"
                onChange={(e) => setDraft({ ...draft, q: e.target.value })}
              />
            </label>
            <label>
              IP address{' '}
              <input
                value={draft.ip}
                maxLength={64}
                spellCheck={false}
                placeholder="203.0.113.7"
                onChange={(e) => setDraft({ ...draft, ip: e.target.value })}
              />
            </label>
            <Button type="submit">Search</Button>
          </form>
        </search>
        <ErrorMessage error={exporting.error} />
      </section>
      <ListCard
        title={`Entries${total !== undefined ? ` (${total})` : ''}`}
        query={entries}
        loadingLabel="Loading the audit log"
        items={entries.data ? rows : undefined}
        empty="Nothing recorded matches."
        columns={['When', 'Who', 'What', 'Target', 'Address']}
        row={(e) => (
          <tr key={e.id}>
            <td>
              <RelativeTime iso={e.createdAt} />
            </td>
            <td>{e.actor.label || e.actor.kind}</td>
            <td>{e.description}</td>
            <td>{e.entity?.label ?? e.entity?.id ?? ''}</td>
            <td>
              <code>{e.ip ?? ''}</code>
            </td>
          </tr>
        )}
      >
        {entries.hasNextPage && (
          <Button busy={entries.isFetchingNextPage} onClick={() => void entries.fetchNextPage()}>
            Load more
          </Button>
        )}
      </ListCard>
    </div>
  );
}
