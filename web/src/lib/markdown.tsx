// Renders a safe subset of Markdown straight to React elements: no HTML string
// is ever injected, so nothing in user content can run. Links keep only
// http(s) and mailto targets; images only http(s) and same-origin paths.
// `ENG-123` links the issue and `@name` the person, when the team or person exists.
// Parsing (markdown-parse.ts) takes time linear in the text; this file only maps its tree.
import { Link } from '@tanstack/react-router';
import { Fragment, type ReactNode, useEffect, useState } from 'react';
import { imageUrl, isServerFile } from './files';
import { type Block, type Inline, parseMarkdown } from './markdown-parse';
import { type Person, useRefData } from './ref';

export { safeHref, setTask } from './markdown-parse';

/** What the text may refer to: team keys (upper case) and people by lower-cased display name. */
interface Known {
  teamKeys: ReadonlySet<string>;
  people: ReadonlyMap<string, Person>;
  /** Given, checklists can be ticked: the task on a source line is set done or not. */
  onTask?: ((line: number, done: boolean) => void) | undefined;
}

let keySeq = 0;
const k = () => `md${keySeq++}`;

function inline(nodes: Inline[], known: Known): ReactNode[] {
  return nodes.map((node) => {
    if (typeof node === 'string') return node;
    switch (node.kind) {
      case 'code':
        return <code key={k()}>{node.text}</code>;
      case 'image':
        return isServerFile(node.src) ? (
          <ServerImage key={k()} src={node.src} alt={node.alt} />
        ) : (
          <img key={k()} src={node.src} alt={node.alt} loading="lazy" />
        );
      case 'link':
        return (
          <a key={k()} href={node.href} target="_blank" rel="noopener noreferrer nofollow">
            {inline(node.children, known)}
          </a>
        );
      case 'strong':
        return <strong key={k()}>{inline(node.children, known)}</strong>;
      case 'em':
        return <em key={k()}>{inline(node.children, known)}</em>;
      case 'del':
        return <del key={k()}>{inline(node.children, known)}</del>;
      case 'url':
        return (
          <a key={k()} href={node.href} target="_blank" rel="noopener noreferrer nofollow">
            {node.href}
          </a>
        );
      case 'issue':
        return known.teamKeys.has(node.teamKey) ? (
          <Link key={k()} to="/issue/$id" params={{ id: node.ref }} className="issue-ref">
            {node.ref}
          </Link>
        ) : (
          node.ref
        );
      case 'mention': {
        const person = known.people.get(node.name.toLowerCase());
        return person ? (
          <Link
            key={k()}
            to="/issues"
            search={{ assignee: person.id }}
            className="mention"
            title={person.name}
          >
            @{person.displayName}
          </Link>
        ) : (
          node.raw
        );
      }
      default:
        return node satisfies never;
    }
  });
}

/**
 * An image uploaded here (the editor places them inline): the file route needs
 * the sign-in token, which an <img src> cannot send, so it is fetched and shown
 * from a blob of its allow-listed type (lib/files.ts); anything else shows its text.
 */
function ServerImage({ src, alt }: { src: string; alt: string }) {
  const [shown, setShown] = useState<string | null | undefined>(undefined);
  useEffect(() => {
    let live = true;
    imageUrl(src).then(
      (url) => live && setShown(url),
      () => live && setShown(null),
    );
    return () => {
      live = false;
    };
  }, [src]);
  if (shown === null) return <span className="muted">{alt || 'image'}</span>;
  return shown ? (
    <img src={shown} alt={alt} />
  ) : (
    <span className="image-loading" role="img" aria-label={alt} />
  );
}

function block(b: Block, known: Known): ReactNode {
  switch (b.kind) {
    case 'code':
      return (
        <pre key={k()}>
          <code>{b.text}</code>
        </pre>
      );
    case 'heading': {
      const content = inline(b.content, known);
      return b.level === 1 ? (
        <h3 key={k()}>{content}</h3>
      ) : b.level === 2 ? (
        <h4 key={k()}>{content}</h4>
      ) : (
        <h5 key={k()}>{content}</h5>
      );
    }
    case 'rule':
      return <hr key={k()} />;
    case 'quote':
      return <blockquote key={k()}>{inline(b.content, known)}</blockquote>;
    case 'list': {
      const items = b.items.map((item) => (
        <li key={k()} className={item.task === null ? undefined : 'task-item'}>
          {item.task === null ? (
            inline(item.content, known)
          ) : (
            <label>
              <input
                type="checkbox"
                checked={item.task}
                disabled={!known.onTask}
                onChange={(e) => known.onTask?.(item.line, e.currentTarget.checked)}
              />
              <span>{inline(item.content, known)}</span>
            </label>
          )}
        </li>
      ));
      return b.ordered ? <ol key={k()}>{items}</ol> : <ul key={k()}>{items}</ul>;
    }
    case 'table': {
      const cell = (content: Inline[], n: number, Tag: 'th' | 'td') => (
        <Tag key={k()} className={`md-cell${b.align[n] ? ` align-${b.align[n]}` : ''}`}>
          {inline(content, known)}
        </Tag>
      );
      return (
        <div key={k()} className="table-scroll">
          <table>
            <thead>
              <tr>{b.head.map((h, n) => cell(h, n, 'th'))}</tr>
            </thead>
            <tbody>
              {b.rows.map((row) => (
                <tr key={k()}>{row.map((c, n) => cell(c, n, 'td'))}</tr>
              ))}
            </tbody>
          </table>
        </div>
      );
    }
    case 'paragraph':
      return (
        <p key={k()}>
          {b.lines.map((line, n) => (
            <Fragment key={k()}>
              {n > 0 && <br />}
              {inline(line, known)}
            </Fragment>
          ))}
        </p>
      );
  }
}

/** Block syntax: headings, fenced code, quotes, lists, tables, rules, paragraphs. */
export function Markdown({
  source,
  onTask,
}: {
  source: string;
  /** Makes checklists tickable: called with the task's source line and its new state. */
  onTask?: (line: number, done: boolean) => void;
}) {
  const ref = useRefData().data;
  const known: Known = {
    teamKeys: new Set(ref?.teams.map((t) => t.key)),
    people: new Map(ref?.people.map((p) => [p.displayName.toLowerCase(), p])),
    onTask,
  };
  return <div className="markdown">{parseMarkdown(source).map((b) => block(b, known))}</div>;
}
