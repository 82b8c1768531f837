// Jira's wiki markup (Data Center and Server descriptions and comments) to
// Markdown, through jira2md. Mentions are rewritten first: jira2md would make
// `[~jdoe]` an autolink, and the username is all the text there is of them.
import j2m from 'jira2md';

export function wikiToMarkdown(text: string | null | undefined): string {
  if (!text) return '';
  const mentions = text.replace(/\[~(?:accountid:)?([^\]\s]+)\]/g, '@$1');
  return j2m.to_markdown(mentions).trim();
}
