// An issue's change history: written by the handler of issue.update events
// (one entry per event: each tracked field that changed, from and to), and
// read as the caller may read it. Entries record ids and
// identifiers as they were, so after a move out of a private team (or the loss
// of a parent, project or person out of sight) they name what the reader may
// not see. Each such value reads as null, as GraphQL's fromX/toX relations
// answer; label lists keep only the labels the reader sees; an identifier
// (and the number that goes with it) is masked when the team whose key it
// carries is out of sight (visibility.issueIdentifier).
import { type TeamAccess, type Visibility, visibility } from '../../platform/access.js';
import type { Db } from '../../platform/db/database.js';
import type { EventHandler } from '../../platform/outbox.js';
import { isUuid } from '../teams/ids.js';
import { RECORDED } from './present.js';
import * as q from './queries.js';

type Change = { from: unknown; to: unknown };
type Changes = Record<string, Change>;
type HistoryRow = { changes: unknown };

/** Records an issue update's tracked changes: updatedFrom has what they were, data what they are. */
export const issueHistoryHandler: EventHandler = {
  name: 'issue history',
  types: ['issue'],
  async handle(_ctx, trx, event) {
    if (event.action !== 'update' || !event.updatedFrom) return;
    const changes: Changes = {};
    for (const key of RECORDED) {
      if (key in event.updatedFrom) changes[key] = { from: event.updatedFrom[key], to: event.data[key] };
    }
    if (Object.keys(changes).length === 0) return;
    // The cause, kept in the entry's {from, to} shape (the third-party history's attachmentId).
    if (event.causeAttachmentId) changes['attachmentId'] = { from: null, to: event.causeAttachmentId };
    await q.insertHistory(trx, String(event.data['id']), event.actor?.id ?? null, changes);
  },
};

/** History fields that hold ids, with the table and rule that say whether the reader sees each. */
const REFERENCES: Record<string, { table: string; rule: Visibility }> = {
  teamId: { table: 'teams', rule: visibility.team },
  stateId: { table: 'workflow_states', rule: visibility.workflowState },
  assigneeId: { table: 'users', rule: visibility.user },
  snoozedById: { table: 'users', rule: visibility.user },
  projectId: { table: 'projects', rule: visibility.project },
  projectMilestoneId: { table: 'project_milestones', rule: visibility.projectMilestone },
  cycleId: { table: 'cycles', rule: visibility.cycle },
  parentId: { table: 'issues', rule: visibility.issue },
  labelIds: { table: 'labels', rule: visibility.label },
};

const idsIn = (v: unknown): string[] =>
  (Array.isArray(v) ? v : [v]).filter((x): x is string => typeof x === 'string' && isUuid(x));

const keyOf = (identifier: unknown) => (typeof identifier === 'string' ? identifier.split('-')[0]! : '');

/** The rows with every value the caller may not see masked; one statement per kind of reference present. */
export async function readableHistory<R extends HistoryRow>(
  db: Db,
  rows: R[],
  access: TeamAccess,
): Promise<(R & { changes: Changes })[]> {
  if (access.all) return rows as (R & { changes: Changes })[];
  const all = rows.map((r) => (r.changes ?? {}) as Changes);
  const seen = new Map<string, Set<string>>();
  for (const [field, { table, rule }] of Object.entries(REFERENCES)) {
    const ids = [
      ...new Set(all.flatMap((c) => (c[field] ? [...idsIn(c[field].from), ...idsIn(c[field].to)] : []))),
    ];
    if (ids.length > 0) seen.set(field, await q.visibleIdsIn(db, table, rule, ids, access));
  }
  const keys = [
    ...new Set(all.flatMap((c) => (c.identifier ? [keyOf(c.identifier.from), keyOf(c.identifier.to)] : []))),
  ].filter(Boolean);
  const keysSeen = keys.length > 0 ? await q.visibleTeamKeys(db, keys, access) : new Set<string>();

  const mask = (field: string, value: unknown): unknown => {
    const ok = seen.get(field);
    if (!ok || value === null || value === undefined) return value;
    if (field === 'labelIds' && Array.isArray(value)) return value.filter((id) => ok.has(id as string));
    return ok.has(value as string) ? value : null;
  };
  return rows.map((row, i) => {
    const changes: Changes = {};
    for (const [field, change] of Object.entries(all[i]!)) {
      changes[field] =
        field in REFERENCES && change !== null && typeof change === 'object'
          ? { from: mask(field, change.from), to: mask(field, change.to) }
          : change;
    }
    // An identifier names its team by its key; its number goes with it.
    for (const side of ['from', 'to'] as const) {
      if (changes.identifier === null || typeof changes.identifier !== 'object') break;
      const identifier = changes.identifier[side];
      if (identifier === undefined || identifier === null || keysSeen.has(keyOf(identifier))) continue;
      changes.identifier = { ...changes.identifier!, [side]: null };
      if (changes.number) changes.number = { ...changes.number, [side]: null };
    }
    return { ...row, changes };
  });
}
