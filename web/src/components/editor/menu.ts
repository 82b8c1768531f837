// The one pop-up list the editor shows while something is being typed after a
// trigger (`/` commands, `@` people and issues): Tiptap's suggestion plugin
// finds the trigger and the query, this store holds what the list shows, and
// SuggestionMenu.tsx draws it. The keys stay in the editor (arrows move, Enter
// or Tab picks, Escape closes), so focus never leaves the text.
import type { Editor, Range } from '@tiptap/core';
import type { PluginKey } from '@tiptap/pm/state';
import { exitSuggestion, type SuggestionOptions } from '@tiptap/suggestion';

/** Replaces the trigger and query (`range`) with what an item stands for. */
export type MenuRun = (editor: Editor, range: Range) => void;

export interface MenuItem {
  id: string;
  label: string;
  hint?: string;
  run: MenuRun;
}

export interface MenuState {
  /** What the list offers, also its accessible name ("Commands"). */
  name: string;
  items: MenuItem[];
  active: number;
  rect: DOMRect | null;
  pick: (item: MenuItem) => void;
}

/** A tiny external store (useSyncExternalStore) for the open list, one per editor. */
export class MenuStore {
  state: MenuState | null = null;
  private listeners = new Set<() => void>();
  subscribe = (l: () => void) => {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  };
  get = () => this.state;
  set(state: MenuState | null) {
    this.state = state;
    for (const l of this.listeners) l();
  }
  move(by: number) {
    const s = this.state;
    if (!s || s.items.length === 0) return;
    this.set({ ...s, active: (s.active + by + s.items.length) % s.items.length });
  }
}

/** The suggestion options that feed `store` with `items`, for a trigger `char`. */
export function menuSuggestion(
  store: MenuStore,
  name: string,
  pluginKey: PluginKey,
  char: string,
  items: (query: string) => MenuItem[] | Promise<MenuItem[]>,
): Omit<SuggestionOptions<MenuItem, MenuItem>, 'editor'> {
  return {
    char,
    pluginKey,
    items: ({ query }) => items(query),
    command: ({ editor, range, props }) => props.run(editor, range),
    render: () => {
      const show = (props: {
        items: MenuItem[];
        command: (item: MenuItem) => void;
        clientRect?: (() => DOMRect | null) | null;
      }) =>
        store.set(
          props.items.length === 0
            ? null
            : {
                name,
                items: props.items,
                active: store.state?.name === name ? Math.min(store.state.active, props.items.length - 1) : 0,
                rect: props.clientRect?.() ?? null,
                pick: props.command,
              },
        );
      return {
        onStart: show,
        onUpdate: show,
        onExit: () => store.set(null),
        onKeyDown: ({ event, view }) => {
          const s = store.state;
          if (!s || s.name !== name) return false;
          if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
            store.move(event.key === 'ArrowDown' ? 1 : -1);
            return true;
          }
          if (
            (event.key === 'Enter' || event.key === 'Tab') &&
            !event.shiftKey &&
            !event.metaKey &&
            !event.ctrlKey
          ) {
            const item = s.items[s.active];
            if (item) s.pick(item);
            return true;
          }
          if (event.key === 'Escape') {
            // Closes the list only: the editor (or the dialog around it) stays.
            exitSuggestion(view, pluginKey);
            store.set(null);
            return true;
          }
          return false;
        },
      };
    },
  };
}
