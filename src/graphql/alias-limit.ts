// Its own module so that the web UI, which splits its batched list reads by
// it (web/src/lib/issue-pages.ts), imports the number and nothing else.

/** Times one field may be selected, under any aliases, in one selection set as written. */
export const MAX_ALIASES = 20;
