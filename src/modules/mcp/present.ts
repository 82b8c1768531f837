// What the MCP tools answer: short records a model can read in one glance,
// names beside ids (state, assignee, team key), not REST's 30 fields. The
// issue's is a view over the read model's declaration, like REST's
// (platform/read/rest.ts), so PostgreSQL builds it with the caller's
// visibility in the same statement as the list or the read; the others are
// REST's answers with their keys picked.
import { Type } from 'typebox';
import { issue as readIssue } from '../../platform/read/entities.js';
import { restView } from '../../platform/read/rest.js';

const Any = Type.Unknown();
const fieldsOf = (...keys: string[]) => keys.map((key) => ({ key, field: key }));

/** The keys of an issue as the tools show it, in this order. */
const McpIssueKeys = Type.Object({
  id: Any,
  identifier: Any,
  title: Any,
  description: Any,
  state: Any,
  priority: Any,
  priorityLabel: Any,
  team: Any,
  assignee: Any,
  labelIds: Any,
  project: Any,
  cycle: Any,
  projectMilestone: Any,
  parent: Any,
  dueDate: Any,
  estimate: Any,
  url: Any,
  createdAt: Any,
  updatedAt: Any,
  archivedAt: Any,
});

export const MCP_ISSUE_VIEW = restView(readIssue, McpIssueKeys, {
  state: { field: 'state', select: fieldsOf('name', 'type') },
  team: { field: 'team', select: fieldsOf('key') },
  assignee: { field: 'assignee', select: fieldsOf('name', 'email') },
  project: { field: 'project', select: fieldsOf('id', 'name') },
  cycle: { field: 'cycle', select: fieldsOf('id', 'number', 'name') },
  projectMilestone: { field: 'projectMilestone', select: fieldsOf('id', 'name') },
  parent: { field: 'parent', select: fieldsOf('identifier', 'title') },
});

/** The view's JSON with what is empty left out, relations as names and labels named from `labelNames`; the description only when asked (one issue, not a list). */
export function compactIssue(
  json: Record<string, unknown>,
  labelNames: ReadonlyMap<string, string>,
  withDescription = false,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const state = json['state'] as { name: string; type: string } | null;
  const team = json['team'] as { key: string } | null;
  const assignee = json['assignee'] as { name: string; email: string } | null;
  const cycle = json['cycle'] as { number: number; name: string | null } | null;
  const parent = json['parent'] as { identifier: string } | null;
  out['identifier'] = json['identifier'];
  out['title'] = json['title'];
  if (withDescription && json['description'] !== null) out['description'] = json['description'];
  out['state'] = state ? `${state.name} (${state.type})` : null;
  out['priority'] = `${json['priorityLabel']} (${json['priority']})`;
  out['team'] = team?.key ?? null;
  if (assignee) out['assignee'] = `${assignee.name} <${assignee.email}>`;
  const labels = (json['labelIds'] as string[]).map((id) => labelNames.get(id)).filter(Boolean);
  if (labels.length) out['labels'] = labels;
  const project = json['project'] as { name: string } | null;
  if (project) out['project'] = project.name;
  if (cycle) out['cycle'] = cycle.name ? `${cycle.number} ${cycle.name}` : cycle.number;
  const milestone = json['projectMilestone'] as { name: string } | null;
  if (milestone) out['milestone'] = milestone.name;
  if (parent) out['parent'] = parent.identifier;
  for (const key of ['dueDate', 'estimate', 'archivedAt'] as const) {
    if (json[key] !== null && json[key] !== undefined) out[key] = json[key];
  }
  out['url'] = json['url'];
  out['id'] = json['id'];
  out['updatedAt'] = json['updatedAt'];
  return out;
}

/** `keys` of each record, in that order, those null or absent left out. */
export function pick(record: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of keys) {
    const v = record[key];
    if (v !== null && v !== undefined && !(Array.isArray(v) && v.length === 0)) out[key] = v;
  }
  return out;
}
