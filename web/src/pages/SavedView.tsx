// A saved view: its issues under its stored filter (any client's IssueFilter),
// shown as it was saved unless the address says otherwise. The filter shows as
// the filter builder's chips (lib/filters.ts issueFilterToFilters), editable as
// on any list; the address's filters, once set, stand for the view's. Changed,
// the view offers "Save to view" (its owner, or an admin for a shared one) and
// "Discard changes". Conditions no chip says (another client's) stay as they
// are, beside the chips.
import { Link, useNavigate } from '@tanstack/react-router';
import { useMemo, useState } from 'react';
import { Button, ErrorMessage, Loading } from '../components/ui';
import type { IssueFilter } from '../gql/graphql';
import { useAction } from '../lib/action';
import { encodeFilters, type Filter, filtersToIssueFilter, issueFilterToFilters } from '../lib/filters';
import { useRefData } from '../lib/ref';
import { useSession } from '../lib/session';
import { type View, viewFilters, withFilters } from '../lib/view';
import { deleteView, fromDisplay, type SavedView, updateView, useSavedView } from '../lib/views';
import type { ViewProps } from '../router';
import { IssueList } from './Issues';

export function SavedViewPage({ id, view, setView }: ViewProps & { id: string }) {
  const q = useSavedView(id);
  if (q.isLoading) return <Loading label="Loading view" />;
  if (!q.data)
    return (
      <div className="page">
        <ErrorMessage error={q.error ?? 'View not found'} />
        <Link to="/issues">Back to issues</Link>
      </div>
    );
  return <SavedViewList saved={q.data} view={view} setView={setView} />;
}

/** Filters as one comparable text, whatever their order. */
const filtersKey = (filters: readonly Filter[]) =>
  filters
    .map((f) => encodeFilters([f]))
    .sort()
    .join('~');

function SavedViewList({ saved, view, setView }: ViewProps & { saved: SavedView }) {
  const { user } = useSession();
  const viewerId = useRefData().data?.viewerId;
  const navigate = useNavigate();
  const stored = useMemo(() => issueFilterToFilters(saved.filterData), [saved.filterData]);
  // Every chip removed: the address holds no filter, which otherwise means "as saved".
  const [cleared, setCleared] = useState(false);
  const own = Boolean(view.f || view.team) || cleared;
  const shown: View = own ? view : withFilters(view, stored.filters);
  const chips = viewFilters(shown);
  const changed = filtersKey(chips) !== filtersKey(stored.filters);
  const mayChange = saved.ownerId === user?.id || (saved.shared && user?.role === 'admin');

  const update = (next: View) => {
    setCleared(viewFilters(next).length === 0);
    setView(next);
  };
  const discard = () => {
    setCleared(false);
    setView(withFilters(view, []));
  };
  // Saved, the view's filter is the chips': the same filters, so no longer a change.
  const saving = useAction(() => {
    const fromChips = filtersToIssueFilter(chips, viewerId) as IssueFilter;
    const rest = stored.rest as IssueFilter | null;
    const filterData =
      rest && Object.keys(fromChips).length > 0 ? { and: [rest, fromChips] } : (rest ?? fromChips);
    return updateView(saved.id, { filterData });
  });
  const removing = useAction((viewId: string) => deleteView(viewId), {
    onSuccess: () => void navigate({ to: '/issues' }),
  });
  const remove = () => {
    if (confirm(`Delete the view "${saved.name}"? Its issues stay as they are.`)) void removing.run(saved.id);
  };
  return (
    <IssueList
      view={{ ...fromDisplay(saved.display), ...shown }}
      setView={update}
      title={saved.name}
      fixed={{}}
      {...(stored.rest ? { baseFilter: stored.rest as IssueFilter } : {})}
      actions={
        <>
          {changed && (
            <>
              <span className="muted small" role="status">
                Filters changed
              </span>
              {mayChange && (
                <Button variant="primary" onClick={() => void saving.run()} busy={saving.busy}>
                  Save to view
                </Button>
              )}
              <Button onClick={discard}>Discard changes</Button>
            </>
          )}
          {saved.shared && <span className="badge">Shared</span>}
          {mayChange && (
            <Button variant="ghost" onClick={remove}>
              Delete view
            </Button>
          )}
        </>
      }
    >
      {stored.rest && (
        <p className="muted small">
          This view also filters by conditions the filter bar cannot show (saved by another client); they stay
          as they are.
        </p>
      )}
      <ErrorMessage error={saving.error ?? removing.error} />
    </IssueList>
  );
}
