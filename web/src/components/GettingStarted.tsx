// What an empty workspace shows instead of an empty list: the first steps,
// each a link or a button that does it. Admins also get the set-up steps.
import { Link } from '@tanstack/react-router';
import { openNewIssue } from '../lib/keys';
import { useSession } from '../lib/session';
import { Kbd } from './ui';

export function GettingStarted() {
  const { user, config } = useSession();
  const admin = user?.role === 'admin';
  const guest = user?.role === 'guest';
  return (
    <section className="getting-started" aria-labelledby="gs-h">
      <h2 id="gs-h">Welcome to {config?.workspace.name ?? 'Trackway'}</h2>
      <p className="muted">No issues yet. Here is where to start:</p>
      <ol>
        {!guest && (
          <li>
            <button type="button" className="btn btn-primary" onClick={() => openNewIssue()}>
              Create your first issue
            </button>{' '}
            <span className="muted">
              or press <Kbd>C</Kbd> anywhere
            </span>
          </li>
        )}
        {admin && (
          <>
            <li>
              <Link to="/admin/teams">Set up your teams</Link>
              <span className="muted"> — their keys (ENG-1), members and workflow states</span>
            </li>
            <li>
              <Link to="/admin/users">Invite your teammates</Link>
              <span className="muted"> — or open sign-up for your email domain</span>
            </li>
          </>
        )}
        <li>
          <Link to="/settings/api-keys">Create an API key</Link>
          <span className="muted">
            {' '}
            — clients of the Linear API (its SDK, CLI importers, MCP servers) work against this server
          </span>
        </li>
        <li>
          <span className="muted">Press </span>
          <Kbd>?</Kbd>
          <span className="muted"> for every keyboard shortcut</span>
        </li>
      </ol>
    </section>
  );
}
