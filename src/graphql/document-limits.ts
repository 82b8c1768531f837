// Bounds on a document's shape, checked right after parsing and before
// validation, in one linear pass. Parsing already stops at MAX_TOKENS. The
// alias cap refuses the "same field under thousands of aliases" documents
// before graphql-js validation compares those fields pair by pair
// (OverlappingFieldsCanBeMerged), and before they could be priced or run.
import { type DocumentNode, Kind, visit } from 'graphql';
import { AppError } from '../platform/errors.js';
import { jsonTooDeep, MAX_JSON_DEPTH } from '../platform/http/json-depth.js';
import { MAX_ALIASES } from './alias-limit.js';
import { tooComplex } from './cost.js';

/** Lexical tokens one document may hold (graphql-js `parse` option). */
export const MAX_TOKENS = 20_000;
export { MAX_ALIASES };

/**
 * Braces, brackets and parentheses a document may nest as written: room for
 * the deepest selection (cost.ts MAX_DEPTH) around an argument value of
 * MAX_JSON_DEPTH levels, and more. graphql-js parses recursively (a few
 * thousand levels overflow the stack), so deeper text is refused unparsed.
 */
export const MAX_DOCUMENT_NESTING = 2 * MAX_JSON_DEPTH;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const HASH = 0x23;
const NEWLINE = 0x0a;
const RETURN = 0x0d;
const OPENERS = new Set([0x7b, 0x5b, 0x28]); // { [ (
const CLOSERS = new Set([0x7d, 0x5d, 0x29]); // } ] )

/**
 * Refuses a document whose brackets nest deeper than MAX_DOCUMENT_NESTING,
 * in one pass over the text: strings, block strings and comments are skipped,
 * the rest is left for the parser to judge.
 */
export function assertDocumentNesting(source: string): void {
  let depth = 0;
  for (let i = 0; i < source.length; i++) {
    const c = source.charCodeAt(i);
    if (c === HASH) {
      while (
        i + 1 < source.length &&
        source.charCodeAt(i + 1) !== NEWLINE &&
        source.charCodeAt(i + 1) !== RETURN
      )
        i++;
    } else if (c === QUOTE) {
      if (source.startsWith('"""', i)) {
        // A block string ends at the next unescaped triple quote.
        i += 3;
        while (i < source.length && !source.startsWith('"""', i)) i += source.startsWith('\\"""', i) ? 4 : 1;
        i += 2;
      } else {
        i++;
        while (i < source.length && source.charCodeAt(i) !== QUOTE && source.charCodeAt(i) !== NEWLINE) {
          if (source.charCodeAt(i) === BACKSLASH) i++;
          i++;
        }
      }
    } else if (OPENERS.has(c)) {
      if (++depth > MAX_DOCUMENT_NESTING) {
        throw new AppError(
          400,
          'BAD_REQUEST',
          `The document nests braces, brackets and parentheses more than ${MAX_DOCUMENT_NESTING} levels deep (argument values at most ${MAX_JSON_DEPTH} levels)`,
        );
      }
    } else if (CLOSERS.has(c)) {
      depth--;
    }
  }
}

/**
 * Throws QUERY_TOO_COMPLEX when a selection set asks for one field more than
 * MAX_ALIASES times, and BAD_REQUEST when an argument's or a variable
 * default's value nests objects and lists past MAX_JSON_DEPTH (inline JSON
 * and JSONObject values are read recursively).
 */
export function assertDocumentShape(document: DocumentNode): void {
  let valueDepth = 0;
  const nest = {
    enter() {
      if (++valueDepth > MAX_JSON_DEPTH) throw jsonTooDeep('An argument value');
    },
    leave() {
      valueDepth--;
    },
  };
  visit(document, {
    ObjectValue: nest,
    ListValue: nest,
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
