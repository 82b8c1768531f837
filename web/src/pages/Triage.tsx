// A team's triage queue (docs/triage.md, docs/ui.md "Triage"): the issues
// waiting in its triage state, oldest first, with a preview of the focused one
// on a wide screen. Accept, Decline, Mark as duplicate and Snooze act on the
// focused issue or the selection; the keyboard does all of it (lib/keys.ts).
// Guests read the queue; the actions need member rights, as any issue change.

import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { type FormEvent, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { PriorityIcon } from '../components/IssueBits';
import { RelativeTime } from '../components/RelativeTime';
import { Button, Dialog, ErrorMessage, Loading, PageHeader, SelectField, TextArea } from '../components/ui';
import { ok, rest } from '../lib/api';
import { weekdayTime } from '../lib/dates';
import { pageHoldsKeyboard } from '../lib/focus';
import { PRIORITIES, priorityLabel } from '../lib/issues';
import { useShortcuts } from '../lib/keys';
import { Markdown } from '../lib/markdown';
import { snoozeChoices } from '../lib/notifications';
import { keys } from '../lib/query-keys';
import { type Ref, type Team, useRefData } from '../lib/ref';
import { useSession } from '../lib/session';
import {
  acceptState,
  declineState,
  type TriageAction,
  type TriageIssue,
  useTriageAction,
  useTriageQueue,
} from '../lib/triage';

/** From this width the queue has its preview pane (the sidebar included), as the inbox. */
const WIDE = '(min-width: 1000px)';
function useWide() {
  return useSyncExternalStore(
    (changed) => {
      const media = window.matchMedia(WIDE);
      media.addEventListener('change', changed);
      return () => media.removeEventListener('change', changed);
    },
    () => window.matchMedia(WIDE).matches,
  );
}

type Acting = 'accept' | 'decline' | 'duplicate' | 'snooze' | null;

export function TriagePage({ teamKey }: { teamKey: string }) {
  const ref = useRefData().data;
  const team = ref?.teams.find((t) => t.key === teamKey.toUpperCase());
  if (!ref) return <Loading label="Loading" />;
  if (!team)
    return (
      <div className="page">
        <PageHeader title="Triage" />
        <p className="empty-state">No team with the key {teamKey}.</p>
      </div>
    );
  return <TriageQueue key={team.id} team={team} ref_={ref} />;
}

function TriageQueue({ team, ref_ }: { team: Team; ref_: Ref }) {
  const guest = useSession().user?.role === 'guest';
  const queue = useTriageQueue(team.id);
  const act = useTriageAction(team.id);
  const navigate = useNavigate();
  const wide = useWide();
  const issues = queue.issues;
  const latest = useRef(issues);
  latest.current = issues;
  // The row the keys act on: a ref, so keys pressed faster than React renders each start from the last.
  const focus = useRef(-1);
  const [focusedId, setFocusedId] = useState<string | null>(null);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [acting, setActing] = useState<Acting>(null);

  const focusRow = (i: number) => {
    focus.current = i;
    setFocusedId(latest.current[i]?.id ?? null);
    document.querySelector<HTMLElement>(`[data-triage-row="${i}"]`)?.focus();
  };
  const move = (by: number) => {
    // J past the last loaded row reads the next page; the keys go on once it is there.
    if (by > 0 && focus.current >= latest.current.length - 1 && queue.hasNextPage) void queue.fetchNextPage();
    focusRow(Math.max(0, Math.min(latest.current.length - 1, focus.current + by)));
  };
  // A row that left (accepted, snoozed, ...) while it had focus leaves it on its neighbour.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a change in the rows' number moves focus
  useEffect(() => {
    if (focus.current < 0) return;
    const i = Math.min(focus.current, issues.length - 1);
    if (pageHoldsKeyboard()) focusRow(i);
    else {
      focus.current = i;
      setFocusedId(issues[i]?.id ?? null);
    }
  }, [issues.length]);

  /** The issues an action takes: the selection, else the focused one. */
  const targets = (): TriageIssue[] => {
    const chosen = issues.filter((i) => selected.has(i.id));
    if (chosen.length > 0) return chosen;
    const f = issues.find((i) => i.id === focusedId);
    return f ? [f] : [];
  };
  const start = (what: Exclude<Acting, null>) => () => {
    if (guest || targets().length === 0) return false;
    setActing(what);
  };
  const run = (a: TriageAction) => {
    setActing(null);
    setSelected(new Set());
    act.mutate(a);
  };
  useShortcuts({
    'triage.down': () => move(1),
    'triage.up': () => move(-1),
    'triage.select': () => {
      const id = latest.current[focus.current]?.id;
      if (!id) return false;
      setSelected((s) => {
        const next = new Set(s);
        if (!next.delete(id)) next.add(id);
        return next;
      });
    },
    'triage.open': () => {
      const row = (document.activeElement as HTMLElement | null)?.dataset['triageRow'];
      const issue = row === undefined ? undefined : latest.current[Number(row)];
      if (!issue) return false;
      void navigate({ to: '/issue/$id', params: { id: issue.identifier } });
    },
    'triage.accept': start('accept'),
    'triage.decline': start('decline'),
    'triage.duplicate': start('duplicate'),
    'triage.snooze': start('snooze'),
    'triage.clear': () => {
      if (selected.size === 0) return false;
      setSelected(new Set());
    },
  });

  const chosen = targets();
  const what = chosen.length === 1 ? chosen[0]!.identifier : `${chosen.length} issues`;
  const preview = wide ? issues.find((i) => i.id === focusedId) : undefined;
  const accepting = acceptState(team);
  const declining = declineState(team);
  return (
    <div className="page inbox-page triage-page">
      <PageHeader title={`Triage · ${team.name}`} />
      {!team.triageEnabled && (
        <p className="muted">
          Triage is off for this team: new issues keep the state they are created in. Issues already here wait
          for a decision.
        </p>
      )}
      <p className="muted small" id="triage-help">
        {guest
          ? 'Members accept or decline; you can read the queue.'
          : 'J/K to move, X to select, 1 accept, 2 decline, 3 duplicate, 4 snooze.'}
      </p>
      {!guest && (
        <div className="row triage-actions" role="toolbar" aria-label="Triage actions">
          <Button disabled={chosen.length === 0} onClick={() => setActing('accept')}>
            Accept
          </Button>
          <Button disabled={chosen.length === 0} onClick={() => setActing('decline')}>
            Decline
          </Button>
          <Button disabled={chosen.length === 0} onClick={() => setActing('duplicate')}>
            Mark as duplicate
          </Button>
          <Button disabled={chosen.length === 0} onClick={() => setActing('snooze')}>
            Snooze
          </Button>
          {selected.size > 0 && <span className="muted small">{selected.size} selected</span>}
        </div>
      )}
      <ErrorMessage error={act.error ?? queue.error} />
      <div className={`inbox-split${wide ? ' wide' : ''}`}>
        <div className="inbox-main">
          {queue.isLoading ? (
            <Loading label="Loading the queue" />
          ) : issues.length === 0 ? (
            <p className="empty-state">Nothing waiting in triage.</p>
          ) : (
            <ul className="inbox-list" aria-label="Triage queue" aria-describedby="triage-help">
              {issues.map((issue, i) => {
                const isSelected = selected.has(issue.id);
                const isFocused = focusedId === issue.id;
                return (
                  <li
                    key={issue.id}
                    className={`inbox-row${isFocused ? ' selected' : ''}`}
                    onFocus={() => {
                      focus.current = i;
                      setFocusedId(issue.id);
                    }}
                  >
                    {!guest && (
                      <input
                        type="checkbox"
                        className="triage-check"
                        checked={isSelected}
                        aria-label={`Select ${issue.identifier}`}
                        tabIndex={-1}
                        onChange={() =>
                          setSelected((s) => {
                            const next = new Set(s);
                            if (!next.delete(issue.id)) next.add(issue.id);
                            return next;
                          })
                        }
                      />
                    )}
                    <Link
                      to="/issue/$id"
                      params={{ id: issue.identifier }}
                      className="inbox-open"
                      data-triage-row={i}
                      tabIndex={isFocused || (focusedId === null && i === 0) ? 0 : -1}
                      aria-current={isFocused ? 'true' : undefined}
                      onClick={(e) => {
                        if (!wide || e.metaKey || e.ctrlKey || e.shiftKey) return;
                        e.preventDefault();
                        focusRow(i);
                      }}
                    >
                      <PriorityIcon priority={issue.priority} />
                      <span className="inbox-text">
                        <span className="inbox-issue">
                          <span className="ident">{issue.identifier}</span> {issue.title}
                        </span>
                        <span className="inbox-what">
                          {issue.creator?.name ?? 'Someone'}
                          {isSelected ? ' · selected' : ''}
                        </span>
                      </span>
                      <span className="inbox-time muted small">
                        <RelativeTime iso={issue.createdAt} />
                      </span>
                    </Link>
                  </li>
                );
              })}
            </ul>
          )}
          {queue.hasNextPage && (
            <p className="row triage-more">
              <span className="muted small">
                {issues.length} of {queue.total} shown
              </span>
              <Button onClick={() => void queue.fetchNextPage()} busy={queue.isFetchingNextPage}>
                Load more
              </Button>
            </p>
          )}
        </div>
        {wide && issues.length > 0 && <Preview issue={preview} ref_={ref_} />}
      </div>
      {acting === 'accept' && accepting && (
        <AcceptDialog
          what={what}
          ref_={ref_}
          stateName={accepting.name}
          onClose={() => setActing(null)}
          onAccept={(extra) =>
            run({ kind: 'accept', ids: chosen.map((i) => i.id), stateId: accepting.id, ...extra })
          }
        />
      )}
      {acting === 'decline' && declining && (
        <DeclineDialog
          what={what}
          onClose={() => setActing(null)}
          onDecline={(comment) =>
            run({
              kind: 'decline',
              ids: chosen.map((i) => i.id),
              stateId: declining.id,
              ...(comment ? { comment } : {}),
            })
          }
        />
      )}
      {acting === 'duplicate' && (
        <DuplicateDialog
          what={what}
          exclude={new Set(chosen.map((i) => i.id))}
          onClose={() => setActing(null)}
          onPick={(originalId) => run({ kind: 'duplicate', ids: chosen.map((i) => i.id), originalId })}
        />
      )}
      {acting === 'snooze' && (
        <SnoozeDialog
          what={what}
          onClose={() => setActing(null)}
          onSnooze={(until) => run({ kind: 'snooze', ids: chosen.map((i) => i.id), until })}
        />
      )}
    </div>
  );
}

/** The focused issue beside the queue: who filed it, when, and its description. */
function Preview({ issue, ref_ }: { issue: TriageIssue | undefined; ref_: Ref }) {
  if (!issue)
    return (
      <section className="inbox-preview empty" aria-label="Preview">
        <p className="muted">Focus an issue (J/K) to see it here.</p>
      </section>
    );
  const assignee = issue.assigneeId ? ref_.personById.get(issue.assigneeId) : undefined;
  return (
    <section className="inbox-preview" aria-label={`Preview: ${issue.identifier}`}>
      <div className="inbox-preview-head">
        <span className="ident muted">{issue.identifier}</span>
        <Link to="/issue/$id" params={{ id: issue.identifier }} className="btn btn-ghost" tabIndex={-1}>
          Open issue
        </Link>
      </div>
      <h2 className="inbox-preview-title">{issue.title}</h2>
      <dl className="inbox-preview-props">
        <div>
          <dt>Filed by</dt>
          <dd>{issue.creator?.name ?? 'Someone'}</dd>
        </div>
        <div>
          <dt>Filed</dt>
          <dd>
            <RelativeTime iso={issue.createdAt} />
          </dd>
        </div>
        <div>
          <dt>Priority</dt>
          <dd>
            <PriorityIcon priority={issue.priority} /> {priorityLabel(issue.priority)}
          </dd>
        </div>
        <div>
          <dt>Assignee</dt>
          <dd>{assignee?.name ?? 'No assignee'}</dd>
        </div>
      </dl>
      {issue.description ? <Markdown source={issue.description} /> : <p className="muted">No description.</p>}
    </section>
  );
}

const KEEP = 'keep';

function AcceptDialog({
  what,
  ref_,
  stateName,
  onClose,
  onAccept,
}: {
  what: string;
  ref_: Ref;
  stateName: string;
  onClose: () => void;
  onAccept: (extra: { priority?: number; assigneeId?: string | null }) => void;
}) {
  const [priority, setPriority] = useState(KEEP);
  const [assignee, setAssignee] = useState(KEEP);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onAccept({
      ...(priority !== KEEP ? { priority: Number(priority) } : {}),
      ...(assignee !== KEEP ? { assigneeId: assignee === 'none' ? null : assignee } : {}),
    });
  };
  return (
    <Dialog title={`Accept ${what}`} onClose={onClose}>
      <form
        onSubmit={submit}
        onKeyDown={(e) => {
          // Enter on a closed dropdown accepts, as it would in a text field.
          if (e.key === 'Enter' && (e.target as HTMLElement).tagName === 'SELECT') submit(e);
        }}
      >
        <div className="dialog-body">
          <p className="muted small">Moves it to {stateName}.</p>
          <SelectField label="Priority" value={priority} onChange={(e) => setPriority(e.target.value)}>
            <option value={KEEP}>Keep as it is</option>
            {[1, 2, 3, 4, 0].map((p) => (
              <option key={p} value={p}>
                {PRIORITIES[p]!.label}
              </option>
            ))}
          </SelectField>
          <SelectField label="Assignee" value={assignee} onChange={(e) => setAssignee(e.target.value)}>
            <option value={KEEP}>Keep as it is</option>
            <option value="none">No assignee</option>
            {ref_.people.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
              </option>
            ))}
          </SelectField>
        </div>
        <div className="dialog-foot">
          <span className="muted small">Enter accepts.</span>
          <div className="row">
            <Button onClick={onClose}>Cancel</Button>
            <button type="submit" className="btn btn-primary">
              Accept
            </button>
          </div>
        </div>
      </form>
    </Dialog>
  );
}

function DeclineDialog({
  what,
  onClose,
  onDecline,
}: {
  what: string;
  onClose: () => void;
  onDecline: (comment: string) => void;
}) {
  const [comment, setComment] = useState('');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onDecline(comment.trim());
  };
  return (
    <Dialog title={`Decline ${what}`} onClose={onClose}>
      <form onSubmit={submit}>
        <div className="dialog-body">
          <TextArea
            label="Comment (optional)"
            value={comment}
            rows={3}
            maxLength={10_000}
            onChange={(e) => setComment(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) submit(e);
            }}
          />
        </div>
        <div className="dialog-foot">
          <span className="muted small">Ctrl/⌘ Enter declines.</span>
          <div className="row">
            <Button onClick={onClose}>Cancel</Button>
            <button type="submit" className="btn btn-primary">
              Decline
            </button>
          </div>
        </div>
      </form>
    </Dialog>
  );
}

/** Finds the original by search (title words or an identifier); arrows and Enter pick it. */
function DuplicateDialog({
  what,
  exclude,
  onClose,
  onPick,
}: {
  what: string;
  exclude: ReadonlySet<string>;
  onClose: () => void;
  onPick: (originalId: string) => void;
}) {
  const [q, setQ] = useState('');
  const list = useRef<HTMLUListElement>(null);
  const term = q.trim();
  const found = useQuery({
    queryKey: keys.issues.originalSearch(term),
    queryFn: async () =>
      (await ok(rest.GET('/api/issues', { params: { query: { q: term, limit: 8 } } }))).issues,
    enabled: term.length > 0,
  });
  const results = (found.data ?? []).filter((i) => !exclude.has(i.id));
  const options = () => [...(list.current?.querySelectorAll<HTMLElement>('button') ?? [])];
  return (
    <Dialog title={`Mark ${what} as duplicate`} onClose={onClose}>
      <div className="dialog-body">
        <div className="field">
          <label htmlFor="triage-original">Original issue</label>
          <input
            id="triage-original"
            type="search"
            value={q}
            placeholder="Search by title or identifier"
            autoComplete="off"
            onChange={(e) => setQ(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'ArrowDown' || (e.key === 'Enter' && results.length > 0)) {
                e.preventDefault();
                if (e.key === 'Enter') onPick(results[0]!.id);
                else options()[0]?.focus();
              }
            }}
          />
        </div>
        {found.isFetching && <Loading label="Searching" />}
        <ul
          ref={list}
          className="triage-results"
          aria-label="Matching issues"
          onKeyDown={(e) => {
            if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
            e.preventDefault();
            const all = options();
            const at = all.indexOf(document.activeElement as HTMLElement);
            const next = at + (e.key === 'ArrowDown' ? 1 : -1);
            if (next < 0) document.getElementById('triage-original')?.focus();
            else all[Math.min(next, all.length - 1)]?.focus();
          }}
        >
          {results.map((i) => (
            <li key={i.id}>
              <button type="button" className="menu-item" onClick={() => onPick(i.id)}>
                <span className="ident">{i.identifier}</span> {i.title}
              </button>
            </li>
          ))}
        </ul>
        {term && !found.isFetching && results.length === 0 && <p className="muted">No matching issue.</p>}
      </div>
      <div className="dialog-foot">
        <span className="muted small">It moves to the Duplicate state, related to the original.</span>
        <Button onClick={onClose}>Cancel</Button>
      </div>
    </Dialog>
  );
}

function SnoozeDialog({
  what,
  onClose,
  onSnooze,
}: {
  what: string;
  onClose: () => void;
  onSnooze: (until: Date) => void;
}) {
  const [date, setDate] = useState('');
  const [error, setError] = useState<string | null>(null);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    // The chosen day's start in the browser's time zone.
    const until = new Date(`${date}T00:00`);
    if (!date || Number.isNaN(until.getTime())) return setError('Choose a date');
    onSnooze(until);
  };
  return (
    <Dialog title={`Snooze ${what}`} onClose={onClose}>
      <div className="dialog-body">
        <ul className="triage-results" aria-label="Snooze until">
          {snoozeChoices().map((c, n) => (
            <li key={c.label}>
              <button
                type="button"
                className="menu-item"
                data-autofocus={n === 0 ? true : undefined}
                onClick={() => onSnooze(c.until)}
              >
                {c.label} <span className="muted small">{weekdayTime(c.until)}</span>
              </button>
            </li>
          ))}
        </ul>
        <form onSubmit={submit} className="row">
          <div className="field">
            <label htmlFor="triage-snooze-date">Until a date</label>
            <input
              id="triage-snooze-date"
              type="date"
              value={date}
              aria-invalid={error ? true : undefined}
              onChange={(e) => {
                setDate(e.target.value);
                setError(null);
              }}
            />
            {error && <div className="field-error">{error}</div>}
          </div>
          <button type="submit" className="btn">
            Snooze until then
          </button>
        </form>
      </div>
    </Dialog>
  );
}
