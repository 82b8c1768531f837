// Renders a safe subset of Markdown straight to React elements: no HTML string
// is ever injected, so nothing in user content can run. Links keep only
// http(s) and mailto targets; images only http(s) and same-origin paths.
import { Fragment, type ReactNode } from 'react';

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

let keySeq = 0;
const k = () => `md${keySeq++}`;

/** Inline syntax: code, images, links, bold, italic, strikethrough, bare URLs. */
function inline(text: string): ReactNode[] {
  const out: ReactNode[] = [];
  const re =
    /(`[^`]+`)|!\[([^\]]*)\]\(((?:[^()\s]|\([^()\s]*\))+)\)|\[([^\]]+)\]\(((?:[^()\s]|\([^()\s]*\))+)\)|\*\*([^*]+)\*\*|__([^_]+)__|\*([^*\s][^*]*)\*|_([^_\s][^_]*)_|~~([^~]+)~~|(https?:\/\/[^\s<]+[^\s<.,;:!?)])/g;
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
            {inline(m[4] ?? '')}
          </a>
        ) : (
          m[4]
        ),
      );
    } else if (m[6] ?? m[7]) out.push(<strong key={k()}>{inline(m[6] ?? m[7] ?? '')}</strong>);
    else if (m[8] ?? m[9]) out.push(<em key={k()}>{inline(m[8] ?? m[9] ?? '')}</em>);
    else if (m[10]) out.push(<del key={k()}>{inline(m[10])}</del>);
    else if (m[11])
      out.push(
        <a key={k()} href={m[11]} target="_blank" rel="noopener noreferrer nofollow">
          {m[11]}
        </a>,
      );
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

/** Block syntax: headings, fenced code, quotes, lists, rules, paragraphs. */
export function Markdown({ source }: { source: string }) {
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
      const content = inline(h[2] ?? '');
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
      blocks.push(<blockquote key={k()}>{inline(body.join(' '))}</blockquote>);
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
                {inline(task[2] ?? '')}
              </>
            ) : (
              inline(text)
            )}
          </li>,
        );
      }
      blocks.push(ordered ? <ol key={k()}>{items}</ol> : <ul key={k()}>{items}</ul>);
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
            {inline(l)}
          </Fragment>
        ))}
      </p>,
    );
  }
  return <div className="markdown">{blocks}</div>;
}
