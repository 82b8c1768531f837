// Record ids are uuids. A malformed one would make PostgreSQL raise an error
// (or the filter grammar compare a uuid column with text), so it is checked
// before it reaches SQL.
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const isUuid = (s: unknown): boolean => typeof s === 'string' && UUID.test(s);
