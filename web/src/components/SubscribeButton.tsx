// The bell on an issue page: subscribe to its comments and state changes, or stop.
import { useSubscription } from '../lib/notifications';
import { ErrorMessage } from './ui';

export function SubscribeButton({ issueId }: { issueId: string }) {
  const { subscribed, loading, toggle, error } = useSubscription(issueId);
  if (loading || subscribed === undefined) return null;
  return (
    <>
      <button
        type="button"
        className={`btn btn-ghost bell${subscribed ? ' on' : ''}`}
        title={
          subscribed
            ? 'You are notified of comments and state changes'
            : 'Get notified of comments and state changes'
        }
        onClick={() => toggle(!subscribed)}
      >
        <svg viewBox="0 0 16 16" width="14" height="14" aria-hidden="true">
          <path d="M8 1.5a4 4 0 0 0-4 4V9l-1.5 2.5h11L12 9V5.5a4 4 0 0 0-4-4Zm-1.8 11.5a1.9 1.9 0 0 0 3.6 0Z" />
          {!subscribed && <path d="M2 2l12 12" stroke="currentColor" strokeWidth="1.5" />}
        </svg>{' '}
        {subscribed ? 'Unsubscribe' : 'Subscribe'}
      </button>
      <ErrorMessage error={error} />
    </>
  );
}
