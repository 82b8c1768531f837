// PostgreSQL error codes we turn into domain errors (same on pg and PGlite).
const codeOf = (err: unknown) => (err as { code?: unknown } | null)?.code;

export const isUniqueViolation = (err: unknown) => codeOf(err) === '23505';
export const isForeignKeyViolation = (err: unknown) => codeOf(err) === '23503';
export const isCheckViolation = (err: unknown) => codeOf(err) === '23514';
