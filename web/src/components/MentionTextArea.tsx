// A labelled Markdown text area with @-completion: typing `@` and letters lists
// the people whose name matches (a combobox with a listbox: arrows move, Enter or
// Tab inserts `@displayName `, Escape closes). People are those the caller can
// see (the reference data); the inserted form is the one mentions are read by (lib/mention.ts).
import { type TextareaHTMLAttributes, useEffect, useId, useMemo, useRef, useState } from 'react';
import { mentionAt, mentionable } from '../lib/mention';
import { type Person, useRefData } from '../lib/ref';

const MAX = 8;

type Props = Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'value' | 'onChange'> & {
  label: string;
  value: string;
  onText: (value: string) => void;
};

/** People `@query` may mean: display name first, then full name, starting with the query; unambiguous names only. */
function matches(people: Person[], query: string): Person[] {
  const q = query.toLowerCase();
  const count = new Map<string, number>();
  for (const p of people)
    count.set(p.displayName.toLowerCase(), (count.get(p.displayName.toLowerCase()) ?? 0) + 1);
  // Two people with one display name: `@name` is ambiguous and mentions nobody, so neither is offered.
  const usable = people.filter(
    (p) => mentionable(p.displayName) && count.get(p.displayName.toLowerCase()) === 1,
  );
  const rank = (p: Person) =>
    p.displayName.toLowerCase().startsWith(q)
      ? 0
      : p.name
            .toLowerCase()
            .split(/\s+/)
            .some((w) => w.startsWith(q))
        ? 1
        : 2;
  return usable
    .map((p) => ({ p, r: rank(p) }))
    .filter((x) => x.r < 2)
    .sort((a, b) => a.r - b.r || a.p.displayName.localeCompare(b.p.displayName))
    .slice(0, MAX)
    .map((x) => x.p);
}

export function MentionTextArea({ label, value, onText, onKeyDown, ...rest }: Props) {
  const id = useId();
  const listId = `${id}-people`;
  const area = useRef<HTMLTextAreaElement>(null);
  const people = useRefData().data?.people;
  const [at, setAt] = useState<{ start: number; query: string } | null>(null);
  const [active, setActive] = useState(0);
  const options = useMemo(() => (at && people ? matches(people, at.query) : []), [at, people]);
  const open = options.length > 0;
  const list = useRef<HTMLDivElement>(null);
  // A field near the bottom of the screen would hide the list below it.
  useEffect(() => {
    if (open) list.current?.scrollIntoView({ block: 'nearest' });
  }, [open]);

  const track = (el: HTMLTextAreaElement) => {
    const found = el.selectionStart === el.selectionEnd ? mentionAt(el.value, el.selectionStart) : null;
    setAt(found);
    if (found?.query !== at?.query) setActive(0);
  };
  const insert = (p: Person) => {
    const el = area.current;
    if (!el || !at) return;
    const before = `${value.slice(0, at.start)}@${p.displayName} `;
    onText(before + value.slice(el.selectionStart));
    setAt(null);
    requestAnimationFrame(() => el.setSelectionRange(before.length, before.length));
  };

  return (
    <div className="field mention-field">
      <label htmlFor={id}>{label}</label>
      <textarea
        id={id}
        ref={area}
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={open}
        aria-controls={open ? listId : undefined}
        aria-activedescendant={open ? `${listId}-${active}` : undefined}
        value={value}
        {...rest}
        onChange={(e) => {
          onText(e.target.value);
          track(e.target);
        }}
        onSelect={(e) => track(e.currentTarget)}
        onBlur={() => setAt(null)}
        onKeyDown={(e) => {
          if (open) {
            if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
              e.preventDefault();
              const by = e.key === 'ArrowDown' ? 1 : options.length - 1;
              setActive((a) => (a + by) % options.length);
              return;
            }
            if ((e.key === 'Enter' || e.key === 'Tab') && !e.shiftKey && !e.metaKey && !e.ctrlKey) {
              e.preventDefault();
              const p = options[active];
              if (p) insert(p);
              return;
            }
            if (e.key === 'Escape') {
              // Closes the list only: the editor (or dialog) around it stays open.
              e.preventDefault();
              e.stopPropagation();
              setAt(null);
              return;
            }
          }
          onKeyDown?.(e);
        }}
      />
      {open && (
        <div
          ref={list}
          className="menu mention-list"
          id={listId}
          role="listbox"
          aria-label="People to mention"
        >
          {options.map((p, i) => (
            // biome-ignore lint/a11y/useKeyWithClickEvents: the text area handles the keyboard
            <div
              key={p.id}
              tabIndex={-1}
              id={`${listId}-${i}`}
              role="option"
              aria-selected={i === active}
              className="menu-item"
              // Keeps focus in the text area, which the click then writes into.
              onMouseDown={(e) => e.preventDefault()}
              onMouseMove={() => setActive(i)}
              onClick={() => insert(p)}
            >
              <span>@{p.displayName}</span>
              <span className="muted small">{p.name}</span>
            </div>
          ))}
        </div>
      )}
    </div>
  );
}
