// GraphiQL for /graphql: a separate page and bundle, so the app's first load
// never carries the editor. It sends the signed-in user's token (same origin)
// unless the Headers tab sets an Authorization of its own (e.g. an API key).
import 'graphiql/setup-workers/vite';
import 'graphiql/style.css';
import './graphiql-page.css';
import { GraphiQL } from 'graphiql';
import { createRoot } from 'react-dom/client';
import { tokenStore } from './lib/api';

type Params = { query: string; variables?: unknown; operationName?: string | null };
type Options = { headers?: Record<string, string> };

async function fetcher(params: Params, opts?: Options) {
  const headers: Record<string, string> = { 'content-type': 'application/json', ...(opts?.headers ?? {}) };
  const hasAuth = Object.keys(headers).some((k) => k.toLowerCase() === 'authorization');
  const token = tokenStore.get();
  if (!hasAuth && token) headers['authorization'] = `Bearer ${token}`;
  const res = await fetch('/graphql', { method: 'POST', headers, body: JSON.stringify(params) });
  return res.json();
}

const initialQuery = `# Signed in to Trackway in this browser? Your session is used.
# Otherwise add a header in the Headers tab: { "Authorization": "<API key>" }
query Viewer {
  viewer { id name email }
  issues(first: 10) { nodes { identifier title state { name } assignee { name } } }
}
`;

createRoot(document.getElementById('graphiql')!).render(
  <GraphiQL fetcher={fetcher as never} initialQuery={initialQuery} />,
);
