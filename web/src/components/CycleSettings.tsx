// A team's cycle settings (PATCH /api/teams/{id}/cycle-settings): automatic
// cycles, their length, cooldown, start day, how many are planned ahead, and
// rollover of unfinished issues. The server's cycle worker plans the cycles as
// soon as the change is saved; the cycles pages read them again.
import { useEffect, useState } from 'react';
import { useAction } from '../lib/action';
import { ok, rest } from '../lib/api';
import { keys } from '../lib/query-keys';
import { TEAM_CHANGES, type TeamRecord } from '../lib/teams';
import { Card } from './Card';
import { Button, FormError, fieldErrors, SelectField } from './ui';

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
const weeks = (n: number) => `${n} week${n === 1 ? '' : 's'}`;

const formOf = (t: TeamRecord) => ({
  cyclesAutomatic: t.cyclesAutomatic,
  cycleDuration: t.cycleDuration,
  cycleCooldownTime: t.cycleCooldownTime,
  cycleStartDay: t.cycleStartDay,
  upcomingCycleCount: t.upcomingCycleCount,
  cycleRollover: t.cycleRollover,
});

export function CycleSettings({ team }: { team: TeamRecord }) {
  const [form, setForm] = useState(() => formOf(team));
  const state = useAction(
    () => ok(rest.PATCH('/api/teams/{id}/cycle-settings', { params: { path: { id: team.id } }, body: form })),
    { refreshes: [...TEAM_CHANGES, keys.cycles.all] },
  );
  // biome-ignore lint/correctness/useExhaustiveDependencies: updatedAt is the version
  useEffect(() => setForm(formOf(team)), [team.updatedAt]);
  const set = (patch: Partial<typeof form>) => {
    setForm({ ...form, ...patch });
    state.reset();
  };
  const fields = fieldErrors(state.error);
  const number = (v: string) => Number.parseInt(v, 10);
  const auto = form.cyclesAutomatic;

  return (
    <Card title="Cycles">
      {!team.cyclesEnabled && <p className="muted">Cycles are switched off for this team.</p>}
      <form onSubmit={state.submit} className="grid-form">
        <label className="check">
          <input
            type="checkbox"
            checked={auto}
            onChange={(e) => set({ cyclesAutomatic: e.target.checked })}
          />{' '}
          Create cycles automatically
        </label>
        <SelectField
          label="Cycle length"
          value={form.cycleDuration}
          disabled={!auto}
          onChange={(e) => set({ cycleDuration: number(e.target.value) })}
          error={fields.cycleDuration}
        >
          {range(1, 8).map((n) => (
            <option key={n} value={n}>
              {weeks(n)}
            </option>
          ))}
        </SelectField>
        <SelectField
          label="Cooldown between cycles"
          value={form.cycleCooldownTime}
          disabled={!auto}
          onChange={(e) => set({ cycleCooldownTime: number(e.target.value) })}
          error={fields.cycleCooldownTime}
        >
          {range(0, 4).map((n) => (
            <option key={n} value={n}>
              {n === 0 ? 'None' : weeks(n)}
            </option>
          ))}
        </SelectField>
        <SelectField
          label="Cycles start on"
          value={form.cycleStartDay}
          disabled={!auto}
          onChange={(e) => set({ cycleStartDay: number(e.target.value) })}
          error={fields.cycleStartDay}
        >
          {WEEKDAYS.map((day, i) => (
            <option key={day} value={i}>
              {day}
            </option>
          ))}
        </SelectField>
        <SelectField
          label="Upcoming cycles planned"
          value={form.upcomingCycleCount}
          disabled={!auto}
          onChange={(e) => set({ upcomingCycleCount: number(e.target.value) })}
          error={fields.upcomingCycleCount}
        >
          {range(1, 10).map((n) => (
            <option key={n} value={n}>
              {n}
            </option>
          ))}
        </SelectField>
        <label className="check">
          <input
            type="checkbox"
            checked={form.cycleRollover}
            disabled={!auto}
            onChange={(e) => set({ cycleRollover: e.target.checked })}
          />{' '}
          Move unfinished issues to the next cycle when a cycle ends
        </label>
        <div className="grid-form-submit row">
          <Button type="submit" variant="primary" busy={state.busy}>
            Save cycle settings
          </Button>
          {state.saved && (
            <span className="ok" role="status">
              Saved
            </span>
          )}
        </div>
      </form>
      <FormError error={state.error} />
    </Card>
  );
}
