// The connection's status at the foot of every page: "Offline — N changes
// waiting" while the server cannot be reached, what is being sent once it is
// back, and the edits it refused, each named, until the person dismisses them
// (lib/connection.ts, lib/write-queue.ts). Announced politely; a refusal as an
// alert, since what the person sees has just been put back.
import { useReachable } from '../lib/connection';
import { dismissRefused, useWriteQueue } from '../lib/write-queue';

const changes = (n: number) => (n === 1 ? '1 change' : `${n} changes`);

export function ConnectionStatus() {
  const reachable = useReachable();
  const { waiting, refused, sending, needsSignIn } = useWriteQueue();
  const n = waiting.length;
  let line = '';
  if (!reachable) line = n > 0 ? `Offline — ${changes(n)} waiting` : 'Offline';
  else if (needsSignIn && n > 0) line = `Sign in again to send ${changes(n)} waiting`;
  else if (sending) line = `Back online — sending ${changes(n)}`;
  else if (n > 0) line = `${changes(n)} waiting to be sent`;
  return (
    <div className="connection">
      <div role="status" className={line ? 'connection-line' : undefined}>
        {line && (
          <>
            <span className={reachable ? 'connection-dot' : 'connection-dot off'} aria-hidden="true" />
            <span>{line}</span>
          </>
        )}
        {line && n > 0 && (
          <details className="connection-list">
            <summary>Show what is waiting</summary>
            <ol>
              {waiting.map((w) => (
                <li key={w.key}>{w.label}</li>
              ))}
            </ol>
          </details>
        )}
      </div>
      {refused.length > 0 && (
        <div role="alert" className="connection-refused">
          <p>
            <strong>
              Not saved: the server refused {refused.length === 1 ? 'a change' : `${refused.length} changes`}{' '}
              made offline
            </strong>
            , now undone.
          </p>
          <ul>
            {refused.map((r) => (
              <li key={r.key}>
                {r.label} — {r.message}
              </li>
            ))}
          </ul>
          <button type="button" className="btn btn-ghost" onClick={dismissRefused}>
            Dismiss
          </button>
        </div>
      )}
    </div>
  );
}
