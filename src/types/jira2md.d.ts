// jira2md ships no types: the two conversions this project calls.
declare module 'jira2md' {
  const J2M: { to_markdown(text: string): string; to_jira(text: string): string };
  export default J2M;
}
