// The filter bar shared by the list and the board: the search box and the
// filter builder. Each filter is a chip, "Field  operator  values", whose
// operator and values open type-to-filter menus (several values at once for
// fields chosen from lists); "Add filter" (or F) opens the menu of fields.
// Everything lives in the address (lib/view.ts, lib/filters.ts) and the
// server filters (lib/issues.ts toIssueFilter). On a phone the chips fold
// behind a "Filters" button.
import { useEffect, useState } from 'react';
import { chipSummary, FIELD_LABELS, OP_LABELS, valueOptions } from '../lib/filter-choices';
import { FIELD_KIND, FIELDS, type Field, type Filter, normalize, type Op, opsFor } from '../lib/filters';
import { useShortcuts } from '../lib/keys';
import { useCycles, useProjects, useRefData } from '../lib/ref';
import { useSession } from '../lib/session';
import { FILTER_KEYS, type FilterKey, isFiltered, type View, viewFilters, withFilters } from '../lib/view';
import { PickMenu } from './PickMenu';

/** Which menu is open: the fields, or a chip's operator or values (by the chip's index). */
type Open = { menu: 'add' } | { menu: 'op' | 'values'; index: number } | null;

/** The fields a page fixes (legacy keys) or does not show, as builder fields. */
const KEY_FIELD: Record<FilterKey, Field> = {
  team: 'team',
  state: 'state',
  assignee: 'assignee',
  label: 'label',
  priority: 'priority',
  project: 'project',
  cycle: 'cycle',
};

export function FilterBar({
  view,
  onChange,
  showState = true,
  hide = [],
}: {
  view: View;
  onChange: (v: View) => void;
  showState?: boolean;
  /** Filters fixed by the page, not offered. */
  hide?: FilterKey[];
}) {
  const { flag } = useSession();
  const ref = useRefData().data;
  const projects = useProjects(flag('projects')).data;
  const cycles = useCycles(flag('cycles')).data;
  const [open, setOpen] = useState<Open>(null);
  /** A filter being added: its field is chosen, no value yet (so not in the address). */
  const [draft, setDraft] = useState<Filter | null>(null);
  const [unfolded, setUnfolded] = useState(false);

  const hidden = new Set<Field>([...hide.map((k) => KEY_FIELD[k]), ...(showState ? [] : ['state' as const])]);
  const offered = FIELDS.filter(
    (f) =>
      !hidden.has(f) &&
      !(f === 'team' && (ref?.teams.length ?? 0) < 2) &&
      !(f === 'project' && !flag('projects')) &&
      !(f === 'cycle' && !flag('cycles')),
  );
  const inView = viewFilters(hidden.has('team') ? { ...view, team: undefined } : view);
  // What was just written, until the address says it (navigation is not immediate): menus stay put meanwhile.
  const viewKey = `${view.team ?? ''}|${view.f ?? ''}`;
  const [written, setWritten] = useState<{ over: string; filters: Filter[] } | null>(null);
  const saved = written?.over === viewKey ? written.filters : inView;
  // Once the address has moved on, what was written is spent: a view that comes back to the
  // same address later (a saved view's Discard) shows the address, not the old write.
  useEffect(() => {
    if (written && written.over !== viewKey) setWritten(null);
  }, [written, viewKey]);
  const chips = draft ? [...saved, draft] : saved;
  const teams = chips.flatMap((f) =>
    f.field === 'team' && (f.op === 'is' || f.op === 'anyOf') ? f.values : [],
  );
  const lists = { ref, projects, cycles, teams };

  /** Writes the filters into the view: one team "is" stays the `team` key the pages group by. */
  const write = (next: Filter[]) => {
    setWritten({ over: viewKey, filters: next });
    onChange(withFilters(view, next));
  };
  /** Puts `f` at `index` (the draft's index appends it); a filter left with no value goes. */
  const put = (index: number, f: Filter) => {
    const fixed = normalize(f);
    const next = [...saved];
    if (index < saved.length) {
      if (fixed) next[index] = fixed;
      else next.splice(index, 1);
    } else if (fixed) {
      next.push(fixed);
      setDraft(null);
    } else setDraft(f);
    write(next);
  };
  const remove = (index: number) => {
    if (index >= saved.length) setDraft(null);
    else write(saved.filter((_, i) => i !== index));
    focusLater('[data-filter-add]');
  };

  /** Gives the keyboard back to a button of the bar once the menu is gone. */
  const focusLater = (selector: string) =>
    requestAnimationFrame(() => document.querySelector<HTMLElement>(selector)?.focus());
  const close = (how: 'key' | 'outside', back: string) => {
    setOpen(null);
    // A filter given no value is not kept.
    if (draft) setDraft(null);
    if (how === 'key') focusLater(draft ? '[data-filter-add]' : back);
  };

  useShortcuts({
    'list.filter': () => {
      setUnfolded(true);
      setOpen({ menu: 'add' });
    },
  });

  const addField = (field: Field) => {
    setDraft({ field, op: 'is', values: [] });
    setOpen({ menu: 'values', index: saved.length });
  };
  const pickValue = (index: number, value: string) => {
    const f = chips[index]!;
    if (FIELD_KIND[f.field] !== 'set') {
      put(index, { ...f, op: f.op === 'empty' ? 'is' : f.op, values: [value] });
      setOpen(null);
      focusLater(`[data-filter-values="${index}"]`);
      return;
    }
    const values = f.values.includes(value) ? f.values.filter((v) => v !== value) : [...f.values, value];
    // Several values read "any of" / "none of".
    const op: Op =
      f.op === 'empty'
        ? 'is'
        : values.length > 1 && f.op === 'is'
          ? 'anyOf'
          : values.length > 1 && f.op === 'isNot'
            ? 'noneOf'
            : f.op;
    put(index, { ...f, op, values });
  };
  const pickOp = (index: number, op: Op) => {
    const f = chips[index]!;
    setOpen(null);
    if (op === 'empty') {
      put(index, { ...f, op, values: [] });
      focusLater(`[data-filter-op="${index}"]`);
    } else if (f.op === 'empty') {
      // From "is empty" to a comparison: the values come next.
      write(saved.filter((_, i) => i !== index));
      setDraft({ field: f.field, op, values: [] });
      setOpen({ menu: 'values', index: saved.length - (index < saved.length ? 1 : 0) });
    } else {
      put(index, { ...f, op });
      focusLater(`[data-filter-op="${index}"]`);
    }
  };

  const clear = () => {
    const next: View = { ...view, f: undefined };
    for (const k of FILTER_KEYS) if (!hide.includes(k)) delete next[k];
    setDraft(null);
    onChange(next);
  };
  const count = saved.length;

  return (
    <div className="filter-bar">
      <label className="filter search">
        <span className="filter-label">Search</span>
        <input
          type="search"
          placeholder="Title or text…"
          value={view.q ?? ''}
          onChange={(e) => onChange({ ...view, q: e.target.value || undefined })}
          // Escape leaves the box with its text kept (`/` came in), so the list's keys work again.
          onKeyDown={(e) => {
            if (e.key !== 'Escape') return;
            e.preventDefault();
            e.currentTarget.blur();
          }}
        />
      </label>
      <button
        type="button"
        className="btn filters-toggle"
        aria-expanded={unfolded}
        aria-controls="filter-chips"
        onClick={() => setUnfolded(!unfolded)}
      >
        Filters{count > 0 ? ` (${count})` : ''}
      </button>
      <div id="filter-chips" className={`filter-chips${unfolded ? ' unfolded' : ''}`}>
        {chips.map((f, index) => {
          const summary = chipSummary(f, lists);
          const name = FIELD_LABELS[f.field];
          const ops = opsFor(f.field);
          return (
            // biome-ignore lint/a11y/useSemanticElements: a chip of buttons, not a form group
            <div
              // biome-ignore lint/suspicious/noArrayIndexKey: a chip is its place in the list; two may share a field
              key={`${f.field}-${index}`}
              className="filter-chip"
              role="group"
              aria-label={`Filter: ${name} ${OP_LABELS[f.op]}${f.values.length ? ` ${summary}` : ''}`}
            >
              <span className="filter-chip-field">{name}</span>
              <span className="filter-chip-part">
                {ops.length > 1 ? (
                  <button
                    type="button"
                    className="filter-chip-button"
                    data-filter-op={index}
                    aria-haspopup="listbox"
                    aria-expanded={open?.menu === 'op' && open.index === index}
                    aria-label={`${name}: ${OP_LABELS[f.op]}, change the operator`}
                    onClick={() => setOpen({ menu: 'op', index })}
                  >
                    {OP_LABELS[f.op]}
                  </button>
                ) : (
                  <span className="filter-chip-op">{OP_LABELS[f.op]}</span>
                )}
                {open?.menu === 'op' && open.index === index && (
                  <PickMenu
                    label={`${name} operator`}
                    options={ops.map((o) => ({ value: o, label: OP_LABELS[o] }))}
                    onPick={(o) => pickOp(index, o as Op)}
                    onClose={(how) => close(how, `[data-filter-op="${index}"]`)}
                  />
                )}
              </span>
              {f.op !== 'empty' && (
                <span className="filter-chip-part">
                  <button
                    type="button"
                    className="filter-chip-button"
                    data-filter-values={index}
                    aria-haspopup="listbox"
                    aria-expanded={open?.menu === 'values' && open.index === index}
                    aria-label={`${name}: ${summary || 'choose'}, change the values`}
                    onClick={() => setOpen({ menu: 'values', index })}
                  >
                    {summary || '…'}
                  </button>
                  {open?.menu === 'values' && open.index === index && (
                    <PickMenu
                      label={name}
                      options={valueOptions(f.field, lists)}
                      multi={FIELD_KIND[f.field] === 'set'}
                      chosen={new Set(f.values)}
                      onPick={(v) => pickValue(index, v)}
                      onClose={(how) => close(how, `[data-filter-values="${index}"]`)}
                    />
                  )}
                </span>
              )}
              <button
                type="button"
                className="filter-chip-remove"
                aria-label={`Remove the ${name} filter`}
                onClick={() => remove(index)}
              >
                <span aria-hidden="true">×</span>
              </button>
            </div>
          );
        })}
        <span className="filter-chip-part">
          <button
            type="button"
            className="btn btn-ghost"
            data-filter-add=""
            aria-haspopup="listbox"
            aria-expanded={open?.menu === 'add'}
            aria-keyshortcuts="F"
            onClick={() => setOpen({ menu: 'add' })}
          >
            + Add filter
          </button>
          {open?.menu === 'add' && (
            <PickMenu
              label="Filter by"
              options={offered.map((f) => ({ value: f, label: FIELD_LABELS[f] }))}
              onPick={(f) => addField(f as Field)}
              onClose={(how) => close(how, '[data-filter-add]')}
            />
          )}
        </span>
        {isFiltered({ ...view, ...Object.fromEntries(hide.map((k) => [k, undefined])) }) && (
          <button type="button" className="btn btn-ghost" onClick={clear}>
            Clear filters
          </button>
        )}
      </div>
    </div>
  );
}

/** The filters with the search text settled for a moment, so typing does not fire a query per key. */
export function useSettledFilters(f: View, ms = 250): View {
  const [settled, setSettled] = useState(f);
  const key = JSON.stringify(f);
  // A change to anything but the text applies at once, in this render (React renders again before
  // committing): an effect would cost the list a commit and a frame before its reads start.
  const immediate = JSON.stringify({ ...f, q: settled.q }) !== JSON.stringify(settled);
  if (immediate) setSettled(f);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the key stands for the filters
  useEffect(() => {
    if (JSON.stringify(f) === JSON.stringify(settled)) return;
    const t = setTimeout(() => setSettled(f), ms);
    return () => clearTimeout(t);
  }, [key]);
  return immediate ? f : settled;
}
