// An issue's pull/merge requests and commits: the attachments the git module
// writes (source type = the host, metadata as docs/git.md lists). They arrive
// with the issue page's read, so the change stream's attachment events, which
// read that page again (lib/live.ts), keep this panel live too.
import { safeHref } from '../lib/markdown';
import type { Attachment } from './IssueAttachments';

const HOSTS: Record<string, string> = { github: 'GitHub', gitlab: 'GitLab', gitea: 'Gitea' };
/** The statuses docs/git.md lists; each is shown as its word, the colour only repeats it. */
const STATUSES = ['draft', 'open', 'in review', 'approved', 'merged', 'closed'];

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
  const status = STATUSES.includes(text(m['status'])) ? text(m['status']) : null;
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
