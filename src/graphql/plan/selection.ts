// Looking ahead from a connection field at what its nodes select, the way
// graphql-js will execute it: fragments and inline fragments whose type
// condition the node type meets, @skip/@include evaluated with the request's
// variables, and each field's arguments coerced as its resolver will get them.
import {
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLField,
  GraphQLIncludeDirective,
  type GraphQLObjectType,
  type GraphQLResolveInfo,
  type GraphQLSchema,
  GraphQLSkipDirective,
  getArgumentValues,
  getDirectiveValues,
  getNamedType,
  isAbstractType,
  isObjectType,
  Kind,
  type SelectionSetNode,
} from 'graphql';

export interface SelectedField {
  node: FieldNode;
  // biome-ignore lint/suspicious/noExplicitAny: each field's definition has its own source type
  def: GraphQLField<any, any>;
  args: Record<string, unknown>;
}

/** The fields selected on the nodes of the connection `info` resolves (`nodes { }` and `edges { node { } }`). */
export function nodeSelections(
  info: GraphQLResolveInfo,
): { type: GraphQLObjectType; fields: SelectedField[] } | undefined {
  const connection = getNamedType(info.returnType);
  if (!isObjectType(connection)) return undefined;
  const nodesField = connection.getFields().nodes;
  const type = nodesField && getNamedType(nodesField.type);
  if (!type || !isObjectType(type)) return undefined;
  const sets: SelectionSetNode[] = [];
  for (const f of collect(
    info,
    connection,
    info.fieldNodes.map((n) => n.selectionSet),
  )) {
    if (f.name.value === 'nodes' && f.selectionSet) sets.push(f.selectionSet);
    if (f.name.value === 'edges') {
      const edge = getNamedType(connection.getFields().edges!.type);
      if (!isObjectType(edge)) continue;
      for (const e of collect(info, edge, [f.selectionSet])) {
        if (e.name.value === 'node' && e.selectionSet) sets.push(e.selectionSet);
      }
    }
  }
  const defs = type.getFields();
  const fields: SelectedField[] = [];
  for (const node of collect(info, type, sets)) {
    const def = defs[node.name.value];
    if (!def) continue; // __typename
    fields.push({ node, def, args: getArgumentValues(def, node, info.variableValues) });
  }
  return { type, fields };
}

/** What collecting fields needs of a request: its schema, fragments and variables. */
export interface FieldScope {
  schema: GraphQLSchema;
  fragments: Record<string, FragmentDefinitionNode>;
  variables: Record<string, unknown>;
}

/**
 * The fields some selection sets select on `type`, grouped by response key in
 * document order, as graphql-js's field collection finds them: fragments whose
 * type condition `type` meets (each once), @skip/@include with the variables.
 * The read plans here and the compiled reads (graphql/compiled.ts) both use it.
 */
export function collectFields(
  scope: FieldScope,
  type: GraphQLObjectType,
  sets: readonly (SelectionSetNode | undefined)[],
): Map<string, FieldNode[]> {
  const fields = new Map<string, FieldNode[]>();
  const seen = new Set<string>();
  const included = (node: Parameters<typeof getDirectiveValues>[1]) => {
    if (!node.directives?.length) return true;
    if (getDirectiveValues(GraphQLSkipDirective, node, scope.variables)?.['if'] === true) return false;
    return getDirectiveValues(GraphQLIncludeDirective, node, scope.variables)?.['if'] !== false;
  };
  const applies = (condition: string | undefined) => {
    if (!condition || condition === type.name) return true;
    const t = scope.schema.getType(condition);
    return t !== undefined && isAbstractType(t) && scope.schema.isSubType(t, type);
  };
  const walk = (set: SelectionSetNode | undefined) => {
    for (const sel of set?.selections ?? []) {
      if (!included(sel)) continue;
      if (sel.kind === Kind.FIELD) {
        const key = sel.alias?.value ?? sel.name.value;
        const list = fields.get(key);
        if (list) list.push(sel);
        else fields.set(key, [sel]);
      } else if (sel.kind === Kind.INLINE_FRAGMENT) {
        if (applies(sel.typeCondition?.name.value)) walk(sel.selectionSet);
      } else {
        const name = sel.name.value;
        const fragment = scope.fragments[name];
        if (seen.has(name) || !fragment) continue;
        seen.add(name);
        if (applies(fragment.typeCondition.name.value)) walk(fragment.selectionSet);
      }
    }
  };
  for (const set of sets) walk(set);
  return fields;
}

/** The field nodes `info`'s request selects on `type` in some selection sets. */
const collect = (info: GraphQLResolveInfo, type: GraphQLObjectType, sets: (SelectionSetNode | undefined)[]) =>
  [
    ...collectFields(
      { schema: info.schema, fragments: info.fragments, variables: info.variableValues },
      type,
      sets,
    ).values(),
  ].flat();
