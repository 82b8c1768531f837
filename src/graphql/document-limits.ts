// Bounds on a document's shape, checked right after parsing and before
// validation, in one linear pass. Parsing already stops at MAX_TOKENS. The
// alias cap refuses the "same field under thousands of aliases" documents
// before graphql-js validation compares those fields pair by pair
// (OverlappingFieldsCanBeMerged), and before they could be priced or run.
import { type DocumentNode, Kind, visit } from 'graphql';
import { tooComplex } from './cost.js';

/** Lexical tokens one document may hold (graphql-js `parse` option). */
export const MAX_TOKENS = 20_000;
/** Times one field may be selected, under any aliases, in one selection set as written. */
export const MAX_ALIASES = 20;

/** Throws QUERY_TOO_COMPLEX when a selection set asks for one field more than MAX_ALIASES times. */
export function assertDocumentShape(document: DocumentNode): void {
  visit(document, {
    SelectionSet(set) {
      const seen = new Map<string, number>();
      for (const sel of set.selections) {
        if (sel.kind !== Kind.FIELD) continue;
        const name = sel.name.value;
        const n = (seen.get(name) ?? 0) + 1;
        if (n > MAX_ALIASES) {
          throw tooComplex(
            `Query too wide: the field "${name}" is selected more than ${MAX_ALIASES} times in one selection set. Send fewer aliases or split the request.`,
          );
        }
        seen.set(name, n);
      }
    },
  });
}
