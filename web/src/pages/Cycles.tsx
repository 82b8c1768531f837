// Cycles per team: current, upcoming and past, each with its progress.

import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { Button, ErrorMessage, Loading, PageHeader, TextField } from '../components/ui';
import { graphql } from '../gql';
import { useAction } from '../lib/action';
import { gql } from '../lib/api';
import { shortDate } from '../lib/dates';
import { keys } from '../lib/query-keys';
import { Progress } from './Projects';

interface Cycle {
  id: string;
  number: number;
  name: string | null;
  startsAt: string;
  endsAt: string;
  progress: number;
  isActive: boolean;
  isFuture: boolean;
  isPast: boolean;
}

export function CyclesPage() {
  const q = useQuery({
    queryKey: keys.cycles.list,
    queryFn: () =>
      gql(
        graphql(`query CyclesPage { teams(first: 50) { nodes { id name cycles(first: 100) { nodes {
        id number name startsAt endsAt progress isActive isFuture isPast } } } } }`),
      ).then((d) => d.teams.nodes),
  });
  return (
    <div className="page">
      <PageHeader title="Cycles" />
      {q.isLoading && <Loading label="Loading cycles" />}
      <ErrorMessage error={q.error} />
      {q.data?.map((team) => {
        const all = [...team.cycles.nodes].sort((a, b) => a.startsAt.localeCompare(b.startsAt));
        const groups: [string, Cycle[]][] = [
          ['Current', all.filter((c) => c.isActive)],
          ['Upcoming', all.filter((c) => c.isFuture)],
          ['Past', all.filter((c) => c.isPast).reverse()],
        ];
        return (
          <section key={team.id} className="card" aria-labelledby={`team-${team.id}`}>
            <h2 id={`team-${team.id}`}>{team.name}</h2>
            <NewCycle
              key={all[all.length - 1]?.endsAt ?? 'none'}
              teamId={team.id}
              teamName={team.name}
              after={all[all.length - 1]?.endsAt}
            />
            {all.length === 0 && <p className="muted">No cycles yet.</p>}
            {groups.map(([title, cycles]) =>
              cycles.length ? (
                <div key={title} className="cycle-group">
                  <h3 className="nav-group">{title}</h3>
                  <ul className="cycle-list">
                    {cycles.map((c) => (
                      <li key={c.id} className={`cycle${c.isActive ? ' active' : ''}`}>
                        <Link to="/cycles/$id" params={{ id: c.id }}>
                          <strong>{c.name || `Cycle ${c.number}`}</strong>
                        </Link>
                        <span className="muted">
                          {shortDate(c.startsAt)} – {shortDate(c.endsAt)}
                        </span>
                        <Progress value={c.progress} />
                      </li>
                    ))}
                  </ul>
                </div>
              ) : null,
            )}
          </section>
        );
      })}
    </div>
  );
}

const isoDay = (d: Date) => d.toISOString().slice(0, 10);

/** Schedules the next cycle: by default two weeks from the end of the last one (or today). */
function NewCycle({
  teamId,
  teamName,
  after,
}: {
  teamId: string;
  teamName: string;
  after: string | undefined;
}) {
  const start = after && new Date(after) > new Date() ? new Date(after) : new Date();
  const [form, setForm] = useState({
    name: '',
    startsAt: isoDay(start),
    endsAt: isoDay(new Date(start.getTime() + 14 * 86400e3)),
  });
  const state = useAction(
    () =>
      gql(
        graphql(
          `mutation CreateCycle($input: CycleCreateInput!) { cycleCreate(input: $input) { success cycle { id } } }`,
        ),
        {
          input: {
            teamId,
            startsAt: new Date(`${form.startsAt}T00:00:00`).toISOString(),
            endsAt: new Date(`${form.endsAt}T23:59:59`).toISOString(),
            ...(form.name.trim() ? { name: form.name.trim() } : {}),
          },
        },
      ),
    { refreshes: [keys.cycles.all, keys.ref.cycles], onSuccess: () => setForm({ ...form, name: '' }) },
  );
  const create = state.submit;
  return (
    <form onSubmit={create} className="inline-form cycle-form" aria-label={`New cycle for ${teamName}`}>
      <TextField
        label="Cycle name (optional)"
        value={form.name}
        onChange={(e) => setForm({ ...form, name: e.target.value })}
      />
      <TextField
        label="Starts"
        type="date"
        value={form.startsAt}
        onChange={(e) => setForm({ ...form, startsAt: e.target.value })}
      />
      <TextField
        label="Ends"
        type="date"
        value={form.endsAt}
        onChange={(e) => setForm({ ...form, endsAt: e.target.value })}
      />
      <Button type="submit" busy={state.busy}>
        Add cycle
      </Button>
      <ErrorMessage error={state.error} />
    </form>
  );
}
