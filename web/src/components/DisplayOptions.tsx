// "Display": how a list shows its issues (grouping, order, which properties),
// written into the address like the filters. A popover over the page (it does
// not push the list down): Escape or a click elsewhere closes it, and the
// keyboard goes back to its button.
import { useEffect, useId, useRef, useState } from 'react';
import {
  GROUPINGS,
  type Grouping,
  ORDERS,
  type Order,
  PROPERTIES,
  type Property,
  shownProperties,
  type View,
} from '../lib/view';

const GROUP_LABELS: Record<Grouping, string> = {
  state: 'State',
  assignee: 'Assignee',
  project: 'Project',
  priority: 'Priority',
  cycle: 'Cycle',
  team: 'Team',
  label: 'Label',
  none: 'No grouping',
};
const ORDER_LABELS: Record<Order, string> = {
  updated: 'Last updated',
  created: 'Created',
  priority: 'Priority',
  title: 'Title',
  due: 'Due date',
};
export const PROPERTY_LABELS: Record<Property, string> = {
  priority: 'Priority',
  id: 'ID',
  state: 'State',
  labels: 'Labels',
  project: 'Project',
  due: 'Due date',
  created: 'Created',
  assignee: 'Assignee',
};

export function DisplayOptions({
  view,
  onChange,
  grouping = true,
  defaultOrder = 'updated',
}: {
  view: View;
  onChange: (v: View) => void;
  grouping?: boolean;
  defaultOrder?: Order;
}) {
  const shown = shownProperties(view);
  const toggle = (p: Property) => {
    const next = new Set(shown);
    if (next.has(p)) next.delete(p);
    else next.add(p);
    const list = PROPERTIES.filter((x) => next.has(x));
    onChange({ ...view, show: list.length === PROPERTIES.length ? undefined : list.join(',') });
  };
  const [open, setOpen] = useState(false);
  const id = useId();
  const box = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (!open) return;
    const onDown = (e: MouseEvent) => {
      if (box.current && !box.current.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', onDown);
    return () => document.removeEventListener('mousedown', onDown);
  }, [open]);
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: Escape anywhere in the popover (its button included) closes it
    <div
      ref={box}
      className="display-options"
      onKeyDown={(e) => {
        if (e.key !== 'Escape' || !open) return;
        // The list's own Escape (clear the selection) waits for the next press.
        e.preventDefault();
        e.stopPropagation();
        setOpen(false);
        button.current?.focus();
      }}
    >
      <button
        ref={button}
        type="button"
        className="btn"
        aria-expanded={open}
        aria-controls={id}
        onClick={() => setOpen(!open)}
      >
        Display
      </button>
      <div id={id} className="display-panel" role="dialog" aria-label="Display options" hidden={!open}>
        {grouping && (
          <label className="filter">
            <span className="filter-label">Grouping</span>
            <select
              value={view.group ?? 'state'}
              onChange={(e) => onChange({ ...view, group: e.target.value as Grouping })}
            >
              {GROUPINGS.map((g) => (
                <option key={g} value={g}>
                  {GROUP_LABELS[g]}
                </option>
              ))}
            </select>
          </label>
        )}
        <label className="filter">
          <span className="filter-label">Ordering</span>
          <select
            value={view.order ?? defaultOrder}
            onChange={(e) => onChange({ ...view, order: e.target.value as Order })}
          >
            {ORDERS.map((o) => (
              <option key={o} value={o}>
                {ORDER_LABELS[o]}
              </option>
            ))}
          </select>
        </label>
        <fieldset className="display-properties">
          <legend>Properties</legend>
          {PROPERTIES.map((p) => (
            <label key={p} className="check">
              <input type="checkbox" checked={shown.has(p)} onChange={() => toggle(p)} />
              {PROPERTY_LABELS[p]}
            </label>
          ))}
        </fieldset>
      </div>
    </div>
  );
}
