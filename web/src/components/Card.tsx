// The settings and admin pages' cards: a bordered section named by its
// heading, with an optional description and buttons beside the heading; and
// the card that lists records (a table, or a list of rows), with the read's
// loading and error states and the empty message in one place.
import { type ReactNode, useId } from 'react';
import { ErrorMessage, Loading } from './ui';

interface CardProps {
  title: ReactNode;
  /** A line under the title saying what the card is for. */
  description?: ReactNode;
  /** Beside the title: what acts on the whole card (refresh). */
  actions?: ReactNode;
  children?: ReactNode;
}

export function Card({ title, description, actions, children }: CardProps) {
  const id = useId();
  const heading = <h2 id={id}>{title}</h2>;
  return (
    <section className="card" aria-labelledby={id}>
      {actions ? (
        <div className="row">
          {heading}
          {actions}
        </div>
      ) : (
        heading
      )}
      {description && <p className="muted">{description}</p>}
      {children}
    </section>
  );
}

/** Records as a table: the column headings, and an unnamed last column for each row's buttons. */
interface TableLayout {
  columns: readonly string[];
  /** A last column for the rows' buttons, named for screen readers only. */
  rowActions?: boolean;
  tableLabel?: string;
}
/** Records as a list of rows (each `row` an <li>) with this class. */
interface ListLayout {
  listClass: string;
}

type ListCardProps<T> = Omit<CardProps, 'children'> &
  (TableLayout | ListLayout) & {
    /** The read of the records: while it loads, `loadingLabel` shows; its error shows in the card. */
    query: { isLoading: boolean; error: unknown };
    loadingLabel: string;
    /** The records, once read. */
    items: readonly T[] | undefined;
    /** Said when there are none; without it an empty table shows (a list that is never empty). */
    empty?: string;
    row: (item: T) => ReactNode;
    /** Above the records: what adds to them (a button) and its messages. */
    before?: ReactNode;
    /** Below the records: a form that adds one, "Load more". */
    children?: ReactNode;
  };

export function ListCard<T>(props: ListCardProps<T>) {
  const { title, description, actions, query, loadingLabel, items, empty, row, before, children } = props;
  const none = items !== undefined && items.length === 0;
  return (
    <Card title={title} description={description} actions={actions}>
      {before}
      {query.isLoading && <Loading label={loadingLabel} />}
      <ErrorMessage error={query.error} />
      {none && empty !== undefined && <p className="muted">{empty}</p>}
      {items !== undefined && !(none && empty !== undefined) && records(props, items, row)}
      {children}
    </Card>
  );
}

function records<T>(layout: TableLayout | ListLayout, items: readonly T[], row: (item: T) => ReactNode) {
  if ('listClass' in layout) return <ul className={layout.listClass}>{items.map(row)}</ul>;
  return (
    <table className="table" aria-label={layout.tableLabel}>
      <thead>
        <tr>
          {layout.columns.map((c) => (
            <th key={c} scope="col">
              {c}
            </th>
          ))}
          {layout.rowActions && (
            <th scope="col">
              <span className="sr-only">Actions</span>
            </th>
          )}
        </tr>
      </thead>
      <tbody>{items.map(row)}</tbody>
    </table>
  );
}
