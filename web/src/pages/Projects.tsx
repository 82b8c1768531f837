// Projects with status, health, lead, target date and progress.
import { type FormEvent, useState } from 'react';
import { Button, ErrorMessage, fieldErrors, Loading, PageHeader, TextField } from '../components/ui';
import { gql } from '../lib/api';
import { invalidate, useQuery } from '../lib/cache';
import { useRefData } from '../lib/work';

interface Project {
  id: string;
  name: string;
  state: string;
  health: string | null;
  progress: number;
  targetDate: string | null;
  lead: { id: string; name: string } | null;
}

const HEALTH: Record<string, string> = { onTrack: 'On track', atRisk: 'At risk', offTrack: 'Off track' };

export function ProjectsPage() {
  const q = useQuery('projects', () =>
    gql<{ projects: { nodes: Project[] } }>(
      'query { projects(first: 250) { nodes { id name state health progress targetDate lead { id name } } } }',
    ).then((d) => d.projects.nodes),
  );
  const ref = useRefData();
  const [name, setName] = useState('');
  const [state, setState] = useState<{ busy?: boolean; error?: unknown }>({});

  async function create(e: FormEvent) {
    e.preventDefault();
    setState({ busy: true });
    try {
      await gql(
        'mutation P($input: ProjectCreateInput!) { projectCreate(input: $input) { success project { id } } }',
        {
          input: { name, teamIds: ref.data?.teams.slice(0, 1).map((t) => t.id) ?? [] },
        },
      );
      setName('');
      setState({});
      invalidate('projects');
      invalidate('ref:projects');
    } catch (error) {
      setState({ error });
    }
  }

  return (
    <div className="page">
      <PageHeader title="Projects" />
      <form onSubmit={create} className="inline-form card">
        <TextField
          label="New project name"
          value={name}
          onChange={(e) => setName(e.target.value)}
          error={fieldErrors(state.error).name}
        />
        <Button type="submit" variant="primary" busy={state.busy} disabled={!name.trim()}>
          Create project
        </Button>
      </form>
      <ErrorMessage error={state.error} />
      {q.loading && <Loading label="Loading projects" />}
      <ErrorMessage error={q.error} />
      {q.data?.length === 0 && <p className="muted">No projects yet.</p>}
      {q.data && q.data.length > 0 && (
        <table className="table">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Status</th>
              <th scope="col">Health</th>
              <th scope="col">Lead</th>
              <th scope="col">Target date</th>
              <th scope="col">Progress</th>
            </tr>
          </thead>
          <tbody>
            {q.data.map((p) => (
              <tr key={p.id}>
                <td>
                  <strong>{p.name}</strong>
                </td>
                <td className="cap">{p.state}</td>
                <td>
                  {p.health ? (
                    <span className={`health ${p.health}`}>{HEALTH[p.health] ?? p.health}</span>
                  ) : (
                    '—'
                  )}
                </td>
                <td>{p.lead?.name ?? '—'}</td>
                <td>{p.targetDate ?? '—'}</td>
                <td>
                  <Progress value={p.progress} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}

export function Progress({ value }: { value: number }) {
  const pct = Math.round((value ?? 0) * 100);
  return (
    <span className="progress">
      <progress max={100} value={pct} aria-label={`${pct}% complete`} />
      <span className="muted small">{pct}%</span>
    </span>
  );
}
