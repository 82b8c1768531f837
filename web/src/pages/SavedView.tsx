// A saved view: its issues under its stored filter (any client's IssueFilter),
// shown as it was saved unless the address says otherwise. Filters set here
// narrow it further for this visit; the view itself changes only by saving.
import { Link, useNavigate } from '@tanstack/react-router';
import { Button, ErrorMessage, Loading } from '../components/ui';
import { useAction } from '../lib/action';
import { useSession } from '../lib/session';
import { deleteView, fromDisplay, useSavedView } from '../lib/views';
import type { ViewProps } from '../router';
import { IssueList } from './Issues';

export function SavedViewPage({ id, view, setView }: ViewProps & { id: string }) {
  const q = useSavedView(id);
  const { user } = useSession();
  const navigate = useNavigate();
  const removing = useAction((viewId: string) => deleteView(viewId), {
    onSuccess: () => void navigate({ to: '/issues' }),
  });
  const error = removing.error;
  if (q.isLoading) return <Loading label="Loading view" />;
  if (!q.data)
    return (
      <div className="page">
        <ErrorMessage error={q.error ?? 'View not found'} />
        <Link to="/issues">Back to issues</Link>
      </div>
    );
  const saved = q.data;
  const mayDelete = saved.ownerId === user?.id || (saved.shared && user?.role === 'admin');
  const remove = () => {
    if (confirm(`Delete the view "${saved.name}"? Its issues stay as they are.`)) void removing.run(saved.id);
  };
  return (
    <IssueList
      view={{ ...fromDisplay(saved.display), ...view }}
      setView={setView}
      title={saved.name}
      fixed={{}}
      baseFilter={saved.filterData}
      actions={
        <>
          {saved.shared && <span className="badge">Shared</span>}
          {mayDelete && (
            <Button variant="ghost" onClick={remove}>
              Delete view
            </Button>
          )}
        </>
      }
    >
      <ErrorMessage error={error} />
    </IssueList>
  );
}
