// Row lookups by id or human key. Every lookup goes through a loader or
// module query that applies the caller's visibility.
import { resolveIssueId } from '../../modules/issues/queries.js';
import { projectIdBySlug } from '../../modules/projects/queries.js';
import { findVisibleTeam } from '../../modules/teams/access.js';
import type { IssueRow, ProjectRow, TeamRow } from '../../platform/db/tables.js';
import { notFound } from '../../platform/errors.js';
import { isUuid } from '../../platform/ids.js';
import type { GqlContext } from '../context.js';
import { mustLoad } from './helpers.js';

/**
 * An issue by id or identifier (also a former one, after a team move or a
 * key change), through the issues module's one resolver, as REST does.
 */
export async function findIssueRow(g: GqlContext, idOrIdentifier: string): Promise<IssueRow> {
  if (isUuid(idOrIdentifier)) return mustLoad<IssueRow>(g, 'issue', idOrIdentifier, 'Issue');
  const id = await resolveIssueId(g.db, idOrIdentifier, await g.access());
  return mustLoad<IssueRow>(g, 'issue', id ?? idOrIdentifier, 'Issue');
}

/** A team by id or by key, current or former (the teams module's one lookup). */
export async function findTeamRow(g: GqlContext, idOrKey: string): Promise<TeamRow> {
  if (isUuid(idOrKey)) return mustLoad<TeamRow>(g, 'team', idOrKey, 'Team');
  const row = await findVisibleTeam(g.db, idOrKey, await g.access());
  if (!row) throw notFound('Team');
  return row;
}

export async function findProjectRow(g: GqlContext, idOrSlug: string): Promise<ProjectRow> {
  if (isUuid(idOrSlug)) return mustLoad<ProjectRow>(g, 'project', idOrSlug, 'Project');
  // Project URLs end in -<slugId>; accept the slug id alone or the whole tail.
  const slug = idOrSlug.split('-').pop() ?? idOrSlug;
  // The loader applies the caller's visibility.
  return mustLoad<ProjectRow>(g, 'project', (await projectIdBySlug(g.db, slug)) ?? '', 'Project');
}
