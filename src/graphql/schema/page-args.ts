// The arguments every connection field takes, written once. A connection that
// can be filtered names its filter input; a few take more arguments (extras,
// as SDL lines). Arguments are listed alphabetically, as the schema does.
const STANDARD = [
  '"Cursor after which the page starts." after: String',
  '"Cursor before which the page ends." before: String',
  '"Page size from the start (default 50, at most 250)." first: Int',
  '"Include archived records." includeArchived: Boolean',
  '"Page size from the end (at most 250)." last: Int',
  '"Sort key; newest first." orderBy: PaginationOrderBy',
];

const argName = (line: string) => /^(?:"[^"]*" )?(\w+):/.exec(line)![1]!;

/** The SDL argument lines of a connection field (without the parentheses). */
export function pageArgs(filter: string | null, extras: string[] = []): string {
  const lines = [
    ...STANDARD,
    ...(filter ? [`"Conditions the records must meet." filter: ${filter}`] : []),
    ...extras,
  ];
  lines.sort((a, b) => (argName(a) < argName(b) ? -1 : 1));
  return lines.map((l) => `    ${l}`).join('\n');
}
