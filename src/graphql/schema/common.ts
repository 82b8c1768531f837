// GraphQL SDL: common types.
// Names and types match the schema @linear/sdk expects; descriptions are ours.
export const commonSdl = /* GraphQL */ `
"""Result of an archive-style change."""
interface ArchivePayload {
  """Change counter after the operation."""
  lastSyncId: Float!
  """Whether the operation succeeded."""
  success: Boolean!
}

"""An ISO-8601 timestamp in UTC."""
scalar DateTime

"""An ISO-8601 timestamp, or an ISO-8601 duration relative to now (e.g. -P2W)."""
scalar DateTimeOrDuration

"""Result of a deletion: the id of what was removed."""
type DeletePayload implements ArchivePayload {
  """Change counter after the operation."""
  lastSyncId: Float!
  """Whether the operation succeeded."""
  success: Boolean!
  """Id of the removed record."""
  entityId: String!
}

"""An ISO-8601 duration."""
scalar Duration

"""Any JSON value."""
scalar JSON

"""A JSON object."""
scalar JSONObject

"""Anything with a stable id."""
interface Node {
  """Unique identifier."""
  id: ID!
}

"""Where a page sits in its list, for fetching the next or previous page."""
type PageInfo {
  """Start cursor."""
  startCursor: String
  """End cursor."""
  endCursor: String
  """Has previous page."""
  hasPreviousPage: Boolean!
  """Has next page."""
  hasNextPage: Boolean!
}

"""Values of pagination nulls."""
enum PaginationNulls {
  first
  last
}

"""Values of pagination order by."""
enum PaginationOrderBy {
  createdAt
  updatedAt
}

"""Values of pagination sort order."""
enum PaginationSortOrder {
  Ascending
  Descending
}

"""A calendar date, YYYY-MM-DD."""
scalar TimelessDate

"""A calendar date, or an ISO-8601 duration relative to today (e.g. P1D)."""
scalar TimelessDateOrDuration
`;
