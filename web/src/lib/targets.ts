// What keyboard actions act on, shared between the page that knows it and the
// frame's command menu: the issues in hand (the list's selection, else its
// focused row, else the open issue), and the list last seen, so that J/K on an
// issue page walk that list and Escape goes back to it.
import type { Issue } from './issues';

let inHand: readonly Issue[] = [];

/** Called by the page that shows them; [] when it goes. */
export const holdIssues = (issues: readonly Issue[]) => {
  inHand = issues;
};
export const heldIssues = () => inHand;

interface LastList {
  /** Where the list is, with its filters: `/issues?team=…`. */
  href: string;
  /** Its issues' identifiers, in the order shown. */
  identifiers: readonly string[];
}
let lastList: LastList | undefined;

export const rememberList = (list: LastList) => {
  lastList = list;
};
export const rememberedList = () => lastList;

/** The identifier `step` rows away from `identifier` in the remembered list, if any. */
export function neighbour(identifier: string, step: 1 | -1): string | undefined {
  const ids = lastList?.identifiers ?? [];
  const at = ids.indexOf(identifier);
  return at < 0 ? undefined : ids[at + step];
}
