// Projects with status, health, lead, target date and progress; each opens
// to show its milestones (components/Milestones.tsx). The Timeline tab shows
// them on a time axis instead (components/roadmap/Timeline.tsx); which tab,
// zoom and grouping live in the address.

import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { Fragment, useState } from 'react';
import { ProjectMilestones } from '../components/Milestones';
import { GROUPINGS, type Grouping } from '../components/roadmap/rows';
import { Timeline } from '../components/roadmap/Timeline';
import { Button, ErrorMessage, fieldErrors, Loading, PageHeader, TextField } from '../components/ui';
import { graphql } from '../gql';
import { useAction } from '../lib/action';
import { gql, ok, type RestBody, rest } from '../lib/api';
import { defaultTeam } from '../lib/default-team';
import { keys } from '../lib/query-keys';
import { type Person, useRefData } from '../lib/ref';
import { useSession } from '../lib/session';
import { ZOOMS, type Zoom } from '../lib/timeline-scale';

interface Project {
  id: string;
  name: string;
  state: string;
  health: string | null;
  progress: number;
  targetDate: string | null;
  lead: { id: string; name: string } | null;
}

export const HEALTH: Record<string, string> = {
  onTrack: 'On track',
  atRisk: 'At risk',
  offTrack: 'Off track',
};

/** The Projects page's address: `?view=timeline&zoom=quarter&group=team`; anything else is dropped. */
export interface ProjectsSearch {
  view?: 'timeline';
  zoom?: Zoom;
  group?: Grouping;
}
export function parseProjectsSearch(s: Record<string, unknown>): ProjectsSearch {
  const pick = <T extends string>(v: unknown, of: readonly T[]) =>
    of.includes(v as T) ? (v as T) : undefined;
  const out: ProjectsSearch = {};
  if (s['view'] === 'timeline') out.view = 'timeline';
  const zoom = pick(s['zoom'], ZOOMS);
  if (zoom && zoom !== 'month') out.zoom = zoom;
  const group = pick(s['group'], GROUPINGS);
  if (group && group !== 'none') out.group = group;
  return out;
}

export function ProjectsPage({
  search,
  setSearch,
}: {
  search: ProjectsSearch;
  setSearch: (next: ProjectsSearch) => void;
}) {
  const { user } = useSession();
  const timeline = search.view === 'timeline';
  const q = useQuery({
    enabled: !timeline,
    queryKey: keys.projects.list,
    queryFn: () =>
      gql(
        graphql(
          `query ProjectsPage { projects(first: 250) { nodes { id name state health progress targetDate lead { id name } } } }`,
        ),
      ).then((d) => d.projects.nodes),
  });
  const ref = useRefData();
  const [name, setName] = useState('');
  // The teams the new project links: the person's own unless they tick others (null: not touched yet).
  const [picked, setPicked] = useState<string[] | null>(null);
  const own = defaultTeam(ref.data);
  const teamIds = picked ?? (own ? [own.id] : []);
  const state = useAction(
    () =>
      gql(
        graphql(
          `mutation CreateProject($input: ProjectCreateInput!) { projectCreate(input: $input) { success project { id } } }`,
        ),
        {
          input: { name, teamIds },
        },
      ),
    {
      refreshes: [keys.projects.all, keys.ref.projects],
      onSuccess: () => {
        setName('');
        setPicked(null);
      },
    },
  );
  const create = state.submit;

  return (
    <div className="page">
      <PageHeader title="Projects" />
      <nav className="tabs" aria-label="Projects view">
        <Link
          to="/projects"
          search={{}}
          className={`tab${timeline ? '' : ' active'}`}
          aria-current={timeline ? undefined : 'page'}
        >
          List
        </Link>
        <Link
          to="/projects"
          search={{ ...search, view: 'timeline' }}
          className={`tab${timeline ? ' active' : ''}`}
          aria-current={timeline ? 'page' : undefined}
        >
          Timeline
        </Link>
      </nav>
      <form onSubmit={create} className="inline-form card">
        <TextField
          label="New project name"
          value={name}
          onChange={(e) => setName(e.target.value)}
          error={fieldErrors(state.error).name}
        />
        {ref.data && ref.data.teams.length > 1 && (
          <fieldset className="team-picker">
            <legend className="label">Teams</legend>
            {ref.data.teams.map((t) => (
              <label key={t.id} className={`chip toggle${teamIds.includes(t.id) ? ' on' : ''}`}>
                <input
                  type="checkbox"
                  checked={teamIds.includes(t.id)}
                  onChange={(e) =>
                    setPicked(e.target.checked ? [...teamIds, t.id] : teamIds.filter((x) => x !== t.id))
                  }
                />
                {t.name}
              </label>
            ))}
          </fieldset>
        )}
        <Button
          type="submit"
          variant="primary"
          busy={state.busy}
          disabled={!name.trim() || teamIds.length === 0}
        >
          Create project
        </Button>
      </form>
      <ErrorMessage error={state.error} />
      {timeline && (
        <Timeline
          zoom={search.zoom ?? 'month'}
          grouping={search.group ?? 'none'}
          canEdit={user?.role !== 'guest'}
          onChange={(next) =>
            setSearch(parseProjectsSearch({ view: 'timeline', zoom: next.zoom, group: next.grouping }))
          }
        />
      )}
      {!timeline && q.isLoading && <Loading label="Loading projects" />}
      <ErrorMessage error={q.error} />
      {!timeline && q.data?.length === 0 && <p className="muted">No projects yet.</p>}
      {!timeline && q.data && q.data.length > 0 && (
        <table className="table">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Status</th>
              <th scope="col">Health</th>
              <th scope="col">Lead</th>
              <th scope="col">Target date</th>
              <th scope="col">Progress</th>
              <th scope="col">Milestones</th>
            </tr>
          </thead>
          <tbody>
            {q.data.map((p) => (
              <ProjectRow key={p.id} p={p} people={ref.data?.people ?? []} />
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

export type ProjectPatch = RestBody<'patch', '/api/projects/{id}'>;

export const STATUSES = [
  'backlog',
  'planned',
  'started',
  'paused',
  'completed',
  'canceled',
] as const satisfies readonly NonNullable<ProjectPatch['status']>[];

/** Edits a project in place over REST (which also takes health); the project views read again after. */
export function useProjectPatch(id: string) {
  const saving = useAction(
    (body: ProjectPatch) => ok(rest.PATCH('/api/projects/{id}', { params: { path: { id } }, body })),
    { refreshes: [keys.projects.all] },
  );
  return { error: saving.error, patch: (body: ProjectPatch) => void saving.run(body) };
}

/** One project, its properties editable in place (REST PATCH: it also takes health). */
function ProjectRow({ p, people }: { p: Project; people: Person[] }) {
  const { error, patch } = useProjectPatch(p.id);
  const [open, setOpen] = useState(false);
  return (
    <Fragment>
      <tr>
        <td>
          <Link to="/projects/$id" params={{ id: p.id }}>
            <strong>{p.name}</strong>
          </Link>
          <ErrorMessage error={error} />
        </td>
        <td>
          <select
            aria-label={`Status of ${p.name}`}
            value={p.state}
            onChange={(e) => patch({ status: e.target.value as ProjectPatch['status'] })}
          >
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {s[0]?.toUpperCase() + s.slice(1)}
              </option>
            ))}
          </select>
        </td>
        <td>
          <select
            aria-label={`Health of ${p.name}`}
            className={p.health ? `health ${p.health}` : ''}
            value={p.health ?? ''}
            onChange={(e) => patch({ health: (e.target.value || null) as ProjectPatch['health'] })}
          >
            <option value="">No update</option>
            {Object.entries(HEALTH).map(([v, label]) => (
              <option key={v} value={v}>
                {label}
              </option>
            ))}
          </select>
        </td>
        <td>
          <select
            aria-label={`Lead of ${p.name}`}
            value={p.lead?.id ?? ''}
            onChange={(e) => patch({ leadId: e.target.value || null })}
          >
            <option value="">No lead</option>
            {people.map((u) => (
              <option key={u.id} value={u.id}>
                {u.name}
              </option>
            ))}
          </select>
        </td>
        <td>
          <input
            type="date"
            aria-label={`Target date of ${p.name}`}
            key={p.targetDate ?? ''}
            defaultValue={p.targetDate ?? ''}
            onBlur={(e) => {
              const v = e.target.value || null;
              if (v !== p.targetDate) patch({ targetDate: v });
            }}
          />
        </td>
        <td>
          <Progress value={p.progress} />
        </td>
        <td>
          {/* The label leaves the project's name out: the name cell alone carries it. */}
          <Button
            variant="ghost"
            aria-expanded={open}
            aria-controls={`milestones-${p.id}`}
            onClick={() => setOpen(!open)}
          >
            {open ? 'Hide milestones' : 'Show milestones'}
          </Button>
        </td>
      </tr>
      {open && (
        <tr className="milestones-row">
          <td colSpan={7} id={`milestones-${p.id}`}>
            <ProjectMilestones projectId={p.id} projectName={p.name} />
          </td>
        </tr>
      )}
    </Fragment>
  );
}
