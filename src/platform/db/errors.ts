// PostgreSQL error codes we turn into domain errors (same on pg and PGlite).
const codeOf = (err: unknown) => (err as { code?: unknown } | null)?.code;

export const isUniqueViolation = (err: unknown) => codeOf(err) === '23505';

/**
 * PostgreSQL class 22, "data exception" (a malformed uuid, a NUL byte in
 * text, a number or date out of range): always a value the client sent that a
 * check let through, so both APIs answer it as the client's error.
 */
export const isDataException = (err: unknown) => {
  const code = codeOf(err);
  return typeof code === 'string' && /^22[0-9A-Z]{3}$/.test(code);
};
