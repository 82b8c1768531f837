// The fields a selection selects on a type, found the way graphql-js will
// execute it: fragments and inline fragments whose type condition the type
// meets, @skip/@include evaluated with the request's variables.
import {
  type FieldNode,
  type FragmentDefinitionNode,
  GraphQLIncludeDirective,
  type GraphQLObjectType,
  type GraphQLSchema,
  GraphQLSkipDirective,
  getDirectiveValues,
  isAbstractType,
  Kind,
  type SelectionSetNode,
} from 'graphql';

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
