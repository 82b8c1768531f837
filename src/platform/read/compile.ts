// The read compiler: a selection of declared fields (entities.ts) becomes one
// SQL expression whose value is the answer's JSON text. Each level reads its
// rows under its own alias (r1, r2, ...): a to-one relation is a correlated
// subquery by key, a nested list is a correlated subquery that pages its rows
// (row_number over the list's order) and aggregates them, so one statement
// answers a page whatever its size and nesting. Every level applies the
// entity's visibility rule: a to-one row the caller may not see is null, a
// list holds only visible rows (listWhere, the rule lists use everywhere).
import { sql } from 'kysely';
import type { FlagKey } from '../../modules/flags/catalog.js';
import type { Db } from '../db/database.js';
import { isUuid } from '../ids.js';
import { pastPosition } from '../list/order.js';
import { listWhere } from '../list/query.js';
import { type PageArgs, pageWindow } from '../list/window.js';
import { flatFor } from './flat.js';
import { constant, cursor, json, object, type Sql } from './json.js';
import type { Embedded, Entity, Field, ReadContext, Via } from './model.js';

/** A field of an object: a constant (__typename, a value this service does not hold) or a declared field. */
export type Selection =
  | { key: string; constant: unknown }
  | { key: string; field: string; args?: ListArgs | undefined; select?: RowSelection | undefined };

/**
 * What is asked of a row: its fields; or, for an entity of several kinds
 * (Entity.kinds) read where the schema names their interface, the fields
 * asked of each kind (a fragment on one kind is asked of its rows alone).
 */
export type RowSelection = Selection[] | { byKind: Record<string, Selection[]> };

/** A selection that cannot depend on the row's kind (an embedded object, a connection's page). */
export const fieldsOnly = (select: RowSelection | undefined): Selection[] => {
  if (select === undefined) return [];
  if (!Array.isArray(select)) throw new NotPlannable('a selection by kind where fields are expected');
  return select;
};

export type ListArgs = PageArgs & {
  filter?: Record<string, unknown> | null | undefined;
  includeDisabled?: boolean | null | undefined;
};

/** A selection names something the declarations do not have. */
export class NotPlannable extends Error {}

interface State {
  c: ReadContext;
  depth: number;
  /** The flags of the feature-gated lists the answer reads (rootJson checks them). */
  features: Set<FlagKey>;
}

const SORT_COLUMN = { createdAt: 'created_at', updatedAt: 'updated_at' } as const;

/**
 * The JSON text of one row of `entity` under alias `row`: for a selection by
 * kind, the object its kind asks for (the first kind whose condition holds).
 */
function rowJsonOf(entity: Entity, row: string, select: RowSelection, st: State): Sql {
  if (Array.isArray(select)) return objectJson(entity, row, select, st);
  const kinds = entity.kinds;
  if (!kinds) throw new NotPlannable(`${entity.name} has one kind`);
  const ref = sql.raw(row);
  const cases = kinds.map(
    (k) => sql`when ${k.is(ref)} then ${objectJson(entity, row, select.byKind[k.name] ?? [], st)}`,
  );
  return sql`(case ${sql.join(cases, sql` `)} end)`;
}

/** The JSON text of one row of `entity` (or an object embedded in it) under alias `row`. */
function objectJson(entity: Entity | Embedded, row: string, select: Selection[], st: State): Sql {
  const ref = sql.raw(row);
  return object(
    select.map((s): [string, Sql] => {
      if ('constant' in s) return [s.key, constant(s.constant)];
      const field = entity.fields[s.field];
      if (!field) throw new NotPlannable(`${entity.name}.${s.field}`);
      if (field.kind === 'value') return [s.key, field.json(ref, st.c)];
      if (field.kind === 'object') return [s.key, objectJson(field.of(), row, fieldsOnly(s.select), st)];
      if (field.kind === 'one') {
        const target = field.to();
        const key = field.keyOf ? field.keyOf(ref) : sql`${ref}.${sql.ref(field.key)}`;
        const sub = s.select ?? [];
        // Asked for its id alone, a row the caller surely sees is its key (as the resolvers answer it);
        // an id read from JSON may name no row, so its row is read.
        if (
          !field.keyOf &&
          !target.only &&
          idOnly(sub) &&
          (field.sameTeam || field.open || !mayHide(target, st.c))
        )
          return [s.key, byKey(key, sub)];
        return [s.key, toOne(target, key, sub, st, field.open)];
      }
      if ('plain' in field) return [s.key, rowsJson(field, ref, s.select ?? [], st)];
      if (field.feature) st.features.add(field.feature);
      return [
        s.key,
        listJson(field.to(), s.args ?? {}, fieldsOnly(s.select), st, { via: field.via, parent: ref }),
      ];
    }),
  );
}

/** The entity's visibility rule for this caller over `alias`, or none when it would let every row through. */
export const visibleRule = (entity: Entity, alias: string, c: ReadContext): Sql[] => {
  const rule = entity.spec.visible;
  return rule && (!c.access.all || entity.spec.bindsAdmins) ? [rule(alias, c.access)] : [];
};

/** Whether the entity's rule can hide a row from this caller (admins see all rows but those the rule binds them to). */
export function mayHide(entity: Entity, c: ReadContext): boolean {
  if (visibleRule(entity, 'x', c).length === 0) return false;
  return !(entity.seenByMembers && !c.access.all && !c.access.guest);
}

/** An admins' entity read by anyone else: not planned, so the resolvers refuse it as they do. */
function readable(entity: Entity, st: State): void {
  if (entity.adminOnly && !st.c.access.all) throw new NotPlannable(`${entity.name} is for admins`);
}

const idOnly = (select: RowSelection): select is Selection[] =>
  Array.isArray(select) && select.every((s) => 'constant' in s || s.field === 'id');

/** A related row asked for its id alone, from the key: null when there is none. */
const byKey = (key: Sql, select: Selection[]): Sql =>
  sql`(case when ${key} is null then 'null' else ${object(select.map((s) => [s.key, 'constant' in s ? constant(s.constant) : json(key)]))} end)`;

/** A plain list of related rows: the visible ones among the ids the field names, in its order; null where it has none. */
function rowsJson(field: Extract<Field, { plain: true }>, row: Sql, select: RowSelection, st: State): Sql {
  const entity = field.to();
  readable(entity, st);
  const alias = `r${++st.depth}`;
  const k = sql.raw(`k${st.depth}`);
  const where = [sql`${sql.raw(alias)}.id = ${k}.id`, ...visibleRule(entity, alias, st.c)];
  const items = sql`(select '[' || coalesce(string_agg(${rowJsonOf(entity, alias, select, st)}, ',' order by ${k}.ord), '') || ']'
    from (${field.ids(row)}) as ${k} join ${sql.table(entity.table)} as ${sql.raw(alias)} on ${sql.join(where, sql` and `)})`;
  return sql`(case when ${field.present(row)} then ${items} else 'null' end)`;
}

/** A related row by key: its object, or null when there is none or the caller may not see it. */
function toOne(entity: Entity, key: Sql, select: RowSelection, st: State, open = false): Sql {
  readable(entity, st);
  const alias = `r${++st.depth}`;
  const where = [
    sql`${sql.raw(alias)}.id = ${key}`,
    ...(entity.only ? [entity.only(sql.raw(alias))] : []),
    ...(open ? [] : visibleRule(entity, alias, st.c)),
  ];
  return sql`coalesce((select ${rowJsonOf(entity, alias, select, st)} from ${sql.table(entity.table)} as ${sql.raw(alias)}
    where ${sql.join(where, sql` and `)}), 'null')`;
}

/**
 * A page of a list as a connection's JSON. Top-level lists pass `where`
 * (extra conditions over t); nested ones say how their rows hang off the
 * parent row. Throws the list's own errors (a bad cursor, an unknown filter
 * field) before anything runs.
 */
export function listJson(
  entity: Entity,
  args: ListArgs,
  select: Selection[],
  st: State,
  nested?: { via: Via; parent: Sql },
  where: Sql[] = [],
): Sql {
  readable(entity, st);
  const w = pageWindow(args);
  const c = st.c;
  const parts = [
    ...listWhere({
      entity: entity.spec,
      access: c.access,
      filter: args.filter,
      scope: entity.scope?.(args) ?? [],
      // Read only by a filter that needs the clock: a statement that never does is kept (flat.ts).
      get now() {
        return c.now;
      },
      actorId: c.viewerId,
    }),
    ...where,
  ];
  if (nested) parts.push(sql`${nested.via.parentKey} = ${nested.parent}.id`);
  if (entity.archivable && !args.includeArchived) parts.push(sql`t.archived_at is null`);
  const from = nested?.via.from ?? sql`${sql.table(entity.table)} as t`;
  // The list's total (searchIssues' totalCount): its rows under the same conditions, wherever the page starts.
  const counted = [...parts];
  const total = () =>
    json(
      sql`(select count(*) from ${from} ${counted.length ? sql`where ${sql.join(counted, sql` and `)}` : sql``})`,
    );
  const sortColumn = sql.raw(`t.${SORT_COLUMN[w.key]}`);
  if (w.cursor) parts.push(pastPosition(sortColumn, sql`t.id`, w.cursor, w.backward ? 'asc' : 'desc'));
  const dir = sql.raw(w.backward ? 'asc' : 'desc');
  const columns = entity.columns ? sql.raw(entity.columns.map((col) => `t.${col}`).join(', ')) : sql`t.*`;
  const alias = `r${++st.depth}`;
  const r = sql.raw(alias);
  const rows = sql`select ${columns}, row_number() over (order by ${sortColumn} ${dir}, t.id ${dir}) as __rn
    from ${from} ${parts.length ? sql`where ${sql.join(parts, sql` and `)}` : sql``}
    order by ${sortColumn} ${dir}, t.id ${dir} limit ${sql.lit(w.limit === 0 ? 0 : w.limit + 1)}`;

  const limit = sql.lit(w.limit);
  const kept = sql`${r}.__rn <= ${limit}`;
  // The page in the caller's order: a backward page was read oldest first.
  const order = sql.raw(w.backward ? `${alias}.__rn desc` : `${alias}.__rn`);
  const rowCursor = () => cursor(w.key, sql`${r}.${sql.raw(SORT_COLUMN[w.key])}`, sql`${r}.id`);
  const list = (item: Sql) =>
    sql`'[' || coalesce(string_agg(${item}, ',' order by ${order}) filter (where ${kept}), '') || ']'`;
  // First and last kept rows in the read order; which is the page's start depends on the direction.
  const firstRead = () => sql`(array_agg(${rowCursor()} order by ${r}.__rn) filter (where ${kept}))[1]`;
  const lastRead = () => sql`(array_agg(${rowCursor()} order by ${r}.__rn desc) filter (where ${kept}))[1]`;
  const more = sql`(count(*) > ${limit})`;

  const fields = select.map((s): [string, Sql] => {
    if ('constant' in s) return [s.key, constant(s.constant)];
    const sub = s.select ?? [];
    switch (s.field) {
      case 'nodes':
        return [s.key, list(rowJsonOf(entity, alias, sub, st))];
      case 'edges':
        return [
          s.key,
          list(
            object(
              fieldsOnly(sub).map((e): [string, Sql] => {
                if ('constant' in e) return [e.key, constant(e.constant)];
                if (e.field === 'cursor') return [e.key, json(rowCursor())];
                if (e.field === 'node') return [e.key, rowJsonOf(entity, alias, e.select ?? [], st)];
                throw new NotPlannable(`edge.${e.field}`);
              }),
            ),
          ),
        ];
      case 'totalCount':
        return [s.key, total()];
      case 'pageInfo':
        return [
          s.key,
          object(
            fieldsOnly(sub).map((p): [string, Sql] => {
              if ('constant' in p) return [p.key, constant(p.constant)];
              switch (p.field) {
                case 'hasNextPage':
                  return [p.key, w.backward ? constant(Boolean(args.before)) : json(more)];
                case 'hasPreviousPage':
                  return [p.key, w.backward ? json(more) : constant(Boolean(args.after))];
                case 'startCursor':
                  return [p.key, json(w.backward ? lastRead() : firstRead())];
                case 'endCursor':
                  return [p.key, json(w.backward ? firstRead() : lastRead())];
                default:
                  throw new NotPlannable(`pageInfo.${p.field}`);
              }
            }),
          ),
        ];
      default:
        throw new NotPlannable(`connection.${s.field}`);
    }
  });
  // `having true` groups the page into one row even when nothing selected aggregates it
  // (`issues { __typename }`): one answer, never one per row.
  return sql`(select ${object(fields)} from (${rows}) as ${r} having true)`;
}

/**
 * One row picked by `where` (over its alias) as a root answer: SQL NULL, not
 * JSON null, when there is none the caller may see, so the whole answer is
 * NULL and its caller can report the miss its own way.
 */
export function oneJson(entity: Entity, where: (alias: string) => Sql, select: RowSelection, st: State): Sql {
  readable(entity, st);
  const alias = `r${++st.depth}`;
  const conditions = [where(alias), ...visibleRule(entity, alias, st.c)];
  return sql`(select ${rowJsonOf(entity, alias, select, st)} from ${sql.table(entity.table)} as ${sql.raw(alias)}
    where ${sql.join(conditions, sql` and `)})`;
}

/** A row by its id, as a condition over its alias; undefined when the text is no id (no row can match). */
export function idCondition(alias: string, id: unknown): Sql | undefined {
  return typeof id === 'string' && isUuid(id) ? sql`${sql.ref(`${alias}.id`)} = ${id}::uuid` : undefined;
}

/** `value` while `condition` holds, else SQL NULL (which makes the whole answer NULL: see answerJson). */
export const onlyIf = (condition: Sql, value: Sql): Sql => sql`(case when ${condition} then ${value} end)`;

/**
 * One row of `entity`, under alias `row` in the caller's statement, as JSON
 * text. `select` is a view's fixed selection: its SQL is kept per caller (flat.ts).
 */
export function rowJson(entity: Entity, row: string, select: Selection[], c: ReadContext): Sql {
  return flatFor(select, `${entity.name}/${row}`, c, (watched) => builtRowJson(entity, row, select, watched));
}

/** rowJson as built each time, not kept (tests hold the two to the same SQL). */
export function builtRowJson(entity: Entity, row: string, select: Selection[], c: ReadContext): Sql {
  const st: State = { c, depth: 0, features: new Set() };
  const json = objectJson(entity, row, select, st);
  // REST's views select no connections, gated or not (read/rest.ts).
  if (st.features.size) throw new Error(`a view of ${entity.name} selects a list behind a feature`);
  return json;
}

/**
 * The JSON text of a top-level answer: `{ key: list, ... }` in the order asked.
 * A nested list behind a feature makes the whole answer NULL while the feature
 * is off (`featureOn`, the flag's SQL), so that the resolvers refuse it: a NULL
 * inside a list of rows would only drop its row.
 */
export function rootJson(
  roots: { key: string; json: (st: State) => Sql }[],
  c: ReadContext,
  featureOn?: (feature: FlagKey) => Sql,
): Sql {
  const st: State = { c, depth: 0, features: new Set() };
  const answer = object(roots.map((root) => [root.key, root.json(st)]));
  if (st.features.size === 0) return answer;
  if (!featureOn) throw new NotPlannable(`behind a feature: ${[...st.features].join(', ')}`);
  return onlyIf(sql.join([...st.features].map(featureOn), sql` and `), answer);
}

export type { State };

/** Runs a top-level answer: `{"data": ...}` as text, or null when a root row is missing or unseen, or a root's condition (onlyIf) fails. */
export async function answerJson(db: Db, data: Sql): Promise<string | null> {
  const { rows } = await sql<{ json: string | null }>`select '{"data":' || ${data} || '}' as json`.execute(
    db,
  );
  return rows[0]?.json ?? null;
}
