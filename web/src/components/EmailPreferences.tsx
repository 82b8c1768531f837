// Settings › Account: whether notifications are emailed (GET/PATCH /api/me/preferences).
// The switch shows the stored choice; without a mail server it is disabled and says why.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ok, type RestData, rest } from '../lib/api';
import { keys } from '../lib/query-keys';
import { ErrorMessage, Loading } from './ui';

type Preferences = RestData<'get', '/api/me/preferences'>;
const KEY = keys.me.preferences;

export function EmailPreferences() {
  const client = useQueryClient();
  const q = useQuery({ queryKey: KEY, queryFn: () => ok(rest.GET('/api/me/preferences')) });
  const save = useMutation({
    mutationFn: (on: boolean) =>
      ok(rest.PATCH('/api/me/preferences', { body: { emailNotifications: on } })) as Promise<Preferences>,
    onMutate: async (on) => {
      await client.cancelQueries({ queryKey: KEY });
      const before = client.getQueryData<Preferences>(KEY);
      if (before)
        client.setQueryData<Preferences>(KEY, { ...before, preferences: { emailNotifications: on } });
      return { before };
    },
    onError: (_e, _on, context) => client.setQueryData(KEY, context?.before),
    onSuccess: (data) => client.setQueryData(KEY, data),
  });
  const on = q.data?.preferences.emailNotifications ?? false;
  const available = q.data?.emailAvailable ?? false;
  return (
    <section className="card" aria-labelledby="email-h">
      <h2 id="email-h">Email</h2>
      {q.isLoading && <Loading label="Loading email settings" />}
      <ErrorMessage error={q.error ?? save.error} />
      {q.data && (
        <div className="flag">
          <div>
            <label className="flag-label" htmlFor="email-notifications">
              Email me my notifications
            </label>
            <p className="muted" id="email-notifications-desc">
              {available
                ? 'Assignments, mentions, comments and state changes, gathered into one message every few minutes.'
                : `This server sends no email (no mail server is set up), so nothing is emailed. Your choice is kept: ${
                    on ? 'on' : 'off'
                  }.`}
            </p>
          </div>
          <input
            id="email-notifications"
            type="checkbox"
            role="switch"
            className="switch"
            checked={on}
            aria-checked={on}
            aria-describedby="email-notifications-desc"
            disabled={!available}
            onChange={(e) => save.mutate(e.target.checked)}
          />
        </div>
      )}
    </section>
  );
}
