// `ENG-12` in the text shows as a chip when ENG is a team: a decoration over
// the plain text, so the stored Markdown is the identifier as typed. The rule
// is the renderer's (lib/markdown-parse.ts): a capital and up to nine capitals
// or digits, `-`, a number, at word boundaries; not in code.
import { Extension } from '@tiptap/core';
import type { Node as PmNode } from '@tiptap/pm/model';
import { Plugin, PluginKey } from '@tiptap/pm/state';
import { Decoration, DecorationSet } from '@tiptap/pm/view';
import type { EditorContext } from './context';

const ISSUE_REF = /(?<![\w-])([A-Z][A-Z0-9]{0,9})-[1-9]\d{0,8}(?![\w-])/g;

function chips(doc: PmNode, teamKeys: ReadonlySet<string>): DecorationSet {
  const found: Decoration[] = [];
  doc.descendants((node, pos) => {
    if (node.type.spec.code) return false;
    if (!node.isText || node.marks.some((m) => m.type.spec.code)) return true;
    for (const m of (node.text ?? '').matchAll(ISSUE_REF)) {
      if (!teamKeys.has(m[1] ?? '')) continue;
      const from = pos + (m.index ?? 0);
      found.push(Decoration.inline(from, from + m[0].length, { class: 'issue-ref chip' }));
    }
    return true;
  });
  return DecorationSet.create(doc, found);
}

export function issueRefs(context: EditorContext) {
  const key = new PluginKey<DecorationSet>('issueRefs');
  return Extension.create({
    name: 'issueRefs',
    addProseMirrorPlugins() {
      return [
        new Plugin({
          key,
          state: {
            init: (_, state) => chips(state.doc, context.services().teamKeys),
            // Team keys arrive with the reference data: a `refresh` meta recomputes.
            apply: (tr, old) =>
              tr.docChanged || tr.getMeta(key) ? chips(tr.doc, context.services().teamKeys) : old,
          },
          props: { decorations: (state) => key.getState(state) },
        }),
      ];
    },
    addCommands() {
      return {
        refreshIssueRefs:
          () =>
          ({ tr, dispatch }) => {
            dispatch?.(tr.setMeta(key, true));
            return true;
          },
      };
    },
  });
}

declare module '@tiptap/core' {
  interface Commands<ReturnType> {
    issueRefs: { refreshIssueRefs: () => ReturnType };
  }
}
