// The source's people → accounts here (docs/migrate.md, "People"): the
// `userMap` of REST's body and the file of the CLI's `--user-map`, one set of
// rules. A source person is named by their email as the source gives it (the
// dry run's missingUsers); an account here by its id, or (the file) its email.
import { parse } from 'csv-parse/sync';
import { isUuid } from '../../platform/ids.js';
import { ImportInputError } from './model.js';

/** At most this many people in a map (REST's schema says the same). */
export const USER_MAP_MAX = 5000;
/** An email's length at most (RFC 5321's path). */
export const USER_MAP_EMAIL_MAX = 320;
/** A map file is a few hundred KB at USER_MAP_MAX; anything far larger is not one. */
export const USER_MAP_FILE_MAX_BYTES = 4 * 1024 * 1024;

const isEmail = (s: string) => s.length >= 3 && s.length <= USER_MAP_EMAIL_MAX && s.includes('@');

/**
 * A `--user-map` file: a JSON object `{ "<source email>": "<email or id here>" }`,
 * or a CSV of two columns (source email, email or id here), a header row
 * allowed. JSON when the name ends in .json or the text opens with `{`.
 * Throws ImportInputError naming what is wrong; an empty map is refused too.
 */
export function parseUserMapFile(name: string, text: string): Record<string, string> {
  const json = name.toLowerCase().endsWith('.json') || text.trimStart().startsWith('{');
  const pairs = json ? jsonPairs(name, text) : csvPairs(name, text);
  if (pairs.length === 0) throw new ImportInputError(`${name}: no one to map`);
  if (pairs.length > USER_MAP_MAX)
    throw new ImportInputError(`${name}: ${pairs.length} people, at most ${USER_MAP_MAX}`);
  const map: Record<string, string> = {};
  for (const [where, rawFrom, rawTo] of pairs) {
    const from = rawFrom.trim().toLowerCase();
    const to = rawTo.trim();
    if (!isEmail(from)) throw new ImportInputError(`${name}, ${where}: "${rawFrom}" is not an email`);
    if (!isUuid(to) && !isEmail(to))
      throw new ImportInputError(`${name}, ${where}: "${rawTo}" is neither an email nor an account id`);
    if (Object.hasOwn(map, from) && map[from] !== to)
      throw new ImportInputError(`${name}, ${where}: ${from} is mapped twice`);
    map[from] = to;
  }
  return map;
}

/** [where, source, target] of a JSON object. */
function jsonPairs(name: string, text: string): [string, string, string][] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new ImportInputError(`${name}: ${(err as Error).message}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new ImportInputError(`${name}: must be a JSON object of source email → email or account id here`);
  return Object.entries(parsed).map(([from, to]) => {
    if (typeof to !== 'string') throw new ImportInputError(`${name}, "${from}": the value must be a string`);
    return [`"${from}"`, from, to];
  });
}

/** [where, source, target] of a two-column CSV; a first row whose target is neither email nor id is its header. */
function csvPairs(name: string, text: string): [string, string, string][] {
  let rows: string[][];
  try {
    rows = parse(text, { skip_empty_lines: true, relax_column_count: true, bom: true, trim: true });
  } catch (err) {
    throw new ImportInputError(`${name}: ${(err as Error).message}`);
  }
  const first = rows[0];
  const header = first !== undefined && first.length === 2 && !isUuid(first[1]!) && !first[1]!.includes('@');
  return rows.slice(header ? 1 : 0).map((row, i) => {
    const line = `row ${i + (header ? 2 : 1)}`;
    if (row.length !== 2)
      throw new ImportInputError(`${name}, ${line}: two columns expected (source email, email or id here)`);
    return [line, row[0]!, row[1]!];
  });
}
