// Id checks shared by the issue-tracking domains. A malformed uuid would make
// PostgreSQL raise an error, so callers treat it as "no such record" instead.
export { isUuid } from '../../platform/ids.js';

export const TEAM_KEY = /^[A-Z][A-Z0-9]{0,6}$/;
