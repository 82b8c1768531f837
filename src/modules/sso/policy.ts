// Who may still use a password while single sign-on is required: the named
// break-glass admins, so a provider outage cannot lock the workspace out.
// Everyone else signs in through the provider; API keys keep working.
import type { AppContext } from '../../platform/context.js';
import { AppError } from '../../platform/errors.js';
import { effectiveSso, isBreakGlass } from './settings.js';

export const ssoRequiredError = () =>
  new AppError(
    403,
    'SSO_REQUIRED',
    'This workspace signs in with single sign-on; use the button on the sign-in page',
  );

/**
 * Who may use a password now, read once per request: while single sign-on is
 * required, only break-glass emails (answered from the email alone, before any
 * password is checked; login also wants their account to be an active admin).
 */
export async function passwordRule(ctx: AppContext) {
  const { settings, enabled } = await effectiveSso(ctx, ctx.db);
  const required = enabled && settings.required;
  return { required, refuses: (email: string) => required && !isBreakGlass(settings, email) };
}
