// The properties panel of an issue page. Each change shows at once, with a
// busy sign until the server answers, and goes back if it refuses. Guests read
// the values in disabled controls.

import { useMutation } from '@tanstack/react-query';
import type { IssueQuery } from '../gql/graphql';
import { type IssueUpdateInput, PRIORITIES, updateIssue } from '../lib/issues';
import { queryClient } from '../lib/query';
import { cycleName, labelsFor, useCycles, useProjects, useRefData } from '../lib/ref';
import { useSession } from '../lib/session';
import { AppMarker } from './AppMarker';
import { LabelPicker } from './LabelPicker';
import { MilestonePicker } from './Milestones';
import { RelativeTime } from './RelativeTime';
import { ErrorMessage, SelectField, TextField } from './ui';

export type IssueData = IssueQuery['issue'];
type Field =
  | 'title'
  | 'description'
  | 'state'
  | 'priority'
  | 'assignee'
  | 'labels'
  | 'project'
  | 'milestone'
  | 'cycle'
  | 'due'
  | 'estimate';

/**
 * Saves one field of an issue through a mutation: the page shows the change at
 * once (and every list, through updateIssue) and goes back if the server
 * refuses. `errorFor` and `busy` come from the mutation.
 */
export function useIssueSaver(issue: IssueData, key: readonly unknown[]) {
  const m = useMutation({
    mutationFn: ({ input }: { field: Field; input: IssueUpdateInput; patch: Partial<IssueData> }) =>
      updateIssue(issue.id, input, listPatch(input)),
    onMutate: async ({ patch }) => {
      await queryClient.cancelQueries({ queryKey: key });
      const before = queryClient.getQueryData<IssueData>(key);
      if (before) queryClient.setQueryData<IssueData>(key, { ...before, ...patch });
      return { before };
    },
    onError: (_e, _v, context) => {
      if (context?.before) queryClient.setQueryData(key, context.before);
      void queryClient.invalidateQueries({ queryKey: key });
    },
    // The saved issue (its activity, its updatedAt) comes back through the change stream's event.
  });
  const save = (field: Field, input: IssueUpdateInput, patch: Partial<IssueData> = {}): Promise<boolean> =>
    m.mutateAsync({ field, input, patch }).then(
      () => true,
      () => false,
    );
  const failed = m.isError ? m.variables?.field : undefined;
  const errorFor = (field: Field) => (failed === field ? <ErrorMessage error={m.error} /> : null);
  const busy: Field | null = m.isPending ? (m.variables?.field ?? null) : null;
  return { save, errorFor, busy };
}

/** The same change as a list row shows it. */
const listPatch = (i: IssueUpdateInput) => ({
  ...(i.title != null && { title: i.title }),
  ...(i.stateId != null && { stateId: i.stateId }),
  ...(i.priority != null && { priority: i.priority }),
  ...(i.assigneeId !== undefined && { assigneeId: i.assigneeId }),
  ...(i.labelIds != null && { labelIds: i.labelIds }),
  ...(i.projectId !== undefined && { projectId: i.projectId }),
  ...(i.cycleId !== undefined && { cycleId: i.cycleId }),
  ...(i.dueDate !== undefined && { dueDate: i.dueDate }),
  ...(i.estimate !== undefined && { estimate: i.estimate }),
});

const idOrNull = (v: string) => (v ? { id: v } : null);

export function IssueProperties({
  issue,
  saver,
}: {
  issue: IssueData;
  saver: ReturnType<typeof useIssueSaver>;
}) {
  const { flag, user } = useSession();
  const ref = useRefData();
  const projects = useProjects(flag('projects')).data;
  const cycles = useCycles(flag('cycles')).data;
  const readOnly = user?.role === 'guest';
  const { save, errorFor, busy } = saver;
  const team = ref.data?.teamById.get(issue.team.id);
  const state = (f: Field) => ({ disabled: readOnly, 'aria-busy': busy === f || undefined });
  return (
    <aside className="issue-side" aria-label="Properties">
      {readOnly && (
        <p className="muted small">Guests can read and comment; an admin can make you a member.</p>
      )}
      <SelectField
        label="State"
        value={issue.state.id}
        {...state('state')}
        onChange={(e) => save('state', { stateId: e.target.value }, { state: { id: e.target.value } })}
      >
        {team?.states.map((s) => (
          <option key={s.id} value={s.id}>
            {s.name}
          </option>
        ))}
      </SelectField>
      {errorFor('state')}
      <SelectField
        label="Priority"
        value={issue.priority}
        {...state('priority')}
        onChange={(e) => {
          const priority = Number(e.target.value);
          void save('priority', { priority }, { priority });
        }}
      >
        {PRIORITIES.map((p) => (
          <option key={p.value} value={p.value}>
            {p.label}
          </option>
        ))}
      </SelectField>
      {errorFor('priority')}
      <SelectField
        label="Assignee"
        value={issue.assignee?.id ?? ''}
        {...state('assignee')}
        onChange={(e) =>
          save('assignee', { assigneeId: e.target.value || null }, { assignee: idOrNull(e.target.value) })
        }
      >
        <option value="">Unassigned</option>
        {ref.data?.people.map((p) => (
          <option key={p.id} value={p.id}>
            {p.name}
          </option>
        ))}
      </SelectField>
      {errorFor('assignee')}
      {ref.data && (
        <div>
          <LabelPicker
            labels={labelsFor(ref.data, [issue.team.id])}
            value={issue.labelIds}
            disabled={readOnly}
            onChange={(labelIds) => save('labels', { labelIds }, { labelIds })}
          />
        </div>
      )}
      {errorFor('labels')}
      {flag('projects') && (
        <SelectField
          label="Project"
          value={issue.project?.id ?? ''}
          {...state('project')}
          onChange={(e) =>
            save(
              'project',
              { projectId: e.target.value || null },
              // The server clears the milestone when the project changes.
              { project: idOrNull(e.target.value), projectMilestone: null },
            )
          }
        >
          <option value="">No project</option>
          {projects?.map((p) => (
            <option key={p.id} value={p.id}>
              {p.name}
            </option>
          ))}
        </SelectField>
      )}
      {errorFor('project')}
      {flag('projects') && (
        <MilestonePicker
          projectId={issue.project?.id ?? null}
          value={issue.projectMilestone?.id ?? null}
          disabled={readOnly}
          onChange={(projectMilestoneId) =>
            save(
              'milestone',
              { projectMilestoneId },
              { projectMilestone: projectMilestoneId ? { id: projectMilestoneId } : null },
            )
          }
        />
      )}
      {errorFor('milestone')}
      {flag('cycles') && (
        <SelectField
          label="Cycle"
          value={issue.cycle?.id ?? ''}
          {...state('cycle')}
          onChange={(e) =>
            save('cycle', { cycleId: e.target.value || null }, { cycle: idOrNull(e.target.value) })
          }
        >
          <option value="">No cycle</option>
          {cycles
            ?.filter((c) => c.teamId === issue.team.id)
            .map((c) => (
              <option key={c.id} value={c.id}>
                {cycleName(c)}
              </option>
            ))}
        </SelectField>
      )}
      {errorFor('cycle')}
      <TextField
        label="Due date"
        type="date"
        disabled={readOnly}
        defaultValue={issue.dueDate ?? ''}
        key={`due-${issue.dueDate}`}
        onBlur={(e) => {
          const dueDate = e.target.value || null;
          if (dueDate !== issue.dueDate) void save('due', { dueDate }, { dueDate });
        }}
      />
      {errorFor('due')}
      <TextField
        label="Estimate"
        type="number"
        min={0}
        step={1}
        disabled={readOnly}
        key={`est-${issue.estimate}`}
        defaultValue={issue.estimate ?? ''}
        onBlur={(e) => {
          const estimate = e.target.value === '' ? null : Number(e.target.value);
          if (estimate !== issue.estimate) void save('estimate', { estimate }, { estimate });
        }}
      />
      {errorFor('estimate')}
      <p className="muted small">
        Created <RelativeTime iso={issue.createdAt} />
        {issue.creator ? ` by ${issue.creator.name}` : ''}
        {issue.creator?.app ? <AppMarker /> : null}
      </p>
    </aside>
  );
}
