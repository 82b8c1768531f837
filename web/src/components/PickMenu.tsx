// A type-to-filter menu under the button that opened it (the filter builder's
// field, operator and value menus): a combobox over a listbox, arrows move,
// Enter picks (toggles, when several may be chosen, and stays open), Escape or
// Tab closes and the keyboard goes back to the button.
import { useEffect, useId, useRef, useState } from 'react';
import { pressed } from '../lib/keys';

export interface PickOption {
  value: string;
  label: string;
  color?: string;
  /** A hint after the label (the team of a state, say). */
  note?: string;
}

export function PickMenu({
  label,
  options,
  multi = false,
  chosen,
  onPick,
  onClose,
}: {
  /** What is chosen here ("Filter by", "Status"): names the box and the list. */
  label: string;
  options: PickOption[];
  /** Several may be chosen: a pick toggles and the menu stays open. */
  multi?: boolean;
  chosen?: ReadonlySet<string>;
  onPick: (value: string) => void;
  /** `how` says whether the keyboard should go back to the opener (not on a click elsewhere). */
  onClose: (how: 'key' | 'outside') => void;
}) {
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const id = useId();
  const box = useRef<HTMLDivElement>(null);
  const latestClose = useRef(onClose);
  latestClose.current = onClose;
  useEffect(() => {
    const onDown = (e: MouseEvent) => {
      if (box.current && !box.current.contains(e.target as Node)) latestClose.current('outside');
    };
    document.addEventListener('mousedown', onDown);
    return () => document.removeEventListener('mousedown', onDown);
  }, []);
  const q = query.trim().toLowerCase();
  const shown = options.filter((o) => !q || `${o.label} ${o.note ?? ''}`.toLowerCase().includes(q));
  const current = Math.min(active, Math.max(0, shown.length - 1));
  const optionId = (o: PickOption) => `${id}-${o.value}`;

  return (
    <div ref={box} className="pick-menu" data-menu-open="">
      <input
        className="quick-edit-input"
        role="combobox"
        aria-label={`${label}: type to filter`}
        aria-expanded="true"
        aria-controls={id}
        aria-autocomplete="list"
        aria-activedescendant={shown[current] ? optionId(shown[current]) : undefined}
        placeholder={`${label}…`}
        value={query}
        // biome-ignore lint/a11y/noAutofocus: the menu opened on a key or click; typing filters it at once
        autoFocus
        onChange={(e) => {
          setQuery(e.target.value);
          setActive(0);
        }}
        onKeyDown={(e) => {
          const n = Math.max(1, shown.length);
          if (pressed(e, 'menu.down')) setActive((current + 1) % n);
          else if (pressed(e, 'menu.up')) setActive((current - 1 + n) % n);
          else if (pressed(e, 'menu.pick')) {
            const o = shown[current];
            if (o) onPick(o.value);
          } else if (pressed(e, 'menu.close') || e.key === 'Tab') onClose('key');
          else return;
          e.preventDefault();
          e.stopPropagation();
        }}
      />
      <div
        id={id}
        role="listbox"
        aria-label={label}
        aria-multiselectable={multi || undefined}
        className="quick-edit-list"
      >
        {shown.map((o, i) => {
          const on = chosen?.has(o.value) ?? false;
          return (
            // biome-ignore lint/a11y/useKeyWithClickEvents: the combobox input handles the keyboard
            <div
              key={o.value}
              id={optionId(o)}
              role="option"
              tabIndex={-1}
              aria-selected={multi ? on : i === current}
              className={`quick-edit-option${i === current ? ' active' : ''}`}
              onMouseMove={() => setActive(i)}
              onMouseDown={(e) => e.preventDefault()}
              onClick={() => onPick(o.value)}
            >
              {multi && (
                <span className="check" aria-hidden="true">
                  {on ? '✓' : ''}
                </span>
              )}
              {o.color && <span className="dot" style={{ background: o.color }} aria-hidden="true" />}
              <span>{o.label}</span>
              {o.note && <span className="small muted">{o.note}</span>}
            </div>
          );
        })}
        {shown.length === 0 && <div className="muted empty-option">No matches</div>}
      </div>
    </div>
  );
}
