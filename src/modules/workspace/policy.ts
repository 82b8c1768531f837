// Who may create their own account: the workspace's registration settings.
// Accounts an admin creates are not subject to them.
import type { WorkspaceRow } from '../../platform/db/tables.js';
import { AppError } from '../../platform/errors.js';

/** The part after the last @, lower-case, without a trailing dot. */
export const emailDomain = (email: string) => {
  const e = email.trim().toLowerCase();
  return e.slice(e.lastIndexOf('@') + 1).replace(/\.$/, '');
};

/**
 * Refuses a self-registration when registration is closed, or when domains are
 * listed and the email's domain is not one of them. A listed domain admits
 * exactly that domain: subdomains are listed separately.
 */
export function assertMayRegister(ws: WorkspaceRow, email: string): void {
  if (!ws.registration_open) {
    throw new AppError(
      403,
      'REGISTRATION_CLOSED',
      'Registration is closed; ask a workspace admin for an account',
    );
  }
  const domains = ws.allowed_email_domains;
  if (domains.length > 0 && !domains.includes(emailDomain(email))) {
    throw new AppError(
      403,
      'EMAIL_DOMAIN_NOT_ALLOWED',
      'Registration is limited to some email domains; use your work address or ask a workspace admin',
    );
  }
}
