// One project: its properties (edited in place), progress over time, its
// milestones and its issues, the list keeping its view in the address.
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { BurnUp } from '../components/BurnUp';
import { ProjectMilestones } from '../components/Milestones';
import { ProjectUpdates } from '../components/ProjectUpdates';
import { ErrorMessage, Loading, PageHeader, SelectField, TextField } from '../components/ui';
import { graphql } from '../gql';
import { gql } from '../lib/api';
import { keys } from '../lib/query-keys';
import { useRefData } from '../lib/ref';
import { useSession } from '../lib/session';
import type { ViewProps } from '../router';
import { IssueList } from './Issues';
import { HEALTH, Progress, type ProjectPatch, STATUSES, useProjectPatch } from './Projects';

const ProjectQuery = graphql(`
  query ProjectPage($id: String!) {
    project(id: $id) { id name description state health progress startDate targetDate lead { id } }
  }
`);

export function ProjectPage({ id, ...view }: ViewProps & { id: string }) {
  const { user } = useSession();
  const q = useQuery({
    queryKey: keys.projects.detail(id),
    queryFn: async () => (await gql(ProjectQuery, { id })).project,
  });
  if (q.isLoading) return <Loading label="Loading project" />;
  if (!q.data)
    return (
      <div className="page">
        <ErrorMessage error={q.error ?? 'Project not found'} />
        <Link to="/projects">All projects</Link>
      </div>
    );
  const p = q.data;
  return (
    <div className="page fill">
      <nav className="crumbs" aria-label="Breadcrumb">
        <Link to="/projects">Projects</Link> <span aria-hidden="true">›</span> <span>{p.name}</span>
      </nav>
      <PageHeader title={p.name} />
      {p.description && <p className="muted">{p.description}</p>}
      <ProjectProperties project={p} />
      <BurnUp kind="projects" id={p.id} />
      <ProjectUpdates
        projectId={p.id}
        health={p.health ?? null}
        me={user}
        canWrite={user?.role !== 'guest'}
      />
      <ProjectMilestones projectId={p.id} projectName={p.name} />
      <IssueList {...view} title={`Issues in ${p.name}`} fixed={{ project: p.id }} heading={false}>
        <h2>Issues</h2>
      </IssueList>
    </div>
  );
}

type ProjectData = {
  id: string;
  state: string;
  health: string | null;
  progress: number;
  targetDate: string | null;
  lead: { id: string } | null;
};

function ProjectProperties({ project: p }: { project: ProjectData }) {
  const { user } = useSession();
  const people = useRefData().data?.people ?? [];
  const readOnly = user?.role === 'guest';
  const { error, patch } = useProjectPatch(p.id);
  return (
    <section className="project-props" aria-label="Properties">
      <SelectField
        label="Status"
        value={p.state}
        disabled={readOnly}
        onChange={(e) => patch({ status: e.target.value as ProjectPatch['status'] })}
      >
        {STATUSES.map((s) => (
          <option key={s} value={s}>
            {s[0]?.toUpperCase() + s.slice(1)}
          </option>
        ))}
      </SelectField>
      <SelectField
        label="Health"
        value={p.health ?? ''}
        disabled={readOnly}
        onChange={(e) => patch({ health: (e.target.value || null) as ProjectPatch['health'] })}
      >
        <option value="">No update</option>
        {Object.entries(HEALTH).map(([v, label]) => (
          <option key={v} value={v}>
            {label}
          </option>
        ))}
      </SelectField>
      <SelectField
        label="Lead"
        value={p.lead?.id ?? ''}
        disabled={readOnly}
        onChange={(e) => patch({ leadId: e.target.value || null })}
      >
        <option value="">No lead</option>
        {people.map((u) => (
          <option key={u.id} value={u.id}>
            {u.name}
          </option>
        ))}
      </SelectField>
      <TextField
        label="Target date"
        type="date"
        disabled={readOnly}
        key={p.targetDate ?? ''}
        defaultValue={p.targetDate ?? ''}
        onBlur={(e) => {
          const v = e.target.value || null;
          if (v !== p.targetDate) patch({ targetDate: v });
        }}
      />
      <div className="field">
        <span className="label">Progress</span>
        <Progress value={p.progress} />
      </div>
      <ErrorMessage error={error} />
    </section>
  );
}
