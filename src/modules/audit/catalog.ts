// Every kind of audit entry, with the sentence an admin reads for it. The one
// list: the recorder accepts only these, GraphQL's `auditEntryTypes` and the
// admin page's type filter list them, and docs/identity.md's event table is
// checked against it. Import-free, so the web UI can take it as it is.
export const AUDIT_TYPES = {
  'auth.signIn': 'Signed in (password or single sign-on)',
  'auth.signInFailed': 'A sign-in was refused',
  'auth.signOut': 'Signed out',
  'auth.apiKeyFirstUse': 'An API key was used for the first time',
  'session.ended': 'A session was ended by its owner or an admin',
  'user.created': 'A user was created',
  'user.deleted': 'A user was deleted',
  'user.updated': "A user's name or email changed",
  'user.roleChanged': "A user's role changed",
  'user.statusChanged': 'A user was suspended or reactivated',
  'user.passwordChanged': 'A user changed their password',
  'user.passwordReset': 'A password was reset by email',
  'apiKey.created': 'An API key was created',
  'apiKey.revoked': 'An API key was revoked',
  'sso.settingsChanged': 'Single sign-on settings changed',
  'sso.userLinked': 'A user was linked to the identity provider',
  'oauth.settingsChanged': 'OAuth app settings changed (dynamic client registration)',
  'oauth.appAuthorized': 'A user authorized an OAuth app',
  'scim.tokenCreated': 'A SCIM provisioning token was created',
  'scim.tokenRevoked': 'A SCIM provisioning token was revoked',
  'scim.userCreated': 'A user was provisioned through SCIM',
  'scim.userUpdated': 'A user was changed through SCIM',
  'scim.userDeactivated': 'A user was deactivated (suspended) through SCIM',
  'scim.userDeleted': 'A user was deleted through SCIM',
  'scim.groupCreated': 'A team was provisioned as a SCIM group',
  'scim.groupUpdated': 'A team or its members changed through SCIM',
  'scim.groupDeleted': 'A team was archived through SCIM',
  'featureFlag.changed': 'A feature flag was turned on or off',
  'workspace.brandingChanged': "The workspace's name or branding changed",
  'workspace.registrationChanged': 'Registration settings changed',
  'workspace.exported': 'The whole workspace was exported as an archive',
  'team.created': 'A team was created',
  'team.updated': 'A team was changed',
  'team.memberAdded': 'Someone was added to a team',
  'team.memberRemoved': 'Someone was removed from a team',
  'team.memberRoleChanged': "A team member's role changed",
  'workflowState.created': 'A workflow state was created',
  'workflowState.updated': 'A workflow state was changed',
  'workflowState.deleted': 'A workflow state was archived (nothing restores one)',
  'webhook.created': 'A webhook was created',
  'webhook.updated': 'A webhook was changed',
  'webhook.deleted': 'A webhook was deleted',
} as const;

export type AuditType = keyof typeof AUDIT_TYPES;

export const isAuditType = (s: string): s is AuditType => Object.hasOwn(AUDIT_TYPES, s);
