// Draws the editor's open suggestion list (menu.ts) under the caret. Options
// take no focus: the editor keeps it and points at the active one with
// aria-activedescendant (set by MarkdownEditor).
import { useEffect, useRef, useSyncExternalStore } from 'react';
import type { MenuStore } from './menu';

export function SuggestionMenu({ store, id }: { store: MenuStore; id: string }) {
  const state = useSyncExternalStore(store.subscribe, store.get);
  const list = useRef<HTMLDivElement>(null);
  // A field near the bottom of the screen would hide the list below it.
  useEffect(() => {
    if (state) list.current?.querySelector('[aria-selected="true"]')?.scrollIntoView({ block: 'nearest' });
  }, [state]);
  if (!state) return null;
  const rect = state.rect;
  return (
    <div
      ref={list}
      className="menu editor-menu"
      id={id}
      role="listbox"
      aria-label={state.name}
      style={rect ? { position: 'fixed', left: rect.left, top: rect.bottom + 4 } : undefined}
    >
      {state.items.map((item, i) => (
        // biome-ignore lint/a11y/useKeyWithClickEvents: the editor handles the keyboard
        <div
          key={item.id}
          tabIndex={-1}
          id={`${id}-${i}`}
          role="option"
          aria-selected={i === state.active}
          className="menu-item"
          // Keeps focus in the editor, which the click then writes into.
          onMouseDown={(e) => e.preventDefault()}
          onMouseMove={() => i !== state.active && store.set({ ...state, active: i })}
          onClick={() => state.pick(item)}
        >
          <span>{item.label}</span>
          {item.hint && <span className="muted small">{item.hint}</span>}
        </div>
      ))}
    </div>
  );
}
