// An issue's pull/merge requests and commits: the attachments the git module
// writes (source type = the host, metadata as docs/git.md lists). They arrive
// with the issue page's read, so the change stream's attachment events, which
// read that page again (lib/live.ts), keep this panel live too.
import type { PullRequestMarker as Marker } from '../lib/issues';
import { safeHref } from '../lib/markdown';
import type { Attachment } from './IssueAttachments';

const HOSTS: Record<string, string> = { github: 'GitHub', gitlab: 'GitLab', gitea: 'Gitea' };
/** The statuses docs/git.md lists, as stored and as words; the colour only repeats the word. */
const STATUS_WORDS: Record<string, string> = {
  draft: 'draft',
  open: 'open',
  inReview: 'in review',
  approved: 'approved',
  merged: 'merged',
  closed: 'closed',
};
/** The checks' states (modules/git/checks.ts), as words. */
const CHECK_WORDS: Record<string, string> = {
  pending: 'checks running',
  success: 'checks passed',
  failure: 'checks failed',
};
const statusWord = (v: unknown) =>
  typeof v === 'string' && Object.hasOwn(STATUS_WORDS, v) ? STATUS_WORDS[v]! : null;
const checksWord = (v: unknown) =>
  typeof v === 'string' && Object.hasOwn(CHECK_WORDS, v) ? CHECK_WORDS[v]! : null;

export interface GitAttachment extends Attachment {
  sourceType?: string | null;
}

/** Whether an attachment is a git link (shown here) rather than a file or URL (shown under Attachments). */
export const isGitLink = (a: GitAttachment) => !!a.sourceType && a.sourceType in HOSTS;

const text = (v: unknown) => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');

export function GitPanel({ items }: { items: GitAttachment[] }) {
  const links = items.filter(isGitLink);
  if (links.length === 0) return null;
  const commits = links.filter((a) => a.metadata?.['kind'] === 'commit');
  const pulls = links.filter((a) => a.metadata?.['kind'] !== 'commit');
  return (
    <section className="git-panel" aria-labelledby="git-h">
      <h2 id="git-h">Pull requests and commits</h2>
      {pulls.length > 0 && (
        <ul className="git-list" aria-label="Pull requests">
          {pulls.map((a) => (
            <Pull key={a.id} a={a} />
          ))}
        </ul>
      )}
      {commits.length > 0 && (
        <ul className="git-list" aria-label="Commits">
          {commits.map((a) => (
            <Commit key={a.id} a={a} />
          ))}
        </ul>
      )}
    </section>
  );
}

function HostIcon({ host }: { host: string }) {
  // A branch glyph and the host's name in words: no logo is needed to tell them apart.
  return (
    <span className="git-host">
      <svg width="12" height="12" viewBox="0 0 12 12" aria-hidden="true">
        <circle cx="3" cy="2.5" r="1.5" fill="none" stroke="currentColor" />
        <circle cx="3" cy="9.5" r="1.5" fill="none" stroke="currentColor" />
        <circle cx="9" cy="4" r="1.5" fill="none" stroke="currentColor" />
        <path d="M3 4v4M9 5.5c0 2-3 2-5.5 3" fill="none" stroke="currentColor" />
      </svg>
      {HOSTS[host] ?? host}
    </span>
  );
}

function Pull({ a }: { a: GitAttachment }) {
  const m = a.metadata ?? {};
  const host = a.sourceType ?? '';
  // Only a status of the closed set is shown: a word the panel does not know is left out, not guessed.
  const status = statusWord(m['status']);
  const checksState = text((m['checks'] as Record<string, unknown> | undefined)?.['state']);
  const checks = checksWord(checksState);
  const number = text(m['number']);
  const href = safeHref(a.url);
  const label = `${host === 'gitlab' ? '!' : '#'}${number}`;
  const title = text(m['title']) || a.title;
  return (
    <li className="git-item" data-testid="git-pull">
      <HostIcon host={host} />
      <span className="muted">{text(m['repo'])}</span>
      {href ? (
        <a href={href} target="_blank" rel="noopener noreferrer nofollow">
          {label} {title}
        </a>
      ) : (
        <span>
          {label} {title}
        </span>
      )}
      {text(m['author']) && <span className="muted small">by {text(m['author'])}</span>}
      {status && <span className={`badge pr-status pr-${status.replace(' ', '-')}`}>{status}</span>}
      {checks && (
        <span className={`badge pr-checks checks-${checksState}`} data-testid="git-checks">
          {checks}
        </span>
      )}
    </li>
  );
}

function Commit({ a }: { a: GitAttachment }) {
  const m = a.metadata ?? {};
  const href = safeHref(a.url);
  const sha = text(m['sha']).slice(0, 7);
  return (
    <li className="git-item" data-testid="git-commit">
      <HostIcon host={a.sourceType ?? ''} />
      <span className="muted">{text(m['repo'])}</span>
      {href ? (
        <a href={href} target="_blank" rel="noopener noreferrer nofollow">
          <code>{sha}</code>
        </a>
      ) : (
        <code>{sha}</code>
      )}
      <span>{a.title}</span>
      {text(m['author']) && <span className="muted small">by {text(m['author'])}</span>}
    </li>
  );
}

/**
 * The list's and board's compact marker: a pull request glyph, the leading
 * pull request's status as a word, its checks and how many there are.
 */
export function PullRequestMarker({ marker }: { marker: Marker }) {
  const status = statusWord(marker.status);
  const checks = checksWord(marker.checks);
  const host = HOSTS[marker.host] ?? marker.host;
  const words = [
    marker.count === 1
      ? `Pull request ${status ?? ''}`.trim()
      : `${marker.count} pull requests, ${status ?? ''}`,
    checks,
  ]
    .filter(Boolean)
    .join(', ');
  return (
    <span
      className={`pr-marker pr-${(status ?? 'unknown').replace(' ', '-')}`}
      role="img"
      aria-label={words}
      title={`${words} (${host})`}
      data-testid="pr-marker"
    >
      <svg width="12" height="12" viewBox="0 0 12 12" aria-hidden="true">
        <circle cx="3" cy="2.5" r="1.5" fill="none" stroke="currentColor" />
        <circle cx="3" cy="9.5" r="1.5" fill="none" stroke="currentColor" />
        <circle cx="9" cy="9.5" r="1.5" fill="none" stroke="currentColor" />
        <path d="M3 4v4M9 8V5c0-1-.5-1.5-1.5-1.5H6" fill="none" stroke="currentColor" />
      </svg>
      <span aria-hidden="true">{status ?? 'linked'}</span>
      {marker.count > 1 && <span aria-hidden="true">×{marker.count}</span>}
      {checks && (
        <span aria-hidden="true" className={`checks-dot checks-${marker.checks}`}>
          {marker.checks === 'success' ? '✓' : marker.checks === 'failure' ? '✗' : '•'}
        </span>
      )}
    </span>
  );
}
