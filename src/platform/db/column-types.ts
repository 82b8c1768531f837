// Column types shared by the table row types (tables.ts, tables-outbound.ts).
import type { ColumnType } from 'kysely';

export type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
export type NullableTimestamp = ColumnType<
  Date | null,
  Date | string | null | undefined,
  Date | string | null
>;
/** A DATE column: 'YYYY-MM-DD' on read and write. */
export type DateString = string;
