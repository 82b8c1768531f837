// What an issue list or board shows, all of it in the address: filters,
// grouping, order and visible properties. Anything unknown in the query
// string is dropped, so a shared or old link always opens something sensible.
// Groupings are a saved view's own words (shared with the server); orders and
// properties keep their short address words, mapped to the saved ones in views.ts.
import { GROUPS, type Group } from '../../../src/modules/views/vocabulary.js';
import {
  decodeFilters,
  encodeFilters,
  type Field,
  type Filter,
  fromSingleValues,
  uniqueFilters,
} from './filters.js';

export const GROUPINGS = GROUPS;
export type Grouping = Group;

export const ORDERS = ['updated', 'created', 'priority', 'title', 'due'] as const;
export type Order = (typeof ORDERS)[number];

export const PROPERTIES = [
  'priority',
  'id',
  'state',
  'labels',
  'project',
  'due',
  'created',
  'assignee',
] as const;
export type Property = (typeof PROPERTIES)[number];
export const DEFAULT_PROPERTIES: readonly Property[] = PROPERTIES;

/**
 * Filter keys, each holding one id (or `me`/`none` for the assignee, a number
 * for the priority): what a page fixes (`fixed`), the team, and old addresses,
 * whose keys other than the team become builder filters (`f`, lib/filters.ts).
 */
export const FILTER_KEYS = ['team', 'state', 'assignee', 'label', 'priority', 'project', 'cycle'] as const;
export type FilterKey = (typeof FILTER_KEYS)[number];

export type View = {
  q?: string;
  group?: Grouping;
  order?: Order;
  /** Comma-separated properties to show; absent means all. */
  show?: string;
  /** The saved view this one started from. */
  view?: string;
  /** The filter builder's filters (lib/filters.ts encodeFilters). */
  f?: string;
} & { [K in FilterKey]?: string };

const oneOf = <T extends string>(list: readonly T[], v: unknown): T | undefined =>
  typeof v === 'string' && (list as readonly string[]).includes(v) ? (v as T) : undefined;
const text = (v: unknown, max = 200): string | undefined =>
  typeof v === 'string' && v !== '' ? v.slice(0, max) : typeof v === 'number' ? String(v) : undefined;

export function parseView(search: Record<string, unknown>): View {
  const view: View = {};
  const team = text(search['team'], 64);
  if (team) view.team = team;
  const filters = uniqueFilters([...fromSingleValues(search), ...decodeFilters(search['f'])]);
  if (filters.length > 0) view.f = encodeFilters(filters);
  const q = text(search['q']);
  if (q) view.q = q;
  const group = oneOf(GROUPINGS, search['group']);
  if (group) view.group = group;
  const order = oneOf(ORDERS, search['order']);
  if (order) view.order = order;
  // `show=` (every property turned off) is a choice of its own, kept as such.
  const show = search['show'];
  if (typeof show === 'string')
    view.show = show
      .slice(0, 200)
      .split(',')
      .filter((p) => oneOf(PROPERTIES, p))
      .join(',');
  const saved = text(search['view'], 64);
  if (saved) view.view = saved;
  return view;
}

export const shownProperties = (v: View): Set<Property> =>
  new Set(v.show === undefined ? DEFAULT_PROPERTIES : (v.show.split(',') as Property[]));

/** True when the view narrows the issues (search text aside). */
export const isFiltered = (v: View) => Boolean(v.f) || FILTER_KEYS.some((k) => v[k]);

/** The view's builder filters without those on `fields` (the board's own team and columns). */
export function withoutFields(v: View, fields: Field[]): View {
  const kept = decodeFilters(v.f).filter((f) => !fields.includes(f.field));
  return { ...v, f: kept.length > 0 ? encodeFilters(kept) : undefined };
}

/** The builder filters a view holds: its team (the `team` key) and its `f`. */
export const viewFilters = (v: View): Filter[] => [
  ...(v.team ? [{ field: 'team' as const, op: 'is' as const, values: [v.team] }] : []),
  ...decodeFilters(v.f),
];

/** `v` with `filters` instead of its own: one team "is" stays the `team` key the pages group by. */
export function withFilters(v: View, filters: readonly Filter[]): View {
  const team = filters.filter((f) => f.field === 'team');
  const single = team.length === 1 && team[0]!.op === 'is' && team[0]!.values.length === 1;
  const rest = single ? filters.filter((f) => f.field !== 'team') : filters;
  return {
    ...v,
    team: single ? team[0]!.values[0] : undefined,
    f: rest.length > 0 ? encodeFilters(rest) : undefined,
  };
}
