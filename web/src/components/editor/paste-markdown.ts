// Plain text pasted (from a .md file, a terminal, another tracker's Markdown)
// is read as Markdown, so `## Steps` or `- [ ] check` arrive formatted, as
// they would be stored anyway. Clipboard HTML (copied from a page, this app's
// rendered text included) is left to ProseMirror, which keeps only what the
// schema knows; inside a code block the text goes in as it is.
import { Extension, type JSONContent } from '@tiptap/core';
import { Plugin, PluginKey } from '@tiptap/pm/state';

export function pasteMarkdown(parse: (markdown: string) => JSONContent) {
  return Extension.create({
    name: 'pasteMarkdown',
    addProseMirrorPlugins() {
      const editor = this.editor;
      return [
        new Plugin({
          key: new PluginKey('pasteMarkdown'),
          props: {
            handlePaste(view, event) {
              const data = event.clipboardData;
              if (!data || data.files.length > 0 || data.types.includes('text/html')) return false;
              const text = data.getData('text/plain');
              if (!text || view.state.selection.$from.parent.type.spec.code) return false;
              const content = parse(text).content ?? [];
              return editor.commands.insertContent(content);
            },
          },
        }),
      ];
    },
  });
}
