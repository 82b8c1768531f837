// Id checks shared by the issue-tracking domains. A malformed uuid would make
// PostgreSQL raise an error, so callers treat it as "no such record" instead.
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const isUuid = (s: unknown): boolean => typeof s === 'string' && UUID.test(s);

export const TEAM_KEY = /^[A-Z][A-Z0-9]{0,6}$/;
