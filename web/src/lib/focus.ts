// Where the keyboard is when nothing in particular holds it. A page load, a
// navigation, a dialog whose opener is gone or a row that left the list would
// otherwise leave focus on the body: invisible, and Tab would start over from
// the top. The page's heading takes it instead (a screen reader names the new
// page), or the main region on a page without one (tabindex -1, both).

const HEADING = 'main#main .page-header h1';
const LANDING = `main#main, ${HEADING}`;

/** Nothing in particular has the keyboard: the body, an element no longer shown, or where a new page put it. */
export function pageHoldsKeyboard() {
  const at = document.activeElement;
  return !at || at === document.body || !at.isConnected || at.matches(LANDING);
}

/** Gives the keyboard to the page (its heading, else its main region), unless something else holds it. */
export function keepKeyboardOnPage() {
  const at = document.activeElement;
  if (at && at !== document.body && at.isConnected) return;
  (document.querySelector<HTMLElement>(HEADING) ?? document.querySelector<HTMLElement>('main#main'))?.focus({
    preventScroll: true,
  });
}
