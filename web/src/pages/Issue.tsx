// One issue: title and description edited in place, properties, relations,
// comments and attachments (picker, drag-and-drop or paste).
import { type ClipboardEvent, type DragEvent, type FormEvent, useEffect, useRef, useState } from 'react';
import { StateIcon } from '../components/IssueBits';
import { LabelPicker } from '../components/LabelPicker';
import { MilestonePicker } from '../components/Milestones';
import { Relations } from '../components/Relations';
import { SubIssues } from '../components/SubIssues';
import { Button, Dialog, ErrorMessage, Loading, SelectField, TextArea, TextField } from '../components/ui';
import { gql } from '../lib/api';
import { invalidate, useQuery } from '../lib/cache';
import { attachFile, downloadFile, imageUrl, isServerFile } from '../lib/files';
import { Markdown, safeHref } from '../lib/markdown';
import { Link, navigate } from '../lib/router';
import { useSession } from '../lib/session';
import {
  cycleName,
  deleteIssue,
  type IssueInput,
  PRIORITIES,
  updateIssue,
  useCycles,
  useProjects,
  useRefData,
} from '../lib/work';

interface Comment {
  id: string;
  body: string;
  createdAt: string;
  editedAt: string | null;
  /** Set on a deleted comment kept for its replies. */
  archivedAt: string | null;
  user: { id: string; name: string } | null;
}
interface Attachment {
  id: string;
  title: string;
  url: string;
  createdAt: string;
  metadata: Record<string, unknown> | null;
}
interface FullIssue {
  id: string;
  identifier: string;
  title: string;
  description: string | null;
  priority: number;
  estimate: number | null;
  dueDate: string | null;
  createdAt: string;
  url: string;
  state: { id: string };
  team: { id: string; key: string };
  assignee: { id: string } | null;
  creator: { name: string } | null;
  project: { id: string } | null;
  projectMilestone: { id: string } | null;
  parent: { id: string; identifier: string; title: string } | null;
  cycle: { id: string } | null;
  labels: { nodes: { id: string }[] };
  comments: { nodes: Comment[] };
  attachments: { nodes: Attachment[] };
}

const ISSUE_QUERY = `query Issue($id: String!) { issue(id: $id) {
  id identifier title description priority estimate dueDate createdAt url
  state { id } team { id key } assignee { id } creator { name } project { id } cycle { id }
  projectMilestone { id } parent { id identifier title }
  labels(first: 50) { nodes { id } }
  comments(first: 250) { nodes { id body createdAt editedAt archivedAt user { id name } } }
  attachments(first: 100) { nodes { id title url createdAt metadata } }
} }`;

export function IssuePage({ id }: { id: string }) {
  const { flag, user } = useSession();
  const key = `issue:${id}`;
  const q = useQuery(key, () => gql<{ issue: FullIssue }>(ISSUE_QUERY, { id }).then((d) => d.issue));
  const ref = useRefData();
  const projects = useProjects(flag('projects')).data;
  const cycles = useCycles(flag('cycles')).data;
  const [propError, setPropError] = useState<{ field: string; error: unknown } | null>(null);
  const [toast, setToast] = useState<string | null>(() => sessionStorage.getItem('toast'));
  useEffect(() => {
    sessionStorage.removeItem('toast');
  }, []);

  if (q.loading) return <Loading label="Loading issue" />;
  if (q.error || !q.data)
    return (
      <div className="page">
        <ErrorMessage error={q.error ?? 'Issue not found'} />
        <Link to="/issues">Back to issues</Link>
      </div>
    );
  const issue = q.data;
  const team = ref.data?.teams.find((t) => t.id === issue.team.id);

  async function save(field: string, input: IssueInput): Promise<boolean> {
    setPropError(null);
    try {
      await updateIssue(issue.id, input);
      invalidate(key);
      return true;
    } catch (error) {
      setPropError({ field, error });
      return false;
    }
  }
  const errFor = (field: string) =>
    propError?.field === field ? <ErrorMessage error={propError.error} /> : null;

  return (
    <div className="issue-page">
      <div className="issue-main">
        <nav className="crumbs" aria-label="Breadcrumb">
          <Link to="/issues">Issues</Link> <span aria-hidden="true">›</span>{' '}
          {issue.parent && (
            <>
              <Link to={`/issue/${issue.parent.identifier}`} title={issue.parent.title}>
                {issue.parent.identifier}
              </Link>{' '}
              <span aria-hidden="true">›</span>{' '}
            </>
          )}
          <span>{issue.identifier}</span>
        </nav>
        {toast && (
          <div className="toast" role="status">
            {toast}
            <button type="button" className="icon-btn" aria-label="Dismiss" onClick={() => setToast(null)}>
              ×
            </button>
          </div>
        )}
        <TitleEditor value={issue.title} onSave={(title) => save('title', { title })} />
        {errFor('title')}
        <DescriptionEditor
          value={issue.description ?? ''}
          onSave={(description) => save('description', { description })}
        />
        {errFor('description')}
        <Relations issueId={issue.id} onChange={() => invalidate(key)} />
        <SubIssues issueId={issue.id} teamId={issue.team.id} />
        {flag('attachments') && (
          <Attachments issueId={issue.id} items={issue.attachments.nodes} onChange={() => invalidate(key)} />
        )}
        <Comments
          issueId={issue.id}
          items={issue.comments.nodes}
          meId={user?.id}
          onChange={() => invalidate(key)}
        />
      </div>
      <aside className="issue-side" aria-label="Properties">
        <div className="side-id">
          <StateIcon state={ref.data?.stateById.get(issue.state.id)} /> {issue.identifier}
        </div>
        <SelectField
          label="State"
          value={issue.state.id}
          onChange={(e) => save('state', { stateId: e.target.value })}
        >
          {team?.states.map((s) => (
            <option key={s.id} value={s.id}>
              {s.name}
            </option>
          ))}
        </SelectField>
        {errFor('state')}
        <SelectField
          label="Priority"
          value={issue.priority}
          onChange={(e) => save('priority', { priority: Number(e.target.value) })}
        >
          {PRIORITIES.map((p) => (
            <option key={p.value} value={p.value}>
              {p.label}
            </option>
          ))}
        </SelectField>
        {errFor('priority')}
        <SelectField
          label="Assignee"
          value={issue.assignee?.id ?? ''}
          onChange={(e) => save('assignee', { assigneeId: e.target.value || null })}
        >
          <option value="">Unassigned</option>
          {ref.data?.people.map((p) => (
            <option key={p.id} value={p.id}>
              {p.name}
            </option>
          ))}
        </SelectField>
        {errFor('assignee')}
        {ref.data && (
          <LabelPicker
            labels={ref.data.labels}
            value={issue.labels.nodes.map((l) => l.id)}
            onChange={(labelIds) => save('labels', { labelIds })}
          />
        )}
        {errFor('labels')}
        {flag('projects') && (
          <SelectField
            label="Project"
            value={issue.project?.id ?? ''}
            onChange={(e) => save('project', { projectId: e.target.value || null })}
          >
            <option value="">No project</option>
            {projects?.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
              </option>
            ))}
          </SelectField>
        )}
        {errFor('project')}
        {flag('projects') && (
          <MilestonePicker
            projectId={issue.project?.id ?? null}
            value={issue.projectMilestone?.id ?? null}
            onChange={(projectMilestoneId) => save('milestone', { projectMilestoneId })}
          />
        )}
        {errFor('milestone')}
        {flag('cycles') && (
          <SelectField
            label="Cycle"
            value={issue.cycle?.id ?? ''}
            onChange={(e) => save('cycle', { cycleId: e.target.value || null })}
          >
            <option value="">No cycle</option>
            {cycles
              ?.filter((c) => c.teamId === issue.team.id)
              .map((c) => (
                <option key={c.id} value={c.id}>
                  {cycleName(c)}
                </option>
              ))}
          </SelectField>
        )}
        {errFor('cycle')}
        <TextField
          label="Due date"
          type="date"
          defaultValue={issue.dueDate ?? ''}
          key={`due-${issue.dueDate}`}
          onBlur={(e) => {
            const v = e.target.value || null;
            if (v !== issue.dueDate) void save('due', { dueDate: v });
          }}
        />
        {errFor('due')}
        <TextField
          label="Estimate"
          type="number"
          min={0}
          step={1}
          key={`est-${issue.estimate}`}
          defaultValue={issue.estimate ?? ''}
          onBlur={(e) => {
            const v = e.target.value === '' ? null : Number(e.target.value);
            if (v !== issue.estimate) void save('estimate', { estimate: v });
          }}
        />
        {errFor('estimate')}
        <p className="muted small">
          Created {new Date(issue.createdAt).toLocaleString()}
          {issue.creator ? ` by ${issue.creator.name}` : ''}
        </p>
        <Button
          variant="danger"
          onClick={async () => {
            if (!confirm(`Delete ${issue.identifier}? Its comments go with it.`)) return;
            try {
              await deleteIssue(issue.id);
              navigate('/issues');
            } catch (error) {
              setPropError({ field: 'delete', error });
            }
          }}
        >
          Delete issue
        </Button>
        {errFor('delete')}
      </aside>
    </div>
  );
}

function TitleEditor({ value, onSave }: { value: string; onSave: (v: string) => Promise<boolean> }) {
  const [draft, setDraft] = useState(value);
  useEffect(() => setDraft(value), [value]);
  const commit = () => {
    const v = draft.trim();
    if (v && v !== value) void onSave(v);
    else setDraft(value);
  };
  return (
    <>
      <label htmlFor="issue-title" className="label">
        Title
      </label>
      <input
        id="issue-title"
        className="title-input"
        value={draft}
        onChange={(e) => setDraft(e.target.value)}
        onBlur={commit}
        onKeyDown={(e) => {
          if (e.key === 'Enter') (e.target as HTMLInputElement).blur();
          if (e.key === 'Escape') {
            setDraft(value);
            (e.target as HTMLInputElement).blur();
          }
        }}
      />
    </>
  );
}

function DescriptionEditor({ value, onSave }: { value: string; onSave: (v: string) => Promise<boolean> }) {
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(value);
  if (editing)
    return (
      <form
        className="desc-edit"
        onSubmit={async (e) => {
          e.preventDefault();
          // A refused save keeps the editor open with the draft (the error shows below).
          if (await onSave(draft)) setEditing(false);
        }}
      >
        <TextArea
          label="Description"
          value={draft}
          rows={10}
          autoFocus
          onChange={(e) => setDraft(e.target.value)}
        />
        <div className="row">
          <Button type="submit" variant="primary">
            Save description
          </Button>
          <Button onClick={() => setEditing(false)}>Cancel</Button>
          <span className="muted small">Markdown: **bold**, _italic_, `code`, lists, links, images</span>
        </div>
      </form>
    );
  return (
    <section className="description" aria-label="Description">
      {value ? <Markdown source={value} /> : <p className="muted">No description.</p>}
      <Button
        variant="ghost"
        onClick={() => {
          setDraft(value);
          setEditing(true);
        }}
      >
        Edit description
      </Button>
    </section>
  );
}

function Attachments({
  issueId,
  items,
  onChange,
}: {
  issueId: string;
  items: Attachment[];
  onChange: () => void;
}) {
  const [state, setState] = useState<{ busy?: string; error?: unknown }>({});
  const [over, setOver] = useState(false);
  const input = useRef<HTMLInputElement>(null);

  async function upload(files: File[]) {
    for (const f of files) {
      setState({ busy: f.name });
      try {
        await attachFile(issueId, f);
      } catch (error) {
        setState({ error });
        onChange();
        return;
      }
    }
    setState({});
    onChange();
  }

  useEffect(() => {
    const onPaste = (e: Event) => {
      const files = [...((e as unknown as ClipboardEvent).clipboardData?.files ?? [])];
      if (files.length) {
        e.preventDefault();
        void upload(files);
      }
    };
    window.addEventListener('paste', onPaste);
    return () => window.removeEventListener('paste', onPaste);
  });

  return (
    <section className="attachments" aria-labelledby="att-h">
      <h2 id="att-h">Attachments</h2>
      {/* biome-ignore lint/a11y/noStaticElementInteractions: dropping is a mouse shortcut; the file picker is the keyboard path */}
      <div
        className={`dropzone${over ? ' over' : ''}`}
        onDragOver={(e: DragEvent) => {
          if (e.dataTransfer.types.includes('Files')) {
            e.preventDefault();
            setOver(true);
          }
        }}
        onDragLeave={() => setOver(false)}
        onDrop={(e: DragEvent) => {
          e.preventDefault();
          setOver(false);
          void upload([...e.dataTransfer.files]);
        }}
      >
        <span className="muted">Drop files here, paste, or</span>
        <label className="btn btn-secondary" htmlFor="file-input">
          Choose files
        </label>
        <input
          id="file-input"
          ref={input}
          type="file"
          multiple
          className="sr-only"
          aria-label="Attach files"
          onChange={(e) => {
            void upload([...(e.target.files ?? [])]);
            e.target.value = '';
          }}
        />
        {state.busy && (
          <span className="loading" role="status">
            <span className="spinner" aria-hidden="true" /> Uploading {state.busy}…
          </span>
        )}
      </div>
      <ErrorMessage error={state.error} />
      {items.length > 0 && (
        <ul className="att-list">
          {items.map((a) => (
            <AttachmentItem key={a.id} a={a} />
          ))}
        </ul>
      )}
    </section>
  );
}

function AttachmentItem({ a }: { a: Attachment }) {
  // Only files on this server are fetched (with the token); other URLs are plain links.
  const onServer = isServerFile(a.url);
  const link = onServer ? null : safeHref(a.url);
  // The hint (declared type or name) only decides whether to fetch a preview;
  // whether anything is shown is decided by the type the server reports.
  const hint = String(a.metadata?.contentType ?? '');
  const looksLikeImage = hint.startsWith('image/') || /\.(png|jpe?g|gif|webp|avif)$/i.test(a.title);
  const [src, setSrc] = useState<string | null>(null);
  const [viewing, setViewing] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    if (onServer && looksLikeImage) imageUrl(a.url).then(setSrc, setError);
  }, [a.url, onServer, looksLikeImage]);

  // Images on the allow-list open in the page; everything else is downloaded,
  // never opened in a tab (a blob: page would run in the app's origin).
  async function open() {
    try {
      const shown = await imageUrl(a.url);
      if (shown) setViewing(shown);
      else await downloadFile(a.url, a.title);
    } catch (e) {
      setError(e);
    }
  }

  return (
    <li className="att">
      {src && <img src={src} alt={a.title} className="att-preview" />}
      {onServer && looksLikeImage && !src && !error && (
        <span className="att-preview placeholder" aria-hidden="true" />
      )}
      {onServer ? (
        <button type="button" className="link-btn" onClick={() => void open()}>
          {a.title}
        </button>
      ) : link ? (
        <a className="link-btn" href={link} target="_blank" rel="noopener noreferrer nofollow">
          {a.title}
        </a>
      ) : (
        <span>{a.title}</span>
      )}
      <span className="muted small">{new Date(a.createdAt).toLocaleDateString()}</span>
      <ErrorMessage error={error} />
      {viewing && (
        <Dialog title={a.title} onClose={() => setViewing(null)} wide>
          <div className="dialog-body">
            <img src={viewing} alt={a.title} className="att-full" />
          </div>
          <div className="dialog-foot">
            <span />
            <Button variant="secondary" onClick={() => void downloadFile(a.url, a.title).catch(setError)}>
              Download
            </Button>
          </div>
        </Dialog>
      )}
    </li>
  );
}

function Comments({
  issueId,
  items,
  meId,
  onChange,
}: {
  issueId: string;
  items: Comment[];
  meId: string | undefined;
  onChange: () => void;
}) {
  const [body, setBody] = useState('');
  const [state, setState] = useState<{ busy?: boolean; error?: unknown }>({});
  const sorted = [...items].sort((a, b) => a.createdAt.localeCompare(b.createdAt));

  async function add(e: FormEvent) {
    e.preventDefault();
    if (!body.trim()) return;
    setState({ busy: true });
    try {
      await gql(
        `mutation C($input: CommentCreateInput!) { commentCreate(input: $input) { success comment { id } } }`,
        {
          input: { issueId, body },
        },
      );
      setBody('');
      setState({});
      onChange();
    } catch (error) {
      setState({ error });
    }
  }

  return (
    <section className="comments" aria-labelledby="comments-h">
      <h2 id="comments-h">Activity</h2>
      <ul className="comment-list">
        {sorted.map((c) => (
          <CommentItem key={c.id} c={c} mine={c.user?.id === meId} onChange={onChange} />
        ))}
      </ul>
      <form onSubmit={add} className="comment-form">
        <TextArea
          label="Add a comment"
          value={body}
          rows={3}
          placeholder="Leave a comment (Markdown)…"
          onChange={(e) => setBody(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && (e.metaKey || e.ctrlKey)) void add(e);
          }}
        />
        <ErrorMessage error={state.error} />
        <Button type="submit" variant="primary" busy={state.busy} disabled={!body.trim()}>
          Comment
        </Button>
      </form>
    </section>
  );
}

function CommentItem({ c, mine, onChange }: { c: Comment; mine: boolean; onChange: () => void }) {
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(c.body);
  const [error, setError] = useState<unknown>(null);
  const author = c.user?.name ?? 'Deleted user';
  // A deleted comment with replies keeps its place in the thread, nothing else.
  if (c.archivedAt) {
    return (
      <li className="comment comment-deleted">
        <p className="muted">Comment deleted</p>
      </li>
    );
  }
  return (
    <li className="comment">
      <div className="comment-head">
        <span className="avatar" aria-hidden="true">
          {author.slice(0, 1).toUpperCase()}
        </span>
        <strong>{author}</strong>
        <span className="muted small">
          {new Date(c.createdAt).toLocaleString()}
          {c.editedAt ? ' (edited)' : ''}
        </span>
        {mine && !editing && (
          <span className="comment-actions">
            <Button variant="ghost" aria-label={`Edit comment by ${author}`} onClick={() => setEditing(true)}>
              Edit
            </Button>
            <Button
              variant="ghost"
              aria-label={`Delete comment by ${author}`}
              onClick={async () => {
                if (!confirm('Delete this comment?')) return;
                try {
                  await gql(`mutation D($id: String!) { commentDelete(id: $id) { success } }`, { id: c.id });
                  onChange();
                } catch (e) {
                  setError(e);
                }
              }}
            >
              Delete
            </Button>
          </span>
        )}
      </div>
      {editing ? (
        <form
          onSubmit={async (e) => {
            e.preventDefault();
            try {
              await gql(
                `mutation U($id: String!, $input: CommentUpdateInput!) { commentUpdate(id: $id, input: $input) { success } }`,
                { id: c.id, input: { body: draft } },
              );
              setEditing(false);
              onChange();
            } catch (err) {
              setError(err);
            }
          }}
        >
          <TextArea
            label="Edit comment"
            value={draft}
            rows={3}
            onChange={(e) => setDraft(e.target.value)}
            autoFocus
          />
          <div className="row">
            <Button type="submit" variant="primary">
              Save comment
            </Button>
            <Button onClick={() => setEditing(false)}>Cancel</Button>
          </div>
        </form>
      ) : (
        <Markdown source={c.body} />
      )}
      <ErrorMessage error={error} />
    </li>
  );
}
