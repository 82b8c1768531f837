// REST lists take the same filter grammar as GraphQL, as a JSON query
// parameter: GET /api/issues?filter={"state":{"type":{"eq":"started"}}}.
import type { RawBuilder } from 'kysely';
import { invalidField } from '../errors.js';
import { compileFilter, type EntitySpec, type FilterContext } from './filter.js';

/** Parses and compiles a `filter` query parameter over `alias`; undefined when absent. */
export function filterFromQuery(
  raw: string | undefined,
  entity: EntitySpec,
  alias: string,
  ctx: FilterContext,
): RawBuilder<boolean> | undefined {
  if (raw === undefined || raw.trim() === '') return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw invalidField('filter', 'must be a JSON object, e.g. {"state":{"type":{"eq":"started"}}}');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw invalidField('filter', 'must be a JSON object');
  }
  return compileFilter(entity, alias, parsed as Record<string, unknown>, ctx);
}
