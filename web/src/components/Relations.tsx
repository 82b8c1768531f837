// The relations section of an issue page: what this issue blocks, what blocks
// it, its duplicates and related issues, each linking to the other issue; and
// a small form to add one (by identifier) or remove one. Reads and writes go
// through REST, whose list already names each relation as this issue sees it.

import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { type FormEvent, useState } from 'react';
import { ApiError, api } from '../lib/api';
import { refreshIssues } from '../lib/issues';
import { useSession } from '../lib/session';
import { Button, ErrorMessage, SelectField, TextField } from './ui';

type Kind = 'blocks' | 'blocked_by' | 'duplicate' | 'duplicated_by' | 'related' | 'similar';
interface Listed {
  id: string;
  kind: Kind;
  issue: { id: string; identifier: string; title: string; state: { name: string; type: string } };
}

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
  const key = ['issues', 'relations', issueId];
  const q = useQuery({
    queryKey: key,
    queryFn: () =>
      api.get<{ relations: Listed[] }>(`/issues/${issueId}/relations?limit=250`).then((d) => d.relations),
  });
  const [kind, setKind] = useState<Kind>('blocked_by');
  const [other, setOther] = useState('');
  const [state, setState] = useState<{ busy?: boolean; error?: unknown }>({});
  const canEdit = user?.role !== 'guest';

  // A relation can move this issue (a duplicate) and change markers in lists: refresh both.
  const changed = () => {
    refreshIssues();
    onChange();
  };

  async function add(e: FormEvent) {
    e.preventDefault();
    const ref = other.trim();
    if (!ref) return setState({ error: 'Enter the identifier of the other issue, e.g. ENG-12' });
    setState({ busy: true });
    try {
      await api.post(`/issues/${issueId}/relations`, { type: kind, relatedIssueId: ref });
      setOther('');
      setState({});
      changed();
    } catch (error) {
      // The server names the field; say it in the form's words.
      const unknown = error instanceof ApiError && error.fields.relatedIssueId?.startsWith('no issue');
      setState({ error: unknown ? `No issue ${ref} that you can see` : error });
    }
  }

  async function remove(r: Listed) {
    setState({ busy: true });
    try {
      await api.del(`/relations/${r.id}`);
      setState({});
      changed();
    } catch (error) {
      setState({ error });
    }
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
