// `@` completion: people (inserted as a mention chip, stored `@displayName`)
// and, from two letters on, issues from the issue search (inserted as their
// identifier, `ENG-12`, which shows as a chip). `ENG-12` typed by hand is a
// chip too (issue-refs.ts).
import { Extension } from '@tiptap/core';
import { PluginKey } from '@tiptap/pm/state';
import Suggestion from '@tiptap/suggestion';
import { mentionCandidates } from '../../lib/mention';
import type { EditorContext } from './context';
import { type MenuItem, type MenuRun, type MenuStore, menuSuggestion } from './menu';

const PEOPLE = 6;

export function mentions(store: MenuStore, context: EditorContext) {
  const pluginKey = new PluginKey('mention');
  const items = async (query: string): Promise<MenuItem[]> => {
    const people: MenuItem[] = mentionCandidates(context.services().people, query, PEOPLE).map((p) => ({
      id: p.id,
      label: `@${p.displayName}`,
      hint: p.name,
      run: (editor, range) =>
        editor
          .chain()
          .focus()
          .insertContentAt(range, [
            { type: 'mention', attrs: { label: p.displayName } },
            { type: 'text', text: ' ' },
          ])
          .run(),
    }));
    const issues =
      query.length >= 2
        ? await context
            .services()
            .searchIssues(query)
            .catch(() => [])
        : ([] as { identifier: string; title: string }[]);
    return [
      ...people,
      ...issues.map((i) => ({
        id: i.identifier,
        label: i.identifier,
        hint: i.title,
        run: ((editor, range) =>
          editor.chain().focus().insertContentAt(range, `${i.identifier} `).run()) satisfies MenuRun,
      })),
    ];
  };
  return Extension.create({
    name: 'mentionSuggestion',
    priority: 1000,
    addProseMirrorPlugins() {
      return [
        Suggestion({
          editor: this.editor,
          ...menuSuggestion(store, 'People and issues to mention', pluginKey, '@', items),
          // `a@b`: an address, not a mention (lib/mention.ts: `@` not after a word character).
          allowedPrefixes: null,
          allow: ({ state, range }) => {
            const $from = state.doc.resolve(range.from);
            if ($from.parent.type.spec.code) return false;
            const before = $from.parent.textBetween(
              Math.max(0, $from.parentOffset - 1),
              $from.parentOffset,
              undefined,
              '\ufffc',
            );
            return !/[\w@]/.test(before);
          },
        }),
      ];
    },
  });
}
