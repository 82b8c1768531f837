// Compiled reads: a query whose every field the read model declares
// (platform/read/entities.ts) is answered by one statement in which
// PostgreSQL builds the whole `{"data":...}` JSON, sent as it comes. The
// document was parsed, validated and measured (execute.ts) before; here its
// selections are collected as graphql-js would (fragments, @skip/@include,
// merged fields by response key), arguments coerced as resolvers get them.
// Anything the model cannot answer (a field it does not declare, a root
// field it does not list, arguments the list refuses) answers undefined and
// the resolvers run instead, so the answer is the same either way.
import {
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLObjectType,
  type GraphQLOutputType,
  type GraphQLSchema,
  getArgumentValues,
  getNamedType,
  isInterfaceType,
  isObjectType,
  type OperationDefinitionNode,
} from 'graphql';
import type { FlagKey } from '../modules/flags/catalog.js';
import { flagOnSql } from '../modules/flags/queries.js';
import { issueRefCondition, issueSearchByTeamRef } from '../modules/issues/queries.js';
import { projectRefCondition } from '../modules/projects/queries.js';
import { teamRefCondition } from '../modules/teams/queries.js';
import { liveUserCondition } from '../modules/users/queries.js';
import { isDataException } from '../platform/db/errors.js';
import { AppError } from '../platform/errors.js';
import { isUuid } from '../platform/ids.js';
import { searchQuery } from '../platform/list/search.js';
import {
  answerJson,
  fieldsOnly,
  idCondition,
  type ListArgs,
  listJson,
  NotPlannable,
  oneJson,
  onlyIf,
  type RowSelection,
  rootJson,
  type Selection,
  type State,
} from '../platform/read/compile.js';
import {
  attachment,
  comment,
  customView,
  cycle,
  issue,
  issueRelation,
  issueSearchResult,
  label,
  milestone,
  notification,
  project,
  projectUpdate,
  team,
  teamMembership,
  user,
  webhook,
  workflowState,
} from '../platform/read/entities.js';
import { flatFor } from '../platform/read/flat.js';
import { constant, object, type Sql } from '../platform/read/json.js';
import type { Embedded, Entity, ReadContext } from '../platform/read/model.js';
import { emptyValue, sourceFields, unheldFields } from './build-schema.js';
import type { GqlContext } from './context.js';
import { collectFields } from './selection.js';

type Vars = Record<string, unknown>;
// biome-ignore lint/suspicious/noExplicitAny: field definitions of any source type
type Field = GraphQLField<any, any>;

interface Doc {
  schema: GraphQLSchema;
  fragments: Record<string, FragmentDefinitionNode>;
  variables: Vars;
}

class Unplannable extends Error {}
const give_up = (why: string): never => {
  throw new Unplannable(why);
};

/**
 * Root fields answered by a list of an entity, as the resolvers list it
 * (connections.ts listConnection). `feature`: the resolvers refuse the field
 * while that flag is off, so the compiled answer is given only while it is on.
 */
const ROOT_LISTS: Record<
  string,
  { entity: Entity; feature?: FlagKey; args?: (args: ListArgs & Vars) => ListArgs }
> = {
  issues: { entity: issue },
  // The older name of the search: the issues list, its query as the filter field searchableContent
  // (resolvers/reads.ts issueSearch).
  issueSearch: {
    entity: issue,
    args: ({ query, ...a }) =>
      query
        ? {
            ...a,
            filter: { and: [{ searchableContent: { contains: query } }, ...(a.filter ? [a.filter] : [])] },
          }
        : a,
  },
  users: { entity: user },
  teams: { entity: team },
  teamMemberships: { entity: teamMembership },
  workflowStates: { entity: workflowState },
  issueLabels: { entity: label },
  comments: { entity: comment },
  projects: { entity: project, feature: 'projects' },
  cycles: { entity: cycle, feature: 'cycles' },
  projectMilestones: { entity: milestone, feature: 'projects' },
  projectUpdates: { entity: projectUpdate, feature: 'projects' },
  customViews: { entity: customView },
  issueRelations: { entity: issueRelation },
  attachments: { entity: attachment, feature: 'attachments' },
  notifications: { entity: notification },
  // Admins' alone: for anyone else the declaration is not planned and the resolver refuses.
  webhooks: { entity: webhook },
};

type RootOne = {
  entity: Entity;
  /** The condition the arguments make, as the resolver's lookup matches (undefined: none can match). */
  where: (alias: string, args: Vars, c: ReadContext) => Sql | undefined;
  feature?: FlagKey;
};
const byId = (entity: Entity, feature?: FlagKey): RootOne => ({
  entity,
  where: (alias, args) => idCondition(alias, args['id']),
  ...(feature ? { feature } : {}),
});

/** Root fields answered by one row (resolvers/reads.ts and lookups.ts: by id, or the lookups they make). */
const ROOT_ONES: Record<string, RootOne> = {
  issue: { entity: issue, where: (alias, args, c) => issueRefCondition(alias, String(args['id']), c.access) },
  viewer: { entity: user, where: (alias, _args, c) => idCondition(alias, c.viewerId) },
  user: { entity: user, where: (alias, args) => liveUserCondition(alias, String(args['id'])) },
  team: { entity: team, where: (alias, args) => teamRefCondition(alias, String(args['id'])) },
  teamMembership: byId(teamMembership),
  workflowState: byId(workflowState),
  issueLabel: byId(label),
  comment: byId(comment),
  project: {
    entity: project,
    where: (alias, args) => projectRefCondition(alias, String(args['id'])),
    feature: 'projects',
  },
  cycle: byId(cycle, 'cycles'),
  projectMilestone: byId(milestone, 'projects'),
  projectUpdate: byId(projectUpdate, 'projects'),
  customView: byId(customView),
  issueRelation: byId(issueRelation),
  attachment: byId(attachment, 'attachments'),
  notification: byId(notification),
  webhook: byId(webhook),
};

/**
 * The object type an entity's rows are answered as where the schema names
 * `named`: the type itself, or the entity's type where `named` is an
 * interface it implements.
 */
function rowType(doc: Doc, named: GraphQLNamedType, entity: Entity): GraphQLObjectType {
  if (isObjectType(named) && named.name === entity.name) return named;
  const own = doc.schema.getType(entity.name);
  if (isInterfaceType(named) && isObjectType(own) && doc.schema.isSubType(named, own)) return own;
  return give_up(`${named.name} is no ${entity.name}`);
}

/**
 * What is asked of each row of `entity` where the schema names `named`: the
 * fields of its type; for an entity of several kinds (a Notification: an
 * IssueNotification or a ProjectNotification), the fields asked of each kind,
 * collected for that kind's type as graphql-js does for a row of it.
 */
function rowSelections(doc: Doc, named: GraphQLNamedType, entity: Entity, nodes: FieldNode[]): RowSelection {
  if (!entity.kinds) return objectSelections(doc, rowType(doc, named, entity), entity, nodes);
  if (!isInterfaceType(named) || named.name !== entity.name) return give_up(`${named.name} of one kind`);
  const byKind: Record<string, Selection[]> = {};
  for (const kind of entity.kinds) {
    const type = doc.schema.getType(kind.name);
    if (!isObjectType(type) || !doc.schema.isSubType(named, type)) return give_up(`${kind.name}`);
    byKind[kind.name] = objectSelections(doc, type, entity, nodes);
  }
  return { byKind };
}

/** Fields by response key, in the order graphql-js executes them. */
const subSets = (nodes: FieldNode[]) => nodes.flatMap((n) => (n.selectionSet ? [n.selectionSet] : []));

/**
 * The answer of a field this service does not hold, as graphql-js would give
 * it: the empty value of its type, and for an object the same for each field
 * selected on it (read from the empty object, as its default resolvers do).
 * Undefined when a field below has a resolver of its own.
 */
function unheldValue(doc: Doc, def: Field, nodes: FieldNode[]): { value: unknown } | undefined {
  if (!unheldFields.has(def)) return undefined;
  return emptyAnswer(doc, def.type, emptyValue(def.type), nodes);
}

function emptyAnswer(
  doc: Doc,
  type: GraphQLOutputType,
  value: unknown,
  nodes: FieldNode[],
): { value: unknown } | undefined {
  const named = getNamedType(type);
  if (value == null || !isObjectType(named)) return { value: value ?? null };
  if (Array.isArray(value)) return value.length ? undefined : { value: [] };
  const source = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [key, fieldNodes] of collectFields(doc, named, subSets(nodes))) {
    const name = fieldNodes[0]!.name.value;
    if (name === '__typename') {
      out[key] = named.name;
      continue;
    }
    const def = named.getFields()[name];
    if (!def) return undefined;
    let v: unknown;
    if (unheldFields.has(def)) v = emptyValue(def.type);
    else if (sourceFields.has(def)) v = source[name] === undefined ? emptyValue(def.type) : source[name];
    else return undefined;
    const answer = emptyAnswer(doc, def.type, v, fieldNodes);
    if (!answer) return undefined;
    out[key] = answer.value;
  }
  return { value: out };
}

/** The selections of an object of `entity` (GraphQL type `type`). */
function objectSelections(
  doc: Doc,
  type: GraphQLObjectType,
  entity: Entity | Embedded,
  nodes: FieldNode[],
): Selection[] {
  const out: Selection[] = [];
  for (const [key, fieldNodes] of collectFields(doc, type, subSets(nodes))) {
    const name = fieldNodes[0]!.name.value;
    if (name === '__typename') {
      out.push({ key, constant: type.name });
      continue;
    }
    const def = type.getFields()[name] ?? give_up(`${type.name}.${name}`);
    // A field the schema does not hold on this type answers empty, whatever the entity declares
    // (IssueSearchResult has no relations).
    const field = unheldFields.has(def) ? undefined : entity.fields[name];
    if (!field) {
      const empty = unheldValue(doc, def, fieldNodes) ?? give_up(`${type.name}.${name}`);
      out.push({ key, constant: empty.value });
      continue;
    }
    if (field.kind === 'value') {
      if (def.args.length) give_up(`${type.name}.${name} takes arguments`);
      out.push({ key, field: name });
      continue;
    }
    const named = getNamedType(def.type);
    if (!isObjectType(named)) return give_up(`${type.name}.${name}`);
    if (field.kind === 'object') {
      const embedded = field.of();
      if (named.name !== embedded.name || def.args.length) give_up(`${type.name}.${name} is a ${named.name}`);
      out.push({ key, field: name, select: objectSelections(doc, named, embedded, fieldNodes) });
      continue;
    }
    const target = field.to();
    if (field.kind === 'one' || 'plain' in field) {
      if (def.args.length) give_up(`${type.name}.${name} takes arguments`);
      out.push({ key, field: name, select: rowSelections(doc, named, target, fieldNodes) });
    } else {
      const args = getArgumentValues(def, fieldNodes[0]!, doc.variables) as ListArgs;
      out.push({ key, field: name, args, select: connectionSelections(doc, named, target, fieldNodes) });
    }
  }
  return out;
}

/** The selections of a connection of `entity`: nodes, edges { node cursor }, pageInfo. */
function connectionSelections(
  doc: Doc,
  type: GraphQLObjectType,
  entity: Entity,
  nodes: FieldNode[],
  withTotal = false,
): Selection[] {
  const nodesType = getNamedType(type.getFields().nodes?.type);
  if (!nodesType) return give_up(type.name);
  const out: Selection[] = [];
  for (const [key, fieldNodes] of collectFields(doc, type, subSets(nodes))) {
    const name = fieldNodes[0]!.name.value;
    if (name === '__typename') out.push({ key, constant: type.name });
    else if (name === 'nodes')
      out.push({ key, field: name, select: rowSelections(doc, nodesType, entity, fieldNodes) });
    else if (name === 'pageInfo')
      out.push({
        key,
        field: name,
        select: plainSelections(doc, fieldNodes, name, [
          'hasNextPage',
          'hasPreviousPage',
          'startCursor',
          'endCursor',
        ]),
      });
    else if (name === 'totalCount' && withTotal) out.push({ key, field: name });
    else if (name === 'edges') {
      const edgeType = getNamedType(type.getFields().edges!.type) as GraphQLObjectType;
      const edge: Selection[] = [];
      for (const [k, n] of collectFields(doc, edgeType, subSets(fieldNodes))) {
        const f = n[0]!.name.value;
        if (f === '__typename') edge.push({ key: k, constant: edgeType.name });
        else if (f === 'cursor') edge.push({ key: k, field: f });
        else if (f === 'node')
          edge.push({ key: k, field: f, select: rowSelections(doc, nodesType, entity, n) });
        else give_up(`${edgeType.name}.${f}`);
      }
      out.push({ key, field: name, select: edge });
    } else {
      // A payload's field that its resolver leaves out (IssueSearchPayload.archivePayload): its empty value.
      const def = type.getFields()[name] ?? give_up(`${type.name}.${name}`);
      const empty = sourceFields.has(def)
        ? emptyAnswer(doc, def.type, emptyValue(def.type), fieldNodes)
        : unheldValue(doc, def, fieldNodes);
      out.push({ key, constant: (empty ?? give_up(`${type.name}.${name}`)).value });
    }
  }
  return out;
}

function plainSelections(doc: Doc, nodes: FieldNode[], typeName: string, allowed: string[]): Selection[] {
  const type = doc.schema.getType(typeName === 'pageInfo' ? 'PageInfo' : typeName) as GraphQLObjectType;
  return [...collectFields(doc, type, subSets(nodes))].map(([key, n]) => {
    const f = n[0]!.name.value;
    if (f === '__typename') return { key, constant: type.name };
    if (!allowed.includes(f)) give_up(`${type.name}.${f}`);
    return { key, field: f };
  });
}

type Root = {
  key: string;
  entity: Entity;
  args: ListArgs;
  select: RowSelection;
  one?: RootOne;
  feature?: FlagKey | undefined;
  /** searchIssues: the issues list under the search's conditions, with its total. */
  search?: true;
};

type SearchArgs = ListArgs & { term?: string; teamId?: string | null; includeComments?: boolean | null };

/** searchIssues with no words to search: the resolver's empty page, whatever else was asked. */
function emptySearch(select: Selection[]): Sql {
  const EMPTY_PAGE: Record<string, unknown> = {
    hasNextPage: false,
    hasPreviousPage: false,
    startCursor: null,
    endCursor: null,
  };
  return object(
    select.map((s): [string, Sql] => {
      if ('constant' in s) return [s.key, constant(s.constant)];
      if (s.field === 'pageInfo')
        return [
          s.key,
          object(
            fieldsOnly(s.select).map((p): [string, Sql] => [
              p.key,
              constant('constant' in p ? p.constant : EMPTY_PAGE[p.field]),
            ]),
          ),
        ];
      return [s.key, constant(s.field === 'totalCount' ? 0 : [])];
    }),
  );
}

/**
 * searchIssues as resolvers/issue-fields.ts answers it: the issues list (its
 * order, cursors and filter) under the one search's conditions, its total in
 * the same statement. A team named by an id the loaders would not find as
 * written (upper case) is left to the resolver.
 */
function searchJson(root: Root, c: ReadContext): (st: State) => Sql {
  const args = root.args as SearchArgs;
  const query = searchQuery(String(args.term ?? ''));
  if (!query) return () => emptySearch(fieldsOnly(root.select));
  const teamRef = args.teamId || undefined;
  if (teamRef && isUuid(teamRef) && teamRef !== teamRef.toLowerCase()) throw new NotPlannable('team id case');
  const search = issueSearchByTeamRef(query, args.includeComments === true, teamRef, c.access);
  if (!search) throw new NotPlannable('no team can match');
  const page = (st: State) =>
    listJson(root.entity, args, fieldsOnly(root.select), st, undefined, search.where);
  // A team the caller does not see: NULL, and the resolver answers "not found".
  const seen = search.teamSeen;
  return seen ? (st) => onlyIf(seen, page(st)) : page;
}

/** The plan of an operation: its root lists and their selections, or why the model cannot answer it. */
export function planOperation(
  schema: GraphQLSchema,
  op: OperationDefinitionNode,
  fragments: Record<string, FragmentDefinitionNode>,
  variables: Vars,
): { roots: Root[] } | { unplannable: string } {
  if (op.operation !== 'query') return { unplannable: op.operation };
  const doc: Doc = { schema, fragments, variables };
  const queryType = schema.getQueryType()!;
  try {
    const roots = [...collectFields(doc, queryType, [op.selectionSet])].map(([key, nodes]) => {
      const name = nodes[0]!.name.value;
      const def = queryType.getFields()[name] ?? give_up(`Query.${name}`);
      const named = getNamedType(def.type);
      const args = getArgumentValues(def, nodes[0]!, variables) as ListArgs;
      const one = ROOT_ONES[name];
      if (one)
        return {
          key,
          entity: one.entity,
          args,
          one,
          feature: one.feature,
          select: rowSelections(doc, named, one.entity, nodes),
        };
      if (name === 'searchIssues') {
        if (!isObjectType(named)) return give_up(`Query.${name}`);
        const select = connectionSelections(doc, named, issueSearchResult, nodes, true);
        return { key, entity: issueSearchResult, args, search: true as const, select };
      }
      const list = ROOT_LISTS[name] ?? give_up(`Query.${name}`);
      if (!isObjectType(named)) return give_up(`Query.${name}`);
      return {
        key,
        entity: list.entity,
        args: list.args ? list.args(args as ListArgs & Vars) : args,
        feature: list.feature,
        select: connectionSelections(doc, named, list.entity, nodes),
      };
    });
    return { roots };
  } catch (err) {
    if (err instanceof Unplannable) return { unplannable: err.message };
    throw err;
  }
}

/** Variables longer than this (as JSON) are not worth keeping a statement for. */
const MAX_KEPT_VARIABLES = 2_000;
/** Statements kept per document (callers times variables); a page's statement is 5-50 kB. */
const KEPT_PER_DOCUMENT = 20;

/** The SQL of the answer's data; throws NotPlannable when the model cannot answer the document. */
function compiledData(
  schema: GraphQLSchema,
  op: OperationDefinitionNode,
  fragments: Record<string, FragmentDefinitionNode>,
  variables: Vars,
  c: ReadContext,
): Sql {
  const plan = planOperation(schema, op, fragments, variables);
  if (!('roots' in plan)) throw new NotPlannable(plan.unplannable);
  const roots = plan.roots.map((root) => {
    const one = root.one;
    let json: (st: State) => Sql;
    if (root.search) json = searchJson(root, c);
    else if (!one) json = (st) => listJson(root.entity, root.args, fieldsOnly(root.select), st);
    else {
      const args = root.args as Vars;
      // Text that cannot name a row: the resolvers answer with their "not found".
      if (!one.where('r', args, c)) throw new NotPlannable('no row can match');
      json = (st) => oneJson(root.entity, (alias) => one.where(alias, args, c)!, root.select, st);
    }
    // A feature switched off: the answer is NULL, and the resolvers refuse the field.
    const feature = root.feature;
    return { key: root.key, json: feature ? (st: State) => onlyIf(flagOnSql(feature), json(st)) : json };
  });
  return rootJson(roots, c, flagOnSql);
}

/**
 * The answer's JSON text (`{"data":{...}}`), or undefined when the resolvers
 * must answer: the model cannot plan the document, or its arguments are
 * refused (the resolvers then report the error at its path).
 */
export async function answerCompiled(
  schema: GraphQLSchema,
  g: GqlContext,
  op: OperationDefinitionNode,
  fragments: Record<string, FragmentDefinitionNode>,
  variables: Vars,
): Promise<string | undefined> {
  if (!g.app.config.graphqlCompiledReads) return undefined;
  const c = {
    access: await g.access(),
    viewerId: g.viewerId,
    publicUrl: g.app.config.publicUrl,
    now: g.now,
  };
  let data: Sql;
  try {
    const build = (watched: ReadContext) => compiledData(schema, op, fragments, variables, watched);
    // The same document with the same variables, for the same caller, is the same SQL (read/flat.ts).
    const variant = JSON.stringify(variables);
    data =
      variant.length <= MAX_KEPT_VARIABLES ? flatFor(op, variant, c, build, KEPT_PER_DOCUMENT) : build(c);
  } catch (err) {
    // Not plannable, or a bad cursor or filter: the resolvers answer, with the error at the field's path.
    if (err instanceof AppError || err instanceof NotPlannable) return undefined;
    throw err;
  }
  try {
    // NULL: a root row the caller may not see, or none: the resolvers answer with their "not found".
    return (await answerJson(g.db, data)) ?? undefined;
  } catch (err) {
    // A value PostgreSQL refuses (a NUL in a filter's text): the resolvers report it at its field.
    if (isDataException(err)) return undefined;
    throw err;
  }
}
