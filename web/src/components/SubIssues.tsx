// Sub-issues of an issue: each child with its state, the progress ("2/5
// done", canceled ones out of scope as in project progress) from REST's
// childProgress, and a form to add a sub-issue in the parent's team.

import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { graphql } from '../gql';
import { useAction } from '../lib/action';
import { gql, ok, rest } from '../lib/api';
import { createIssue } from '../lib/issues';
import { keys } from '../lib/query-keys';
import { Button, ErrorMessage, TextField } from './ui';

const CHILDREN = graphql(`query Children($id: String!) { issue(id: $id) {
  children(first: 50, orderBy: createdAt) { nodes { id identifier title state { name type } } } } }`);

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
      const [tree, read] = await Promise.all([
        gql(CHILDREN, { id: issueId }),
        ok(rest.GET('/api/issues/{id}', { params: { path: { id: issueId } } })),
      ]);
      // Connections come newest first; a checklist reads oldest first.
      return { children: [...tree.issue.children.nodes].reverse(), progress: read.issue.childProgress };
    },
  });
  const [title, setTitle] = useState('');
  const state = useAction(() => createIssue({ title: title.trim(), teamId, parentId: issueId }), {
    refreshes: [key],
    onSuccess: () => setTitle(''),
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
          {q.data.children.map((c) => (
            <li key={c.id} className={`state-${c.state.type}`}>
              <Link to={`/issue/${c.identifier}`}>
                {c.identifier} {c.title}
              </Link>{' '}
              <span className="muted small">{c.state.name}</span>
            </li>
          ))}
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
