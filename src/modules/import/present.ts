// The REST shape of an import run (GET /api/admin/imports[/:id], POST's 202).
import { Type } from 'typebox';
import { Timestamp } from '../../platform/http/schemas.js';
import type { ImportRunRow } from './queries.js';

const Counts = Type.Record(Type.String(), Type.Integer(), {
  description: '`<entity>.created`, `<entity>.existing` (matched, or imported before), `issue.failed`',
});

export const ImportRunSchema = Type.Object({
  id: Type.String(),
  source: Type.String({
    description:
      '`linear:<server>`, `jira:<site>`, `csv:<name>` or `github:[<api url>:]<owner/repo>`; a run of the same source resumes its records',
  }),
  kind: Type.Union([
    Type.Literal('linear'),
    Type.Literal('csv'),
    Type.Literal('github'),
    Type.Literal('jira'),
    Type.Literal('jira-xml'),
  ]),
  dryRun: Type.Boolean(),
  status: Type.Union([Type.Literal('running'), Type.Literal('completed'), Type.Literal('failed')]),
  counts: Counts,
  errors: Type.Array(Type.String(), { description: 'The first 100 refusals and the reason a run stopped' }),
  report: Type.Union([Type.Unknown(), Type.Null()], {
    description:
      'When the run ended: counts, missingUsers (emails without an account: placeholders), unknownStates, errors',
  }),
  progress: Type.Object(
    {
      done: Type.Integer({ description: 'Issues (or, when `unit` is page, pages) read so far' }),
      total: Type.Union([Type.Integer(), Type.Null()], {
        description:
          'How many the source holds, when it says (a file is counted, Jira counts its query, the hosted tracker its teams, GitHub gives its pages); null: unknown',
      }),
      unit: Type.Union([Type.Literal('issue'), Type.Literal('page')]),
      percent: Type.Union([Type.Integer({ minimum: 0, maximum: 100 }), Type.Null()], {
        description: 'done of total, at most 99 until the run completes, 100 once it has; null while unknown',
      }),
    },
    { description: 'How far the run is' },
  ),
  createdById: Type.Union([Type.String(), Type.Null()]),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  finishedAt: Type.Union([Timestamp, Type.Null()]),
});

/** How far a run is: what it read against what the source holds, in the source's unit. */
export function progressOf(r: ImportRunRow) {
  const unit = r.total_unit ?? 'issue';
  const done = unit === 'page' ? r.pages_read : r.issues_read;
  const total = r.total;
  // A source may grow while it is read (a Jira query): never past 99% before the run has completed.
  const percent =
    r.status === 'completed'
      ? 100
      : total === null
        ? null
        : total === 0
          ? 0
          : Math.min(99, Math.floor((done * 100) / total));
  return { done, total, unit, percent };
}

export function presentRun(r: ImportRunRow) {
  return {
    id: r.id,
    source: r.source,
    kind: r.kind,
    dryRun: r.dry_run,
    status: r.status,
    counts: r.counts,
    errors: r.errors,
    report: r.report ?? null,
    progress: progressOf(r),
    createdById: r.created_by,
    createdAt: r.created_at.toISOString(),
    updatedAt: r.updated_at.toISOString(),
    finishedAt: r.finished_at?.toISOString() ?? null,
  };
}
