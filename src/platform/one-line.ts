// One-line text: issue titles and the names of things (projects, cycles,
// milestones, labels, teams, states, views, people, the workspace, API keys)
// are shown on one line: in lists, page titles, email subjects and digest
// lines. A line break or other control character in one would let its writer
// lay out text that is not theirs (a forged signature and a phishing line in
// a digest mailed from the workspace's address), so they are refused on input
// (`format: 'one-line'` in the schemas, the same check in services that
// validate by hand), and rows stored before are flattened where they are sent
// out (`toOneLine`).

/** C0 and C1 controls (CR, LF, TAB, NEL, ...) and the Unicode line and paragraph separators. */
const BREAK_OR_CONTROL = /[\p{Cc}\u2028\u2029]/u;
const BREAKS_OR_CONTROLS = /[\p{Cc}\u2028\u2029]+/gu;

/** The JSON-schema format name (platform/http/validation.ts registers it). */
export const ONE_LINE_FORMAT = 'one-line';
export const ONE_LINE_MESSAGE = 'must be one line: no line breaks, tabs or other control characters';

export const isOneLine = (text: string): boolean => !BREAK_OR_CONTROL.test(text);

/** The text on one line: each break or control character, with the blanks around it, becomes one space. */
export const toOneLine = (text: string): string =>
  text
    .split(BREAKS_OR_CONTROLS)
    .map((part) => part.trim())
    .filter((part) => part !== '')
    .join(' ');
