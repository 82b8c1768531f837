// Shared with the web client (web/src/lib/issue-pages.ts), which splits its counts by it.

/** Lists one request to POST /api/issues/counts may count: a list grouped over five teams' workflows is 25 to 40 groups. */
export const MAX_COUNTED_LISTS = 50;
