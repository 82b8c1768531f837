// Renders a safe subset of Markdown straight to React elements: no HTML string
// is ever injected, so nothing in user content can run. Links keep only
// http(s) and mailto targets; images only http(s) and same-origin paths.
// `ENG-123` links the issue and `@name` the person, when the team or person exists.
import { Link } from '@tanstack/react-router';
import { Fragment, type ReactNode } from 'react';
import { MENTION } from './mention';
import { type Person, useRefData } from './ref';

/** What the text may refer to: team keys (upper case) and people by lower-cased display name. */
interface Known {
  teamKeys: ReadonlySet<string>;
  people: ReadonlyMap<string, Person>;
}

export function safeHref(url: string): string | null {
  const u = url.trim();
  if (/^(https?:|mailto:)/i.test(u)) return u;
  if (/^\/(?!\/)/.test(u)) return u; // same-origin path such as an uploaded asset
  return null;
}

const safeImage = (url: string) => {
  const u = url.trim();
  return /^https?:/i.test(u) || /^\/(?!\/)/.test(u) ? u : null;
};

/** Inside a link's own text nothing else may become a link. */
const NOTHING: Known = { teamKeys: new Set(), people: new Map() };

/** `| a | b |` into its cells (outer pipes optional, `\\|` is a literal pipe). */
const cells = (line: string) =>
  line
    .trim()
    .replace(/^\|/, '')
    .replace(/(?<!\\)\|$/, '')
    .split(/(?<!\\)\|/)
    .map((c) => c.trim().replace(/\\\|/g, '|'));
const TABLE_RULE = /^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$/;

/** Everything inline but mentions, whose rule is shared with the server (lib/mention.ts). */
const INLINE =
  /(`[^`]+`)|!\[([^\]]*)\]\(((?:[^()\s]|\([^()\s]*\))+)\)|\[([^\]]+)\]\(((?:[^()\s]|\([^()\s]*\))+)\)|\*\*([^*]+)\*\*|__([^_]+)__|\*([^*\s][^*]*)\*|_([^_\s][^_]*)_|~~([^~]+)~~|(https?:\/\/[^\s<]+[^\s<.,;:!?)])|\b([A-Z][A-Z0-9]{0,9})-([1-9]\d{0,8})\b/;

let keySeq = 0;
const k = () => `md${keySeq++}`;

/** Inline syntax: code, images, links, bold, italic, strikethrough, bare URLs, issue references, mentions. */
function inline(text: string, known: Known): ReactNode[] {
  const out: ReactNode[] = [];
  const re = new RegExp(`${INLINE.source}|${MENTION}`, 'gu');
  let last = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    if (m.index > last) out.push(text.slice(last, m.index));
    last = m.index + m[0].length;
    if (m[1]) out.push(<code key={k()}>{m[1].slice(1, -1)}</code>);
    else if (m[3] !== undefined) {
      const src = safeImage(m[3]);
      out.push(src ? <img key={k()} src={src} alt={m[2] ?? ''} loading="lazy" /> : m[0]);
    } else if (m[5] !== undefined) {
      const href = safeHref(m[5]);
      out.push(
        href ? (
          <a key={k()} href={href} target="_blank" rel="noopener noreferrer nofollow">
            {inline(m[4] ?? '', NOTHING)}
          </a>
        ) : (
          m[4]
        ),
      );
    } else if (m[6] ?? m[7]) out.push(<strong key={k()}>{inline(m[6] ?? m[7] ?? '', known)}</strong>);
    else if (m[8] ?? m[9]) out.push(<em key={k()}>{inline(m[8] ?? m[9] ?? '', known)}</em>);
    else if (m[10]) out.push(<del key={k()}>{inline(m[10], known)}</del>);
    else if (m[11])
      out.push(
        <a key={k()} href={m[11]} target="_blank" rel="noopener noreferrer nofollow">
          {m[11]}
        </a>,
      );
    else if (m[12] && known.teamKeys.has(m[12]))
      out.push(
        <Link key={k()} to="/issue/$id" params={{ id: m[0] }} className="issue-ref">
          {m[0]}
        </Link>,
      );
    else if (m[14] && known.people.has(m[14].toLowerCase())) {
      const person = known.people.get(m[14].toLowerCase())!;
      out.push(
        <Link key={k()} to="/issues" search={{ assignee: person.id }} className="mention" title={person.name}>
          @{person.displayName}
        </Link>,
      );
    } else out.push(m[0]);
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

/** Block syntax: headings, fenced code, quotes, lists, rules, paragraphs. */
export function Markdown({ source }: { source: string }) {
  const ref = useRefData().data;
  const known: Known = {
    teamKeys: new Set(ref?.teams.map((t) => t.key)),
    people: new Map(ref?.people.map((p) => [p.displayName.toLowerCase(), p])),
  };
  const lines = source.replace(/\r\n?/g, '\n').split('\n');
  const blocks: ReactNode[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i] ?? '';
    if (/^```/.test(line)) {
      const body: string[] = [];
      i++;
      while (i < lines.length && !/^```/.test(lines[i] ?? '')) body.push(lines[i++] ?? '');
      i++;
      blocks.push(
        <pre key={k()}>
          <code>{body.join('\n')}</code>
        </pre>,
      );
      continue;
    }
    const h = /^(#{1,3})\s+(.*)$/.exec(line);
    if (h) {
      const level = (h[1] ?? '#').length;
      const content = inline(h[2] ?? '', known);
      blocks.push(
        level === 1 ? (
          <h3 key={k()}>{content}</h3>
        ) : level === 2 ? (
          <h4 key={k()}>{content}</h4>
        ) : (
          <h5 key={k()}>{content}</h5>
        ),
      );
      i++;
      continue;
    }
    if (/^(-{3,}|\*{3,})\s*$/.test(line)) {
      blocks.push(<hr key={k()} />);
      i++;
      continue;
    }
    if (/^>\s?/.test(line)) {
      const body: string[] = [];
      while (i < lines.length && /^>\s?/.test(lines[i] ?? ''))
        body.push((lines[i++] ?? '').replace(/^>\s?/, ''));
      blocks.push(<blockquote key={k()}>{inline(body.join(' '), known)}</blockquote>);
      continue;
    }
    const list = /^\s*([-*+]|\d+[.)])\s+/;
    if (list.test(line)) {
      const ordered = /^\s*\d/.test(line);
      const items: ReactNode[] = [];
      while (i < lines.length && list.test(lines[i] ?? '')) {
        const text = (lines[i++] ?? '').replace(list, '');
        const task = /^\[( |x)\]\s+(.*)$/i.exec(text);
        items.push(
          <li key={k()}>
            {task ? (
              <>
                <input type="checkbox" checked={task[1] !== ' '} readOnly disabled aria-label="Task" />{' '}
                {inline(task[2] ?? '', known)}
              </>
            ) : (
              inline(text, known)
            )}
          </li>,
        );
      }
      blocks.push(ordered ? <ol key={k()}>{items}</ol> : <ul key={k()}>{items}</ul>);
      continue;
    }
    if (line.includes('|') && TABLE_RULE.test(lines[i + 1] ?? '')) {
      const head = cells(line);
      const align = cells(lines[i + 1] ?? '').map((c) =>
        c.startsWith(':') && c.endsWith(':') ? 'center' : c.endsWith(':') ? 'right' : undefined,
      );
      i += 2;
      const body: string[][] = [];
      while (i < lines.length && (lines[i] ?? '').includes('|') && (lines[i] ?? '').trim() !== '')
        body.push(cells(lines[i++] ?? ''));
      const cell = (text: string | undefined, n: number, Tag: 'th' | 'td') => (
        <Tag key={k()} className={`md-cell${align[n] ? ` align-${align[n]}` : ''}`}>
          {inline(text ?? '', known)}
        </Tag>
      );
      blocks.push(
        <div key={k()} className="table-scroll">
          <table>
            <thead>
              <tr>{head.map((h, n) => cell(h, n, 'th'))}</tr>
            </thead>
            <tbody>
              {body.map((row) => (
                <tr key={k()}>{head.map((_, n) => cell(row[n], n, 'td'))}</tr>
              ))}
            </tbody>
          </table>
        </div>,
      );
      continue;
    }
    if (line.trim() === '') {
      i++;
      continue;
    }
    const para: string[] = [line];
    i++;
    while (
      i < lines.length &&
      (lines[i] ?? '').trim() !== '' &&
      !/^(```|#{1,3}\s|>|\s*([-*+]|\d+[.)])\s)/.test(lines[i] ?? '')
    )
      para.push(lines[i++] ?? '');
    blocks.push(
      <p key={k()}>
        {para.map((l, n) => (
          <Fragment key={k()}>
            {n > 0 && <br />}
            {inline(l, known)}
          </Fragment>
        ))}
      </p>,
    );
  }
  return <div className="markdown">{blocks}</div>;
}
