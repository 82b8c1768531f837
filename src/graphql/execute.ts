// Runs one GraphQL request for an authenticated caller: check the budget is
// not known to be used up, parse, bound the document's shape, validate, coerce variables,
// measure cost and depth, charge the caller's budget, execute, serialise the
// answer under its size ceiling.
//
// Every request that gets past the budget check is charged: one request, plus
// its cost when it runs, or REFUSAL_CHARGE points when it is refused as too
// complex (wide, deep, costly), so refusals cannot be repeated for free.
import {
  type DocumentNode,
  execute,
  type FragmentDefinitionNode,
  type GraphQLSchema,
  getOperationAST,
  getVariableValues,
  Kind,
  type OperationDefinitionNode,
  parse,
  type SelectionSetNode,
  specifiedRules,
  validate,
} from 'graphql';
import { graphqlAction, insufficientScope, scopesAllow } from '../modules/oauth/scopes.js';
import type { Actor, AppContext } from '../platform/context.js';
import { AppError } from '../platform/errors.js';
import { answerCompiled } from './compiled.js';
import { createGqlContext } from './context.js';
import { assertWithinLimits, MAX_COMPLEXITY, measure } from './cost.js';
import { assertDocumentNesting, assertDocumentShape, MAX_TOKENS } from './document-limits.js';
import { formatAppError, formatError, type GraphqlErrorBody } from './errors.js';
import type { BudgetState, RateBudget } from './rate-budget.js';
import { MAX_RESPONSE_BYTES, serialiseWithin } from './response-size.js';

/** Points charged for a request refused as too complex: the per-request limit. */
export const REFUSAL_CHARGE = MAX_COMPLEXITY;

export interface GraphqlRequest {
  query?: unknown;
  variables?: unknown;
  operationName?: unknown;
}

export interface GraphqlResponse {
  status: number;
  body: { data?: unknown; errors?: GraphqlErrorBody[] };
  /** The body as JSON text, for answers that ran (the only ones that can be large). */
  json?: string;
  /** Answered by a compiled read (compiled.ts) rather than the resolvers. */
  compiled?: boolean;
  cost?: number;
  budget?: BudgetState;
  retryAfter?: number;
}

const fail = (err: AppError, extra: Partial<GraphqlResponse> = {}): GraphqlResponse => ({
  status: err.status,
  body: { errors: [formatAppError(err)] },
  ...(err.retryAfter ? { retryAfter: err.retryAfter } : {}),
  ...extra,
});

// Clients send the same few documents over and over (@linear/sdk's are large),
// so a document that parsed and validated once is kept, by its exact text.
// Validation depends only on the document and the schema, which is fixed for
// the process; cost depends on variables and is measured on every request.
const MAX_CACHED_DOCUMENTS = 500;
const MAX_CACHED_QUERY_LENGTH = 100_000;
const validDocuments = new Map<string, DocumentNode>();

function rememberValid(query: string, document: DocumentNode): void {
  if (query.length > MAX_CACHED_QUERY_LENGTH) return;
  if (validDocuments.size >= MAX_CACHED_DOCUMENTS) {
    validDocuments.delete(validDocuments.keys().next().value as string);
  }
  validDocuments.set(query, document);
}

/** A request ready to run, or the answer that refuses it and the points that refusal costs. */
type Prepared =
  | {
      document: DocumentNode;
      op: OperationDefinitionNode;
      cost: number;
      fragments: Record<string, FragmentDefinitionNode>;
      variables: Record<string, unknown>;
      refused?: undefined;
    }
  | { refused: GraphqlResponse; charge: number };

const refuse = (response: GraphqlResponse, charge = 0): Prepared => ({ refused: response, charge });

function prepare(schema: GraphQLSchema, req: GraphqlRequest, log: (err: unknown) => void): Prepared {
  if (typeof req.query !== 'string' || req.query.trim() === '') {
    return refuse(fail(new AppError(400, 'BAD_REQUEST', 'Send a JSON body with a "query" string')));
  }
  if (req.variables != null && (typeof req.variables !== 'object' || Array.isArray(req.variables))) {
    return refuse(fail(new AppError(400, 'BAD_REQUEST', '"variables" must be an object')));
  }
  if (req.operationName != null && typeof req.operationName !== 'string') {
    return refuse(fail(new AppError(400, 'BAD_REQUEST', '"operationName" must be a string')));
  }
  const tooComplex = (err: unknown) => {
    if (!(err instanceof AppError)) throw err;
    return refuse(fail(err), REFUSAL_CHARGE);
  };

  let document = validDocuments.get(req.query);
  if (document) {
    // Refresh its place in the insertion order: the map evicts the oldest first.
    validDocuments.delete(req.query);
    validDocuments.set(req.query, document);
  } else {
    try {
      assertDocumentNesting(req.query);
    } catch (err) {
      return refuse(fail(err as AppError));
    }
    try {
      document = parse(req.query, { maxTokens: MAX_TOKENS });
    } catch (err) {
      return refuse({ status: 400, body: { errors: [formatError(err as never, log)] } });
    }
    try {
      assertDocumentShape(document);
    } catch (err) {
      return tooComplex(err);
    }
    const errors = validate(schema, document, specifiedRules);
    if (errors.length > 0)
      return refuse({ status: 400, body: { errors: errors.map((e) => formatError(e, log)) } });
    rememberValid(req.query, document);
  }
  const op = getOperationAST(document, (req.operationName as string | undefined) ?? undefined);
  if (!op) return refuse(fail(new AppError(400, 'BAD_REQUEST', 'Name the operation to run (operationName)')));
  if (op.operation === 'subscription') {
    return refuse(fail(new AppError(400, 'BAD_REQUEST', 'Subscriptions are not supported')));
  }
  // Cost is measured with the variables execution will see (defaults applied).
  const vars = getVariableValues(
    schema,
    op.variableDefinitions ?? [],
    (req.variables ?? {}) as Record<string, unknown>,
  );
  if (vars.errors)
    return refuse({ status: 400, body: { errors: vars.errors.map((e) => formatError(e, log)) } });

  const fragments: Record<string, FragmentDefinitionNode> = {};
  for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments[d.name.value] = d;
  const m = measure(schema, op, fragments, vars.coerced);
  try {
    assertWithinLimits(m);
  } catch (err) {
    return tooComplex(err);
  }
  return { document, op, cost: m.cost, fragments, variables: vars.coerced };
}

/**
 * An OAuth token's scopes against the operation (modules/oauth/scopes.ts): a
 * query reads; each root field of a mutation is its own write. Other
 * credentials pass.
 */
function scopeRefusal(
  actor: Actor,
  op: OperationDefinitionNode,
  fragments: Record<string, FragmentDefinitionNode>,
): AppError | undefined {
  if (!actor.oauth) return undefined;
  const operation = op.operation === 'mutation' ? 'mutation' : 'query';
  for (const field of rootFields(op.selectionSet, fragments)) {
    const action = graphqlAction(operation, field);
    if (!scopesAllow(actor.oauth.scopes, action)) return insufficientScope(action);
  }
  return undefined;
}

/** The names of an operation's root fields, through fragments. */
function rootFields(
  set: SelectionSetNode,
  fragments: Record<string, FragmentDefinitionNode>,
  depth = 0,
): string[] {
  if (depth > 10) return [];
  return set.selections.flatMap((s) => {
    if (s.kind === Kind.FIELD) return [s.name.value];
    if (s.kind === Kind.INLINE_FRAGMENT) return rootFields(s.selectionSet, fragments, depth + 1);
    const fragment = fragments[s.name.value];
    return fragment ? rootFields(fragment.selectionSet, fragments, depth + 1) : [];
  });
}

export async function runGraphql(
  schema: GraphQLSchema,
  app: AppContext,
  actor: Actor,
  req: GraphqlRequest,
  budget?: RateBudget,
): Promise<GraphqlResponse> {
  const log = (err: unknown) => app.log.error({ err }, 'graphql resolver failed');
  try {
    budget?.check(actor.id);
  } catch (err) {
    return overBudget(err);
  }
  const ready = prepare(schema, req, log);
  if (ready.refused) {
    let state: BudgetState | undefined;
    try {
      state = await budget?.record(actor.id, ready.charge);
    } catch (err) {
      return overBudget(err);
    }
    return { ...ready.refused, cost: ready.charge, ...(state ? { budget: state } : {}) };
  }
  let state: BudgetState | undefined;
  try {
    state = await budget?.charge(actor.id, ready.cost);
  } catch (err) {
    return { ...overBudget(err), cost: ready.cost };
  }

  const contextValue = createGqlContext(app, actor);
  const extra = { cost: ready.cost, ...(state ? { budget: state } : {}) };
  const outOfScope = scopeRefusal(actor, ready.op, ready.fragments);
  if (outOfScope) return { ...fail(outOfScope), ...extra };
  const compiled = await answerCompiled(schema, contextValue, ready.op, ready.fragments, ready.variables);
  if (compiled !== undefined) {
    if (Buffer.byteLength(compiled) > MAX_RESPONSE_BYTES)
      return { ...fail(responseTooLarge(false)), ...extra };
    return compiledResponse(compiled, extra);
  }
  const result = await execute({
    schema,
    document: ready.document,
    variableValues: req.variables as Record<string, unknown> | undefined,
    operationName: ready.op.name?.value,
    contextValue,
  });
  const body: GraphqlResponse['body'] = { data: result.data ?? null };
  if (result.errors?.length) body.errors = result.errors.map((e) => formatError(e, log));
  const json = serialiseWithin(body);
  if (json === undefined) return { ...fail(responseTooLarge(ready.op.operation === 'mutation')), ...extra };
  // Errors without data: execution refused the request as a whole.
  const status = result.data === undefined && body.errors ? 400 : 200;
  return { status, body, json, ...extra };
}

/** A compiled answer: its JSON text is what is sent; the body is parsed only if someone reads it. */
function compiledResponse(json: string, extra: Partial<GraphqlResponse>): GraphqlResponse {
  let body: GraphqlResponse['body'] | undefined;
  return {
    status: 200,
    json,
    compiled: true,
    get body() {
      body ??= JSON.parse(json) as GraphqlResponse['body'];
      return body;
    },
    ...extra,
  };
}

function overBudget(err: unknown): GraphqlResponse {
  if (!(err instanceof AppError)) throw err;
  const state = (err as AppError & { budget?: BudgetState }).budget;
  return fail(err, state ? { budget: state } : {});
}

const responseTooLarge = (mutation: boolean) =>
  new AppError(
    400,
    'QUERY_TOO_COMPLEX',
    `Response too large: the answer exceeds ${MAX_RESPONSE_BYTES / 1024 / 1024} MiB of JSON. Ask for fewer records (first/last) or fewer fields.${mutation ? ' The mutation itself was carried out.' : ''}`,
  );
