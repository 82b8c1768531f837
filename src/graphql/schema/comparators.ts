// GraphQL SDL: comparators types.
// Names and types match the schema @linear/sdk expects; descriptions are ours.
export const comparatorsSdl = /* GraphQL */ `
"""Comparisons for a boolean value."""
input BooleanComparator {
  """Equal to."""
  eq: Boolean
  """Not equal to."""
  neq: Boolean
}

"""Comparisons for a content value."""
input ContentComparator {
  """Contains (case-sensitive)."""
  contains: String
  """Does not contain (case-sensitive)."""
  notContains: String
}

"""Comparisons for a cycle period value."""
input CyclePeriodComparator {
  """Equal to."""
  eq: CyclePeriod
  """One of."""
  in: [CyclePeriod!]
  """Not equal to."""
  neq: CyclePeriod
  """None of."""
  nin: [CyclePeriod!]
  """Whether the value is (true) or is not (false) absent."""
  null: Boolean
}

"""Comparisons for a date value."""
input DateComparator {
  """Equal to."""
  eq: DateTimeOrDuration
  """Greater than."""
  gt: DateTimeOrDuration
  """Greater than or equal to."""
  gte: DateTimeOrDuration
  """One of."""
  in: [DateTimeOrDuration!]
  """Less than."""
  lt: DateTimeOrDuration
  """Less than or equal to."""
  lte: DateTimeOrDuration
  """Not equal to."""
  neq: DateTimeOrDuration
  """None of."""
  nin: [DateTimeOrDuration!]
}

"""Comparisons for a estimate value."""
input EstimateComparator {
  """All of these conditions."""
  and: [NullableNumberComparator!]
  """Equal to."""
  eq: Float
  """Greater than."""
  gt: Float
  """Greater than or equal to."""
  gte: Float
  """One of."""
  in: [Float!]
  """Less than."""
  lt: Float
  """Less than or equal to."""
  lte: Float
  """Not equal to."""
  neq: Float
  """None of."""
  nin: [Float!]
  """Whether the value is (true) or is not (false) absent."""
  null: Boolean
  """Any of these conditions."""
  or: [NullableNumberComparator!]
}

"""Comparisons for a id value."""
input IDComparator {
  """Equal to."""
  eq: ID
  """One of."""
  in: [ID!]
  """Not equal to."""
  neq: ID
  """None of."""
  nin: [ID!]
}

"""Comparisons for a issue id value."""
input IssueIDComparator {
  """Equal to."""
  eq: ID
  """One of."""
  in: [ID!]
  """Not equal to."""
  neq: ID
  """None of."""
  nin: [ID!]
}

"""Comparisons for a nullable date value."""
input NullableDateComparator {
  """Equal to."""
  eq: DateTimeOrDuration
  """Greater than."""
  gt: DateTimeOrDuration
  """Greater than or equal to."""
  gte: DateTimeOrDuration
  """One of."""
  in: [DateTimeOrDuration!]
  """Less than."""
  lt: DateTimeOrDuration
  """Less than or equal to."""
  lte: DateTimeOrDuration
  """Not equal to."""
  neq: DateTimeOrDuration
  """None of."""
  nin: [DateTimeOrDuration!]
  """Whether the value is (true) or is not (false) absent."""
  null: Boolean
}

"""Comparisons for a nullable duration value."""
input NullableDurationComparator {
  """Equal to."""
  eq: Duration
  """Greater than."""
  gt: Duration
  """Greater than or equal to."""
  gte: Duration
  """One of."""
  in: [Duration!]
  """Less than."""
  lt: Duration
  """Less than or equal to."""
  lte: Duration
  """Not equal to."""
  neq: Duration
  """None of."""
  nin: [Duration!]
  """Whether the value is (true) or is not (false) absent."""
  null: Boolean
}

"""Comparisons for a nullable number value."""
input NullableNumberComparator {
  """Equal to."""
  eq: Float
  """Greater than."""
  gt: Float
  """Greater than or equal to."""
  gte: Float
  """One of."""
  in: [Float!]
  """Less than."""
  lt: Float
  """Less than or equal to."""
  lte: Float
  """Not equal to."""
  neq: Float
  """None of."""
  nin: [Float!]
  """Whether the value is (true) or is not (false) absent."""
  null: Boolean
}

"""Comparisons for a nullable string value."""
input NullableStringComparator {
  """Contains (case-sensitive)."""
  contains: String
  """Contains, ignoring case."""
  containsIgnoreCase: String
  """Contains, ignoring case and accents."""
  containsIgnoreCaseAndAccent: String
  """Ends with."""
  endsWith: String
  """Equal to."""
  eq: String
  """Equal to, ignoring case."""
  eqIgnoreCase: String
  """One of."""
  in: [String!]
  """Not equal to."""
  neq: String
  """Not equal to, ignoring case."""
  neqIgnoreCase: String
  """None of."""
  nin: [String!]
  """Does not contain (case-sensitive)."""
  notContains: String
  """Does not contain, ignoring case."""
  notContainsIgnoreCase: String
  """Does not end with."""
  notEndsWith: String
  """Does not start with."""
  notStartsWith: String
  """Whether the value is (true) or is not (false) absent."""
  null: Boolean
  """Starts with."""
  startsWith: String
  """Starts with, ignoring case."""
  startsWithIgnoreCase: String
}

"""Comparisons for a nullable timeless date value."""
input NullableTimelessDateComparator {
  """Equal to."""
  eq: TimelessDateOrDuration
  """Greater than."""
  gt: TimelessDateOrDuration
  """Greater than or equal to."""
  gte: TimelessDateOrDuration
  """One of."""
  in: [TimelessDateOrDuration!]
  """Less than."""
  lt: TimelessDateOrDuration
  """Less than or equal to."""
  lte: TimelessDateOrDuration
  """Not equal to."""
  neq: TimelessDateOrDuration
  """None of."""
  nin: [TimelessDateOrDuration!]
  """Whether the value is (true) or is not (false) absent."""
  null: Boolean
}

"""Comparisons for a number value."""
input NumberComparator {
  """Equal to."""
  eq: Float
  """Greater than."""
  gt: Float
  """Greater than or equal to."""
  gte: Float
  """One of."""
  in: [Float!]
  """Less than."""
  lt: Float
  """Less than or equal to."""
  lte: Float
  """Not equal to."""
  neq: Float
  """None of."""
  nin: [Float!]
}

"""Comparisons for a relation exists value."""
input RelationExistsComparator {
  """Equal to."""
  eq: Boolean
  """Not equal to."""
  neq: Boolean
}

"""Comparisons for a release pipeline type value."""
input ReleasePipelineTypeComparator {
  """Equal to."""
  eq: ReleasePipelineType
  """One of."""
  in: [ReleasePipelineType!]
  """Not equal to."""
  neq: ReleasePipelineType
  """None of."""
  nin: [ReleasePipelineType!]
  """Whether the value is (true) or is not (false) absent."""
  null: Boolean
}

"""Comparisons for a release stage type value."""
input ReleaseStageTypeComparator {
  """Equal to."""
  eq: ReleaseStageType
  """One of."""
  in: [ReleaseStageType!]
  """Not equal to."""
  neq: ReleaseStageType
  """None of."""
  nin: [ReleaseStageType!]
  """Whether the value is (true) or is not (false) absent."""
  null: Boolean
}

"""Comparisons for a salesforce metadata integration value."""
input SalesforceMetadataIntegrationComparator {
  """Case metadata."""
  caseMetadata: JSONObject
}

"""Comparisons for a sla status value."""
input SlaStatusComparator {
  """Equal to."""
  eq: SlaStatus
  """One of."""
  in: [SlaStatus!]
  """Not equal to."""
  neq: SlaStatus
  """None of."""
  nin: [SlaStatus!]
  """Whether the value is (true) or is not (false) absent."""
  null: Boolean
}

"""Comparisons for a source metadata value."""
input SourceMetadataComparator {
  """Whether the value is (true) or is not (false) absent."""
  null: Boolean
  """Salesforce metadata."""
  salesforceMetadata: SalesforceMetadataIntegrationComparator
  """Sub type."""
  subType: SubTypeComparator
}

"""Comparisons for a source type value."""
input SourceTypeComparator {
  """Contains (case-sensitive)."""
  contains: String
  """Contains, ignoring case."""
  containsIgnoreCase: String
  """Contains, ignoring case and accents."""
  containsIgnoreCaseAndAccent: String
  """Ends with."""
  endsWith: String
  """Equal to."""
  eq: String
  """Equal to, ignoring case."""
  eqIgnoreCase: String
  """One of."""
  in: [String!]
  """Not equal to."""
  neq: String
  """Not equal to, ignoring case."""
  neqIgnoreCase: String
  """None of."""
  nin: [String!]
  """Does not contain (case-sensitive)."""
  notContains: String
  """Does not contain, ignoring case."""
  notContainsIgnoreCase: String
  """Does not end with."""
  notEndsWith: String
  """Does not start with."""
  notStartsWith: String
  """Starts with."""
  startsWith: String
  """Starts with, ignoring case."""
  startsWithIgnoreCase: String
}

"""Comparisons for a string array value."""
input StringArrayComparator {
  """Every related record matches."""
  every: StringItemComparator
  """Number of related records."""
  length: NumberComparator
  """At least one related record matches."""
  some: StringItemComparator
}

"""Comparisons for a string value."""
input StringComparator {
  """Contains (case-sensitive)."""
  contains: String
  """Contains, ignoring case."""
  containsIgnoreCase: String
  """Contains, ignoring case and accents."""
  containsIgnoreCaseAndAccent: String
  """Ends with."""
  endsWith: String
  """Equal to."""
  eq: String
  """Equal to, ignoring case."""
  eqIgnoreCase: String
  """One of."""
  in: [String!]
  """Not equal to."""
  neq: String
  """Not equal to, ignoring case."""
  neqIgnoreCase: String
  """None of."""
  nin: [String!]
  """Does not contain (case-sensitive)."""
  notContains: String
  """Does not contain, ignoring case."""
  notContainsIgnoreCase: String
  """Does not end with."""
  notEndsWith: String
  """Does not start with."""
  notStartsWith: String
  """Starts with."""
  startsWith: String
  """Starts with, ignoring case."""
  startsWithIgnoreCase: String
}

"""Comparisons for a string item value."""
input StringItemComparator {
  """Contains (case-sensitive)."""
  contains: String
  """Contains, ignoring case."""
  containsIgnoreCase: String
  """Contains, ignoring case and accents."""
  containsIgnoreCaseAndAccent: String
  """Ends with."""
  endsWith: String
  """Equal to."""
  eq: String
  """Equal to, ignoring case."""
  eqIgnoreCase: String
  """One of."""
  in: [String!]
  """Not equal to."""
  neq: String
  """Not equal to, ignoring case."""
  neqIgnoreCase: String
  """None of."""
  nin: [String!]
  """Does not contain (case-sensitive)."""
  notContains: String
  """Does not contain, ignoring case."""
  notContainsIgnoreCase: String
  """Does not end with."""
  notEndsWith: String
  """Does not start with."""
  notStartsWith: String
  """Starts with."""
  startsWith: String
  """Starts with, ignoring case."""
  startsWithIgnoreCase: String
}

"""Comparisons for a sub type value."""
input SubTypeComparator {
  """Equal to."""
  eq: String
  """One of."""
  in: [String!]
  """Not equal to."""
  neq: String
  """None of."""
  nin: [String!]
  """Whether the value is (true) or is not (false) absent."""
  null: Boolean
}

"""Comparisons for a team visibility value."""
input TeamVisibilityComparator {
  """Equal to."""
  eq: TeamVisibility
  """One of."""
  in: [TeamVisibility!]
  """Not equal to."""
  neq: TeamVisibility
  """None of."""
  nin: [TeamVisibility!]
}
`;
