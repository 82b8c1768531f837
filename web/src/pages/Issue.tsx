// One issue: title and description edited in place, properties, relations,
// sub-issues, attachments, comments and the history of every change. Opens at
// `/issue/ENG-4` and at the API's `url`, `/issue/ENG-4/<slug>`.
import { Link, useNavigate } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { GitPanel, isGitLink } from '../components/GitPanel';
import { Attachments } from '../components/IssueAttachments';
import { StateIcon } from '../components/IssueBits';
import { Comments } from '../components/IssueComments';
import { DescriptionEditor, TitleEditor } from '../components/IssueEditors';
import { IssueHistory } from '../components/IssueHistory';
import { type IssueData, IssueProperties, useIssueSaver } from '../components/IssueProperties';
import { IssueReactions } from '../components/Reactions';
import { Relations } from '../components/Relations';
import { SubIssues } from '../components/SubIssues';
import { SubscribeButton } from '../components/SubscribeButton';
import { Button, ErrorMessage, Loading, usePageTitle } from '../components/ui';
import { useAction } from '../lib/action';
import { useIssueDetail } from '../lib/issue-detail';
import { rowOfDetail } from '../lib/issue-edits';
import { deleteIssue } from '../lib/issues';
import { useShortcuts } from '../lib/keys';
import { invalidate } from '../lib/query';
import { keys } from '../lib/query-keys';
import { useRefData } from '../lib/ref';
import { useSession } from '../lib/session';
import { holdIssues, neighbour, rememberedList } from '../lib/targets';

export function IssuePage({ id }: { id: string }) {
  const key = keys.issues.detail(id);
  const q = useIssueDetail(id);
  usePageTitle(q.data ? `${q.data.identifier} ${q.data.title}` : id);
  if (q.isLoading) return <Loading label="Loading issue" />;
  if (q.error || !q.data)
    return (
      <div className="page">
        <ErrorMessage error={q.error ?? 'Issue not found'} />
        <Link to="/issues">Back to issues</Link>
      </div>
    );
  return <Loaded issue={q.data} queryKey={key} />;
}

function Loaded({ issue, queryKey }: { issue: IssueData; queryKey: readonly unknown[] }) {
  const navigate = useNavigate();
  const { flag, user } = useSession();
  const ref = useRefData();
  const saver = useIssueSaver(issue, queryKey);
  const deleting = useAction(() => deleteIssue(issue.id), {
    onSuccess: () => void navigate({ to: '/issues' }),
  });
  const deleteError = deleting.error;
  const readOnly = user?.role === 'guest';
  const reload = () => void invalidate(queryKey);
  // The open issue is what S/A/P/L, the right-click menu and the command menu act on.
  useEffect(() => {
    holdIssues([rowOfDetail(issue)]);
    return () => holdIssues([]);
  }, [issue]);
  // J/K walk the list this issue was opened from; Escape goes back to it.
  const step = (by: 1 | -1) => () => {
    const next = neighbour(issue.identifier, by);
    if (next) void navigate({ to: '/issue/$id', params: { id: next } });
  };
  useShortcuts({
    'issue.next': step(1),
    'issue.previous': step(-1),
    'issue.back': () => void navigate({ href: rememberedList()?.href ?? '/issues' }),
  });
  // "Created ENG-12", left by the New issue dialog for the page it opens.
  const [toast, setToast] = useState(() => sessionStorage.getItem('toast'));
  useEffect(() => sessionStorage.removeItem('toast'), []);

  return (
    <div className="issue-page">
      {/* Head, properties, then the rest: on a narrow screen the properties come right below the description. */}
      <div className="issue-main issue-head">
        <div className="issue-toolbar">
          <nav className="crumbs" aria-label="Breadcrumb">
            <Link to="/issues">Issues</Link> <span aria-hidden="true">›</span>{' '}
            {issue.parent && (
              <>
                <Link to="/issue/$id" params={{ id: issue.parent.identifier }} title={issue.parent.title}>
                  {issue.parent.identifier}
                </Link>{' '}
                <span aria-hidden="true">›</span>{' '}
              </>
            )}
            <span>
              <StateIcon state={ref.data?.stateById.get(issue.state.id)} /> {issue.identifier}
            </span>
          </nav>
          <SubscribeButton issueId={issue.id} />
        </div>
        {toast && (
          <div className="toast" role="status">
            {toast}
            <button type="button" className="icon-btn" aria-label="Dismiss" onClick={() => setToast(null)}>
              ×
            </button>
          </div>
        )}
        <TitleEditor
          value={issue.title}
          readOnly={readOnly}
          onSave={(title) => saver.save('title', { title }, { title })}
        />
        {saver.errorFor('title')}
        <DescriptionEditor
          value={issue.description ?? ''}
          readOnly={readOnly}
          onSave={(description) => saver.save('description', { description }, { description })}
        />
        {saver.errorFor('description')}
        <IssueReactions issue={issue} me={user} queryKey={queryKey} />
      </div>
      <IssueProperties issue={issue} saver={saver} />
      <div className="issue-main issue-rest">
        <Relations issueId={issue.id} onChange={reload} />
        <SubIssues issueId={issue.id} teamId={issue.team.id} readOnly={readOnly} />
        {flag('attachments') && <GitPanel items={issue.attachments.nodes} />}
        {flag('attachments') && (
          <Attachments
            issueId={issue.id}
            items={issue.attachments.nodes.filter((a) => !isGitLink(a))}
            issueKey={queryKey}
            readOnly={readOnly}
          />
        )}
        <Comments issueId={issue.id} items={issue.comments.nodes} me={user} issueKey={queryKey} />
        <IssueHistory issueId={issue.id} />
        {!readOnly && (
          <div className="danger-zone">
            <Button
              variant="danger"
              busy={deleting.busy}
              onClick={() => {
                if (confirm(`Delete ${issue.identifier}? Its comments go with it.`)) deleting.submit();
              }}
            >
              Delete issue
            </Button>
            <ErrorMessage error={deleteError} />
          </div>
        )}
      </div>
    </div>
  );
}
