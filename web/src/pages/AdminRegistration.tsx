// Who may create their own account: open or invite-only, and the email domains
// self-registration is limited to. Shown on the admin Users page.

import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Card } from '../components/Card';
import { ErrorMessage, FormError, fieldErrors, Loading, SaveRow, TextField } from '../components/ui';
import { useAction } from '../lib/action';
import { ok, rest } from '../lib/api';
import { keys } from '../lib/query-keys';

/** "example.com, Corp.Example.org" or one per line -> ['example.com', 'corp.example.org']. */
const parseDomains = (text: string) =>
  text
    .split(/[\s,;]+/)
    .map((d) => d.trim().toLowerCase())
    .filter(Boolean);

export function RegistrationSettings() {
  const current = useQuery({
    queryKey: keys.admin.registration,
    queryFn: () => ok(rest.GET('/api/admin/registration')),
  });
  const [open, setOpen] = useState(true);
  const [domains, setDomains] = useState('');
  const state = useAction(
    () =>
      ok(
        rest.PATCH('/api/admin/registration', { body: { open, allowedEmailDomains: parseDomains(domains) } }),
      ),
    { refreshes: [keys.admin.registration, keys.config] },
  );
  const fields = fieldErrors(state.error);
  const loaded = current.data?.registration;

  useEffect(() => {
    if (!loaded) return;
    setOpen(loaded.open);
    setDomains(loaded.allowedEmailDomains.join(', '));
  }, [loaded]);

  const save = state.submit;

  return (
    <Card title="Sign-up">
      {current.isLoading && <Loading label="Loading sign-up settings" />}
      <ErrorMessage error={current.error} />
      {loaded && (
        <form onSubmit={save}>
          <div className="flag">
            <div>
              <label className="flag-label" htmlFor="registration-open">
                Anyone can create an account
              </label>
              <p className="muted" id="registration-open-desc">
                When off, only admins add users (invite-only) and the sign-in page hides the sign-up link.
              </p>
            </div>
            <input
              id="registration-open"
              type="checkbox"
              role="switch"
              className="switch"
              checked={open}
              aria-checked={open}
              aria-describedby="registration-open-desc"
              onChange={(e) => {
                setOpen(e.target.checked);
                state.reset();
              }}
            />
          </div>
          <TextField
            label="Allowed domains"
            value={domains}
            placeholder="example.com, example.org"
            hint="Email domains new accounts may use, separated by commas. Empty: any. Each matches exactly; list subdomains separately."
            disabled={!open}
            onChange={(e) => {
              setDomains(e.target.value);
              state.reset();
            }}
            error={fields.allowedEmailDomains ? 'Use domain names such as example.com' : undefined}
          />
          <FormError error={state.error} />
          <SaveRow label="Save sign-up settings" busy={state.busy} saved={state.saved} />
        </form>
      )}
    </Card>
  );
}
