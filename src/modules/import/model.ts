// What an importer reads from its source, in terms of no source in particular.
// An adapter (linear.ts, csv.ts; later Jira, GitHub) turns its source's records
// into these; the runner (runner.ts) writes them through the services. Every
// record carries its key in the source (`key`): it is what import_records keeps,
// so a re-run finds what it already wrote. References between records use
// those keys (`teamRef`, `stateRef`...), never local ids.
import type { StateType } from '../../platform/db/tables.js';

export interface ImportUser {
  /** Users are matched by email (lower-cased); the name is used for a placeholder. */
  email: string;
  name?: string | undefined;
}

export interface ImportTeam {
  key: string;
  /** The team's short key (ENG): an existing team with this key is used as it is. */
  teamKey: string;
  name: string;
}

export interface ImportState {
  key: string;
  teamRef: string;
  name: string;
  /** Unknown (a CSV's state column): a state of this name in the team, else the mapping, else the team's default. */
  type?: StateType | undefined;
  color?: string | undefined;
}

export interface ImportLabel {
  key: string;
  /** Null: a workspace label. */
  teamRef: string | null;
  name: string;
  color?: string | undefined;
}

export interface ImportProject {
  key: string;
  name: string;
  description?: string | undefined;
  teamRefs: string[];
}

export interface ImportMilestone {
  key: string;
  projectRef: string;
  name: string;
  targetDate?: string | null | undefined;
}

export interface ImportCycle {
  key: string;
  teamRef: string;
  name?: string | null | undefined;
  startsAt: string;
  endsAt: string;
}

/** Everything issues point at, read before the issues. */
export interface ImportReference {
  users: ImportUser[];
  teams: ImportTeam[];
  states: ImportState[];
  labels: ImportLabel[];
  projects: ImportProject[];
  milestones: ImportMilestone[];
  cycles: ImportCycle[];
}

export interface ImportComment {
  key: string;
  authorEmail?: string | null | undefined;
  authorName?: string | null | undefined;
  body: string;
  createdAt?: string | undefined;
  updatedAt?: string | undefined;
  /** The comment this one answers (its key). */
  parentRef?: string | null | undefined;
}

export interface ImportRelation {
  key: string;
  /** blocks, duplicate, related, similar: this issue is the relation's source. */
  type: string;
  relatedRef: string;
}

export interface ImportAttachment {
  key: string;
  title: string;
  subtitle?: string | null | undefined;
  url: string;
  /** The url is the file itself (a Jira attachment's content): its bytes are copied here. */
  file?: boolean | undefined;
  /** The file's name as the source records it; else the answer's Content-Disposition, else the URL's end. */
  filename?: string | undefined;
}

export interface ImportIssue {
  key: string;
  /** The key people know it by in the source (ENG-12, a CSV's external key). */
  identifier: string;
  /** Where it lives in the source, when it has an address. */
  url?: string | null | undefined;
  teamRef: string;
  title: string;
  description?: string | null | undefined;
  stateRef?: string | null | undefined;
  priority?: number | null | undefined;
  estimate?: number | null | undefined;
  dueDate?: string | null | undefined;
  assigneeEmail?: string | null | undefined;
  creatorEmail?: string | null | undefined;
  labelRefs?: string[] | undefined;
  projectRef?: string | null | undefined;
  milestoneRef?: string | null | undefined;
  cycleRef?: string | null | undefined;
  parentRef?: string | null | undefined;
  createdAt?: string | undefined;
  updatedAt?: string | undefined;
  startedAt?: string | null | undefined;
  completedAt?: string | null | undefined;
  canceledAt?: string | null | undefined;
  comments?: ImportComment[] | undefined;
  relations?: ImportRelation[] | undefined;
  attachments?: ImportAttachment[] | undefined;
}

export interface IssuePage {
  issues: ImportIssue[];
  /** Where the next page starts; null after the last. Stored on the run once the page is written. */
  next: string | null;
  /** Records the adapter refused (a CSV row without a title...), reported and counted as failed. */
  refused?: string[] | undefined;
  /** How much the whole source holds, when it says; absent: unknown (never guessed). */
  total?: SourceTotal | undefined;
}

/**
 * The size of a source: its issues (each issue and each refused record counts
 * one), or its pages of issues when only those are known (GitHub's last page).
 */
export interface SourceTotal {
  count: number;
  unit: 'issue' | 'page';
}

/** How a source's files are recognised and fetched, for the runner to copy them. */
export interface SourceFiles {
  /** Whether a link in a description or comment is a file the source holds (copied, the link rewritten). */
  isFile(url: URL): boolean;
  /** Request headers for a file's URL: the source's credentials, only for its own hosts. */
  headers(url: URL): Record<string, string>;
}

/** The http(s) links in Markdown or HTML text, as written (no trailing punctuation). */
export function linksIn(text: string | null | undefined): string[] {
  if (!text) return [];
  const found = text.match(/https?:\/\/[^\s<>"'()[\]`]+/g) ?? [];
  return found.map((u) => u.replace(/[.,;:!?*_]+$/, ''));
}

/** One source: an adapter. */
export interface ImportSource {
  kind: 'linear' | 'csv' | 'github' | 'jira' | 'jira-xml';
  /** Names the source in import_records: a re-run of the same source finds its records. */
  name: string;
  /** What the source is called in the link an imported issue keeps ("Linear", "CSV"). */
  label: string;
  reference(): Promise<ImportReference>;
  /** The issues a page at a time, starting after `cursor` (null: from the start). */
  issues(cursor: string | null): AsyncIterable<IssuePage>;
  /** Files the source holds (attachments, uploads linked from text): copied into the file store. */
  files?: SourceFiles | undefined;
}

/** A problem with the input itself (a bad mapping, an unreadable file): reported as a 400, never a crash. */
export class ImportInputError extends Error {}
