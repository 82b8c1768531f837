// REST's shape of each entity, as a selection over its declaration
// (entities.ts): the one definition every REST answer and every change
// event's `data` reads. A view is made from the entity's TypeBox response
// schema, so its keys are the schema's keys in the schema's order (the
// OpenAPI document and the JSON text agree by construction); a key that the
// declaration does not have fails at load. The JSON is built by PostgreSQL
// (compile.ts), the same way for a GET, a write's answer and an event.
import { sql } from 'kysely';
import { fullAccess } from '../access.js';
import type { Actor, AppContext } from '../context.js';
import type { Db } from '../db/database.js';
import { notFound } from '../errors.js';
import { isUuid } from '../ids.js';
import { rowJson, visibleRule } from './compile.js';
import type { Entity, ReadContext } from './model.js';

/** A REST view's selection: fields only (a REST answer has no kinds to choose between). */
export type ViewSelection =
  | { key: string; constant: unknown }
  | { key: string; field: string; select?: ViewSelection[] };

export interface RestView {
  entity: Entity;
  select: ViewSelection[];
}

/**
 * The REST shape of `entity`: one declared field per key of `schema`, in its
 * order. A key is the declared field of the same name unless `fields` maps it
 * to another selection (a nested object, a field the declaration names otherwise).
 */
export function restView(
  entity: Entity,
  schema: { properties: Record<string, unknown> },
  fields: Record<string, { field: string; select?: ViewSelection[] }> = {},
): RestView {
  const select = Object.keys(schema.properties).map((key): ViewSelection => {
    const mapped = fields[key];
    const s: ViewSelection = mapped ? { key, ...mapped } : { key, field: key };
    check(entity, s);
    return s;
  });
  return { entity, select };
}

/** Fails at load on a field the declaration does not have (or a relation with nothing selected). */
function check(entity: Pick<Entity, 'name' | 'fields'>, s: ViewSelection): void {
  if ('constant' in s) return;
  const field = entity.fields[s.field];
  if (!field) throw new Error(`REST view of ${entity.name}: no declared field ${s.field}`);
  if (field.kind === 'value') return;
  // A connection is GraphQL's; REST nests related rows as objects and plain lists (a delivery's attempts).
  if ((field.kind === 'many' && !('plain' in field)) || !s.select?.length)
    throw new Error(
      `REST view of ${entity.name}: ${s.field} must be a to-one relation or plain list with a selection`,
    );
  for (const sub of s.select) check(field.kind === 'object' ? field.of() : field.to(), sub);
}

/** What a REST read depends on besides the rows: the caller, their access, one clock. */
export const readContextOf = (
  ctx: Pick<AppContext, 'config'>,
  actor: Pick<Actor, 'id'>,
  access: ReadContext['access'],
): ReadContext => ({ access, viewerId: actor.id, publicUrl: ctx.config.publicUrl, now: new Date() });

/**
 * The JSON text of the rows with these ids that the caller sees, as `view`
 * shows them, in one statement (in `db`: a transaction reads its own writes).
 * Ids that are no uuid, missing or out of sight are absent from the map.
 */
export async function viewJsonByIds(
  db: Db,
  view: RestView,
  ids: readonly string[],
  c: ReadContext,
): Promise<Map<string, string>> {
  const valid = [...new Set(ids.filter(isUuid))];
  if (valid.length === 0) return new Map();
  const where = [
    sql`r.id in (${sql.join(valid.map((id) => sql`${id}::uuid`))})`,
    ...visibleRule(view.entity, 'r', c),
  ];
  const { rows } = await sql<{ id: string; json: string }>`select r.id::text as id,
    ${rowJson(view.entity, 'r', view.select, c)} as json
    from ${sql.table(view.entity.table)} as r where ${sql.join(where, sql` and `)}`.execute(db);
  return new Map(rows.map((r) => [r.id, r.json]));
}

/** One row's JSON text as `view` shows it to the caller; undefined when missing or out of sight. */
export async function viewJson(
  db: Db,
  view: RestView,
  id: string,
  c: ReadContext,
): Promise<string | undefined> {
  return (await viewJsonByIds(db, view, [id], c)).get(id);
}

/** `{"key":{...}}` as REST answers one row: the row the caller sees, else 404 naming `what`. */
export async function viewAnswer(
  db: Db,
  view: RestView,
  key: string,
  id: string,
  c: ReadContext,
  what: string,
): Promise<string> {
  const json = await viewJson(db, view, id, c);
  if (json === undefined) throw notFound(what);
  return envelope(key, json);
}

/** JSON texts of a page, in the order of `ids` (each one there: read in the same transaction or snapshot). */
export async function viewJsonList(
  db: Db,
  view: RestView,
  ids: readonly string[],
  c: ReadContext,
): Promise<string[]> {
  const byId = await viewJsonByIds(db, view, ids, c);
  return ids.map((id) => byId.get(id)).filter((j): j is string => j !== undefined);
}

/**
 * A REST list's answer, `{"key":[...],...rest}`: the rows of `ids` as `view` shows them to the
 * caller, in that order. Every list route answers through it (its `rest` is the pageInfo).
 */
export async function viewListAnswer(
  db: Db,
  view: RestView,
  key: string,
  ids: readonly string[],
  c: ReadContext,
  rest: Record<string, unknown> = {},
): Promise<string> {
  return listEnvelope(key, await viewJsonList(db, view, ids, c), rest);
}

/**
 * A change event's `data`: the record as a REST GET shows it to an admin (the
 * whole record; the change stream filters events by who may see them), read
 * in the writer's transaction after the write, or before it for a removal.
 */
export async function eventData(
  ctx: Pick<AppContext, 'config'>,
  trx: Db,
  view: RestView,
  id: string,
  actor: Pick<Actor, 'id'> | null,
): Promise<Record<string, unknown>> {
  const reader = actor ?? { id: '00000000-0000-0000-0000-000000000000' };
  const json = await viewJson(trx, view, id, readContextOf(ctx, reader, fullAccess(reader.id)));
  if (json === undefined) throw new Error(`eventData: no ${view.entity.name} ${id}`);
  return JSON.parse(json) as Record<string, unknown>;
}

/**
 * An update event's updatedFrom: the previous value of each field of `keys`
 * that changed between two event data, and the previous updatedAt; undefined
 * when nothing else changed (no event to record).
 */
export function changedFrom(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
  keys: readonly string[] = Object.keys(after),
): Record<string, unknown> | undefined {
  const from: Record<string, unknown> = {};
  for (const key of keys) {
    if (key === 'updatedAt' || JSON.stringify(before[key]) === JSON.stringify(after[key])) continue;
    from[key] = before[key];
  }
  return Object.keys(from).length ? { ...from, updatedAt: before['updatedAt'] } : undefined;
}

/** `{"key":json}`: a REST answer's envelope around a row's JSON text. */
export const envelope = (key: string, json: string) => `{${JSON.stringify(key)}:${json}}`;

/** A view's JSON object text with `more` members after its own (what a list adds about each row). */
export const withMembers = (json: string, more: Record<string, unknown>) => {
  const tail = JSON.stringify(more);
  return tail === '{}' ? json : `${json.slice(0, -1)},${tail.slice(1)}`;
};

/** `{"key":[json,...],...rest}`: a REST list's envelope, its other members (pageInfo) as JS values. */
export const listEnvelope = (key: string, items: readonly string[], rest: Record<string, unknown> = {}) => {
  const tail = JSON.stringify(rest);
  return `{${JSON.stringify(key)}:[${items.join(',')}]${tail === '{}' ? '' : `,${tail.slice(1, -1)}`}}`;
};
