// Jira's XML export (the issue navigator's Export, "XML"): an RSS document,
// `<rss><channel><item>` per issue, with the description and comments as the
// HTML Jira renders (turned into Markdown by jira-html.ts), people by username
// (Data Center) or account id (Cloud) and never by email. Parsed whole by
// fast-xml-parser (the file is bounded, see MAX_XML_BYTES) and handed to the
// runner in pages, so a run resumes by its position in the file and re-runs
// find their records (docs/migrate.md "From Jira's XML export").
import { createHash } from 'node:crypto';
import { XMLParser } from 'fast-xml-parser';
import type { StateType } from '../../platform/db/tables.js';
import { emailOf, jiraReference, priorityOf, relationTypeOf, stateTypeOf, teamKeyOf } from './jira.js';
import { htmlToMarkdown } from './jira-html.js';
import {
  type ImportAttachment,
  type ImportComment,
  ImportInputError,
  type ImportIssue,
  type ImportReference,
  type ImportRelation,
  type ImportSource,
  type IssuePage,
} from './model.js';

/** The largest export read (Jira itself caps an XML export at 1,000 issues by default). */
export const MAX_XML_BYTES = 100 * 1024 * 1024;
const PAGE_SIZE = 50;
const TEAM_KEY = /^[A-Z][A-Z0-9]{0,6}$/;
const EPIC_LINK_FIELD = 'com.pyxis.greenhopper.jira:gh-epic-link';

export interface JiraXmlSourceOptions {
  /** Names the source (`jira-xml:<name>`); by default the site the export came from. */
  name?: string | undefined;
  xml: string;
  /** Every issue into this one team (its key) instead of a team per Jira project. */
  team?: string | undefined;
  /** Username or account id → email, for people the export names only by id. */
  users?: Record<string, string> | undefined;
  /** The site's credentials (an Authorization header value): attachments are then copied, else linked. */
  authorization?: string | undefined;
}

type Item = Record<string, unknown>;

const ARRAYS = new Set([
  'rss.channel.item',
  'rss.channel.item.comments.comment',
  'rss.channel.item.labels.label',
  'rss.channel.item.component',
  'rss.channel.item.fixVersion',
  'rss.channel.item.issuelinks.issuelinktype',
  'rss.channel.item.issuelinks.issuelinktype.outwardlinks.issuelink',
  'rss.channel.item.attachments.attachment',
  'rss.channel.item.subtasks.subtask',
  'rss.channel.item.customfields.customfield',
  'rss.channel.item.customfields.customfield.customfieldvalues.customfieldvalue',
]);

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  textNodeName: '#text',
  parseTagValue: false,
  parseAttributeValue: false,
  processEntities: true,
  isArray: (_name, path) => ARRAYS.has(String(path)),
});

const text = (v: unknown): string => {
  if (typeof v === 'string') return v.trim();
  if (v && typeof v === 'object' && '#text' in v) return String((v as { '#text': unknown })['#text']).trim();
  return '';
};
const attr = (v: unknown, name: string): string | undefined => {
  if (!v || typeof v !== 'object') return undefined;
  const a = (v as Record<string, unknown>)[`@${name}`];
  return typeof a === 'string' && a !== '' ? a : undefined;
};
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : v === undefined || v === '' ? [] : [v]);

/** An RFC 2822 date of the export (`Mon, 4 Mar 2024 10:15:30 +0000`) as ISO 8601; undefined otherwise. */
export function xmlDate(v: unknown): string | undefined {
  const s = text(v);
  if (!s) return undefined;
  const d = new Date(s);
  return Number.isNaN(d.getTime()) ? undefined : d.toISOString();
}

/** A status with no category (older exports): its type when the name is one of Jira's own, else unknown. */
function statusType(name: string, category: string | undefined): StateType | undefined {
  if (category) return stateTypeOf({ name, statusCategory: { key: category } });
  const n = name.toLowerCase();
  if (/^(backlog|triage)$/.test(n)) return 'backlog';
  if (/^(open|to do|todo|new|reopened|selected for development)$/.test(n)) return 'unstarted';
  if (/^(in progress|in review|under review)$/.test(n)) return 'started';
  if (/^(won'?t (do|fix)|cancell?ed|rejected|declined|duplicate)$/.test(n)) return 'canceled';
  if (/^(done|closed|resolved)$/.test(n)) return 'completed';
  return undefined;
}

interface Person {
  email: string;
  name: string | undefined;
}

/** Reads the document: its items, the site they came from. Throws ImportInputError when it is not an export. */
export function parseJiraXml(xml: string): { items: Item[]; site: string | null } {
  if (Buffer.byteLength(xml) > MAX_XML_BYTES)
    throw new ImportInputError(`xml is larger than ${MAX_XML_BYTES} bytes`);
  let doc: { rss?: { channel?: { item?: Item[]; link?: unknown } } };
  try {
    doc = parser.parse(xml, true);
  } catch (err) {
    throw new ImportInputError(`xml is not well-formed: ${(err as Error).message.split('\n')[0]}`);
  }
  const channel = doc.rss?.channel;
  if (!channel || typeof channel !== 'object')
    throw new ImportInputError('xml is not a Jira XML export (no <rss><channel>)');
  const items = list(channel.item) as Item[];
  const link = text(items.find((i) => text(i.link))?.link) || text(channel.link);
  let site: string | null = null;
  try {
    const url = new URL(link);
    const at = url.pathname.search(/\/(browse|secure|issues|sr)\//);
    site = `${url.origin}${at > 0 ? url.pathname.slice(0, at) : ''}`;
  } catch {
    // No link: the source is named by the file's digest.
  }
  return { items, site };
}

export function jiraXmlSource(opts: JiraXmlSourceOptions): ImportSource {
  const { items, site } = parseJiraXml(opts.xml);
  const oneTeam = opts.team?.trim().toUpperCase();
  if (oneTeam !== undefined && !TEAM_KEY.test(oneTeam))
    throw new ImportInputError('team must be a team key: a letter, then up to 6 letters or digits');
  const users = Object.fromEntries(Object.entries(opts.users ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
  const name = opts.name?.trim() || site || createHash('sha256').update(opts.xml).digest('hex').slice(0, 16);
  const origin = site ? new URL(site).origin : null;

  const keyOf = (i: Item) => text(i.key);
  const idOf = (i: Item) => attr(i.key, 'id') ?? keyOf(i);
  const typeOf = (i: Item) => text(i.type).toLowerCase();
  const isEpic = (i: Item) => typeOf(i) === 'epic';
  const teamRefOf = (i: Item) =>
    `team:${oneTeam ?? teamKeyOf(attr(i.project, 'key') ?? keyOf(i).split('-')[0] ?? 'JIRA')}`;

  /** Everyone the export names, by username / account id, with the display name where it shows one. */
  const people = new Map<string, Person>();
  const person = (id: string | undefined, display?: string): Person | null => {
    if (!id || id === '-1') return null;
    const known = people.get(id.toLowerCase());
    if (known) {
      if (display && !known.name) known.name = display;
      return known;
    }
    const mapped = users[id.toLowerCase()];
    const p: Person = {
      email: mapped?.toLowerCase() ?? emailOf({ name: id })!,
      name: display || undefined,
    };
    people.set(id.toLowerCase(), p);
    return p;
  };
  const personOf = (v: unknown) => person(attr(v, 'accountid') ?? attr(v, 'username'), text(v));

  // Duplicate keys (an export concatenated twice, an item repeated): the first one wins.
  const seen = new Set<string>();
  const duplicates = new Set<Item>();
  for (const i of items) {
    const id = idOf(i);
    if (seen.has(id)) duplicates.add(i);
    seen.add(id);
    for (const who of [i.assignee, i.reporter]) personOf(who);
  }
  const live = items.filter((i) => !duplicates.has(i) && keyOf(i));
  const epics = new Map(live.filter(isEpic).map((i) => [keyOf(i), i]));
  const byId = new Map(live.map((i) => [idOf(i), i]));
  // A sub-task's parent, from either side: its own <parent>, or its parent's <subtasks>.
  const parents = new Map<string, string>();
  for (const i of live) {
    for (const s of list((i.subtasks as Item | undefined)?.subtask)) {
      const child = attr(s, 'id');
      if (child) parents.set(child, idOf(i));
    }
  }

  const customValues = (i: Item, key: string) =>
    list((i.customfields as Item | undefined)?.customfield)
      .filter((f) => attr(f, 'key') === key)
      .flatMap((f) =>
        list((f as Item).customfieldvalues && ((f as Item).customfieldvalues as Item).customfieldvalue),
      )
      .map(text)
      .filter(Boolean);

  /** The epic an issue is in (a project here) and the issue it is a sub-issue of. */
  function placeOf(i: Item): { epic: string | null; parent: string | null } {
    const parentId = attr(i.parent, 'id') ?? parents.get(idOf(i)) ?? null;
    const parentKey = text(i.parent);
    if (parentKey && epics.has(parentKey)) return { epic: parentKey, parent: null };
    if (parentId && byId.get(parentId) && isEpic(byId.get(parentId)!))
      return { epic: keyOf(byId.get(parentId)!), parent: null };
    const link = customValues(i, EPIC_LINK_FIELD)[0];
    return { epic: link ?? null, parent: parentId };
  }

  const statusRef = (i: Item, teamRef: string) => `status:${text(i.status).toLowerCase()}:${teamRef}`;

  function toIssue(i: Item): ImportIssue {
    const teamRef = teamRefOf(i);
    const key = keyOf(i);
    const statusName = text(i.status);
    const type = statusName ? statusType(statusName, attr(i.statusCategory, 'key')) : undefined;
    const resolved = xmlDate(i.resolved);
    const place = placeOf(i);
    const names = [
      ...list((i.labels as Item | undefined)?.label).map(text),
      ...list(i.component).map(text),
    ].filter(Boolean);
    const relations: ImportRelation[] = [];
    for (const lt of list((i.issuelinks as Item | undefined)?.issuelinktype)) {
      const typeName = text((lt as Item).name);
      for (const l of list(((lt as Item).outwardlinks as Item | undefined)?.issuelink)) {
        const other = attr((l as Item).issuekey, 'id') ?? text((l as Item).issuekey);
        if (other)
          relations.push({
            key: `link:${idOf(i)}:${typeName}:${other}`,
            type: relationTypeOf(typeName),
            relatedRef: other,
          });
      }
    }
    const comments = list((i.comments as Item | undefined)?.comment).map((c, n): ImportComment => {
      const author = person(attr(c, 'author'));
      return {
        key: `comment:${attr(c, 'id') ?? `${idOf(i)}:${n}`}`,
        authorEmail: author?.email ?? null,
        authorName: author?.name ?? null,
        body: htmlToMarkdown(text(c)),
        createdAt: xmlDate(attr(c, 'created')),
      };
    });
    const attachments = list((i.attachments as Item | undefined)?.attachment).flatMap(
      (a): ImportAttachment[] => {
        const id = attr(a, 'id');
        const file = attr(a, 'name');
        if (!id || !file || !site) return [];
        return [
          {
            key: `attachment:${id}`,
            title: file,
            subtitle: 'Jira attachment',
            url: `${site}/secure/attachment/${encodeURIComponent(id)}/${encodeURIComponent(file)}`,
            file: !!opts.authorization,
            filename: file,
          },
        ];
      },
    );
    const assignee = personOf(i.assignee);
    const reporter = personOf(i.reporter);
    const summary = text(i.summary) || text(i.title).replace(/^\[[^\]]*\]\s*/, '');
    return {
      key: idOf(i),
      identifier: key,
      url: text(i.link) || (site ? `${site}/browse/${encodeURIComponent(key)}` : null),
      teamRef,
      title: summary.replace(/\s+/g, ' ').trim() || key,
      description: htmlToMarkdown(text(i.description)) || null,
      stateRef: statusName ? statusRef(i, teamRef) : null,
      priority: priorityOf({ id: attr(i.priority, 'id'), name: text(i.priority) }),
      dueDate: xmlDate(i.due)?.slice(0, 10) ?? null,
      assigneeEmail: assignee?.email ?? null,
      creatorEmail: reporter?.email ?? null,
      labelRefs: names.map((n) => `label:${teamRef}:${n.toLowerCase()}`),
      projectRef: place.epic ? `epic:${place.epic}` : null,
      parentRef: place.parent,
      createdAt: xmlDate(i.created),
      updatedAt: xmlDate(i.updated),
      completedAt: type === 'completed' ? (resolved ?? null) : null,
      canceledAt: type === 'canceled' ? (resolved ?? null) : null,
      comments,
      relations,
      attachments,
    };
  }

  return {
    kind: 'jira-xml',
    name: `jira-xml:${name}`,
    label: 'Jira',
    ...(opts.authorization && origin
      ? {
          files: {
            isFile: () => false,
            headers: (url: URL): Record<string, string> =>
              url.origin === origin ? { authorization: opts.authorization! } : {},
          },
        }
      : {}),
    async reference(): Promise<ImportReference> {
      const teams = new Map<string, { teamKey: string; name: string }>();
      const states = new Map<string, { teamRef: string; name: string; type: StateType | undefined }>();
      const labels = new Map<string, { teamRef: string; name: string }>();
      const projects = new Map<string, { name: string; teamRefs: Set<string> }>();
      for (const i of live) {
        const teamRef = teamRefOf(i);
        if (!teams.has(teamRef))
          teams.set(teamRef, {
            teamKey: teamRef.slice('team:'.length),
            name: oneTeam ?? (text(i.project) || teamRef.slice(5)),
          });
        if (isEpic(i)) {
          const p = projects.get(keyOf(i)) ?? { name: '', teamRefs: new Set<string>() };
          p.name = text(i.summary) || keyOf(i);
          p.teamRefs.add(teamRef);
          projects.set(keyOf(i), p);
          continue;
        }
        const status = text(i.status);
        if (status)
          states.set(statusRef(i, teamRef), {
            teamRef,
            name: status,
            type: statusType(status, attr(i.statusCategory, 'key')),
          });
        for (const n of [
          ...list((i.labels as Item | undefined)?.label).map(text),
          ...list(i.component).map(text),
        ])
          if (n) labels.set(`label:${teamRef}:${n.toLowerCase()}`, { teamRef, name: n });
        const { epic } = placeOf(i);
        if (epic) {
          // An epic outside the export is still a project, named by its key.
          const p = projects.get(epic) ?? { name: epic, teamRefs: new Set<string>() };
          p.teamRefs.add(teamRef);
          projects.set(epic, p);
        }
      }
      return jiraReference({
        users: [...people.values()].map((p) => ({ email: p.email, name: p.name })),
        teams,
        states,
        labels,
        epics: projects,
      });
    },
    async *issues(cursor: string | null): AsyncIterable<IssuePage> {
      // Duplicates are refused once, on the first page of a run that starts from the top.
      const start = Math.max(0, Number.parseInt(cursor ?? '0', 10) || 0);
      const refused =
        start === 0
          ? [...duplicates].map(
              (i) =>
                `${keyOf(i) || '(no key)'}: the key appears again in the file; the first one is imported`,
            )
          : [];
      const issues = items.filter((i) => !duplicates.has(i) && !isEpic(i));
      const missingKey = start === 0 ? items.filter((i) => !keyOf(i)).length : 0;
      for (let n = 0; n < missingKey; n++) refused.push('an item without a <key> is skipped');
      // What a run from the top reads: every refusal above and every item with a key.
      const total = {
        count: duplicates.size + items.filter((i) => !keyOf(i)).length + issues.filter(keyOf).length,
        unit: 'issue' as const,
      };
      let at = start;
      do {
        const slice = issues.slice(at, at + PAGE_SIZE).filter((i) => keyOf(i));
        at += PAGE_SIZE;
        yield {
          issues: slice.map(toIssue),
          next: at < issues.length ? String(at) : null,
          total,
          ...(refused.length ? { refused: refused.splice(0) } : {}),
        };
      } while (at < issues.length);
    },
  };
}
