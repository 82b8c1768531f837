// How deep objects and arrays may nest in any JSON we accept: request bodies,
// GraphQL variables and inline values, filter query parameters. JSON.parse
// itself copes with deep input, but much of what runs after it recurses
// (JSON.stringify, validators, graphql-js's parser, our own walkers) and
// would end in a RangeError. So the raw text is measured first, in one linear
// pass without recursion, and refused with a 400 that names the limit.
import { AppError } from '../errors.js';

/** Levels of objects and arrays, the outermost one counted (docs/security.md, "Limits"). */
export const MAX_JSON_DEPTH = 64;

/** The refusal every surface answers with; `what` names the input ("The request body"). */
export const jsonTooDeep = (what: string) =>
  new AppError(
    400,
    'BAD_REQUEST',
    `${what} nests objects and arrays more than ${MAX_JSON_DEPTH} levels deep; at most ${MAX_JSON_DEPTH} levels are accepted`,
  );

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;

/**
 * Whether JSON text nests objects and arrays deeper than `limit`. Brackets
 * inside strings are text. Malformed text is measured as far as it goes and
 * left for the parser to refuse.
 */
export function jsonTextTooDeep(text: string, limit = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) {
      inString = true;
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (++depth > limit) return true;
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      depth--;
    }
  }
  return false;
}
