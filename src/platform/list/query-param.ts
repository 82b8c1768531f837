// REST lists take the same filter grammar as GraphQL, as a JSON query
// parameter: GET /api/issues?filter={"state":{"type":{"eq":"started"}}}. The
// services fold it together with their plain list parameters into one tree.
import { invalidField } from '../errors.js';
import { jsonTextTooDeep, MAX_JSON_DEPTH } from '../http/json-depth.js';

/** Parses a `filter` query parameter into the filter tree; undefined when absent. */
export function parseFilterParam(raw: string | undefined): Record<string, unknown> | undefined {
  if (raw === undefined || raw.trim() === '') return undefined;
  // Measured before parsing, like every JSON input: the filter walk recurses.
  if (jsonTextTooDeep(raw)) {
    throw invalidField('filter', `nests objects and arrays more than ${MAX_JSON_DEPTH} levels deep`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw invalidField('filter', 'must be a JSON object, e.g. {"state":{"type":{"eq":"started"}}}');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw invalidField('filter', 'must be a JSON object');
  }
  return parsed as Record<string, unknown>;
}
