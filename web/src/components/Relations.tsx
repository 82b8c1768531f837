// The relations section of an issue page: what this issue blocks, what blocks
// it, its duplicates and related issues, each linking to the other issue; and
// a small form to add one (by identifier) or remove one. Reads and writes go
// through REST, whose list already names each relation as this issue sees it.

import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { type FormEvent, useState } from 'react';
import { useAction } from '../lib/action';
import { ApiError, ok, type RestData, rest } from '../lib/api';
import { refreshIssues } from '../lib/issues';
import { keys } from '../lib/query-keys';
import { useSession } from '../lib/session';
import { Button, ErrorMessage, SelectField, TextField } from './ui';

type Listed = RestData<'get', '/api/issues/{id}/relations'>['relations'][number];
type Kind = Listed['kind'];

/** The groups in the order shown, with how this issue reads each. */
const KINDS: { kind: Kind; label: string }[] = [
  { kind: 'blocked_by', label: 'Blocked by' },
  { kind: 'blocks', label: 'Blocks' },
  { kind: 'duplicate', label: 'Duplicate of' },
  { kind: 'duplicated_by', label: 'Duplicated by' },
  { kind: 'related', label: 'Related to' },
  { kind: 'similar', label: 'Similar to' },
];
const DONE = new Set(['completed', 'canceled']);

export function Relations({ issueId, onChange }: { issueId: string; onChange: () => void }) {
  const { user } = useSession();
  const q = useQuery({
    queryKey: keys.issues.relations(issueId),
    queryFn: async () =>
      (
        await ok(
          rest.GET('/api/issues/{id}/relations', {
            params: { path: { id: issueId }, query: { limit: 250 } },
          }),
        )
      ).relations,
  });
  const [kind, setKind] = useState<Kind>('blocked_by');
  const [other, setOther] = useState('');
  const [missing, setMissing] = useState(false);
  const canEdit = user?.role !== 'guest';

  // A relation can move this issue (a duplicate) and change markers in lists: refresh both.
  const changed = () => {
    refreshIssues();
    onChange();
  };
  const adding = useAction(
    (ref: string) =>
      ok(
        rest.POST('/api/issues/{id}/relations', {
          params: { path: { id: issueId } },
          body: { type: kind, relatedIssueId: ref },
        }),
      ),
    {
      onSuccess: () => {
        setOther('');
        changed();
      },
    },
  );
  const removing = useAction(
    (id: string) => ok(rest.DELETE('/api/relations/{id}', { params: { path: { id } } })),
    { onSuccess: changed },
  );
  const state = {
    busy: adding.busy || removing.busy,
    error: missing
      ? 'Enter the identifier of the other issue, e.g. ENG-12'
      : // The server names the field; say it in the form's words.
        adding.error instanceof ApiError && adding.error.fields.relatedIssueId?.startsWith('no issue')
        ? `No issue ${adding.input} that you can see`
        : (adding.error ?? removing.error),
  };

  function add(e: FormEvent) {
    e.preventDefault();
    const ref = other.trim();
    setMissing(!ref);
    removing.reset();
    if (ref) void adding.run(ref);
    else adding.reset();
  }

  function remove(r: Listed) {
    setMissing(false);
    adding.reset();
    void removing.run(r.id);
  }

  const items = q.data ?? [];
  return (
    <section className="relations" aria-labelledby="rel-h">
      <h2 id="rel-h">Relations</h2>
      <ErrorMessage error={q.error} />
      {q.data && items.length === 0 && <p className="muted">No related issues.</p>}
      {KINDS.map(({ kind: k, label }) => {
        const group = items.filter((r) => r.kind === k);
        if (group.length === 0) return null;
        return (
          <div key={k} className="rel-group">
            <h3 className="rel-kind">{label}</h3>
            <ul className="rel-list" aria-label={label}>
              {group.map((r) => (
                <li key={r.id} className="rel-item">
                  <Link to={`/issue/${r.issue.identifier}`}>
                    <span className="ident">{r.issue.identifier}</span> {r.issue.title}
                  </Link>
                  <span className={`rel-state${DONE.has(r.issue.state.type) ? ' done' : ''}`}>
                    {r.issue.state.name}
                  </span>
                  {canEdit && (
                    <button
                      type="button"
                      className="icon-btn"
                      aria-label={`Remove relation: ${label} ${r.issue.identifier}`}
                      disabled={state.busy}
                      onClick={() => void remove(r)}
                    >
                      ×
                    </button>
                  )}
                </li>
              ))}
            </ul>
          </div>
        );
      })}
      {canEdit && (
        <form className="rel-add" onSubmit={add}>
          <SelectField label="Relation" value={kind} onChange={(e) => setKind(e.target.value as Kind)}>
            {KINDS.map((k) => (
              <option key={k.kind} value={k.kind}>
                {k.label}
              </option>
            ))}
          </SelectField>
          <TextField
            label="Issue"
            placeholder="ENG-12"
            value={other}
            maxLength={200}
            onChange={(e) => setOther(e.target.value)}
          />
          <Button type="submit" busy={state.busy}>
            Add relation
          </Button>
        </form>
      )}
      <ErrorMessage error={state.error} />
    </section>
  );
}
