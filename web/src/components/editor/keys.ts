// The editor's own keys beyond Tiptap's (bold Mod-B, italic Mod-I, code Mod-E,
// lists Mod-Shift-7/8/9 come with their extensions): strike on Mod-Shift-X as
// in Linear, a link on Mod-K, Mod-Enter submits, Escape leaves the editor for its field.
import { Extension } from '@tiptap/core';
import type { EditorContext } from './context';

// A computed key: a capitalised property name would read as a React component to the linter.
const ESCAPE = 'Escape';

export function editorKeys(context: EditorContext) {
  return Extension.create({
    name: 'trackwayKeys',
    // After the open lists (1000), before the keymaps of the nodes (100):
    // Mod-Enter would otherwise be a line break.
    priority: 500,
    addKeyboardShortcuts() {
      return {
        'Mod-Shift-x': () => this.editor.commands.toggleStrike(),
        'Mod-k': () => {
          if (this.editor.isActive('link')) return this.editor.chain().focus().unsetLink().run();
          const href = window.prompt('Link address (https://…)')?.trim();
          if (!href) return true;
          const { empty } = this.editor.state.selection;
          // Nothing selected: the address itself becomes the linked text.
          return empty
            ? this.editor
                .chain()
                .focus()
                .insertContent({ type: 'text', text: href, marks: [{ type: 'link', attrs: { href } }] })
                .run()
            : this.editor.chain().focus().setLink({ href }).run();
        },
        'Mod-Enter': () => {
          context.submit();
          return true;
        },
        // The keyboard stays on the field (not lost on the page's body): Tab goes on from here,
        // and the page's keys work again (a second Escape leaves the issue or closes the dialog).
        [ESCAPE]: () => {
          const field = this.editor.view.dom.closest<HTMLElement>('.md-editor');
          if (!field) return this.editor.commands.blur();
          field.focus();
          window.getSelection()?.removeAllRanges();
          return true;
        },
      };
    },
  });
}
