// Sub-issues of an issue: each child with its state, the progress ("2/5
// done", canceled ones out of scope as in project progress) and a form to add
// a sub-issue in the parent's team. Both reads go through one door, REST: the
// children are the issue list's `parentId` filter and the progress is the
// parent's `childProgress` (which GraphQL does not carry), counted with the
// same visibility, so the count and the list cannot disagree.

import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { useAction } from '../lib/action';
import { ok, rest } from '../lib/api';
import { createIssue } from '../lib/issues';
import { keys } from '../lib/query-keys';
import { useRefData } from '../lib/ref';
import { Button, ErrorMessage, TextField } from './ui';

export function SubIssues({
  issueId,
  teamId,
  readOnly,
}: {
  issueId: string;
  teamId: string;
  readOnly?: boolean;
}) {
  const key = keys.issues.children(issueId);
  const q = useQuery({
    queryKey: key,
    queryFn: async () => {
      const [list, parent] = await Promise.all([
        // A checklist reads oldest first.
        ok(
          rest.GET('/api/issues', {
            params: { query: { parentId: issueId, sort: 'createdAt', order: 'asc', limit: 50 } },
          }),
        ),
        ok(rest.GET('/api/issues/{id}', { params: { path: { id: issueId } } })),
      ]);
      return { children: list.issues, progress: parent.issue.childProgress };
    },
  });
  const states = useRefData().data?.stateById;
  const [title, setTitle] = useState('');
  const state = useAction(() => createIssue({ title: title.trim(), teamId, parentId: issueId }), {
    refreshes: [key],
    onSuccess: () => setTitle(''),
    // Waiting for the server (lib/write-queue.ts): it will be created then, so the box is free again.
    onQueued: () => setTitle(''),
  });
  const add = state.submit;

  const p = q.data?.progress;
  const inScope = p ? p.total - p.canceled : 0;
  return (
    <section className="sub-issues" aria-labelledby="sub-h">
      <h2 id="sub-h">
        Sub-issues{' '}
        {p && p.total > 0 && (
          <span className="muted small" role="status">
            {p.completed}/{inScope} done
          </span>
        )}
      </h2>
      {p && inScope > 0 && (
        <progress
          max={inScope}
          value={p.completed}
          aria-label={`Sub-issues: ${p.completed} of ${inScope} done`}
        />
      )}
      <ErrorMessage error={q.error} />
      {q.data && q.data.children.length > 0 && (
        <ul className="sub-issue-list" aria-label="Sub-issues">
          {q.data.children.map((c) => {
            const state = states?.get(c.stateId);
            return (
              <li key={c.id} className={state ? `state-${state.type}` : undefined}>
                <Link to={`/issue/${c.identifier}`}>
                  {c.identifier} {c.title}
                </Link>{' '}
                <span className="muted small">{state?.name}</span>
              </li>
            );
          })}
        </ul>
      )}
      {!readOnly && (
        <form onSubmit={add} className="inline-form">
          <TextField label="New sub-issue" value={title} onChange={(e) => setTitle(e.target.value)} />
          <Button type="submit" busy={state.busy} disabled={!title.trim()}>
            Add sub-issue
          </Button>
        </form>
      )}
      <ErrorMessage error={state.error} />
    </section>
  );
}
