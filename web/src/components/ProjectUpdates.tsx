// A project's updates: write one (in the rich editor, stored as Markdown) with
// its health (on track, at risk, off track), and the past ones, newest first, with their author, time and a
// health badge. Posting shows the update at once (put back if refused); the
// project's health follows its newest update on the server, so the project's
// page and the Projects list read again after.
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useAction } from '../lib/action';
import { ok, type RestData, rest } from '../lib/api';
import { Markdown } from '../lib/markdown';
import { keys } from '../lib/query-keys';
import { HEALTH } from '../pages/Projects';
import { MarkdownField } from './MarkdownField';
import { RelativeTime } from './RelativeTime';
import { Button, ErrorMessage, Loading } from './ui';

type Update = RestData<'get', '/api/projects/{id}/updates'>['projectUpdates'][number];
type Health = Update['health'];
type Page = RestData<'get', '/api/projects/{id}/updates'>;

const PENDING = 'pending:';

/** An update's or a project's health as a coloured word: On track, At risk, Off track. */
export function HealthBadge({ health }: { health: string | null }) {
  if (!health) return null;
  return <span className={`health ${health}`}>{HEALTH[health] ?? health}</span>;
}

export function ProjectUpdates({
  projectId,
  health,
  me,
  canWrite,
}: {
  projectId: string;
  /** The project's health now: what a new update starts from. */
  health: string | null;
  me: { id: string; name: string } | null | undefined;
  canWrite: boolean;
}) {
  const key = keys.projects.updates(projectId);
  const q = useQuery({
    queryKey: key,
    queryFn: async () =>
      ok(
        rest.GET('/api/projects/{id}/updates', { params: { path: { id: projectId }, query: { limit: 50 } } }),
      ),
  });
  const [body, setBody] = useState('');
  const [chosen, setChosen] = useState<Health | null>(null);
  const pick = chosen ?? ((health as Health | null) || 'onTrack');
  const post = useAction(
    (input: { body: string; health: Health }) =>
      ok(rest.POST('/api/projects/{id}/updates', { params: { path: { id: projectId } }, body: input })),
    {
      optimistic: {
        key,
        apply: (data: Page, input) => ({
          ...data,
          projectUpdates: [
            {
              id: `${PENDING}${crypto.randomUUID()}`,
              projectId,
              body: input.body,
              health: input.health,
              userId: me?.id ?? null,
              user: me ? { id: me.id, name: me.name } : null,
              url: '',
              createdAt: new Date().toISOString(),
              updatedAt: new Date().toISOString(),
              editedAt: null,
              archivedAt: null,
            },
            ...data.projectUpdates,
          ],
        }),
      },
      // The project's health and the Projects list follow the new update.
      refreshes: [keys.projects.detail(projectId), keys.projects.list],
      onError: (_e, input) => {
        setBody((now) => now || input.body);
        setChosen(input.health);
      },
    },
  );

  function send(e?: FormEvent) {
    e?.preventDefault();
    if (!body.trim()) return;
    const input = { body, health: pick };
    setBody('');
    setChosen(null);
    void post.run(input);
  }

  return (
    <section className="project-updates" aria-labelledby="updates-h">
      <h2 id="updates-h">Updates</h2>
      {canWrite && (
        <form className="update-form" onSubmit={send}>
          <MarkdownField
            label="Write an update"
            value={body}
            rows={3}
            placeholder="How is the project going? (/ for blocks, @ to mention)"
            onText={setBody}
            onSubmit={() => send()}
          />
          <fieldset className="health-choice">
            <legend>Health</legend>
            {Object.entries(HEALTH).map(([value, label]) => (
              <label key={value} className={`health-option ${pick === value ? `health ${value}` : ''}`}>
                <input
                  type="radio"
                  name={`health-${projectId}`}
                  value={value}
                  checked={pick === value}
                  onChange={() => setChosen(value as Health)}
                />
                {label}
              </label>
            ))}
          </fieldset>
          <ErrorMessage error={post.error} />
          <div className="row">
            <Button type="submit" variant="primary" disabled={!body.trim()}>
              Post update
            </Button>
          </div>
        </form>
      )}
      {q.isLoading ? (
        <Loading label="Loading updates" />
      ) : q.error ? (
        <ErrorMessage error={q.error} />
      ) : q.data?.projectUpdates.length ? (
        <ol className="update-list">
          {q.data.projectUpdates.map((u) => (
            <li key={u.id} className="project-update" id={`update-${u.id}`}>
              <div className="comment-head">
                <HealthBadge health={u.health} />
                <strong>{u.user?.name ?? 'Deleted user'}</strong>
                <span className="muted small">
                  <RelativeTime iso={u.createdAt} />
                  {u.editedAt ? ' (edited)' : ''}
                  {u.id.startsWith(PENDING) ? ' · sending…' : ''}
                </span>
              </div>
              <Markdown source={u.body} />
            </li>
          ))}
        </ol>
      ) : (
        <p className="muted">No updates yet.</p>
      )}
    </section>
  );
}
