// A team's pull request automation on the Git admin page (docs/git.md
// "Automation"): for each step, the state its issues enter on any target
// branch (the default, "Don't move", or a state of the team), and rules for
// one target branch. Every change replaces the team's rules through
// PUT /api/admin/git/teams/{teamId}/automation, shown at once and put back if
// refused.

import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useAction } from '../lib/action';
import { ok, type RestData, rest } from '../lib/api';
import { keys } from '../lib/query-keys';
import type { State } from '../lib/ref';
import { Button, ErrorMessage, Loading, SelectField, TextField } from './ui';

type Automation = RestData<'get', '/api/admin/git/teams/{teamId}/automation'>;
type Rule = Automation['rules'][number];
type Step = Rule['event'];

export const STEPS: { event: Step; label: string }[] = [
  { event: 'draft', label: 'Draft opened' },
  { event: 'start', label: 'Opened' },
  { event: 'review', label: 'Review requested' },
  { event: 'mergeable', label: 'Approved' },
  { event: 'merge', label: 'Merged' },
];
const stepLabel = (event: Step) => STEPS.find((s) => s.event === event)?.label ?? event;

/** A select's value for a rule's state: "" is the default (no rule), "none" don't move, else a state id. */
const DEFAULT = '';
const NONE = 'none';

export function GitAutomation({
  teamId,
  teamName,
  states,
}: {
  teamId: string;
  teamName: string;
  states: State[];
}) {
  const key = keys.admin.gitAutomation(teamId);
  const q = useQuery({
    queryKey: key,
    queryFn: () => ok(rest.GET('/api/admin/git/teams/{teamId}/automation', { params: { path: { teamId } } })),
  });
  const saving = useAction(
    (rules: Rule[]) =>
      ok(
        rest.PUT('/api/admin/git/teams/{teamId}/automation', {
          params: { path: { teamId } },
          body: { rules },
        }),
      ),
    { optimistic: { key, apply: (data: Automation, rules: Rule[]) => ({ ...data, rules }) } },
  );
  const [step, setStep] = useState<Step>('merge');
  const [branch, setBranch] = useState('');
  const [target, setTarget] = useState<string>(NONE);
  const stateName = (id: string | null) =>
    id ? (states.find((s) => s.id === id)?.name ?? id) : "Don't move";
  const stateOptions = states.map((s) => (
    <option key={s.id} value={s.id}>
      {s.name}
    </option>
  ));

  if (q.error) return <ErrorMessage error={q.error} />;
  if (!q.data) return <Loading label={`Loading the automation of ${teamName}`} />;
  const { rules, defaults } = q.data;
  const anyBranch = (event: Step) => rules.find((r) => r.event === event && r.targetBranch === null);
  const branchRules = rules.filter((r) => r.targetBranch !== null);
  /** The rules with the any-branch rule of `event` set from a select's value. */
  const withAnyBranch = (event: Step, value: string): Rule[] => {
    const rest = rules.filter((r) => !(r.event === event && r.targetBranch === null));
    return value === DEFAULT
      ? rest
      : [...rest, { event, targetBranch: null, stateId: value === NONE ? null : value }];
  };

  return (
    <section className="card" aria-label={`Automation of ${teamName}`}>
      <h2>Automation: {teamName}</h2>
      <p className="muted small">Only the issues a pull request closes move; issues only move forward.</p>
      <table className="table">
        <thead>
          <tr>
            <th scope="col">When a pull request is</th>
            <th scope="col">Target branch</th>
            <th scope="col">The issue moves to</th>
            <th scope="col">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {STEPS.map(({ event, label }) => {
            const rule = anyBranch(event);
            const fallback = defaults.find((d) => d.event === event)?.stateId ?? null;
            return (
              <tr key={event}>
                <td>{label}</td>
                <td className="muted">any</td>
                <td>
                  <select
                    aria-label={`${label}, any branch: the issue moves to`}
                    value={rule ? (rule.stateId ?? NONE) : DEFAULT}
                    onChange={(e) => void saving.run(withAnyBranch(event, e.target.value))}
                  >
                    <option value={DEFAULT}>Default ({stateName(fallback)})</option>
                    <option value={NONE}>Don't move</option>
                    {stateOptions}
                  </select>
                </td>
                <td />
              </tr>
            );
          })}
          {branchRules.map((r) => (
            <tr key={`${r.event}-${r.targetBranch}`}>
              <td>{stepLabel(r.event)}</td>
              <td>
                <code>{r.targetBranch}</code>
              </td>
              <td>
                <select
                  aria-label={`${stepLabel(r.event)}, into ${r.targetBranch}: the issue moves to`}
                  value={r.stateId ?? NONE}
                  onChange={(e) =>
                    void saving.run(
                      rules.map((x) =>
                        x === r ? { ...x, stateId: e.target.value === NONE ? null : e.target.value } : x,
                      ),
                    )
                  }
                >
                  <option value={NONE}>Don't move</option>
                  {stateOptions}
                </select>
              </td>
              <td className="actions">
                <Button
                  variant="danger"
                  aria-label={`Remove the rule for ${stepLabel(r.event)} into ${r.targetBranch}`}
                  onClick={() => void saving.run(rules.filter((x) => x !== r))}
                >
                  Remove
                </Button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {saving.busy && (
        <p className="muted small" role="status">
          Saving…
        </p>
      )}
      <form
        className="inline-form"
        aria-label={`Add a branch rule for ${teamName}`}
        onSubmit={(e) => {
          e.preventDefault();
          const targetBranch = branch.trim();
          if (!targetBranch) return;
          const others = rules.filter((r) => !(r.event === step && r.targetBranch === targetBranch));
          void saving
            .run([...others, { event: step, targetBranch, stateId: target === NONE ? null : target }])
            .then((saved) => {
              if (saved) setBranch('');
            });
        }}
      >
        <SelectField label="Step" value={step} onChange={(e) => setStep(e.target.value as Step)}>
          {STEPS.map((s) => (
            <option key={s.event} value={s.event}>
              {s.label}
            </option>
          ))}
        </SelectField>
        <TextField
          label="Into branch"
          placeholder="e.g. staging"
          value={branch}
          onChange={(e) => setBranch(e.target.value)}
        />
        <SelectField label="Moves to" value={target} onChange={(e) => setTarget(e.target.value)}>
          <option value={NONE}>Don't move</option>
          {stateOptions}
        </SelectField>
        <Button type="submit" busy={saving.busy}>
          Add rule
        </Button>
      </form>
      <ErrorMessage error={saving.error} />
    </section>
  );
}
