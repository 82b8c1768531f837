// node-postgres's own parameter serialization (exported by pg at `pg/lib/utils`, untyped by @types/pg):
// the PGlite pool sends parameters exactly as pg sends them to a PostgreSQL server.
declare module 'pg/lib/utils.js' {
  export function prepareValue(value: unknown): string | Buffer | null;
}
