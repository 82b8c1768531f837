// Single sign-on (OpenID Connect): the provider, who may sign in, how groups
// map to roles and teams, and whether passwords are kept for break-glass
// admins only (docs/identity.md). Fields an OIDC_* variable sets are shown
// and locked: the environment wins.

import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { Card } from '../components/Card';
import {
  Button,
  copyText,
  ErrorMessage,
  FormError,
  fieldErrors,
  Loading,
  PageHeader,
  SelectField,
  TextField,
} from '../components/ui';
import { useAction } from '../lib/action';
import { ok, type RestData, rest } from '../lib/api';
import { keys } from '../lib/query-keys';

type View = RestData<'get', '/api/admin/sso'>;
type Settings = View['sso'];

/** The form's text, one string per field; lists are edited comma- or line-separated. */
interface Form {
  issuer: string;
  clientId: string;
  clientSecret: string;
  buttonLabel: string;
  scopes: string;
  allowedDomains: string;
  autoCreate: boolean;
  defaultRole: 'member' | 'guest';
  trustUnverifiedEmail: boolean;
  groupsClaim: string;
  adminGroups: string;
  memberGroups: string;
  guestGroups: string;
  teamGroups: string;
  required: boolean;
  breakGlassEmails: string;
}

const list = (text: string) =>
  text
    .split(/[,\n]/)
    .map((v) => v.trim())
    .filter(Boolean);

function formOf(s: Settings): Form {
  return {
    issuer: s.issuer ?? '',
    clientId: s.clientId ?? '',
    clientSecret: '',
    buttonLabel: s.buttonLabel,
    scopes: s.scopes,
    allowedDomains: s.allowedDomains.join(', '),
    autoCreate: s.autoCreate,
    defaultRole: s.defaultRole,
    trustUnverifiedEmail: s.trustUnverifiedEmail,
    groupsClaim: s.groupsClaim ?? '',
    adminGroups: s.adminGroups.join(', '),
    memberGroups: s.memberGroups.join(', '),
    guestGroups: s.guestGroups.join(', '),
    teamGroups: s.teamGroups.map((m) => `${m.group}=${m.team}`).join('\n'),
    required: s.required,
    breakGlassEmails: s.breakGlassEmails.join(', '),
  };
}

/** The settings the form describes, as the API takes them. */
function settingsOf(f: Form) {
  return {
    issuer: f.issuer.trim() || null,
    clientId: f.clientId.trim() || null,
    buttonLabel: f.buttonLabel.trim(),
    scopes: f.scopes.trim().split(/\s+/).join(' '),
    allowedDomains: list(f.allowedDomains).map((d) => d.toLowerCase().replace(/^@/, '')),
    autoCreate: f.autoCreate,
    defaultRole: f.defaultRole,
    trustUnverifiedEmail: f.trustUnverifiedEmail,
    groupsClaim: f.groupsClaim.trim() || null,
    adminGroups: list(f.adminGroups),
    memberGroups: list(f.memberGroups),
    guestGroups: list(f.guestGroups),
    teamGroups: list(f.teamGroups).map((line) => {
      const at = line.lastIndexOf('=');
      return {
        group: line.slice(0, at).trim(),
        team: line
          .slice(at + 1)
          .trim()
          .toUpperCase(),
      };
    }),
    required: f.required,
    breakGlassEmails: list(f.breakGlassEmails).map((e) => e.toLowerCase()),
  };
}

export function AdminSso() {
  const view = useQuery({ queryKey: keys.admin.sso, queryFn: () => ok(rest.GET('/api/admin/sso')) });
  const [form, setForm] = useState<Form | null>(null);
  useEffect(() => {
    if (view.data && !form) setForm(formOf(view.data.sso));
  }, [view.data, form]);
  const saving = useAction((body: Record<string, unknown>) => ok(rest.PATCH('/api/admin/sso', { body })), {
    refreshes: [keys.admin.sso, keys.config],
    onSuccess: (v) => setForm(formOf(v.sso)),
  });

  if (view.error) return <ErrorMessage error={view.error} />;
  if (!view.data || !form) return <Loading />;
  const data = view.data;
  const lockedBy = new Map(data.locked.map((l) => [l.field, l.variable]));
  const errs = fieldErrors(saving.error);
  const set = (patch: Partial<Form>) => setForm({ ...form, ...patch });
  const hint = (field: keyof Form, text?: string) =>
    lockedBy.has(field) ? `Set by ${lockedBy.get(field)}` : text;
  const text = (
    field: keyof Form,
    label: string,
    extra: { hint?: string; placeholder?: string; type?: string } = {},
  ) => (
    <TextField
      label={label}
      value={form[field] as string}
      onChange={(e) => set({ [field]: e.target.value })}
      disabled={lockedBy.has(field)}
      error={errs[field]}
      hint={hint(field, extra.hint)}
      placeholder={extra.placeholder}
      type={extra.type}
    />
  );
  const check = (field: 'autoCreate' | 'trustUnverifiedEmail' | 'required', label: string) => (
    <label className="check">
      <input
        type="checkbox"
        checked={form[field]}
        disabled={lockedBy.has(field)}
        onChange={(e) => set({ [field]: e.target.checked })}
      />{' '}
      {label}
      {lockedBy.has(field) && <span className="hint"> (set by {lockedBy.get(field)})</span>}
      {errs[field] && <span className="field-error"> {errs[field]}</span>}
    </label>
  );

  function save(e: FormEvent) {
    e.preventDefault();
    if (!form) return;
    const next = settingsOf(form);
    // Only what the page may change: a field the environment sets is left out.
    const body: Record<string, unknown> = Object.fromEntries(
      Object.entries(next).filter(([k]) => !lockedBy.has(k)),
    );
    if (form.clientSecret && !lockedBy.has('clientSecret')) body['clientSecret'] = form.clientSecret;
    void saving.run(body);
  }

  return (
    <div className="page narrow">
      <PageHeader title="Single sign-on" />
      <p className="muted">
        People sign in with the company’s identity provider (OpenID Connect: Entra ID, Okta, Google, Keycloak,
        Authentik, GitLab, …). Register Trackway with the provider as a web application with this redirect
        URI:
      </p>
      <p className="row">
        <code data-testid="redirect-uri">{data.redirectUri}</code>{' '}
        <Button type="button" onClick={() => void copyText(data.redirectUri)}>
          Copy
        </Button>
      </p>
      <p className="muted" role="status">
        {data.enabled
          ? `Single sign-on is on: ${data.linkedAccounts} account${data.linkedAccounts === 1 ? '' : 's'} linked.`
          : 'Single sign-on is off until an issuer and a client id are set.'}
      </p>
      <form onSubmit={save} noValidate>
        <Card title="Provider">
          {text('issuer', 'Issuer URL', { placeholder: 'https://login.example.com/realms/acme' })}
          {text('clientId', 'Client ID')}
          {text('clientSecret', 'Client secret', {
            type: 'password',
            hint: data.sso.clientSecretSet
              ? 'Set; leave blank to keep it'
              : 'Leave blank for a public client (PKCE only)',
          })}
          {text('buttonLabel', 'Button label')}
          {text('scopes', 'Scopes', {
            hint: 'Space-separated; add the groups scope if your provider needs one',
          })}
        </Card>
        <Card title="Who may sign in">
          {text('allowedDomains', 'Allowed email domains', {
            hint: 'Comma-separated; empty allows any domain',
          })}
          {check('autoCreate', 'Create an account at the first sign-in of someone new')}
          <SelectField
            label="Role of new accounts"
            value={form.defaultRole}
            disabled={lockedBy.has('defaultRole')}
            onChange={(e) => set({ defaultRole: e.target.value as Form['defaultRole'] })}
          >
            <option value="member">Member</option>
            <option value="guest">Guest</option>
          </SelectField>
          {check(
            'trustUnverifiedEmail',
            'Trust emails the provider does not mark verified (Entra ID sends no email_verified)',
          )}
        </Card>
        <Card
          title="Groups"
          description="When a groups claim is named, every sign-in sets the person’s role from it and adds or removes them from the mapped teams."
        >
          {text('groupsClaim', 'Groups claim', { placeholder: 'groups' })}
          {text('adminGroups', 'Admin groups', { hint: 'Comma-separated' })}
          {text('memberGroups', 'Member groups', { hint: 'Comma-separated' })}
          {text('guestGroups', 'Guest groups', {
            hint: 'Comma-separated; no mapped group gives the role of new accounts',
          })}
          <div className="field">
            <label htmlFor="sso-team-groups">Teams</label>
            <textarea
              id="sso-team-groups"
              rows={3}
              value={form.teamGroups}
              disabled={lockedBy.has('teamGroups')}
              aria-describedby="sso-team-groups-hint"
              onChange={(e) => set({ teamGroups: e.target.value })}
            />
            <div id="sso-team-groups-hint" className="hint">
              {hint('teamGroups', 'One group=TEAMKEY a line, e.g. engineering=ENG')}
            </div>
            {errs['teamGroups'] && <div className="field-error">{errs['teamGroups']}</div>}
          </div>
        </Card>
        <Card title="Require single sign-on">
          {check('required', 'Refuse password sign-in and registration (API keys keep working)')}
          {text('breakGlassEmails', 'Break-glass admins', {
            hint: 'Comma-separated emails of admins who may still use a password if the provider is down',
          })}
        </Card>
        <FormError error={saving.error} />
        <Button type="submit" variant="primary" busy={saving.busy}>
          Save
        </Button>
      </form>
    </div>
  );
}
