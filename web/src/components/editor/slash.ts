// Slash commands: `/` at the start of a line or after a space opens a list of
// blocks to turn the line into; typing filters it.
import { Extension } from '@tiptap/core';
import { PluginKey } from '@tiptap/pm/state';
import Suggestion from '@tiptap/suggestion';
import type { EditorContext } from './context';
import { pickImages } from './images';
import { type MenuItem, type MenuStore, menuSuggestion } from './menu';

/** A command, with the other words it is found by (`/todo` finds Checklist). */
type Command = MenuItem & { words: string };

const COMMANDS: Command[] = [
  ...([1, 2, 3] as const).map(
    (level): Command => ({
      id: `h${level}`,
      label: `Heading ${level}`,
      hint: `${'#'.repeat(level)} `,
      words: `heading h${level} title`,
      run: (e, r) => e.chain().focus().deleteRange(r).setNode('heading', { level }).run(),
    }),
  ),
  {
    id: 'bullet',
    label: 'Bulleted list',
    hint: '- ',
    words: 'bullet list unordered',
    run: (e, r) => e.chain().focus().deleteRange(r).toggleBulletList().run(),
  },
  {
    id: 'ordered',
    label: 'Numbered list',
    hint: '1. ',
    words: 'numbered ordered list',
    run: (e, r) => e.chain().focus().deleteRange(r).toggleOrderedList().run(),
  },
  {
    id: 'task',
    label: 'Checklist',
    hint: '[] ',
    words: 'checklist todo task list checkbox',
    run: (e, r) => e.chain().focus().deleteRange(r).toggleTaskList().run(),
  },
  {
    id: 'code',
    label: 'Code block',
    hint: '``` ',
    words: 'code block snippet',
    run: (e, r) => e.chain().focus().deleteRange(r).setCodeBlock().run(),
  },
  {
    id: 'quote',
    label: 'Quote',
    hint: '> ',
    words: 'quote blockquote',
    run: (e, r) => e.chain().focus().deleteRange(r).setBlockquote().run(),
  },
  {
    id: 'rule',
    label: 'Divider',
    hint: '---',
    words: 'divider rule horizontal line separator',
    run: (e, r) => e.chain().focus().deleteRange(r).setHorizontalRule().run(),
  },
];

const IMAGE = { id: 'image', label: 'Image', hint: 'upload', words: 'image picture photo upload' };

export function slashCommands(store: MenuStore, context: EditorContext) {
  const pluginKey = new PluginKey('slash');
  const image: Command = {
    ...IMAGE,
    run: (e, r) => {
      e.chain().focus().deleteRange(r).run();
      pickImages(e, context);
    },
  };
  const all = (): Command[] => (context.services().canUpload ? [...COMMANDS, image] : COMMANDS);
  return Extension.create({
    name: 'slashCommands',
    // Before the keymaps: Enter and arrows belong to the open list.
    priority: 1000,
    addProseMirrorPlugins() {
      return [
        Suggestion({
          editor: this.editor,
          ...menuSuggestion(store, 'Commands', pluginKey, '/', (query) => {
            const q = query.toLowerCase();
            return all().filter(
              (c) =>
                !q || c.label.toLowerCase().includes(q) || c.words.split(' ').some((w) => w.startsWith(q)),
            );
          }),
          // Not inside code, where `/` is just a character.
          allow: ({ state, range }) => !state.doc.resolve(range.from).parent.type.spec.code,
        }),
      ];
    },
  });
}
