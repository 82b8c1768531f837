// The read model's vocabulary: what an entity declaration says. One
// declaration per entity (entities.ts) names its table, its visibility (the
// rule of platform/access.ts, through the entity's filter spec), its fields
// as SQL over its row, and its relations; compile.ts turns a selection of
// those fields into one statement whose JSON PostgreSQL builds.

import type { FlagKey } from '../../modules/flags/catalog.js';
import type { TeamAccess } from '../access.js';
import type { EntitySpec } from '../list/filter.js';
import type { Sql } from './json.js';

/** What a read may depend on besides the row: the caller and the request. */
export interface ReadContext {
  access: TeamAccess;
  /** The caller (User.isMe). */
  viewerId: string;
  /** Links (Issue.url) start here. */
  publicUrl: string;
  /** One clock per request (relative dates in filters, cycle states). */
  now: Date;
}

export type Field =
  /** A value over the row (`row` is its alias), as JSON text. */
  | { kind: 'value'; json: (row: Sql, c: ReadContext) => Sql }
  /**
   * A to-one relation through a key column of the row; null when absent or not visible.
   * `sameTeam`: the related row is in the row's team, so whoever sees the row sees it.
   */
  | {
      kind: 'one';
      to: () => Entity;
      key: string;
      /**
       * The related id as a uuid expression over the row, instead of the column `key`
       * (an id recorded in a history entry's JSON): the row it names may be gone.
       */
      keyOf?: (row: Sql) => Sql;
      sameTeam?: boolean;
      /** Shown to whoever sees the row, without the related entity's own rule (a saved view's owner). */
      open?: boolean;
    }
  /**
   * A list of related rows, read as a connection (paged, filtered, visible rows only).
   * `feature`: the list is refused while that flag is off (the resolvers' FEATURE_DISABLED).
   */
  | { kind: 'many'; to: () => Entity; via: Via; feature?: FlagKey }
  /**
   * A plain list of related rows, not a connection: the visible ones among the
   * ids `ids` names (a subquery of rows `(id uuid, ord)`, in `ord` order); null
   * where `present` is false (IssueHistory.addedLabels).
   */
  | { kind: 'many'; plain: true; to: () => Entity; ids: (row: Sql) => Sql; present: (row: Sql) => Sql }
  /** An object of type `name` whose fields are values over the same row (Project.status). */
  | { kind: 'object'; of: () => Embedded };

/** The fields of an object computed from its parent's row, not read from a table of its own. */
export interface Embedded {
  name: string;
  fields: Record<string, Field>;
}

/**
 * How a list's rows hang off their parent: the rows are `t` in `from`, and
 * `parentKey` is the SQL of their parent's id (a column of t or of a link table).
 */
export interface Via {
  from?: Sql;
  parentKey: Sql;
}

export interface Entity {
  /** The API's name of the type (GraphQL's __typename); for an entity of several kinds, their interface's. */
  name: string;
  /**
   * The API types its rows are, where one table holds rows of several (a
   * notification is an IssueNotification or a ProjectNotification): a row is
   * of the first kind whose condition holds over it. Their fields are all
   * declared here; GraphQL asks each kind for its own (compile.ts RowSelection).
   */
  kinds?: readonly { name: string; is: (row: Sql) => Sql }[];
  table: string;
  /** The columns a row is read with (default all: issues leave out their search vectors). */
  columns?: readonly string[];
  /** Its filter fields and visibility rule (platform/list/entities.ts, platform/access.ts). */
  spec: EntitySpec;
  /** Every member sees every row (the user directory); the rule hides rows from guests only. */
  seenByMembers?: boolean;
  /**
   * Read by admins alone (webhooks and their log): the REST routes refuse
   * anyone else first, and for anyone else a compiled GraphQL read gives way
   * to the resolvers, which refuse with their error (not an empty answer).
   */
  adminOnly?: boolean;
  /** Rows with archived_at, hidden from lists unless includeArchived. */
  archivable: boolean;
  /**
   * Which rows of the table are this entity, where the table holds others too
   * (ActorBot: apps' own users among the users): a to-one relation to a row
   * that is not one is null.
   */
  only?: (alias: Sql) => Sql;
  /** Conditions of every list of this entity, besides visibility (no deleted users). */
  scope?: (args: { includeDisabled?: boolean | null | undefined }) => Sql[];
  fields: Record<string, Field>;
}
