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
  createdById: Type.Union([Type.String(), Type.Null()]),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  finishedAt: Type.Union([Timestamp, Type.Null()]),
});

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
    createdById: r.created_by,
    createdAt: r.created_at.toISOString(),
    updatedAt: r.updated_at.toISOString(),
    finishedAt: r.finished_at?.toISOString() ?? null,
  };
}
